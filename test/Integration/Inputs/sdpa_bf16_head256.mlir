// sdpa_bf16 at one head of 256 over 200 positions, batch 2: scripts/export-torch-corpus.py (sdpa_bf16, size w256, not in the corpus)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_bf16_w256_b2(%arg0: tensor<2x1x200x256xbf16>, %arg1: tensor<2x1x200x256xbf16>, %arg2: tensor<2x1x200x256xbf16>) -> tensor<2x1x200x256xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x1x200x200xf32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 2.500000e-01 : f32
    %0 = tensor.empty() : tensor<2x1x200x256xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x1x200x256xbf16>) outs(%0 : tensor<2x1x200x256xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %33 = arith.extf %in : bf16 to f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x256xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x1x200x256xbf16>) outs(%0 : tensor<2x1x200x256xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %33 = arith.extf %in : bf16 to f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x256xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x1x200x256xbf16>) outs(%0 : tensor<2x1x200x256xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %33 = arith.extf %in : bf16 to f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x256xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x1x200x256xf32>) outs(%0 : tensor<2x1x200x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.mulf %in, %cst_3 : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x256xf32>
    %5 = tensor.empty() : tensor<2x1x256x200xf32>
    %transposed = linalg.transpose ins(%2 : tensor<2x1x200x256xf32>) outs(%5 : tensor<2x1x256x200xf32>) permutation = [0, 1, 3, 2] 
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x1x256x200xf32>) outs(%5 : tensor<2x1x256x200xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.mulf %in, %cst_3 : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x256x200xf32>
    %collapsed = tensor.collapse_shape %4 [[0], [1, 2], [3]] : tensor<2x1x200x256xf32> into tensor<2x200x256xf32>
    %collapsed_4 = tensor.collapse_shape %6 [[0], [1, 2], [3]] : tensor<2x1x256x200xf32> into tensor<2x256x200xf32>
    %7 = tensor.empty() : tensor<2x200x200xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
    %9 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<2x200x256xf32>, tensor<2x256x200xf32>) outs(%8 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
    %expanded = tensor.expand_shape %9 [[0], [1, 2], [3]] output_shape [2, 1, 200, 200] : tensor<2x200x200xf32> into tensor<2x1x200x200xf32>
    %10 = tensor.empty() : tensor<2x1x200xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<2x1x200xi64>) -> tensor<2x1x200xi64>
    %12 = tensor.empty() : tensor<2x1x200xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x1x200xf32>) -> tensor<2x1x200xf32>
    %14:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded : tensor<2x1x200x200xf32>) outs(%13, %11 : tensor<2x1x200xf32>, tensor<2x1x200xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %33 = linalg.index 3 : index
      %34 = arith.index_cast %33 : index to i64
      %35 = arith.maximumf %in, %out : f32
      %36 = arith.cmpf ogt, %in, %out : f32
      %37 = arith.select %36, %34, %out_9 : i64
      linalg.yield %35, %37 : f32, i64
    } -> (tensor<2x1x200xf32>, tensor<2x1x200xi64>)
    %expanded_5 = tensor.expand_shape %14#0 [[0], [1], [2, 3]] output_shape [2, 1, 200, 1] : tensor<2x1x200xf32> into tensor<2x1x200x1xf32>
    %15 = tensor.empty() : tensor<2x1x200x200xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<2x1x200x200xf32>, tensor<2x1x200x1xf32>) outs(%15 : tensor<2x1x200x200xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.subf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x200xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x1x200x200xf32>) outs(%15 : tensor<2x1x200x200xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = math.exp %in : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x200xf32>
    %18 = tensor.empty() : tensor<2x1x200x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x1x200x1xf32>) -> tensor<2x1x200x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<2x1x200x200xf32>) outs(%19 : tensor<2x1x200x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.addf %in, %out : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x1xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<2x1x200x200xf32>, tensor<2x1x200x1xf32>) outs(%15 : tensor<2x1x200x200xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %33 = arith.divf %in, %in_9 : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x200xf32>
    %22 = tensor.empty() : tensor<2x1x200x200xi1>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x1x200x200xf32>) outs(%22 : tensor<2x1x200x200xi1>) {
    ^bb0(%in: f32, %out: i1):
      %33 = arith.extf %in : f32 to f64
      %34 = arith.cmpf oeq, %33, %cst_2 : f64
      linalg.yield %34 : i1
    } -> tensor<2x1x200x200xi1>
    %24 = tensor.empty() : tensor<2x1x200x1xi1>
    %25 = linalg.fill ins(%true : i1) outs(%24 : tensor<2x1x200x1xi1>) -> tensor<2x1x200x1xi1>
    %26 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<2x1x200x200xi1>) outs(%25 : tensor<2x1x200x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %33 = arith.andi %in, %out : i1
      linalg.yield %33 : i1
    } -> tensor<2x1x200x1xi1>
    %27 = linalg.generic {indexing_maps = [#map2, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %cst_1, %21 : tensor<2x1x200x1xi1>, tensor<2x1x200x200xf32>, tensor<2x1x200x200xf32>) outs(%15 : tensor<2x1x200x200xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %33 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %33 : f32
    } -> tensor<2x1x200x200xf32>
    %collapsed_6 = tensor.collapse_shape %27 [[0], [1, 2], [3]] : tensor<2x1x200x200xf32> into tensor<2x200x200xf32>
    %collapsed_7 = tensor.collapse_shape %3 [[0], [1, 2], [3]] : tensor<2x1x200x256xf32> into tensor<2x200x256xf32>
    %28 = tensor.empty() : tensor<2x200x256xf32>
    %29 = linalg.fill ins(%cst : f32) outs(%28 : tensor<2x200x256xf32>) -> tensor<2x200x256xf32>
    %30 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<2x200x200xf32>, tensor<2x200x256xf32>) outs(%29 : tensor<2x200x256xf32>) -> tensor<2x200x256xf32>
    %expanded_8 = tensor.expand_shape %30 [[0], [1, 2], [3]] output_shape [2, 1, 200, 256] : tensor<2x200x256xf32> into tensor<2x1x200x256xf32>
    %31 = tensor.empty() : tensor<2x1x200x256xbf16>
    %32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_8 : tensor<2x1x200x256xf32>) outs(%31 : tensor<2x1x200x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %33 = arith.truncf %in : f32 to bf16
      linalg.yield %33 : bf16
    } -> tensor<2x1x200x256xbf16>
    return %32 : tensor<2x1x200x256xbf16>
  }
}
