#!/usr/bin/env bash
# Billing ledger benchmark (issue 19): ./bench/billing.sh [members=1000000] [billable=100000] [timed calls=30] [warm-up calls=5]
# 1. Catch-up: with billing-service stopped (and care.events' other consumers, messaging-service and webhook-service,
#    stopped for the whole run so nothing else works through the records), 1,120,000 events are published to the
#    platform's broker as the owners' relays publish them (testkit's BillingEvents envelopes, TopicWriter's producer):
#    1,000,000 member.created on member.events (1,000,000 members: 100,000 the partner under test's, 900,000 of 99 other
#    partners), 100,000 approvals on care.events (one per member of the partner under test, each at a millisecond of its
#    own in an order unrelated to ids and publication; 1 in 10 the legacy request.approved) and 20,000
#    member.status_changed (10,000 of those members paused and resumed). The event total is 1,120,000, not 1,000,000:
#    the issue's 1,000,000 members each have their member.created. Then billing-service starts; the clock runs from its
#    launch until its database holds every event (consumed_events; the end seen by a poll every 100 ms of whether the
#    last record of every partition is applied, confirmed by one count(*)); events/s, CPU per process (billing-service,
#    PostgreSQL, Kafka...), billing-service's CPU by thread, batch transactions, WAL, the rate over time.
#    The ceiling: a plain KafkaConsumer (new group, earliest, String deserializers, billing-service's max.poll.records)
#    reading both topics to the end, twice, the faster counted; ratio = ledger events/s / raw records/s.
# 2. GET /v1/billing (the current month) for the partner under test, 100,000 billable among 1,000,000 members, after
#    VACUUM (ANALYZE) of the ledger's tables: warm-up calls, then sequential timed calls through the gateway (x-api-key)
#    and direct to billing-service for context; p50/p95/max, to the headers and to the last byte; the answer checked
#    (uniqueMemberCount, exactly the billable members, totalAmount, billingStartDate strictly increasing from the
#    earliest approval to the latest) and every timed answer byte-identical to it; then EXPLAIN (ANALYZE, BUFFERS) of
#    billing-service's own BillableRows.SQL.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 4 to 5 minutes on 2 cores;
# smaller sizes by argument, e.g. ./bench/billing.sh 20000 2000 5 2 (22,400 events, under 2 minutes).
# Source: bench/src/main/java/com/telemed/bench/billing/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.billing.BillingBench "$@"
