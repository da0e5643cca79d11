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
#       libz3, libxml2 and libicu. LLVM's InitializeAllTargets (called by
#       MLIR's llvm-target-to-data-layout pass, which registerAllPasses
#       registers) would pull in every backend Debian built, AArch64 to
#       Xtensa, 40 MB: the library is linked as an LLVM configured with the
#       X86 (the CPU JIT), NVPTX (PTX), AMDGPU and SPIRV (referenced by
#       MLIR's GPU targets) backends alone would be. The other targets'
#       initializers are empty, so those targets are not registered, and
#       looking one up fails as it does in such an LLVM. 137 MB.
#   OUT/torch-mlir/torch_mlir-slim.tar.xz
#       torch-mlir's wheel for the machine's Python (PyPI, cp312-abi3): what
#       torch_mlir.fx.export_and_import to Linalg imports (the builtin, func
#       and torch dialects' Python modules, the extensions its import
#       loads), its MLIR library stripped.
#   OUT/code/python/blockbuster, OUT/code/scripts/
#       this checkout's Python package and the scripts the device runs.
#
# Compressed with xz's x86 filter at -9e, the three fit one call's 64 MiB
# carry together with a checkout of a few MB: the script prints their sum
# and fails above 60 MiB. (With every backend linked in and plain xz -6
# they were 71 MB and took two calls, the second while the machine was
# still warm.) The two compressions run in parallel, about 15 minutes on
# two busy cores.
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
# The targets InitializeAllTargets names, less those linked in anyway.
(cd "$work" && ar x "$llvm_lib/libMLIRTargetLLVMIRTransforms.a" TargetUtils.cpp.o)
nm -u "$work/TargetUtils.cpp.o" | awk '/LLVMInitialize/ {print $2}' |
  grep -Ev 'LLVMInitialize(X86|NVPTX|AMDGPU|SPIRV)' |
  awk '{print "void " $1 "(void) {}"}' >"$work/unbuilt-targets.c"
cc -c -fPIC -O2 "$work/unbuilt-targets.c" -o "$work/unbuilt-targets.o"
c++ -shared -o "$work/libBlockbusterCAPI.so" \
  "$build/lib/CAPI/CMakeFiles/BlockbusterCAPI.dir/BlockbusterCAPI.cpp.o" \
  "$work/unbuilt-targets.o" \
  -Wl,--start-group "$build"/lib/libBlockbuster*.a "$llvm_lib"/libMLIR*.a \
  "$llvm_lib"/libLLVM*.a -Wl,--end-group \
  -Wl,--gc-sections -Wl,--version-script="$work/exports.map" \
  -Wl,--as-needed -lz -l:libzstd.so.1 -ltinfo -lpthread -ldl
strip "$work/libBlockbusterCAPI.so"
# Every symbol must resolve here, not at the first call on the device.
python3 -c 'import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.bbVersion.restype = ctypes.c_char_p
print("prepare-frontdoor-carry: loads, version", lib.bbVersion().decode())' \
  "$work/libBlockbusterCAPI.so"

echo "prepare-frontdoor-carry: torch-mlir $torch_mlir for Python $device_python"
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version "$device_python" --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$work/wheel" "torch-mlir==$torch_mlir"
mkdir "$work/site"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work"/wheel/torch_mlir-*.whl "$work/site"
libs="$work/site/torch_mlir/_mlir_libs"
rm -f "$libs/torch-mlir-opt" "$libs"/_stablehlo*.so "$libs"/_mlirDialects*.so \
  "$libs"/_mlir*Passes*.so "$libs"/_mlirExecutionEngine* \
  "$libs"/_mlirTransformInterpreter*.so
find "$work/site/torch_mlir/dialects" -mindepth 1 -maxdepth 1 \
  ! -name _ods_common.py ! -name builtin.py ! -name _builtin_ops_gen.py \
  ! -name func.py ! -name _func_ops_gen.py ! -name torch \
  ! -name _torch_ops_gen.py -exec rm -rf {} +
strip --strip-unneeded "$libs/libTorchMLIRAggregateCAPI.so"

xz_strong=(xz -T1 --x86 --lzma2=preset=9e,dict=192MiB)
"${xz_strong[@]}" -c "$work/libBlockbusterCAPI.so" \
  >"$out/capi/libBlockbusterCAPI.so.xz" &
capi=$!
dist_info="$(cd "$work/site" && echo torch_mlir-*.dist-info)"
tar -C "$work/site" -cf - torch_mlir "$dist_info" |
  "${xz_strong[@]}" >"$out/torch-mlir/torch_mlir-slim.tar.xz" &
site=$!
wait "$capi"
wait "$site"

cp -r "$repo/python/blockbuster" "$out/code/python/"
find "$out/code/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$repo/scripts/torch-frontdoor-device.py" \
  "$repo/scripts/export-torch-corpus.py" "$out/code/scripts/"

for part in capi torch-mlir code; do
  echo "prepare-frontdoor-carry: $out/$part: $(du -sb "$out/$part" | cut -f1) bytes"
done
total=$(du -sbc "$out/capi" "$out/torch-mlir" "$out/code" | tail -1 | cut -f1)
echo "prepare-frontdoor-carry: $total bytes in all"
if [ "$total" -gt "$limit" ]; then
  echo "prepare-frontdoor-carry: over 60 MiB: they do not fit one call" >&2
  exit 1
fi
