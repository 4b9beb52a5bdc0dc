#!/usr/bin/env bash
# Gateway overhead benchmark (issue 3): ./bench/gateway-overhead.sh [concurrency=16] [seconds per round=10]
# Builds what is missing, starts its own platform on random loopback ports, prints its figures, stops.
# Uses wrk (apt-get install wrk) when present: it takes far less CPU than a JVM load generator.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
KIT="$ROOT/testkit/target/classes"
if [ ! -f "$KIT/com/telemed/testkit/runtime.classpath" ] || [ ! -f gateway/target/quarkus-app/quarkus-run.jar ]; then
  ./mvnw -q package -DskipTests
fi
CP="$KIT:$(cat "$KIT/com/telemed/testkit/runtime.classpath")"
OUT="$(mktemp -d)"
javac -d "$OUT" -cp "$CP" bench/LoadRun.java bench/Wrk.java bench/GatewayOverheadBench.java
exec java -Xmx512m -cp "$OUT:$CP" GatewayOverheadBench "$@"
