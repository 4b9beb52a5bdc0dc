#!/usr/bin/env bash
# Webhook delivery benchmark (issue 6): ./bench/webhook-delivery.sh [partners=20] [events=20000] [approvals=300] [ms between approvals=50]
# (events=0 or approvals=0 skips that part; BENCH_JFR=/tmp/webhook.jfr records webhook-service during the first measured round)
# 1. Events/s from care.events to a fast loopback receiver (Vert.x, in the bench JVM), end to end through
#    webhook-service, beside the ceiling of the same receiver driven by the same client without Kafka or the
#    database, in the same run, and the ratio.
# 2. p50/p99 from the approving call's response (operator API, through the gateway) to the receipt of its
#    item.approved webhook. Aim: at least 2,000 events/s and p99 under 250 ms.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 2 minutes on 2 cores.
# Source: bench/src/main/java/com/telemed/bench/webhook/ (the bench module; its Vert.x and Netty are the
# versions webhook-service runs with: one Quarkus BOM).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.webhook.WebhookDeliveryBench "$@"
