// rmsnorm_swiglu_f32_real_b2: scripts/export-torch-corpus.py (rmsnorm_swiglu_f32, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @rmsnorm_swiglu_f32_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_512_1408_torch.float32> : tensor<512x1408xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32_1> : tensor<1408x512xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32> : tensor<1408x512xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_5 = arith.constant 9.9999999999999995E-7 : f64
    %cst_6 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<2x256x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %22 : f32
    } -> tensor<2x256x512xf32>
    %2 = tensor.empty() : tensor<2x256x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x256x1xf32>) -> tensor<2x256x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x256x512xf32>) outs(%3 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_6 : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.truncf %cst_5 : f64 to f32
      %23 = arith.addf %in, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<2x256x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.rsqrt %in : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %22 = arith.mulf %in, %in_12 : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x512xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_4, %8 : tensor<512xf32>, tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %22 = arith.mulf %in, %in_12 : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x512xf32>
    %10 = tensor.empty() : tensor<512x1408xf32>
    %transposed = linalg.transpose ins(%cst_3 : tensor<1408x512xf32>) outs(%10 : tensor<512x1408xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %12 = linalg.matmul ins(%collapsed, %transposed : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%11 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %expanded = tensor.expand_shape %12 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %13 = tensor.empty() : tensor<2x256x1408xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x256x1408xf32>) outs(%13 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.negf %in : f32
      %23 = math.exp %22 : f32
      %24 = arith.addf %23, %cst_0 : f32
      %25 = arith.divf %cst_0, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<2x256x1408xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %14 : tensor<2x256x1408xf32>, tensor<2x256x1408xf32>) outs(%13 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %22 = arith.mulf %in, %in_12 : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x1408xf32>
    %transposed_7 = linalg.transpose ins(%cst_2 : tensor<1408x512xf32>) outs(%10 : tensor<512x1408xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%collapsed, %transposed_7 : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%11 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %expanded_8 = tensor.expand_shape %16 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %expanded_8 : tensor<2x256x1408xf32>, tensor<2x256x1408xf32>) outs(%13 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %22 = arith.mulf %in, %in_12 : f32
      linalg.yield %22 : f32
    } -> tensor<2x256x1408xf32>
    %18 = tensor.empty() : tensor<1408x512xf32>
    %transposed_9 = linalg.transpose ins(%cst_1 : tensor<512x1408xf32>) outs(%18 : tensor<1408x512xf32>) permutation = [1, 0] 
    %collapsed_10 = tensor.collapse_shape %17 [[0, 1], [2]] : tensor<2x256x1408xf32> into tensor<512x1408xf32>
    %19 = tensor.empty() : tensor<512x512xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %21 = linalg.matmul ins(%collapsed_10, %transposed_9 : tensor<512x1408xf32>, tensor<1408x512xf32>) outs(%20 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %expanded_11 = tensor.expand_shape %21 [[0, 1], [2]] output_shape [2, 256, 512] : tensor<512x512xf32> into tensor<2x256x512xf32>
    return %expanded_11 : tensor<2x256x512xf32>
  }
}
