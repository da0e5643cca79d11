// layernorm_linear_real_b2: scripts/export-torch-corpus.py (layernorm_linear, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @layernorm_linear_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_512_torch.float32_2> : tensor<512xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_512_512_torch.float32> : tensor<512x512xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_512_torch.float32_1> : tensor<512xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_5 = arith.constant 1.000000e-05 : f64
    %cst_6 = arith.constant 5.120000e+02 : f64
    %cst_7 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<2x256x512xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf64>) {
    ^bb0(%in: f32, %out: f64):
      %27 = arith.extf %in : f32 to f64
      linalg.yield %27 : f64
    } -> tensor<2x256x512xf64>
    %2 = tensor.empty() : tensor<2x256x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<2x256x1xf64>) -> tensor<2x256x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x256x512xf64>) outs(%3 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.addf %in, %out : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x256x1xf64>) outs(%2 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.divf %in, %cst_6 : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<2x256x512xf64>, tensor<2x256x1xf64>) outs(%0 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %27 = arith.subf %in, %in_8 : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x512xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<2x256x512xf64>, tensor<2x256x512xf64>) outs(%0 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %27 = arith.mulf %in, %in_8 : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x512xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x256x512xf64>) outs(%3 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.addf %in, %out : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x256x1xf64>) outs(%2 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.divf %in, %cst_6 : f64
      linalg.yield %27 : f64
    } -> tensor<2x256x1xf64>
    %10 = tensor.empty() : tensor<2x256x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<2x256x1xf64>) outs(%10 : tensor<2x256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %27 = arith.truncf %in : f64 to f32
      linalg.yield %27 : f32
    } -> tensor<2x256x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x256x1xf32>) -> tensor<2x256x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x256x512xf32>) outs(%12 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<2x256x1xf32>) outs(%10 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.divf %in, %cst_7 : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<2x256x1xf32>) outs(%10 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.truncf %cst_5 : f64 to f32
      %28 = arith.addf %in, %27 : f32
      linalg.yield %28 : f32
    } -> tensor<2x256x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<2x256x1xf32>) outs(%10 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.rsqrt %in : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x1xf32>
    %17 = tensor.empty() : tensor<2x256x512xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %14 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%17 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %27 = arith.subf %in, %in_8 : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x512xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%17 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %27 = arith.mulf %in, %in_8 : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x512xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %cst_4 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%17 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %27 = arith.mulf %in, %in_8 : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x512xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %cst_3 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%17 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %27 = arith.addf %in, %in_8 : f32
      linalg.yield %27 : f32
    } -> tensor<2x256x512xf32>
    %collapsed = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %22 = tensor.empty() : tensor<512x512xf32>
    %transposed = linalg.transpose ins(%cst_2 : tensor<512x512xf32>) outs(%22 : tensor<512x512xf32>) permutation = [1, 0] 
    %23 = linalg.fill ins(%cst_0 : f32) outs(%22 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %24 = linalg.matmul ins(%collapsed, %transposed : tensor<512x512xf32>, tensor<512x512xf32>) outs(%23 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%cst_1 : tensor<512xf32>) outs(%22 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x512xf32>
    %26 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%24, %25 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%22 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %27 = arith.addf %in, %in_8 : f32
      linalg.yield %27 : f32
    } -> tensor<512x512xf32>
    %expanded = tensor.expand_shape %26 [[0, 1], [2]] output_shape [2, 256, 512] : tensor<512x512xf32> into tensor<2x256x512xf32>
    return %expanded : tensor<2x256x512xf32>
  }
}
