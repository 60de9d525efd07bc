-- wrk script: each request takes a random line of the file named by PATHS. The requests are
-- written once, at the start, as pgbench prepares its statements once: a request built
-- anew each time (`wrk.format` per request) cost wrk about 2–3 µs, a fifth of its own time
-- for a request, taken from the same two cores the server runs on.
local requests = {}
for line in io.lines(os.getenv("PATHS")) do
  requests[#requests + 1] = wrk.format("GET", line)
end
math.randomseed(2026)

request = function()
  return requests[math.random(#requests)]
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
