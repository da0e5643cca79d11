// sdpa_causal_bf16_tiny_b1: scripts/export-torch-corpus.py (sdpa_causal_bf16, size tiny {'S': 16, 'D': 32, 'H': 2, 'FFN': 64}, batch 1)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_causal_bf16_tiny_b1(%arg0: tensor<1x2x16x16xbf16>, %arg1: tensor<1x2x16x16xbf16>, %arg2: tensor<1x2x16x16xbf16>) -> tensor<1x2x16x16xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<1x2x16x16xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<16x16xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<1x2x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x2x16x16xbf16>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %39 = arith.extf %in : bf16 to f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<1x2x16x16xbf16>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %39 = arith.extf %in : bf16 to f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<1x2x16x16xbf16>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %39 = arith.extf %in : bf16 to f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %39 = arith.mulf %in, %cst_6 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %5 = tensor.empty() : tensor<16xi64>
    %6 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%5 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %39 = linalg.index 0 : index
      %40 = arith.index_cast %39 : index to i64
      linalg.yield %40 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %6 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_7 = tensor.expand_shape %6 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %7 = tensor.empty() : tensor<16x16xi64>
    %8 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_7 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%7 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_14: i64, %out: i64):
      %39 = arith.subi %in, %in_14 : i64
      linalg.yield %39 : i64
    } -> tensor<16x16xi64>
    %9 = tensor.empty() : tensor<16x16xi1>
    %10 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<16x16xi64>) outs(%9 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %39 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %39 : i1
    } -> tensor<16x16xi1>
    %11 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%10, %cst_4 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%9 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_14: i1, %out: i1):
      %39 = arith.andi %in, %in_14 : i1
      linalg.yield %39 : i1
    } -> tensor<16x16xi1>
    %12 = tensor.empty() : tensor<16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map5, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_2, %cst_3 : tensor<16x16xi1>, tensor<f32>, tensor<f32>) outs(%12 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %39 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %39 : f32
    } -> tensor<16x16xf32>
    %transposed = linalg.transpose ins(%2 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) permutation = [0, 1, 3, 2] 
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %39 = arith.mulf %in, %cst_6 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %collapsed = tensor.collapse_shape %4 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %collapsed_8 = tensor.collapse_shape %14 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %15 = tensor.empty() : tensor<2x16x16xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %17 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%16 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %expanded_9 = tensor.expand_shape %17 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %13 : tensor<1x2x16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %39 = arith.addf %in, %in_14 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %19 = tensor.empty() : tensor<1x2x16xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<1x2x16xi64>) -> tensor<1x2x16xi64>
    %21 = tensor.empty() : tensor<1x2x16xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
    %23:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<1x2x16x16xf32>) outs(%22, %20 : tensor<1x2x16xf32>, tensor<1x2x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %39 = linalg.index 3 : index
      %40 = arith.index_cast %39 : index to i64
      %41 = arith.maximumf %in, %out : f32
      %42 = arith.cmpf ogt, %in, %out : f32
      %43 = arith.select %42, %40, %out_14 : i64
      linalg.yield %41, %43 : f32, i64
    } -> (tensor<1x2x16xf32>, tensor<1x2x16xi64>)
    %expanded_10 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : tensor<1x2x16xf32> into tensor<1x2x16x1xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_10 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %39 = arith.subf %in, %in_14 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %39 = math.exp %in : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %26 = tensor.empty() : tensor<1x2x16x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<1x2x16x1xf32>) -> tensor<1x2x16x1xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<1x2x16x16xf32>) outs(%27 : tensor<1x2x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %39 = arith.addf %in, %out : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %39 = arith.divf %in, %in_14 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %30 = tensor.empty() : tensor<1x2x16x16xi1>
    %31 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x2x16x16xf32>) outs(%30 : tensor<1x2x16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %39 = arith.extf %in : f32 to f64
      %40 = arith.cmpf oeq, %39, %cst_5 : f64
      linalg.yield %40 : i1
    } -> tensor<1x2x16x16xi1>
    %32 = tensor.empty() : tensor<1x2x16x1xi1>
    %33 = linalg.fill ins(%true : i1) outs(%32 : tensor<1x2x16x1xi1>) -> tensor<1x2x16x1xi1>
    %34 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%31 : tensor<1x2x16x16xi1>) outs(%33 : tensor<1x2x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %39 = arith.andi %in, %out : i1
      linalg.yield %39 : i1
    } -> tensor<1x2x16x1xi1>
    %35 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34, %cst_1, %29 : tensor<1x2x16x1xi1>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) outs(%0 : tensor<1x2x16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %39 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %39 : f32
    } -> tensor<1x2x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %35 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %collapsed_12 = tensor.collapse_shape %3 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
    %36 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%16 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %expanded_13 = tensor.expand_shape %36 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
    %37 = tensor.empty() : tensor<1x2x16x16xbf16>
    %38 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_13 : tensor<1x2x16x16xf32>) outs(%37 : tensor<1x2x16x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %39 = arith.truncf %in : f32 to bf16
      linalg.yield %39 : bf16
    } -> tensor<1x2x16x16xbf16>
    return %38 : tensor<1x2x16x16xbf16>
  }
}
