#!/usr/bin/env bash
# Requests benchmark (issue 5): ./bench/requests.sh [calls per list query=200] [warm-up calls=50] [seconds cap per list query=10] [seconds per POST round=30]
# (0 calls per list query: no list timing, nothing loaded; BENCH_CREATE_ONLY=1 as well: only the POST round through the gateway, an experiment's quick loop)
# 1. POST /v1/requests through the gateway, 16 concurrent clients (wrk), after a warm-up that lasts until the
#    JIT has compiled the create path (rounds of 30 s until its compiler threads use under 3 % of the CPU: 4 to 8
#    minutes here), beside the same-statements ceiling (pgbench replaying one create's statements per database)
#    and pgbench's one-row INSERT on the same PostgreSQL server in the same run; CPU per create by process and
#    thread. BENCH_PROFILE=1: a Flight Recorder profile of the round and pg_stat_statements per create.
# 2. Page 1 of GET /v1/requests?status=pending (and no filter, status=approved), 100,000 requests for the
#    partner under test among 1,000,000, through the gateway and direct; EXPLAIN of the SQL (by status: as
#    requests-service's RequestQueries builds it). Aim: p95 < 50 ms.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 15 minutes on 2 cores.
# Needs wrk (apt-get install wrk; else a JVM load generator) and pgbench (apt-get install postgresql-client).
# Source: bench/src/main/java/com/telemed/bench/requests/ (the bench module); wrk's script bench/post-json.lua.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.requests.RequestsBench "$@"
