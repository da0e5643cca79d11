#!/usr/bin/env bash
# README command (a): set up, then run the main job on the bundled example,
# single-head attention written in Linalg as a frontend emits it
# (examples/linalg/attention.mlir):
#   1. convert it to a block program (one kernel per array operator),
#   2. print the fusion report of that program,
#   3. check it on the CPU against upstream MLIR's own lowering of the Linalg
#      input, on seeded random inputs,
# and print the report of the hand-written FlashAttention form for contrast.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" bb-opt bb-run >/dev/null
bin="${BUILD_DIR:-$root/build}/bin"
example="$root/examples/linalg/attention.mlir"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "== 1. convert-linalg-to-block: $example"
"$bin/bb-opt" "$example" --convert-linalg-to-block -o "$out/attention.block.mlir"
grep -E "block.program|block.map" "$out/attention.block.mlir"

echo
echo "== 2. fusion report of the unfused block program (block sizes 64)"
"$bin/bb-opt" "$out/attention.block.mlir" \
  --block-report='block-sizes=a0=64,a1=64' -o /dev/null

echo
echo "== 3. CPU check against upstream MLIR's lowering of the Linalg input"
"$bin/bb-run" "$example" --check --block-sizes=a0=64,a1=64

echo
echo "== for contrast: the fused FlashAttention form (examples/block/attention.fused.mlir)"
"$bin/bb-opt" "$root/examples/block/attention.fused.mlir" \
  --block-report='block-sizes=M=64,N=64' -o /dev/null | grep -E '"(kernels|buffered_edges|global_bytes)"'
