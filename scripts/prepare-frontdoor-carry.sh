#!/usr/bin/env bash
# Packs what the PyTorch front door (blockbuster.torch, docs/Python.md) needs
# on a GPU machine that has PyTorch but no MLIR and no network, for
# scripts/torch-frontdoor-device.py (docs/RealInputs.md, "The front door on
# the H100"). The compiler travels:
#
#   OUT/capi/libBlockbusterCAPI.so.xz
#       the C API linked statically against Debian's MLIR and LLVM archives
#       (/usr/lib/llvm-22/lib/lib{MLIR,LLVM}*.a: only the members it
#       references, sections it does not use dropped), exporting the bb*
#       functions alone, stripped: it needs libc, libstdc++, libz and
#       libzstd, not libMLIR.so (107 MB) and libLLVM.so (150 MB) with their
#       libz3, libxml2 and libicu.
#   OUT/torch-mlir/torch_mlir-slim.tar.xz
#       torch-mlir's wheel for the machine's Python (PyPI, cp312-abi3): the
#       package without torch-mlir-opt and the StableHLO bindings, its MLIR
#       library stripped.
#   OUT/code/python/blockbuster, OUT/code/scripts/
#       this checkout's Python package and the scripts the device runs.
#
# The two archives do not fit one call's 64 MiB carry together: the first
# call takes torch-mlir and code and unpacks torch-mlir outside the checkout,
# the second, while the machine is still warm, capi and code (the script
# fails when a part alone is over 60 MiB).
#
#   scripts/prepare-frontdoor-carry.sh [OUT]     (default .device-carry/frontdoor)
#
# Environment: BUILD (default ./build, where BlockbusterCAPI is built),
# LLVM_LIB (/usr/lib/llvm-22/lib), DEVICE_PYTHON (3.12), TORCH_MLIR
# (20261001, the version scripts/setup-torch.sh installs).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo/.device-carry/frontdoor}"
build="${BUILD:-$repo/build}"
llvm_lib="${LLVM_LIB:-/usr/lib/llvm-22/lib}"
device_python="${DEVICE_PYTHON:-3.12}"
torch_mlir="${TORCH_MLIR:-20261001}"
limit=$((60 * 1024 * 1024))

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -rf "$out/capi" "$out/torch-mlir" "$out/code"
mkdir -p "$out/capi" "$out/torch-mlir" "$out/code/python" "$out/code/scripts"

echo "prepare-frontdoor-carry: linking libBlockbusterCAPI.so statically"
ninja -C "$build" BlockbusterCAPI >/dev/null
printf '{\n  global: bb*;\n  local: *;\n};\n' >"$work/exports.map"
c++ -shared -o "$work/libBlockbusterCAPI.so" \
  "$build/lib/CAPI/CMakeFiles/BlockbusterCAPI.dir/BlockbusterCAPI.cpp.o" \
  -Wl,--start-group "$build"/lib/libBlockbuster*.a "$llvm_lib"/libMLIR*.a \
  "$llvm_lib"/libLLVM*.a -Wl,--end-group \
  -Wl,--gc-sections -Wl,--version-script="$work/exports.map" \
  -Wl,--as-needed -lz -l:libzstd.so.1 -ltinfo -lpthread -ldl
strip "$work/libBlockbusterCAPI.so"
# The JIT of the CPU runner is not used there; what the GPU path needs must
# resolve now, not at the first call on the device.
python3 - "$work/libBlockbusterCAPI.so" <<'EOF'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.bbVersion.restype = ctypes.c_char_p
print("prepare-frontdoor-carry: loads, version", lib.bbVersion().decode())
EOF
xz -T1 -6 -c "$work/libBlockbusterCAPI.so" >"$out/capi/libBlockbusterCAPI.so.xz"

echo "prepare-frontdoor-carry: torch-mlir $torch_mlir for Python $device_python"
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version "$device_python" --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$work/wheel" "torch-mlir==$torch_mlir"
mkdir "$work/site"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work"/wheel/torch_mlir-*.whl "$work/site"
rm -f "$work/site/torch_mlir/_mlir_libs/torch-mlir-opt" \
  "$work"/site/torch_mlir/_mlir_libs/_stablehlo*.so
strip --strip-unneeded "$work/site/torch_mlir/_mlir_libs/libTorchMLIRAggregateCAPI.so"
tar -C "$work/site" -cf - torch_mlir "$(cd "$work/site" && echo torch_mlir-*.dist-info)" |
  xz -T1 -6 >"$out/torch-mlir/torch_mlir-slim.tar.xz"

cp -r "$repo/python/blockbuster" "$out/code/python/"
find "$out/code/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$repo/scripts/torch-frontdoor-device.py" \
  "$repo/scripts/export-torch-corpus.py" "$out/code/scripts/"

status=0
for part in capi torch-mlir code; do
  bytes=$(du -sb "$out/$part" | cut -f1)
  echo "prepare-frontdoor-carry: $out/$part: $bytes bytes"
  if [ "$bytes" -gt "$limit" ]; then
    echo "prepare-frontdoor-carry: $out/$part is over 60 MiB" >&2
    status=1
  fi
done
exit $status
