#!/usr/bin/env bash
# Compile time of stacked transformer layers (docs/performance.md):
# convert-linalg-to-block, block-fuse and block-select, each timed in its own
# bb-opt process: CPU seconds (user + system, one thread), parsing and
# printing included. CPU time rather than wall clock, so that other work on
# a shared machine does not inflate the figures.
#
#   scripts/measure-scaling.sh [LAYERS...]      (default: 1 8 32 128)
#
# BB_OPT overrides the bb-opt binary (default: build/bin/bb-opt).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bbopt="${BB_OPT:-$root/build/bin/bb-opt}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- 1 8 32 128

seconds() { # COMMAND... -> CPU seconds
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" > /dev/null
  awk '{printf "%.2f", $1 + $2}' "$work/time"
}

echo "| layers | convert | fuse (main loop only) | fuse | select | GPU lowering to PTX | kernels (unfused) |"
echo "|---|---|---|---|---|---|---|"
for n in "$@"; do
  python3 "$root/scripts/gen-transformer.py" --layers "$n" > "$work/t.mlir"
  convert=$(seconds "$bbopt" "$work/t.mlir" \
    --convert-linalg-to-block=whole-threshold=64 -o "$work/u.mlir")
  main=$(seconds "$bbopt" "$work/u.mlir" --block-fuse=extend=false -o /dev/null)
  fuse=$(seconds "$bbopt" "$work/u.mlir" --block-fuse -o "$work/f.mlir")
  select=$(seconds "$bbopt" "$work/f.mlir" --block-select -o "$work/s.mlir")
  gpu=$(seconds "$bbopt" "$work/s.mlir" --blockbuster-gpu-pipeline -o /dev/null)
  kernels=$(grep -c "^    %[0-9a-z_]* = block.map\|^    %[0-9a-z_]*:[0-9]* = block.map" "$work/s.mlir" || true)
  unfused=$(grep -c "^    %[0-9a-z_]* = block.map\|^    %[0-9a-z_]*:[0-9]* = block.map" "$work/u.mlir" || true)
  echo "| $n | $convert s | $main s | $fuse s | $select s | $gpu s | $kernels ($unfused) |"
done
