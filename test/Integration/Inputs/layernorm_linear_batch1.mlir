// nn.LayerNorm then nn.Linear on a [1, 16, 64] input, as torch-mlir writes
// them (abridged: no f64 statistics, no weights): keepdim row statistics
// ([1, 16, 1], index map (d0, d1, 0)), a collapse to [16, 64] before the
// matmul and an expand back to [1, 16, 96]. Batch 1 gave invalid IR once the
// unit dimensions met (issue: "slice along dimension ... out-of-bounds").
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @layernorm_linear(%x: tensor<1x16x64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<1x16x96xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<1x16x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x16x64xf32>) outs(%z1 : tensor<1x16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<1x16x1xf32>
  %ex = tensor.empty() : tensor<1x16x64xf32>
  %centred = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum : tensor<1x16x64xf32>, tensor<1x16x1xf32>) outs(%ex : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<1x16x64xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%centred : tensor<1x16x64xf32>) outs(%z1 : tensor<1x16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %v = arith.addf %p, %acc : f32
    linalg.yield %v : f32
  } -> tensor<1x16x1xf32>
  %normed = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%centred, %sq : tensor<1x16x64xf32>, tensor<1x16x1xf32>) outs(%ex : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %v = arith.mulf %in, %r : f32
    linalg.yield %v : f32
  } -> tensor<1x16x64xf32>
  %c = tensor.collapse_shape %normed [[0, 1], [2]] : tensor<1x16x64xf32> into tensor<16x64xf32>
  %et = tensor.empty() : tensor<64x96xf32>
  %wt = linalg.transpose ins(%w : tensor<96x64xf32>) outs(%et : tensor<64x96xf32>) permutation = [1, 0]
  %em = tensor.empty() : tensor<16x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%em : tensor<16x96xf32>) -> tensor<16x96xf32>
  %mm = linalg.matmul ins(%c, %wt : tensor<16x64xf32>, tensor<64x96xf32>) outs(%f : tensor<16x96xf32>) -> tensor<16x96xf32>
  %biased = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x96xf32>, tensor<96xf32>) outs(%em : tensor<16x96xf32>) {
  ^bb0(%m: f32, %bb: f32, %out: f32):
    %v = arith.addf %m, %bb : f32
    linalg.yield %v : f32
  } -> tensor<16x96xf32>
  %y = tensor.expand_shape %biased [[0, 1], [2]] output_shape [1, 16, 96] : tensor<16x96xf32> into tensor<1x16x96xf32>
  return %y : tensor<1x16x96xf32>
}
