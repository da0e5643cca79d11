// A program that converts must compile (issue 12, item 5a): multi-head
// attention, 8 heads x 128 queries x 64, with 256 keys. The conversion keeps
// the keys whole (256 <= whole-threshold). Block-select used to refuse it,
// fused or not, with
//   error: block-select: no block size fits @mha ... shared_bytes_peak
//   525312 bytes > 233472
// because the queries were whole too: the softmax statistics [8, 128] hold
// them innermost, which the conversion took for a feature axis. The queries
// are a row axis now (a reduction's own statistics say nothing about
// features), tiled, and the whole-keys form fits at a few queries per block
// (the WHOLE check below). bb-compile also converts with the keys tiled, and
// the cost model prefers that one here: the usual one-kernel FlashAttention
// form.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: bb-compile %s -o %t/fused --emit-fused %t/fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED --input-file=%t/fused.mlir
// RUN: bb-compile %s -o %t/unfused --no-fuse
// RUN: sh -c 'for f in %t/*/*.ptx; do %ptxas -arch=sm_90 "$f" -o /dev/null || exit 1; done'
// RUN: %python -c "import glob, sys; sys.exit(0 if len(glob.glob('%t/fused/*.ptx')) == 1 else 1)"
//
// The other way round: bb-compile also converts with every reduced and
// feature axis whole, and block-select takes that program when the cost
// model estimates it faster and it fits: add + GELU + add + LayerNorm over
// 384 features is one row kernel then (three with the features tiled).
// RUN: bb-compile %examples/linalg/add_gelu_add_layernorm.mlir -o %t/row --emit-fused %t/row.mlir
// RUN: FileCheck %s --check-prefix=ROW --input-file=%t/row.mlir
// ROW: block.program @add_gelu_add_layernorm axes(a0 = 200 tiled block {{[0-9]+}}, a1 = 384 whole)
// ROW-COUNT-1: block.map
// ROW-NOT: block.map
//
// The conversion's default form fits, at a few queries per block; where no
// block size fits the local memory given (here 16 KiB), the failure is
// block-select's own clear error.
// RUN: bb-opt %s --convert-linalg-to-block --block-select \
// RUN:   | FileCheck %s --check-prefix=WHOLE
// WHOLE: block.program @mha axes(a0 = 8 tiled block {{[0-9]+}}, a1 = 128 tiled block {{[0-9]+}}, a2 = 256 whole,
// RUN: not bb-opt %s --convert-linalg-to-block \
// RUN:   --block-select=local-memory-bytes=16384 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL
// SMALL: error: block-select: no block size fits @mha on target 'h100'

// FUSED: block.program @mha axes({{.*}}a2 = 256 tiled block {{[0-9]+}},
// FUSED-COUNT-1: block.map
// FUSED-NOT: block.map
func.func @mha(%q: tensor<8x128x64xf32>, %k: tensor<8x256x64xf32>,
               %v: tensor<8x256x64xf32>) -> tensor<8x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e_kt = tensor.empty() : tensor<8x64x256xf32>
  %kt = linalg.transpose ins(%k : tensor<8x256x64xf32>) outs(%e_kt : tensor<8x64x256xf32>) permutation = [0, 2, 1]
  %e_s = tensor.empty() : tensor<8x128x256xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<8x128x256xf32>) -> tensor<8x128x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x128x64xf32>, tensor<8x64x256xf32>)
                           outs(%s0 : tensor<8x128x256xf32>) -> tensor<8x128x256xf32>
  %e_p = tensor.empty() : tensor<8x128x256xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x128x256xf32>) outs(%e_p : tensor<8x128x256xf32>) -> tensor<8x128x256xf32>
  %e_o = tensor.empty() : tensor<8x128x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x128x256xf32>, tensor<8x256x64xf32>)
                           outs(%o0 : tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
  return %o : tensor<8x128x64xf32>
}
