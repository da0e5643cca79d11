// RUN: bb-opt %s --split-input-file --normalise-linalg-for-block | FileCheck %s
// RUN: bb-opt %s --split-input-file --convert-linalg-to-block --block-fuse --block-report 2>&1 | FileCheck %s --check-prefix=FUSED

// A keepdim row statistic ([2, 16, 1], index map (d0, d1, 0)), as torch-mlir
// writes softmax: the unit dimension is dropped from every operator, and the
// row sum and the division become one kernel.
// CHECK-LABEL: func.func @keepdim_softmax
// CHECK-NOT:   tensor<2x16x1xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:    outs({{.*}} : tensor<2x16xf32>)
// CHECK-NOT:   tensor<2x16x1xf32>
// CHECK:       return {{.*}} : tensor<2x16x64xf32>
// FUSED-LABEL: "program": "keepdim_softmax"
// FUSED:       "kernels": 1,
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @keepdim_softmax(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %ex = tensor.empty() : tensor<2x16x64xf32>
  %exp = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x16x64xf32>) outs(%ex : tensor<2x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<2x16x64xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x16x64xf32>) outs(%z : tensor<2x16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<2x16x1xf32>
  %div = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%ex : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %v = arith.divf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<2x16x64xf32>
  return %div : tensor<2x16x64xf32>
}

// -----

// nn.Linear on [B, S, D] as torch-mlir writes it: collapse to [B*S, D],
// matmul with the transposed weight, bias, expand back. The matmul becomes
// one generic over (b, s, n, k) on the uncollapsed input, and no reshape is
// left: scaling the input and the projection fuse into one kernel.
// CHECK-LABEL: func.func @linear_3d
// CHECK-NOT:   collapse_shape
// CHECK-NOT:   expand_shape
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:    ins({{.*}} : tensor<2x16x64xf32>, tensor<64x96xf32>)
// CHECK-SAME:    outs({{.*}} : tensor<2x16x96xf32>)
// CHECK-NOT:   collapse_shape
// CHECK-NOT:   expand_shape
// CHECK:       return {{.*}} : tensor<2x16x96xf32>
// FUSED-LABEL: "program": "linear_3d"
// FUSED:       "kernels": 1,
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @linear_3d(%x: tensor<2x16x64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<2x16x96xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ex = tensor.empty() : tensor<2x16x64xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x16x64xf32>) outs(%ex : tensor<2x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %two : f32
    linalg.yield %v : f32
  } -> tensor<2x16x64xf32>
  %c = tensor.collapse_shape %scaled [[0, 1], [2]] : tensor<2x16x64xf32> into tensor<32x64xf32>
  %et = tensor.empty() : tensor<64x96xf32>
  %wt = linalg.transpose ins(%w : tensor<96x64xf32>) outs(%et : tensor<64x96xf32>) permutation = [1, 0]
  %em = tensor.empty() : tensor<32x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%em : tensor<32x96xf32>) -> tensor<32x96xf32>
  %mm = linalg.matmul ins(%c, %wt : tensor<32x64xf32>, tensor<64x96xf32>) outs(%f : tensor<32x96xf32>) -> tensor<32x96xf32>
  %biased = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<32x96xf32>, tensor<96xf32>) outs(%em : tensor<32x96xf32>) {
  ^bb0(%m: f32, %bb: f32, %out: f32):
    %v = arith.addf %m, %bb : f32
    linalg.yield %v : f32
  } -> tensor<32x96xf32>
  %y = tensor.expand_shape %biased [[0, 1], [2]] output_shape [2, 16, 96] : tensor<32x96xf32> into tensor<2x16x96xf32>
  return %y : tensor<2x16x96xf32>
}
