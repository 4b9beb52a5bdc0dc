#!/usr/bin/env bash
# Requests benchmark (issues 5, 44): ./bench/requests.sh [seconds per list query=10] [warm-up seconds per list query=5] [clients=16] [seconds per POST round=30]
# (0 seconds per POST round: only the list part, 1., about 8 minutes; 0 seconds per list query: no list part, nothing
#  loaded; BENCH_CREATE_ONLY=1 as well: only the POST round through the gateway, an experiment's quick loop)
# 1. Page 1 of GET /v1/requests for every filter of the contract (none, each status, startDate, endDate, both, a
#    startDate with a time of day, a status with dates), 100,000 requests for the partner under test among 1,000,000:
#    16 clients through the gateway (wrk, bench/list-page.lua) beside the page's SQL run by pgbench at 16 clients as
#    its ceiling; EXPLAIN (ANALYZE, BUFFERS) with generic plans of the SQL requests-service's RequestQueries builds,
#    written to bench/results/requests-plans.txt (committed). Aim: p95 under 20 ms through the gateway for every query.
#    Each query's CPU per page by process; BENCH_PROFILE=1 adds a Flight Recorder breakdown of the gateway's and
#    requests-service's CPU per page (issue 44); BENCH_LIST_QUERIES="no filter,status=pending (" runs only those queries.
# 2. POST /v1/requests through the gateway, 16 concurrent clients (wrk), after a warm-up that lasts until the
#    JIT has compiled the create path (rounds of 30 s until its compiler threads use under 3 % of the CPU: 4 to 8
#    minutes here), beside the same-statements ceiling (pgbench replaying one create's statements per database)
#    and pgbench's one-row INSERT on the same PostgreSQL server in the same run; CPU per create by process and
#    thread. BENCH_PROFILE=1: a Flight Recorder profile of the round and pg_stat_statements per create.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 15 minutes on 2 cores.
# Needs wrk (apt-get install wrk; else a JVM load generator) and pgbench (apt-get install postgresql-client).
# Source: bench/src/main/java/com/telemed/bench/requests/ (the bench module); wrk's scripts bench/post-json.lua, bench/list-page.lua.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.requests.RequestsBench "$@"
