#!/usr/bin/env bash
# Embed survey submissions benchmark (issue 20): ./bench/embed-surveys.sh [seconds per round=10] [submission warm-up s=30] [default-limits round s=5, 0 skips]
# 1. Anonymous submissions, POST /v2/embed/surveys/:id/responses through the gateway with the publishable key and an
#    allow-listed Origin, a five-question answer plus the contact section (243 bytes), 16 concurrent clients (wrk -c16,
#    bench/count-statuses.lua): req/s, p50, p99. Checked: every answer 201 (counted by status), and requests-service's
#    survey_responses rows grew by the 201s (plus at most one call per client cut in flight when wrk stopped); the
#    survey.completed outbox rows left when the round ended, and how long the relay took to send them.
# 2. The ceiling, in the same run, same clients and length: the gateway's cheapest authenticated call. Two candidates
#    are measured: GET /v1/drugs with the partner's API key (the call bench/gateway-overhead.sh measures the gateway by:
#    one key lookup, one read in catalogue-service) and GET /v2/embed/surveys/:id, the embed's definition read (the
#    submission's credentials, one read by primary key in requests-service); the faster is the ceiling. The ratio:
#    submissions/s / ceiling/s (and over the other read, for context).
# Each round prints the CPU each process used (ProcessCpu; wrk's in the bench JVM's), warm-up rounds first.
# The embed submission limits are lifted on the platform's gateway (GATEWAY_EMBED_LIMITS_PER_ADDRESS and
# _PER_PARTNER = 1,000,000,000 per window, through testkit's PlatformOptions.serviceEnvironment): every client here
# is 127.0.0.1, which the default 20 per minute per address would stop after 20 calls, and the figure wanted is the
# submission path's. The limiter still runs on every call (a cache lookup and a token taken from the address's and
# the partner's bucket), so its cost is in the figures.
# 3. Default limits (skip with 0): a second gateway JVM on the same database with the limits at their defaults; the
#    same 16 clients from one address are then refused (429, which closes the connection): what refusing costs.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 3 minutes on 2 cores.
# Needs wrk (apt-get install wrk; else a JVM load generator, which checks the status the same way).
# Source: bench/src/main/java/com/telemed/bench/surveys/ (the bench module); wrk's script bench/count-statuses.lua.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.surveys.EmbedSurveysBench "$@"
