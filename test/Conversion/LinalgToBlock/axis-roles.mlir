// Whole or tiled from an axis' role (convert-linalg-to-block): a row axis is
// tiled at any extent above 1, a reduced or feature axis is whole up to
// whole-threshold. What does not make a feature axis: the statistics a
// reduction writes (their innermost axis is a row), and elementwise
// operators over axes that a reduction shows to be rows. Before, the
// queries of a softmax and the rows of LayerNorm statistics [B, S] were
// whole (innermost in [B, H, S] or [B, S]), so attention at 256 keys and
// torch's encoder layer fitted an H100 at no block size.
// RUN: bb-opt %s --convert-linalg-to-block | FileCheck %s
// RUN: bb-opt %s --convert-linalg-to-block=whole-dot-reduced-axes=false \
// RUN:   | FileCheck %s --check-prefix=HEADS
// RUN: bb-run %s --entry softmax_rows --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry row_statistics --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry out_projection --check --fuse | FileCheck %s --check-prefix=NUM
// NUM-NOT: FAIL
// NUM: {{^PASS$}}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The queries (a1) are rows: the row maxima [8, 128] hold them innermost,
// and so does the subtraction that broadcasts them.
// CHECK-LABEL: block.program @softmax_rows
// CHECK-SAME: axes(a0 = 8 tiled, a1 = 128 tiled, a2 = 256 whole)
func.func @softmax_rows(%s: tensor<8x128x256xf32>) -> tensor<8x128x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e_m = tensor.empty() : tensor<8x128xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<8x128xf32>) -> tensor<8x128xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row3],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<8x128x256xf32>) outs(%m0 : tensor<8x128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %e = tensor.empty() : tensor<8x128x256xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row3, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<8x128x256xf32>, tensor<8x128xf32>)
      outs(%e : tensor<8x128x256xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %r = arith.subf %x, %mx : f32
    linalg.yield %r : f32
  } -> tensor<8x128x256xf32>
  return %d : tensor<8x128x256xf32>
}

// The rows of LayerNorm statistics: var + eps and rsqrt over [2, 64] are
// elementwise, and the reduction that wrote them shows a1 to be a row.
// CHECK-LABEL: block.program @row_statistics
// CHECK-SAME: axes(a0 = 2 tiled, a1 = 64 tiled, a2 = 32 whole)
func.func @row_statistics(%x: tensor<2x64x32xf32>) -> tensor<2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<2x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x64x32xf32>) outs(%s0 : tensor<2x64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %p = arith.mulf %v, %v : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x64xf32>
  %rs = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<2x64xf32>) outs(%e : tensor<2x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.addf %v, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<2x64xf32>
  return %rs : tensor<2x64xf32>
}

// An output projection that contracts [heads, 16] per row: the heads (a2)
// are no operand's innermost axis. Whole by default (one block can hold all
// heads of a row), tiled with whole-dot-reduced-axes=false.
// CHECK-LABEL: block.program @out_projection
// CHECK-SAME: axes(a0 = 32 tiled, a1 = 24 whole, a2 = 4 whole, a3 = 16 whole)
// HEADS-LABEL: block.program @out_projection
// HEADS-SAME: axes(a0 = 32 tiled, a1 = 24 whole, a2 = 4 tiled, a3 = 16 whole)
func.func @out_projection(%a: tensor<32x4x16xf32>, %w: tensor<24x4x16xf32>)
    -> tensor<32x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x24xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<32x24xf32>) -> tensor<32x24xf32>
  %c = linalg.generic {
      indexing_maps = [affine_map<(m, n, h, d) -> (m, h, d)>,
                       affine_map<(m, n, h, d) -> (n, h, d)>,
                       affine_map<(m, n, h, d) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : tensor<32x4x16xf32>, tensor<24x4x16xf32>)
      outs(%c0 : tensor<32x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32x24xf32>
  return %c : tensor<32x24xf32>
}

// Elementwise alone: the innermost axis is the contiguous one, whole.
// CHECK-LABEL: block.program @elementwise
// CHECK-SAME: axes(a0 = 64 tiled, a1 = 128 whole)
func.func @elementwise(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
