-- wrk script (Wrk.run with a script, for bench/embed-surveys.sh): counts every answer by its HTTP status and, at
-- the end, prints one line per status, "status <code> <count>", which Wrk reads into Result.statuses (wrk itself
-- counts only "non-2xx or 3xx", so a 200 where a 201 is due would pass unseen). With the environment variable
-- WRK_BODY set, every call is a POST of that JSON body; without it, the GET wrk was given. Other headers come
-- from wrk's -H arguments.
local payload = os.getenv("WRK_BODY")
if payload ~= nil and payload ~= "" then
  wrk.method = "POST"
  wrk.body = payload
  wrk.headers["Content-Type"] = "application/json"
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do
    io.write(string.format("status %d %d\n", status, count))
  end
end
