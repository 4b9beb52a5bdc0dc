#!/usr/bin/env bash
# Webhook delivery benchmark (issues 6 and 44): ./bench/webhook-delivery.sh [partners=20] [events=20000] [approvals=300] [ms between approvals=50]
# (events=0 or approvals=0 skips that part; BENCH_JFR=/tmp/webhook.jfr records webhook-service during the first measured round;
#  BENCH_PROFILE=1 prints where each event's cost goes in that round: webhook-service's CPU by thread and by what it ran
#  (Flight Recorder), and PostgreSQL's statements per event (pg_stat_statements: calls, mean time, rows per call))
# 1. Events/s from care.events to a fast loopback receiver (Vert.x, in the bench JVM), end to end through
#    webhook-service, beside the ceiling of the same receiver driven by the same client without Kafka or the
#    database, in the same run, and the ratio (service / ceiling).
# 2. p50/p99 from the approving call's response (operator API, through the gateway) to the receipt of its
#    item.approved webhook, one approval at a time (unloaded); then the broker hop alone at the same pace (KafkaProbe:
#    the outbox relay's producer settings and a plain consumer, send -> acknowledged and send -> polled).
# Aim (issue 44): end to end at least 50 % of the ceiling at the same concurrency and partner count, and p99
# approve-to-receipt under 10 ms.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 2 minutes on 2 cores.
# Source: bench/src/main/java/com/telemed/bench/webhook/ (the bench module; its Vert.x and Netty are the
# versions webhook-service runs with: one Quarkus BOM).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.webhook.WebhookDeliveryBench "$@"
