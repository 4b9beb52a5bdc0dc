#!/usr/bin/env bash
# Members list benchmark (issue 4): ./bench/members-list.sh [calls per query=200] [warm-up calls=50] [seconds cap per query=12]
# Page 1 of GET /v1/members?search=... and ?status=active, 100,000 members for the partner under test
# among 1,000,000. Builds what is missing, starts its own platform on random loopback ports, loads the
# data with SQL, prints its figures and EXPLAIN plans (of the SQL members-service's MemberQueries builds),
# stops. About 4 minutes on 2 cores.
# Source: bench/src/main/java/com/telemed/bench/members/ (the bench module).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_run com.telemed.bench.members.MembersListBench "$@"
