-- wrk script (bench/events.sh, EventsBench): every call is GET /v1/events?limit=100&after=<cursor>, the cursor
-- picked at random among the event ids of the file named by the environment variable WRK_CURSORS (one a line);
-- the API key comes from wrk's -H arguments. At the end it prints "p95 <ms> ms" (wrk's report has no 95th
-- percentile), which Wrk reads into Result.p95Ms.
local cursors = {}
for line in io.lines(os.getenv("WRK_CURSORS")) do
  cursors[#cursors + 1] = line
end

local counter = 0

function init(args)
  math.randomseed(os.time() + counter)
  counter = counter + 1
end

function request()
  return wrk.format("GET", "/v1/events?limit=100&after=" .. cursors[math.random(#cursors)])
end

function done(summary, latency, requests)
  io.write(string.format("p95 %.3f ms\n", latency:percentile(95) / 1000))
end
