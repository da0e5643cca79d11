// sdpa_tiny_b1: scripts/export-torch-corpus.py (sdpa, size tiny {'S': 16, 'D': 32, 'H': 2, 'FFN': 64}, batch 1)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_tiny_b1(%arg0: tensor<1x2x16x16xf32>, %arg1: tensor<1x2x16x16xf32>, %arg2: tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<1x2x16x16xf32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<1x2x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %in, %cst_3 : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) permutation = [0, 1, 3, 2] 
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %in, %cst_3 : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %collapsed_4 = tensor.collapse_shape %2 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %3 = tensor.empty() : tensor<2x16x16xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%4 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
    %6 = tensor.empty() : tensor<1x2x16xi64>
    %7 = linalg.fill ins(%c0_i64 : i64) outs(%6 : tensor<1x2x16xi64>) -> tensor<1x2x16xi64>
    %8 = tensor.empty() : tensor<1x2x16xf32>
    %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
    %10:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded : tensor<1x2x16x16xf32>) outs(%9, %7 : tensor<1x2x16xf32>, tensor<1x2x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %24 = linalg.index 3 : index
      %25 = arith.index_cast %24 : index to i64
      %26 = arith.maximumf %in, %out : f32
      %27 = arith.cmpf ogt, %in, %out : f32
      %28 = arith.select %27, %25, %out_9 : i64
      linalg.yield %26, %28 : f32, i64
    } -> (tensor<1x2x16xf32>, tensor<1x2x16xi64>)
    %expanded_5 = tensor.expand_shape %10#0 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : tensor<1x2x16xf32> into tensor<1x2x16x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %24 = arith.subf %in, %in_9 : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = math.exp %in : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %13 = tensor.empty() : tensor<1x2x16x1xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<1x2x16x1xf32>) -> tensor<1x2x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%12 : tensor<1x2x16x16xf32>) outs(%14 : tensor<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.addf %in, %out : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %15 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %24 = arith.divf %in, %in_9 : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %17 = tensor.empty() : tensor<1x2x16x16xi1>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x2x16x16xf32>) outs(%17 : tensor<1x2x16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %24 = arith.extf %in : f32 to f64
      %25 = arith.cmpf oeq, %24, %cst_2 : f64
      linalg.yield %25 : i1
    } -> tensor<1x2x16x16xi1>
    %19 = tensor.empty() : tensor<1x2x16x1xi1>
    %20 = linalg.fill ins(%true : i1) outs(%19 : tensor<1x2x16x1xi1>) -> tensor<1x2x16x1xi1>
    %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<1x2x16x16xi1>) outs(%20 : tensor<1x2x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %24 = arith.andi %in, %out : i1
      linalg.yield %24 : i1
    } -> tensor<1x2x16x1xi1>
    %22 = linalg.generic {indexing_maps = [#map2, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %cst_1, %16 : tensor<1x2x16x1xi1>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %24 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %24 : f32
    } -> tensor<1x2x16x16xf32>
    %collapsed_6 = tensor.collapse_shape %22 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %23 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%4 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %expanded_8 = tensor.expand_shape %23 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
    return %expanded_8 : tensor<1x2x16x16xf32>
  }
}
