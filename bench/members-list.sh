#!/usr/bin/env bash
# Members list benchmark (issue 4): ./bench/members-list.sh [calls per query=200] [warm-up calls=50] [seconds cap per query=12]
# Page 1 of GET /v1/members?search=... and ?status=active, 100,000 members for the partner under test
# among 1,000,000. Builds what is missing, starts its own platform on random loopback ports, loads the
# data with SQL, prints its figures and EXPLAIN plans, stops. About 4 minutes on 2 cores.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
KIT="$ROOT/testkit/target/classes"
missing=0
[ -f "$KIT/com/telemed/testkit/runtime.classpath" ] || missing=1
for service in gateway members-service requests-service; do
  [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || missing=1
done
if [ "$missing" = 1 ]; then
  ./mvnw -q package -DskipTests
fi
CP="$KIT:$(cat "$KIT/com/telemed/testkit/runtime.classpath")"
OUT="$(mktemp -d)"
javac -d "$OUT" -cp "$CP" bench/MembersListBench.java
exec java -Xmx512m -cp "$OUT:$CP" MembersListBench "$@"
