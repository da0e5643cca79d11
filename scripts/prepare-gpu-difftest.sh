#!/usr/bin/env bash
# Prepares the GPU differential test (scripts/gpu-difftest.py) on a machine
# with MLIR: for programs START..START+COUNT-1 of bb-difftest's seed SEED, or
# for every .mlir file of the directory PROGRAMS, writes OUT/NAME/ = the PTX
# artifact (bb-compile, fused) + program.mlir + expected.txt, the outputs of
# upstream MLIR's CPU lowering of the Linalg program on bb-run's seeded
# inputs (seed 1), and the same program's outputs computed in f64 (bb-run
# --print-f64-oracle: gpu-difftest.py judges an ill-conditioned output
# against them). A program bb-compile refuses is listed in OUT/refused.txt
# with its diagnostic.
#
#   scripts/prepare-gpu-difftest.sh OUT [SEED=7] [COUNT=100] [START=0]
#   scripts/prepare-gpu-difftest.sh OUT PROGRAMS    (e.g. gen-mma-programs.py's)
#
# BB_COMPILE_FLAGS adds bb-compile flags (e.g. "--chip sm_90a": the Hopper
# wgmma and TMA schedules).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BUILD_DIR:-$root/build}/bin"
out="$1"; seed="${2:-7}"; count="${3:-100}"; start="${4:-0}"
mkdir -p "$out"; : > "$out/refused.txt"

# prepare NAME: compiles and runs $out/NAME/program.mlir.
prepare() {
  local dir="$out/$1"
  # shellcheck disable=SC2086 # BB_COMPILE_FLAGS: extra bb-compile flags
  if ! "$bin/bb-compile" "$dir/program.mlir" -o "$dir" ${BB_COMPILE_FLAGS:-} \
      2> "$dir/compile.log"; then
    echo "$1: $(grep -a -m1 -o 'error: .*' "$dir/compile.log")" >> "$out/refused.txt"
    rm -rf "$dir"; return
  fi
  # --check runs upstream MLIR's lowering too and prints its outputs as
  # "reference" sections, which gpu-difftest.py takes as the expected ones:
  # where an output is ill-conditioned, Blockbuster's own CPU path and
  # upstream's differ, and the GPU is judged against upstream's (and the f64
  # oracle), not against whichever f32 order came closer by chance.
  if ! "$bin/bb-run" "$dir/program.mlir" --check --f64-oracle --print \
      --print-f64-oracle --seed 1 > "$dir/expected.txt"; then
    echo "$1: bb-run --check: the CPU path disagrees with upstream MLIR" \
      >> "$out/refused.txt"
    rm -rf "$dir"
  fi
}

if [ -d "$seed" ]; then
  for program in "$seed"/*.mlir; do
    name="$(basename "$program" .mlir)"
    mkdir -p "$out/$name"; cp "$program" "$out/$name/program.mlir"
    prepare "$name"
  done
else
  for i in $(seq "$start" $((start + count - 1))); do
    mkdir -p "$out/p$i"
    "$bin/bb-difftest" --seed "$seed" --print --index "$i" > "$out/p$i/program.mlir"
    prepare "p$i"
  done
fi
echo "$(find "$out" -mindepth 2 -name manifest.json | wc -l) artifacts, $(wc -l < "$out/refused.txt") refused"
