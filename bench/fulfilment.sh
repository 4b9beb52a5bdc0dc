#!/usr/bin/env bash
# Pharmacy fulfilment benchmark (issue 17): ./bench/fulfilment.sh [items=1000] [warm-up items=as many, 0 skips]
# The platform in production mode (SERVICE_ENVIRONMENT=production) with PHARMACY_INTEGRATION_A_URL at a loopback
# pharmacy in the bench JVM (Vert.x, HTTP/1.1, answers 201 {"orderId": "PH-<n>"}, a distinct id per order; it counts
# the orders and times them), and a second requests-service replica (same database; both run the dispatcher).
# 1. Setup through the gateway: a partner (automatic mode), a drug whose pharmacy method is integration_a, a
#    prescriber, 100 members, then requests of one item with pharmacySendAt +1 h, every item approved in the console
#    (POST /ops/v1/requests/:id/items/:itemId/approve): scheduled, due in an hour.
# 2. "At once" is produced by ONE SQL statement on requests-service's database (JDBC):
#    UPDATE line_items SET transmit_due_at = now() WHERE id = ANY(<the round's items>). The clock starts when it has
#    committed and stops when a poll (every 50 ms, SELECT count(*) ... WHERE pharmacy_sent) sees the last item sent;
#    the pharmacy's own first and last arrival beside it. A warm-up round of as many items first (after 200 the JIT
#    still compiled 40 % of requests-service's CPU in the next round), printed, not the figure.
#    Checked: every item exactly once at the pharmacy, every item pharmacy_sent with an order id of its own.
# 3. The ceiling: as many orders (the first real order's body, a new orderReference each) posted straight to the same
#    pharmacy by ONE client, one after another on one kept-alive connection; for context by 16 concurrent clients.
#    The ratio uses the ONE client (the issue's "by one client"): ratio = one client's time / the platform's time,
#    i.e. the platform's items/s as a fraction of one client's orders/s.
# The dispatcher runs with requests-service's defaults (printed; the bench tunes nothing). Prints CPU per process (and
# per thread group of both replicas) over each round, whether work from outside the platform shared the machine,
# PostgreSQL's table scans, and the WARN/ERROR lines of both replicas' logs. BENCH_JFR=/tmp/fulfilment.jfr records
# both replicas during the measured round (/tmp/fulfilment-requests-service[-replica].jfr). Builds what is missing,
# starts its own platform on random loopback ports, stops. About 5 minutes on 2 cores.
# Source: bench/src/main/java/com/telemed/bench/fulfilment/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.fulfilment.FulfilmentBench "$@"
