#!/usr/bin/env bash
# The root README's performance table, made from bench/results/*.json (each bench writes its own): ./bench/results-table.sh
# prints it; ./bench/results-table.sh --update-readme also writes it into README.md between <!-- bench-results:start -->
# and <!-- bench-results:end --> (ResultsTableTest fails while the two differ). Starts nothing.
# Source: bench/src/main/java/com/telemed/bench/support/ResultsTable.java (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_tool com.telemed.bench.support.ResultsTable "$@"
