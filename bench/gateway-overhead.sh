#!/usr/bin/env bash
# Gateway overhead benchmark (issue 3): ./bench/gateway-overhead.sh [concurrency=16] [seconds per round=10]
# Builds what is missing, starts its own platform on random loopback ports, prints its figures, stops.
# Uses wrk (apt-get install wrk) when present: it takes far less CPU than a JVM load generator; and nginx
# (apt-get install nginx), when present, as a plain proxy_pass in front of the same service for comparison.
# Source: bench/src/main/java/com/telemed/bench/gateway/GatewayOverheadBench.java (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.gateway.GatewayOverheadBench "$@"
