#!/usr/bin/env bash
# README command (a): set up, then run the main job on the bundled example:
# parse and verify single-head attention written as six kernels (one per
# array operator) and in its fused FlashAttention form, and print the fusion
# report of each.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" bb-opt >/dev/null
bb_opt="${BUILD_DIR:-$root/build}/bin/bb-opt"

for form in unfused fused; do
  example="$root/examples/block/attention.$form.mlir"
  echo "== attention, $form: $example"
  "$bb_opt" "$example" --block-report='block-sizes=M=64,N=64' -o /dev/null
done
