#!/usr/bin/env bash
# Regenerates the dialect and pass docs from ODS and copies them into docs/.
# test/Docs/generated-docs.test fails until the committed copies match.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" mlir-doc >/dev/null
cp "$build/docs/Dialects/BlockDialect.md" "$root/docs/Dialects/BlockDialect.md"
cp "$build/docs/BlockPasses.md" "$root/docs/BlockPasses.md"
cp "$build/docs/LinalgToBlockPasses.md" "$root/docs/LinalgToBlockPasses.md"
cp "$build/docs/BlockToLinalgPasses.md" "$root/docs/BlockToLinalgPasses.md"
cp "$build/docs/GPUPasses.md" "$root/docs/GPUPasses.md"
cp "$build/docs/CPUCheckerPasses.md" "$root/docs/CPUCheckerPasses.md"
