#!/usr/bin/env bash
# Prepares scripts/gpu-sanitize.py's artifacts on a machine with MLIR:
# OUT/examples/NAME for every examples/linalg/*.mlir and OUT/workloads/NAME
# for every benchmark workload of scripts/gen-workloads.py (bb-compile,
# fused). A program bb-compile refuses is listed in OUT/refused.txt with its
# diagnostic. The difftest batch comes from scripts/prepare-gpu-difftest.sh.
#
#   scripts/prepare-gpu-sanitize.sh OUT
#
# BB_COMPILE_FLAGS adds bb-compile flags (e.g. "--chip sm_90a": the Hopper
# wgmma and TMA schedules, so the sanitizers see those kernels too).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BUILD_DIR:-$root/build}/bin"
out="$1"
mkdir -p "$out/examples" "$out/workloads" "$out/workloads-src"; : > "$out/refused.txt"
python3 "$root/scripts/gen-workloads.py" "$out/workloads-src" > /dev/null

compile() { # compile SOURCE DIR
  # shellcheck disable=SC2086 # BB_COMPILE_FLAGS: extra bb-compile flags
  if ! "$bin/bb-compile" "$1" -o "$2" ${BB_COMPILE_FLAGS:-} 2> "$2.log"; then
    echo "$1: $(grep -a -m1 -o 'error: .*' "$2.log")" >> "$out/refused.txt"
    rm -rf "$2"
  fi
  rm -f "$2.log"
}
for program in "$root"/examples/linalg/*.mlir; do
  compile "$program" "$out/examples/$(basename "$program" .mlir)"
done
for program in "$out"/workloads-src/*.mlir; do
  compile "$program" "$out/workloads/$(basename "$program" .mlir)"
done
rm -rf "$out/workloads-src"
echo "$(find "$out" -name manifest.json | wc -l) artifacts, $(wc -l < "$out/refused.txt") refused"
