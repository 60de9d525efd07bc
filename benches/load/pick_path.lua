-- wrk script: each request takes a random line of the file named by PATHS.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do
  paths[#paths + 1] = line
end
math.randomseed(2026)

request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end

-- With RATE (requests per second over all connections) and CONNECTIONS set, each connection
-- pauses between its requests so the whole load stays near RATE: latency at a given load
-- rather than at saturation.
local rate, connections = tonumber(os.getenv("RATE") or ""), tonumber(os.getenv("CONNECTIONS") or "")
if rate and connections then
  delay = function()
    return connections * 1000 / rate
  end
end
