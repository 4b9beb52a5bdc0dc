#!/usr/bin/env bash
# Members list benchmark (issues 4, 44): ./bench/members-list.sh [seconds per query=10] [warm-up seconds per query=5] [clients=16]
# Page 1 of GET /v1/members for every filter and search (none, each status, searches common, rare, by email, matching
# nothing, two letters, a search with a status), 100,000 members for the partner under test among 1,000,000: 16
# clients through the gateway (wrk, bench/list-page.lua) beside the page's SQL run by pgbench at 16 clients as its
# ceiling, after a platform warm-up (every query round-robin until the gateway's, members-service's and
# requests-service's CPU per page stops falling: without it the queries measured first paid for the JIT). Builds
# what is missing, starts its own platform on random loopback ports, loads the data with SQL (the members, and 1-3
# requests each for a third of the partner's members into requests-service's database), prints its figures,
# writes EXPLAIN (ANALYZE, BUFFERS) plans of the SQL members-service's MemberQueries builds to
# bench/results/members-list-plans.txt (committed), stops. Aim: p95 under 20 ms through the gateway for every query.
# BENCH_PROFILE=1 adds, after the rounds, each query's CPU per page by process and its statements per page
# (pg_stat_statements), in the reverse order, and a Flight Recorder breakdown of the last round; BENCH_PROFILE=only
# runs that alone (no figures written). About 8-10 minutes on 2 cores. Needs wrk and pgbench (else a JVM load
# generator, no warm-up and no ceiling).
# Source: bench/src/main/java/com/telemed/bench/members/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.members.MembersListBench "$@"
