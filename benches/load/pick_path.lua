-- wrk script: each request takes a random line of the file named by PATHS.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do
  paths[#paths + 1] = line
end
math.randomseed(2026)

request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
