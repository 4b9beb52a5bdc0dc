# Sourced by the bench scripts: builds what is missing, then runs a benchmark (replacing the shell)
# from the bench module's compiled classes (bench/target/classes) and its runtime classpath
# (bench/target/runtime.classpath, written by the build). Every bench starts the whole platform, so
# every service must be built; a bench source newer than its compiled class is built again too.
#   bench_run com.telemed.bench.<package>.<MainClass> bench arguments...
# A bench writes its figures to bench/results/<script name>.json besides printing them (support/Results).
# Every variable BENCH_SERVICE_<NAME>=value of the bench's environment reaches every service as <NAME>=value
# (an experiment: BENCH_SERVICE_QUARKUS_OTEL_SDK_DISABLED=true ./bench/requests.sh).
# BENCH_JAVA_OPTS replaces the services' JVM options (./stack's small defaults, PlatformOptions.DEFAULT_JVM_OPTIONS), as
# STACK_JAVA_OPTS does for ./stack (an experiment: BENCH_JAVA_OPTS="-Xmx358m -XX:+UseSerialGC", the Helm chart's sizing).
# bench_tool runs a main that starts no platform (e.g. support.ResultsTable): the services' builds are not checked.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bench_run() {
  _bench_start yes "$@"
}

bench_tool() {
  _bench_start no "$@"
}

_bench_start() {
  local platform="$1"
  local main="$2"
  shift 2
  local classes="$ROOT/bench/target/classes"
  local compiled="$classes/${main//.//}.class"
  local missing=0
  [ -f "$ROOT/bench/target/runtime.classpath" ] && [ -f "$compiled" ] || missing=1
  if [ "$platform" = yes ]; then
    for service in gateway members-service catalogue-service requests-service messaging-service billing-service webhook-service; do
      [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || missing=1
    done
  fi
  if [ "$missing" = 0 ] && [ -n "$(find "$ROOT/bench/src/main" -newer "$compiled" -type f -print -quit)" ]; then
    missing=1
  fi
  if [ "$missing" = 1 ]; then
    ./mvnw -q package -DskipTests
  fi
  exec java -Xmx512m -cp "$classes:$(cat "$ROOT/bench/target/runtime.classpath")" "$main" "$@"
}
