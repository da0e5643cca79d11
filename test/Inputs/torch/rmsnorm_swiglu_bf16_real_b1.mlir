// rmsnorm_swiglu_bf16_real_b1: scripts/export-torch-corpus.py (rmsnorm_swiglu_bf16, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 1); weights elided
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_swiglu_bf16_real_b1(%arg0: tensor<1x256x512xbf16>) -> tensor<1x256x512xbf16> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_512_1408_torch.bfloat16> : tensor<512x1408xbf16>
    %cst_2 = arith.constant dense_resource<torch_tensor_1408_512_torch.bfloat16_1> : tensor<1408x512xbf16>
    %cst_3 = arith.constant dense_resource<torch_tensor_1408_512_torch.bfloat16> : tensor<1408x512xbf16>
    %cst_4 = arith.constant dense_resource<torch_tensor_512_torch.bfloat16> : tensor<512xbf16>
    %cst_5 = arith.constant 9.9999999999999995E-7 : f64
    %cst_6 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<1x256x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x256x512xbf16>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %34 = arith.extf %in : bf16 to f32
      linalg.yield %34 : f32
    } -> tensor<1x256x512xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %34 : f32
    } -> tensor<1x256x512xf32>
    %3 = tensor.empty() : tensor<1x256x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<1x256x1xf32>) -> tensor<1x256x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<1x256x512xf32>) outs(%4 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.addf %in, %out : f32
      linalg.yield %34 : f32
    } -> tensor<1x256x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x256x1xf32>) outs(%3 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.divf %in, %cst_6 : f32
      linalg.yield %34 : f32
    } -> tensor<1x256x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x256x1xf32>) outs(%3 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.truncf %cst_5 : f64 to f32
      %35 = arith.addf %in, %34 : f32
      linalg.yield %35 : f32
    } -> tensor<1x256x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<1x256x1xf32>) outs(%3 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = math.rsqrt %in : f32
      linalg.yield %34 : f32
    } -> tensor<1x256x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %8 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %34 = arith.mulf %in, %in_12 : f32
      linalg.yield %34 : f32
    } -> tensor<1x256x512xf32>
    %10 = tensor.empty() : tensor<1x256x512xbf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<1x256x512xf32>) outs(%10 : tensor<1x256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %34 = arith.truncf %in : f32 to bf16
      linalg.yield %34 : bf16
    } -> tensor<1x256x512xbf16>
    %12 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_4, %11 : tensor<512xbf16>, tensor<1x256x512xbf16>) outs(%10 : tensor<1x256x512xbf16>) {
    ^bb0(%in: bf16, %in_12: bf16, %out: bf16):
      %34 = arith.mulf %in, %in_12 : bf16
      linalg.yield %34 : bf16
    } -> tensor<1x256x512xbf16>
    %13 = tensor.empty() : tensor<512x1408xbf16>
    %transposed = linalg.transpose ins(%cst_3 : tensor<1408x512xbf16>) outs(%13 : tensor<512x1408xbf16>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %12 [[0, 1], [2]] : tensor<1x256x512xbf16> into tensor<256x512xbf16>
    %14 = tensor.empty() : tensor<256x1408xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %16 = linalg.matmul ins(%collapsed, %transposed : tensor<256x512xbf16>, tensor<512x1408xbf16>) outs(%15 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %17 = tensor.empty() : tensor<256x1408xbf16>
    %18 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<256x1408xf32>) outs(%17 : tensor<256x1408xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %34 = arith.truncf %in : f32 to bf16
      linalg.yield %34 : bf16
    } -> tensor<256x1408xbf16>
    %expanded = tensor.expand_shape %18 [[0, 1], [2]] output_shape [1, 256, 1408] : tensor<256x1408xbf16> into tensor<1x256x1408xbf16>
    %19 = tensor.empty() : tensor<1x256x1408xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x256x1408xbf16>) outs(%19 : tensor<1x256x1408xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %34 = arith.extf %in : bf16 to f32
      linalg.yield %34 : f32
    } -> tensor<1x256x1408xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<1x256x1408xf32>) outs(%19 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.negf %in : f32
      %35 = math.exp %34 : f32
      %36 = arith.addf %35, %cst_0 : f32
      %37 = arith.divf %cst_0, %36 : f32
      linalg.yield %37 : f32
    } -> tensor<1x256x1408xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %21 : tensor<1x256x1408xf32>, tensor<1x256x1408xf32>) outs(%19 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %34 = arith.mulf %in, %in_12 : f32
      linalg.yield %34 : f32
    } -> tensor<1x256x1408xf32>
    %23 = tensor.empty() : tensor<1x256x1408xbf16>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<1x256x1408xf32>) outs(%23 : tensor<1x256x1408xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %34 = arith.truncf %in : f32 to bf16
      linalg.yield %34 : bf16
    } -> tensor<1x256x1408xbf16>
    %transposed_7 = linalg.transpose ins(%cst_2 : tensor<1408x512xbf16>) outs(%13 : tensor<512x1408xbf16>) permutation = [1, 0] 
    %25 = linalg.matmul ins(%collapsed, %transposed_7 : tensor<256x512xbf16>, tensor<512x1408xbf16>) outs(%15 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%25 : tensor<256x1408xf32>) outs(%17 : tensor<256x1408xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %34 = arith.truncf %in : f32 to bf16
      linalg.yield %34 : bf16
    } -> tensor<256x1408xbf16>
    %expanded_8 = tensor.expand_shape %26 [[0, 1], [2]] output_shape [1, 256, 1408] : tensor<256x1408xbf16> into tensor<1x256x1408xbf16>
    %27 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24, %expanded_8 : tensor<1x256x1408xbf16>, tensor<1x256x1408xbf16>) outs(%23 : tensor<1x256x1408xbf16>) {
    ^bb0(%in: bf16, %in_12: bf16, %out: bf16):
      %34 = arith.mulf %in, %in_12 : bf16
      linalg.yield %34 : bf16
    } -> tensor<1x256x1408xbf16>
    %28 = tensor.empty() : tensor<1408x512xbf16>
    %transposed_9 = linalg.transpose ins(%cst_1 : tensor<512x1408xbf16>) outs(%28 : tensor<1408x512xbf16>) permutation = [1, 0] 
    %collapsed_10 = tensor.collapse_shape %27 [[0, 1], [2]] : tensor<1x256x1408xbf16> into tensor<256x1408xbf16>
    %29 = tensor.empty() : tensor<256x512xf32>
    %30 = linalg.fill ins(%cst : f32) outs(%29 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %31 = linalg.matmul ins(%collapsed_10, %transposed_9 : tensor<256x1408xbf16>, tensor<1408x512xbf16>) outs(%30 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %32 = tensor.empty() : tensor<256x512xbf16>
    %33 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%31 : tensor<256x512xf32>) outs(%32 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %34 = arith.truncf %in : f32 to bf16
      linalg.yield %34 : bf16
    } -> tensor<256x512xbf16>
    %expanded_11 = tensor.expand_shape %33 [[0, 1], [2]] output_shape [1, 256, 512] : tensor<256x512xbf16> into tensor<1x256x512xbf16>
    return %expanded_11 : tensor<1x256x512xbf16>
  }
}
