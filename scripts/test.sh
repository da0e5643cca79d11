#!/usr/bin/env bash
# README command (b): set up, build, and run every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
"$root/scripts/build.sh" check-blockbuster 2>&1 | tee "$log" || status=$?

# One closing line in the form CI reads: "lit: N passed, N failed, N skipped".
# lit pads the labels when several kinds appear ("  Passed     : 30").
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
xfailed=$(count "Expectedly Failed"); unresolved=$(count Unresolved)
failed=$(( ${failed:-0} + ${unresolved:-0} ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi  # a build failure
echo "lit: $(( ${passed:-0} + ${xfailed:-0} )) passed, $failed failed, ${unsupported:-0} skipped"
exit "$status"
