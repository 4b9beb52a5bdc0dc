#!/usr/bin/env bash
# Messaging benchmark (issue 16): ./bench/messaging.sh [seconds per measured round=20] [posting warm-up s=30] [attachment warm-up s=10]
# 1. POST /v1/messages/conversations/:id/messages through the gateway, 16 concurrent clients each in a
#    conversation of its own, then all 16 in one shared conversation (posts to one conversation serialise on
#    its row lock): messages/s, p50/p99, errors by status (anything but 201).
# 2. 10 MB attachments (10,485,760 random bytes, application/pdf) through the gateway, 8 clients each uploading
#    then downloading its file by the link, without a key, SHA-256 compared; then uploads alone.
# 3. The ceiling: the same 10 MB in one INSERT of a bytea over JDBC into the same PostgreSQL, 8 clients, and the
#    ratio of the gateway's uploads to it.
# During each measured round messaging-service's used heap is sampled every 200 ms (jstat) and its peak printed
# beside its max heap, with each process's CPU and the WARN/ERROR lines of its log. Each post queues a mail to the
# prescriber: when an SMTP server listens, the attachments wait (at most 3 minutes) until they were sent; at the
# end, whether they were. Builds what is missing, starts its own platform on random loopback ports, stops. About
# 4 minutes on 2 cores; writes a few GB into the platform's temporary PostgreSQL, removed at the end.
# Source: bench/src/main/java/com/telemed/bench/messaging/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.messaging.MessagingBench "$@"
