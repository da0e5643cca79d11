#!/usr/bin/env bash
# Configures and builds the sanitized fuzzing build into ./build-fuzz (or
# $FUZZ_BUILD_DIR): clang-22 with AddressSanitizer, UndefinedBehaviorSanitizer
# (every report aborts) and assertions on, the bb-fuzz libFuzzer target
# (tools/bb-fuzz) and a sanitized bb-opt to reproduce findings with.
# Debian's libMLIR.so is not instrumented; Blockbuster's libraries and the
# target are. Not part of CI; docs/Fuzzing.md has the commands.
#
# Needs: apt-get install clang-22 libclang-rt-22-dev
# Extra arguments are ninja targets (default: bb-fuzz bb-opt).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"

for tool in clang-22 clang++-22; do
  command -v "$tool" >/dev/null || {
    echo "build-fuzz.sh: $tool not found (apt-get install clang-22 libclang-rt-22-dev)" >&2
    exit 1
  }
done

sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  # RelWithDebInfo without -DNDEBUG: optimised, with line tables, and with
  # the assertions of our code (and of MLIR's inline header code: cast<>).
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_C_FLAGS="$sanitize -fsanitize=fuzzer-no-link" \
    -DCMAKE_CXX_FLAGS="$sanitize -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
    -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
    -DBLOCKBUSTER_ENABLE_FUZZER=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
if [ $# -eq 0 ]; then
  set -- bb-fuzz bb-opt
fi
ninja -C "$build" "$@"
