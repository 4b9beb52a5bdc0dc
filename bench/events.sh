#!/usr/bin/env bash
# Events benchmark (issue #42): ./bench/events.sh [events=1000000] [seconds=30] [clients=16] [warm-up seconds=30]
# Pages of 100 of GET /v1/events from random cursors, 1,000,000 events of one partner (with their
# deliveries and attempts), through the gateway at 16 clients (wrk; p95), beside the page's plain SQL run
# by pgbench on the same server as the ceiling, and one reader at a time (random cursors; a partner reads its
# feed one page after another: its p95 is the aim's figure). Builds what is missing, starts its own platform on random
# loopback ports, loads the data with SQL, prints its figures, stops. Aim: p95 under 20 ms.
# Source: bench/src/main/java/com/telemed/bench/events/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.events.EventsBench "$@"
