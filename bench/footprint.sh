#!/usr/bin/env bash
# Footprint and start benchmark (issue 44): ./bench/footprint.sh [idle seconds=30]
# ./stack up twice on a stack home of its own (a temporary STACK_HOME; the first up makes the data, Kafka's
# storage and the services' class-data archives, the second finds them, as every later up does), then, after
# the platform has been idle for the given seconds, the resident set (VmRSS of /proc/<pid>/status) of each of
# its processes: the eight service JVMs, the launcher (the SMTP server runs in it), Kafka, and PostgreSQL with
# every process under its postmaster. Aims: each service at most 150 MB, the whole platform at most 1.5 GB,
# the slowest service ready (its /q/health/ready answering 200) at most 3 s after its process started, and
# ./stack up ready in at most 15 s with everything built. The stack's fixed ports must be free.
# Builds what is missing, about 2 minutes on 2 cores. Source: bench/src/main/java/com/telemed/bench/footprint/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.footprint.FootprintBench "$@"
