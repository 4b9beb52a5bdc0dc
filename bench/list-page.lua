-- wrk script (bench/requests.sh, bench/members-list.sh: support/ListLoad): every call is wrk's own GET of the
-- URL given (a list page with its query); the API key comes from wrk's -H arguments. At the end it prints
-- "p95 <ms> ms" (wrk's report has no 95th percentile), which Wrk reads into Result.p95Ms.
function done(summary, latency, requests)
  io.write(string.format("p95 %.3f ms\n", latency:percentile(95) / 1000))
end
