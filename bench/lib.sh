# Sourced by the bench scripts: builds what is missing, compiles the bench's Java files against the
# testkit's classpath, and runs the bench (replacing the shell). Every bench starts the whole platform,
# so every service must be built.
#   bench_run MainClass File.java... -- bench arguments...
# BENCH_EXTRA_CP: more classpath entries (webhook-delivery.sh adds webhook-service's Vert.x jars).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bench_run() {
  local main="$1"
  shift
  local sources=()
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    sources+=("$1")
    shift
  done
  [ "$#" -gt 0 ] && shift
  local kit="$ROOT/testkit/target/classes"
  local missing=0
  [ -f "$kit/com/telemed/testkit/runtime.classpath" ] || missing=1
  for service in gateway members-service catalogue-service requests-service messaging-service billing-service webhook-service; do
    [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || missing=1
  done
  if [ "$missing" = 1 ]; then
    ./mvnw -q package -DskipTests
  fi
  local cp="$kit:$(cat "$kit/com/telemed/testkit/runtime.classpath")${BENCH_EXTRA_CP:+:$BENCH_EXTRA_CP}"
  local out
  out="$(mktemp -d)"
  javac -d "$out" -cp "$cp" "${sources[@]}"
  exec java -Xmx512m -cp "$out:$cp" "$main" "$@"
}
