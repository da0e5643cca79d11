// gelu_mlp_real_b2: scripts/export-torch-corpus.py (gelu_mlp, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @gelu_mlp_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %cst_2 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_512_1408_torch.float32> : tensor<512x1408xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_1408_torch.float32> : tensor<1408xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32> : tensor<1408x512xf32>
    %cst_6 = arith.constant 1.41421354 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %0 = tensor.empty() : tensor<512x1408xf32>
    %transposed = linalg.transpose ins(%cst_5 : tensor<1408x512xf32>) outs(%0 : tensor<512x1408xf32>) permutation = [1, 0] 
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %2 = linalg.matmul ins(%collapsed, %transposed : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%1 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_4 : tensor<1408xf32>) outs(%0 : tensor<512x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x1408xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%2, %3 : tensor<512x1408xf32>, tensor<512x1408xf32>) outs(%0 : tensor<512x1408xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.addf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<512x1408xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %5 = tensor.empty() : tensor<2x256x1408xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x256x1408xf32>) outs(%5 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.divf %in, %cst_6 : f32
      %14 = math.erf %13 : f32
      %15 = arith.addf %14, %cst_0 : f32
      %16 = arith.mulf %15, %cst_1 : f32
      %17 = arith.mulf %in, %16 : f32
      linalg.yield %17 : f32
    } -> tensor<2x256x1408xf32>
    %collapsed_7 = tensor.collapse_shape %6 [[0, 1], [2]] : tensor<2x256x1408xf32> into tensor<512x1408xf32>
    %7 = tensor.empty() : tensor<1408x512xf32>
    %transposed_8 = linalg.transpose ins(%cst_3 : tensor<512x1408xf32>) outs(%7 : tensor<1408x512xf32>) permutation = [1, 0] 
    %8 = tensor.empty() : tensor<512x512xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %10 = linalg.matmul ins(%collapsed_7, %transposed_8 : tensor<512x1408xf32>, tensor<1408x512xf32>) outs(%9 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_2 : tensor<512xf32>) outs(%8 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x512xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %11 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%8 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %13 = arith.addf %in, %in_10 : f32
      linalg.yield %13 : f32
    } -> tensor<512x512xf32>
    %expanded_9 = tensor.expand_shape %12 [[0, 1], [2]] output_shape [2, 256, 512] : tensor<512x512xf32> into tensor<2x256x512xf32>
    return %expanded_9 : tensor<2x256x512xf32>
  }
}
