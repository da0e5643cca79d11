#!/usr/bin/env bash
# Prepares the GPU differential test (scripts/gpu-difftest.py) on a machine
# with MLIR: for programs START..START+COUNT-1 of bb-difftest's seed SEED,
# writes OUT/pN/ = the PTX artifact (bb-compile, fused) + program.mlir +
# expected.txt, the outputs of upstream MLIR's CPU lowering of the Linalg
# program on bb-run's seeded inputs (seed 1). A program bb-compile refuses is
# listed in OUT/refused.txt with its diagnostic.
#
#   scripts/prepare-gpu-difftest.sh OUT [SEED=7] [COUNT=100] [START=0]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BUILD_DIR:-$root/build}/bin"
out="$1"; seed="${2:-7}"; count="${3:-100}"; start="${4:-0}"
mkdir -p "$out"; : > "$out/refused.txt"
for i in $(seq "$start" $((start + count - 1))); do
  dir="$out/p$i"; mkdir -p "$dir"
  "$bin/bb-difftest" --seed "$seed" --print --index "$i" > "$dir/program.mlir"
  if ! "$bin/bb-compile" "$dir/program.mlir" -o "$dir" 2> "$dir/compile.log"; then
    echo "p$i: $(grep -a -m1 -o 'error: .*' "$dir/compile.log")" >> "$out/refused.txt"
    rm -rf "$dir"; continue
  fi
  "$bin/bb-run" "$dir/program.mlir" --print --seed 1 > "$dir/expected.txt" || rm -rf "$dir"
done
echo "$(ls -d "$out"/p*/ 2>/dev/null | wc -l) artifacts, $(wc -l < "$out/refused.txt") refused"
