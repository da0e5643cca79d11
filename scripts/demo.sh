#!/usr/bin/env bash
# README command (a): set up, then run the main job on the bundled example,
# single-head attention written in Linalg as a frontend emits it
# (examples/linalg/attention.mlir):
#   1. convert it to a block program (one kernel per array operator) and
#      print its fusion report,
#   2. fuse it with block-fuse, printing the derivation step by step,
#   3. print the fused program (FlashAttention) and its report,
#   4. check the fused program on the CPU against upstream MLIR's own
#      lowering of the Linalg input, on seeded random inputs,
#   5. compile it for the H100 (sm_90): a PTX artifact (PTX + manifest.json,
#      docs/Artifact.md) in ./attention-artifact, assembled with ptxas when a
#      CUDA toolkit is installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" bb-opt bb-run bb-compile >/dev/null
bin="${BUILD_DIR:-$root/build}/bin"
example="$root/examples/linalg/attention.mlir"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
summary() { grep -E '^  "(kernels|buffered_edges|global_bytes|flops|local_bytes_peak)"'; }

echo "== 1. convert-linalg-to-block: $example"
"$bin/bb-opt" "$example" --convert-linalg-to-block -o "$out/unfused.mlir"
grep -E "block.program|block.map" "$out/unfused.mlir"
echo "-- report, blocks of 64:"
"$bin/bb-opt" "$out/unfused.mlir" --block-report='default-block-size=64' -o /dev/null | summary

echo
echo "== 2. block-fuse, step by step"
"$bin/bb-opt" "$out/unfused.mlir" --block-fuse=trace -o "$out/fused.mlir"

echo
echo "== 3. the fused program"
cat "$out/fused.mlir"
echo "-- report, blocks of 64:"
"$bin/bb-opt" "$out/fused.mlir" --block-report='default-block-size=64' -o /dev/null | summary

echo
echo "== 4. CPU check: fused Blockbuster path vs upstream MLIR's lowering of the Linalg input"
"$bin/bb-run" "$example" --check --fuse --block-sizes=a0=64,a1=64

echo
echo "== 5. GPU artifact for sm_90: bb-compile (convert, fuse, select, blockbuster-gpu-pipeline)"
artifact="${ARTIFACT_DIR:-$PWD/attention-artifact}"
"$bin/bb-compile" "$example" -o "$artifact"
ls -l "$artifact"
grep -E '"(kernel|grid|block|dynamic_smem)"' -A3 "$artifact/manifest.json" | grep -vE '^\s*[{}],?$' | head -20
ptxas="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
if [ -x "$ptxas" ]; then
  for f in "$artifact"/*.ptx; do "$ptxas" -arch=sm_90 -v "$f" -o /dev/null 2>&1 | grep -E "registers|error"; done
else
  echo "(ptxas not found: PTX not assembled)"
fi
echo "Run it on an H100 with: python3 scripts/gpu-check.py $artifact"
