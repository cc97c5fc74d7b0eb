#!/usr/bin/env bash
# The suite-time comparison of the restructuring, the same checks before and after: the suite of
# commit 7449675 (the parent of the restructuring's first commit: 1058 tests) against today's test
# files that descend from its 41 files (files created later are left out; the tests added since to
# the files kept are counted). Runs alternate, so machine load hits both alike.
# Wall time and the machine's CPU seconds (from /proc/stat) of each run.
#
#   npm run build && bash bench/suite-vs-baseline.sh [PAIRS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PAIRS=${1:-2}
BASE=$(mktemp -d /tmp/superagent-suite-base-XXXXXX)
trap 'rm -rf "$BASE"' EXIT
git clone -q "$ROOT" "$BASE" && git -C "$BASE" checkout -q 7449675
(cd "$BASE" && npm ci --no-audit --no-fund >/dev/null 2>&1 && npm run build >/dev/null 2>&1)

SAME_CHECKS=(
  test/conformance/openapi-conformance.test.ts
  test/commands/{agent-refs,assistant,chat-stream,chat,classic,config-file,config,destroy,edge-cases,exit-codes,health,hosted-wire,inspect,launch,login,model,secrets,server,soul-edit-terminate,soul-edit,soul-editor,soul,update,whoami}.test.ts
  test/e2e/{chat-sigint,cli-surface,completion,health-interrupt,keys,repl,soul-vi,store-durability}.test.ts
  test/service/{access,agent-chat,agent-config,assistant,classic,edge-cases,faults,limits,superagents}.test.ts
  test/unit/{architecture,assistant,config-resolve,diff,exit-codes,help,hosted-client,http-client-failures,http-client,http-trace,market,parse,repl,replies,retry,shell-split,sse-idle,sse,stream-fixtures,tools,wallets}.test.ts
)

cpu() { awk '/^cpu /{print $2+$3+$4}' /proc/stat; }
timed() { # label dir args…
  local label=$1 dir=$2; shift 2
  local c0 t0 c1 t1 tests
  c0=$(cpu); t0=$(date +%s.%N)
  tests=$(cd "$dir" && npx vitest run "$@" 2>&1 | grep -E '^ +Tests ' | tr -s ' ' || true)
  c1=$(cpu); t1=$(date +%s.%N)
  printf '%-7s wall %6.1f s   cpu %6.1f s   %s\n' "$label" "$(echo "$t1 - $t0" | bc)" "$(echo "($c1 - $c0) / 100" | bc -l)" "$tests"
}

for i in $(seq "$PAIRS"); do
  timed before "$BASE"
  timed after "$ROOT" "${SAME_CHECKS[@]}"
done
