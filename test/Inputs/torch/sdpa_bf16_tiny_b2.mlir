// sdpa_bf16_tiny_b2: scripts/export-torch-corpus.py (sdpa_bf16, size tiny {'S': 16, 'D': 32, 'H': 2, 'FFN': 64}, batch 2)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_bf16_tiny_b2(%arg0: tensor<2x2x16x16xbf16>, %arg1: tensor<2x2x16x16xbf16>, %arg2: tensor<2x2x16x16xbf16>) -> tensor<2x2x16x16xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x2x16x16xf32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<2x2x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x2x16x16xbf16>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %29 = arith.extf %in : bf16 to f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x2x16x16xbf16>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %29 = arith.extf %in : bf16 to f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x2x16x16xbf16>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %29 = arith.extf %in : bf16 to f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.mulf %in, %cst_3 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %transposed = linalg.transpose ins(%2 : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x16x16xf32>) permutation = [0, 1, 3, 2] 
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.mulf %in, %cst_3 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %collapsed = tensor.collapse_shape %4 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %collapsed_4 = tensor.collapse_shape %5 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %6 = tensor.empty() : tensor<4x16x16xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %8 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%7 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %expanded = tensor.expand_shape %8 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %9 = tensor.empty() : tensor<2x2x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<2x2x16xi64>) -> tensor<2x2x16xi64>
    %11 = tensor.empty() : tensor<2x2x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded : tensor<2x2x16x16xf32>) outs(%12, %10 : tensor<2x2x16xf32>, tensor<2x2x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_9 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x2x16xf32>, tensor<2x2x16xi64>)
    %expanded_5 = tensor.expand_shape %13#0 [[0], [1], [2, 3]] output_shape [2, 2, 16, 1] : tensor<2x2x16xf32> into tensor<2x2x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<2x2x16x16xf32>, tensor<2x2x16x1xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %29 = arith.subf %in, %in_9 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %16 = tensor.empty() : tensor<2x2x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<2x2x16x1xf32>) -> tensor<2x2x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x2x16x16xf32>) outs(%17 : tensor<2x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<2x2x16x16xf32>, tensor<2x2x16x1xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %29 = arith.divf %in, %in_9 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %20 = tensor.empty() : tensor<2x2x16x16xi1>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x2x16x16xf32>) outs(%20 : tensor<2x2x16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %29 = arith.extf %in : f32 to f64
      %30 = arith.cmpf oeq, %29, %cst_2 : f64
      linalg.yield %30 : i1
    } -> tensor<2x2x16x16xi1>
    %22 = tensor.empty() : tensor<2x2x16x1xi1>
    %23 = linalg.fill ins(%true : i1) outs(%22 : tensor<2x2x16x1xi1>) -> tensor<2x2x16x1xi1>
    %24 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%21 : tensor<2x2x16x16xi1>) outs(%23 : tensor<2x2x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %29 = arith.andi %in, %out : i1
      linalg.yield %29 : i1
    } -> tensor<2x2x16x1xi1>
    %25 = linalg.generic {indexing_maps = [#map2, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %cst_1, %19 : tensor<2x2x16x1xi1>, tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x16x16xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %29 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x16x16xf32>
    %collapsed_6 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %collapsed_7 = tensor.collapse_shape %3 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %26 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%7 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %expanded_8 = tensor.expand_shape %26 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %27 = tensor.empty() : tensor<2x2x16x16xbf16>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_8 : tensor<2x2x16x16xf32>) outs(%27 : tensor<2x2x16x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %29 = arith.truncf %in : f32 to bf16
      linalg.yield %29 : bf16
    } -> tensor<2x2x16x16xbf16>
    return %28 : tensor<2x2x16x16xbf16>
  }
}
