#!/usr/bin/env bash
# Webhook delivery benchmark (issue 6): ./bench/webhook-delivery.sh [partners=20] [events=20000] [approvals=300] [ms between approvals=50]
# (events=0 or approvals=0 skips that part; BENCH_JFR=/tmp/webhook.jfr records webhook-service during the first measured round)
# 1. Events/s from care.events to a fast loopback receiver (Vert.x, in the bench JVM), end to end through
#    webhook-service, beside the ceiling of the same receiver driven by the same client without Kafka or the
#    database, in the same run, and the ratio.
# 2. p50/p99 from the approving call's response (operator API, through the gateway) to the receipt of its
#    item.approved webhook. Aim: at least 2,000 events/s and p99 under 250 ms.
# Builds what is missing, starts its own platform on random loopback ports, stops. About 2 minutes on 2 cores.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
KIT="$ROOT/testkit/target/classes"
missing=0
[ -f "$KIT/com/telemed/testkit/runtime.classpath" ] || missing=1
for service in gateway members-service catalogue-service requests-service messaging-service billing-service webhook-service; do
  [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || missing=1
done
if [ "$missing" = 1 ]; then
  ./mvnw -q package -DskipTests
fi
# The receiver and the ceiling's client: the very Vert.x and Netty jars webhook-service runs with.
LIB="$ROOT/webhook-service/target/quarkus-app/lib/main"
VERTX="$(ls "$LIB"/io.vertx.vertx-core-*.jar "$LIB"/io.netty.netty-*.jar | tr '\n' ':')"
CP="$KIT:$(cat "$KIT/com/telemed/testkit/runtime.classpath"):$VERTX"
OUT="$(mktemp -d)"
javac -d "$OUT" -cp "$CP" bench/WebhookDeliveryBench.java
exec java -Xmx512m -cp "$OUT:$CP" WebhookDeliveryBench "$@"
