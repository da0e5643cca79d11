// Views that split an axis used to be kernel boundaries (issue 12): the
// split of a fused QKV projection into q, k and v (torch's unbind: a slice
// of extent 1, a collapse_shape dropping it, often an expand_shape splitting
// heads out of a merged dimension), and RoPE's concatenation. Normalisation
// now moves these reshapes across the slices (SliceReshapeFolding.cpp) and
// writes a concatenation as a stacking generic before reshape propagation
// (ConcatToStack.cpp), so no block.view is left between two kernels; and a
// reader of a slice of a producer's result joins the producer's axes only
// after its exact readers (k's transposition keeps the keys' axis, not the
// queries').

// RUN: bb-opt %s --normalise-linalg-for-block | FileCheck %s --check-prefix=NORM
// RUN: bb-opt %s --convert-linalg-to-block --block-fuse | FileCheck %s --check-prefix=FUSED
// RUN: bb-run %s --entry unbind --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry heads_of_merged --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry qk_of_fused_projection --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry rotate_half_of_split --check --fuse | FileCheck %s --check-prefix=NUM
// NUM-NOT: FAIL
// NUM: {{^PASS$}}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// unbind(0)[1] of a computed [3, 2, 4, 4]: the collapse_shape that drops the
// unit dimension is the rank-reducing slice itself.
// NORM-LABEL: func.func @unbind
// NORM:       tensor.extract_slice %{{.*}}[1, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<3x2x4x4xf32> to tensor<2x4x4xf32>
// NORM-NOT:   tensor.collapse_shape
// NORM:       return
// FUSED-LABEL: block.program @unbind
// FUSED-NOT:  block.view %{{[0-9]+}}
// FUSED:      block.return
func.func @unbind(%x: tensor<3x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %e = tensor.empty() : tensor<3x2x4x4xf32>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x2x4x4xf32>) outs(%e : tensor<3x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<3x2x4x4xf32>
  %s = tensor.extract_slice %t[1, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<3x2x4x4xf32> to tensor<1x2x4x4xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x4x4xf32>) outs(%e2 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

// torch's nn.MultiheadAttention: a slice [1, S, B, D] of the packed
// projection, merged to [S, B*D] and split into heads [S, B, H, Dh]. The
// split moves above the merge and the slice into the producer, which
// writes [3, S, B, H, Dh]; the reader loads it at a fixed index.
// NORM-LABEL: func.func @heads_of_merged
// NORM:       linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4x2x2x4xf32>)
// NORM:       tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 4, 2, 2, 4] [1, 1, 1, 1, 1] : tensor<3x4x2x2x4xf32> to tensor<4x2x2x4xf32>
// NORM-NOT:   tensor.expand_shape
// NORM:       return
// FUSED-LABEL: block.program @heads_of_merged
// FUSED-NOT:  block.view %{{[0-9]+}}
// FUSED:      block.return
func.func @heads_of_merged(%x: tensor<3x4x2x8xf32>) -> tensor<4x2x2x4xf32> {
  %e = tensor.empty() : tensor<3x4x2x8xf32>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x4x2x8xf32>) outs(%e : tensor<3x4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<3x4x2x8xf32>
  %s = tensor.extract_slice %t[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<3x4x2x8xf32> to tensor<1x4x2x8xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2, 3]] : tensor<1x4x2x8xf32> into tensor<4x16xf32>
  %h = tensor.expand_shape %c [[0], [1, 2, 3]] output_shape [4, 2, 2, 4] : tensor<4x16xf32> into tensor<4x2x2x4xf32>
  %e2 = tensor.empty() : tensor<4x2x2x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%h : tensor<4x2x2x4xf32>) outs(%e2 : tensor<4x2x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x2x2x4xf32>
  return %r : tensor<4x2x2x4xf32>
}

// A fused projection [S, 3, Dh] split into q and k, k scaled and transposed,
// then q k^T: two kernels (the projection, and the product with k's
// transposition in it). k's transposition reads a slice of the projection,
// so it joins the projection's axis of S only after the product has joined
// its keys' axis to it; before, it took the queries' axis and stayed a
// kernel of its own.
// FUSED-LABEL: block.program @qk_of_fused_projection
// FUSED-COUNT-2: block.map [
// FUSED-NOT:  block.map [
// FUSED:      block.return
func.func @qk_of_fused_projection(%x: tensor<8x3x4xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x3x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x3x4xf32>) outs(%e : tensor<8x3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<8x3x4xf32>
  %q = tensor.extract_slice %p[0, 0, 0] [8, 1, 4] [1, 1, 1] : tensor<8x3x4xf32> to tensor<8x4xf32>
  %k = tensor.extract_slice %p[0, 1, 0] [8, 1, 4] [1, 1, 1] : tensor<8x3x4xf32> to tensor<8x4xf32>
  %ekt = tensor.empty() : tensor<4x8xf32>
  %kt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<8x4xf32>) outs(%ekt : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 5.000000e-01 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// rotate_half of a head dimension that propagation has split into (2, 4):
// the slices x[..., 4:] and x[..., :4] are fixed indices of the split
// dimension, the concatenation a stacking generic whose collapse_shape
// moves into its reader and on to the result. Two kernels (the producer,
// read at fixed indices, and the rest), no view between them.
// NORM-LABEL: func.func @rotate_half_of_split
// NORM-NOT:   tensor.concat
// NORM:       tensor.extract_slice %{{.*}}[0, 1, 0] [4, 1, 4] [1, 1, 1] : tensor<4x2x4xf32> to tensor<4x4xf32>
// NORM-NOT:   tensor.concat
// NORM:       return
// FUSED-LABEL: block.program @rotate_half_of_split
// FUSED:      %[[P:.*]] = block.map [a0, a1] -> !block.array<4x2x4xf32>
// FUSED:        block.exp
// FUSED:      block.map [a0, a1] -> !block.array<4x2x4xf32>
// FUSED:        block.load %[[P]] [a0, 1, a2]
// FUSED:        block.neg
// FUSED:        block.load %[[P]] [a0, 0, a2]
// FUSED:        block.select
// FUSED:        block.add
// FUSED:      %[[R:.*]] = block.view
// FUSED-NEXT: block.return %[[R]]
func.func @rotate_half_of_split(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %x2 = tensor.extract_slice %g[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %eh = tensor.empty() : tensor<4x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x2 : tensor<4x4xf32>) outs(%eh : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %x1 = tensor.extract_slice %g[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %rot = tensor.concat dim(1) %n, %x1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g, %rot : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
