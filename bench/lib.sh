# Sourced by the bench scripts: builds what is missing, then runs a benchmark (replacing the shell)
# from the bench module's compiled classes (bench/target/classes) and its runtime classpath
# (bench/target/runtime.classpath, written by the build). Every bench starts the whole platform, so
# every service must be built; a bench source newer than its compiled class is built again too.
#   bench_run com.telemed.bench.<package>.<MainClass> bench arguments...
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bench_run() {
  local main="$1"
  shift
  local classes="$ROOT/bench/target/classes"
  local compiled="$classes/${main//.//}.class"
  local missing=0
  [ -f "$ROOT/bench/target/runtime.classpath" ] && [ -f "$compiled" ] || missing=1
  for service in gateway members-service catalogue-service requests-service messaging-service billing-service webhook-service; do
    [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || missing=1
  done
  if [ "$missing" = 0 ] && [ -n "$(find "$ROOT/bench/src/main" -newer "$compiled" -type f -print -quit)" ]; then
    missing=1
  fi
  if [ "$missing" = 1 ]; then
    ./mvnw -q package -DskipTests
  fi
  exec java -Xmx512m -cp "$classes:$(cat "$ROOT/bench/target/runtime.classpath")" "$main" "$@"
}
