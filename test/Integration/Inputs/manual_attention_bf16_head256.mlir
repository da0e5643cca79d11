// manual_attention_bf16 at one head of 256 over 200 positions, batch 2: scripts/export-torch-corpus.py (manual_attention_bf16, size w256, not in the corpus)
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @manual_attention_bf16_w256_b2(%arg0: tensor<2x200x256xbf16>, %arg1: tensor<2x200x256xbf16>, %arg2: tensor<2x200x256xbf16>) -> tensor<2x200x256xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.600000e+01 : bf16
    %0 = tensor.empty() : tensor<2x256x200xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x200x256xbf16>) outs(%0 : tensor<2x256x200xbf16>) permutation = [0, 2, 1] 
    %1 = tensor.empty() : tensor<2x200x200xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
    %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<2x200x256xbf16>, tensor<2x256x200xbf16>) outs(%2 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
    %4 = tensor.empty() : tensor<2x200x200xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<2x200x200xf32>) outs(%4 : tensor<2x200x200xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %25 = arith.truncf %in : f32 to bf16
      linalg.yield %25 : bf16
    } -> tensor<2x200x200xbf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<2x200x200xbf16>) outs(%4 : tensor<2x200x200xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %25 = arith.divf %in, %cst_1 : bf16
      linalg.yield %25 : bf16
    } -> tensor<2x200x200xbf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x200x200xbf16>) outs(%1 : tensor<2x200x200xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<2x200x200xf32>
    %8 = tensor.empty() : tensor<2x200xi64>
    %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<2x200xi64>) -> tensor<2x200xi64>
    %10 = tensor.empty() : tensor<2x200xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x200xf32>) -> tensor<2x200xf32>
    %12:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x200x200xf32>) outs(%11, %9 : tensor<2x200xf32>, tensor<2x200xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %25 = linalg.index 2 : index
      %26 = arith.index_cast %25 : index to i64
      %27 = arith.maximumf %in, %out : f32
      %28 = arith.cmpf ogt, %in, %out : f32
      %29 = arith.select %28, %26, %out_2 : i64
      linalg.yield %27, %29 : f32, i64
    } -> (tensor<2x200xf32>, tensor<2x200xi64>)
    %expanded = tensor.expand_shape %12#0 [[0], [1, 2]] output_shape [2, 200, 1] : tensor<2x200xf32> into tensor<2x200x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %expanded : tensor<2x200x200xf32>, tensor<2x200x1xf32>) outs(%1 : tensor<2x200x200xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %25 = arith.subf %in, %in_2 : f32
      linalg.yield %25 : f32
    } -> tensor<2x200x200xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<2x200x200xf32>) outs(%1 : tensor<2x200x200xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = math.exp %in : f32
      linalg.yield %25 : f32
    } -> tensor<2x200x200xf32>
    %15 = tensor.empty() : tensor<2x200x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x200x1xf32>) -> tensor<2x200x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%14 : tensor<2x200x200xf32>) outs(%16 : tensor<2x200x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = arith.addf %in, %out : f32
      linalg.yield %25 : f32
    } -> tensor<2x200x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<2x200x200xf32>, tensor<2x200x1xf32>) outs(%1 : tensor<2x200x200xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %25 = arith.divf %in, %in_2 : f32
      linalg.yield %25 : f32
    } -> tensor<2x200x200xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18 : tensor<2x200x200xf32>) outs(%4 : tensor<2x200x200xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %25 = arith.truncf %in : f32 to bf16
      linalg.yield %25 : bf16
    } -> tensor<2x200x200xbf16>
    %20 = tensor.empty() : tensor<2x200x256xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<2x200x256xf32>) -> tensor<2x200x256xf32>
    %22 = linalg.batch_matmul ins(%19, %arg2 : tensor<2x200x200xbf16>, tensor<2x200x256xbf16>) outs(%21 : tensor<2x200x256xf32>) -> tensor<2x200x256xf32>
    %23 = tensor.empty() : tensor<2x200x256xbf16>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<2x200x256xf32>) outs(%23 : tensor<2x200x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %25 = arith.truncf %in : f32 to bf16
      linalg.yield %25 : bf16
    } -> tensor<2x200x256xbf16>
    return %24 : tensor<2x200x256xbf16>
  }
}
