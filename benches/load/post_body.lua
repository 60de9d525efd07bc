-- wrk script: each request POSTs a random line of the file named by BODIES, with the
-- content type CONTENT_TYPE, to the path PATH.
local bodies = {}
for line in io.lines(os.getenv("BODIES")) do
  bodies[#bodies + 1] = line
end
local path = os.getenv("PATH_TO")
local headers = { ["Content-Type"] = os.getenv("CONTENT_TYPE") }
math.randomseed(2026)

request = function()
  return wrk.format("POST", path, headers, bodies[math.random(#bodies)])
end
