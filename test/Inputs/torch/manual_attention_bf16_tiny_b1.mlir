// manual_attention_bf16_tiny_b1: scripts/export-torch-corpus.py (manual_attention_bf16, size tiny {'S': 16, 'D': 32, 'H': 2, 'FFN': 64}, batch 1)
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @manual_attention_bf16_tiny_b1(%arg0: tensor<1x16x16xbf16>, %arg1: tensor<1x16x16xbf16>, %arg2: tensor<1x16x16xbf16>) -> tensor<1x16x16xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 4.000000e+00 : bf16
    %0 = tensor.empty() : tensor<1x16x16xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<1x16x16xbf16>) outs(%0 : tensor<1x16x16xbf16>) permutation = [0, 2, 1] 
    %1 = tensor.empty() : tensor<1x16x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
    %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<1x16x16xbf16>, tensor<1x16x16xbf16>) outs(%2 : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<1x16x16xf32>) outs(%0 : tensor<1x16x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %21 = arith.truncf %in : f32 to bf16
      linalg.yield %21 : bf16
    } -> tensor<1x16x16xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x16x16xbf16>) outs(%0 : tensor<1x16x16xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %21 = arith.divf %in, %cst_1 : bf16
      linalg.yield %21 : bf16
    } -> tensor<1x16x16xbf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x16x16xbf16>) outs(%1 : tensor<1x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %21 = arith.extf %in : bf16 to f32
      linalg.yield %21 : f32
    } -> tensor<1x16x16xf32>
    %7 = tensor.empty() : tensor<1x16xi64>
    %8 = linalg.fill ins(%c0_i64 : i64) outs(%7 : tensor<1x16xi64>) -> tensor<1x16xi64>
    %9 = tensor.empty() : tensor<1x16xf32>
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %11:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<1x16x16xf32>) outs(%10, %8 : tensor<1x16xf32>, tensor<1x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %21 = linalg.index 2 : index
      %22 = arith.index_cast %21 : index to i64
      %23 = arith.maximumf %in, %out : f32
      %24 = arith.cmpf ogt, %in, %out : f32
      %25 = arith.select %24, %22, %out_2 : i64
      linalg.yield %23, %25 : f32, i64
    } -> (tensor<1x16xf32>, tensor<1x16xi64>)
    %expanded = tensor.expand_shape %11#0 [[0], [1, 2]] output_shape [1, 16, 1] : tensor<1x16xf32> into tensor<1x16x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %expanded : tensor<1x16x16xf32>, tensor<1x16x1xf32>) outs(%1 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %21 = arith.subf %in, %in_2 : f32
      linalg.yield %21 : f32
    } -> tensor<1x16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12 : tensor<1x16x16xf32>) outs(%1 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = math.exp %in : f32
      linalg.yield %21 : f32
    } -> tensor<1x16x16xf32>
    %14 = tensor.empty() : tensor<1x16x1xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%13 : tensor<1x16x16xf32>) outs(%15 : tensor<1x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = arith.addf %in, %out : f32
      linalg.yield %21 : f32
    } -> tensor<1x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13, %16 : tensor<1x16x16xf32>, tensor<1x16x1xf32>) outs(%1 : tensor<1x16x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %21 = arith.divf %in, %in_2 : f32
      linalg.yield %21 : f32
    } -> tensor<1x16x16xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<1x16x16xf32>) outs(%0 : tensor<1x16x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %21 = arith.truncf %in : f32 to bf16
      linalg.yield %21 : bf16
    } -> tensor<1x16x16xbf16>
    %19 = linalg.batch_matmul ins(%18, %arg2 : tensor<1x16x16xbf16>, tensor<1x16x16xbf16>) outs(%2 : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<1x16x16xf32>) outs(%0 : tensor<1x16x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %21 = arith.truncf %in : f32 to bf16
      linalg.yield %21 : bf16
    } -> tensor<1x16x16xbf16>
    return %20 : tensor<1x16x16xbf16>
  }
}
