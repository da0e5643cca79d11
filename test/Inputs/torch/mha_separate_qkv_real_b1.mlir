// mha_separate_qkv_real_b1: scripts/export-torch-corpus.py (mha_separate_qkv, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 1); weights elided
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @mha_separate_qkv_real_b1(%arg0: tensor<1x256x512xf32>) -> tensor<1x256x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_512_torch.float32_3> : tensor<512xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_3> : tensor<512x512xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_512_torch.float32_2> : tensor<512xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_2> : tensor<512x512xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_512_torch.float32_1> : tensor<512xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_1> : tensor<512x512xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_512_512_torch.float32> : tensor<512x512xf32>
    %cst_9 = arith.constant 8.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x256x512xf32> into tensor<256x512xf32>
    %0 = tensor.empty() : tensor<512x512xf32>
    %transposed = linalg.transpose ins(%cst_8 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<256x512xf32>, tensor<512x512xf32>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_7 : tensor<512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.addf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<256x512xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %6 = tensor.empty() : tensor<1x8x256x64xf32>
    %transposed_10 = linalg.transpose ins(%expanded : tensor<1x256x8x64xf32>) outs(%6 : tensor<1x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_11 = linalg.transpose ins(%cst_6 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
    %7 = linalg.matmul ins(%collapsed, %transposed_11 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_5 : tensor<512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%7, %8 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.addf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<256x512xf32>
    %expanded_12 = tensor.expand_shape %9 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %transposed_13 = linalg.transpose ins(%cst_4 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
    %10 = linalg.matmul ins(%collapsed, %transposed_13 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_3 : tensor<512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %11 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.addf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<256x512xf32>
    %expanded_14 = tensor.expand_shape %12 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<1x256x8x64xf32>) outs(%6 : tensor<1x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %13 = tensor.empty() : tensor<1x8x64x256xf32>
    %transposed_16 = linalg.transpose ins(%expanded_12 : tensor<1x256x8x64xf32>) outs(%13 : tensor<1x8x64x256xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_17 = tensor.collapse_shape %transposed_10 [[0, 1], [2], [3]] : tensor<1x8x256x64xf32> into tensor<8x256x64xf32>
    %collapsed_18 = tensor.collapse_shape %transposed_16 [[0, 1], [2], [3]] : tensor<1x8x64x256xf32> into tensor<8x64x256xf32>
    %14 = tensor.empty() : tensor<8x256x256xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %16 = linalg.batch_matmul ins(%collapsed_17, %collapsed_18 : tensor<8x256x64xf32>, tensor<8x64x256xf32>) outs(%15 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %expanded_19 = tensor.expand_shape %16 [[0, 1], [2], [3]] output_shape [1, 8, 256, 256] : tensor<8x256x256xf32> into tensor<1x8x256x256xf32>
    %17 = tensor.empty() : tensor<1x8x256x256xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19 : tensor<1x8x256x256xf32>) outs(%17 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %37 = arith.divf %in, %cst_9 : f32
      linalg.yield %37 : f32
    } -> tensor<1x8x256x256xf32>
    %19 = tensor.empty() : tensor<1x8x256xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<1x8x256xi64>) -> tensor<1x8x256xi64>
    %21 = tensor.empty() : tensor<1x8x256xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<1x8x256xf32>) -> tensor<1x8x256xf32>
    %23:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<1x8x256x256xf32>) outs(%22, %20 : tensor<1x8x256xf32>, tensor<1x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_28: i64):
      %37 = linalg.index 3 : index
      %38 = arith.index_cast %37 : index to i64
      %39 = arith.maximumf %in, %out : f32
      %40 = arith.cmpf ogt, %in, %out : f32
      %41 = arith.select %40, %38, %out_28 : i64
      linalg.yield %39, %41 : f32, i64
    } -> (tensor<1x8x256xf32>, tensor<1x8x256xi64>)
    %expanded_20 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [1, 8, 256, 1] : tensor<1x8x256xf32> into tensor<1x8x256x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_20 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%17 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.subf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<1x8x256x256xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<1x8x256x256xf32>) outs(%17 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %37 = math.exp %in : f32
      linalg.yield %37 : f32
    } -> tensor<1x8x256x256xf32>
    %26 = tensor.empty() : tensor<1x8x256x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<1x8x256x1xf32>) -> tensor<1x8x256x1xf32>
    %28 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<1x8x256x256xf32>) outs(%27 : tensor<1x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %37 = arith.addf %in, %out : f32
      linalg.yield %37 : f32
    } -> tensor<1x8x256x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%17 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.divf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<1x8x256x256xf32>
    %collapsed_21 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<1x8x256x256xf32> into tensor<8x256x256xf32>
    %collapsed_22 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<1x8x256x64xf32> into tensor<8x256x64xf32>
    %30 = tensor.empty() : tensor<8x256x64xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %32 = linalg.batch_matmul ins(%collapsed_21, %collapsed_22 : tensor<8x256x256xf32>, tensor<8x256x64xf32>) outs(%31 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %expanded_23 = tensor.expand_shape %32 [[0, 1], [2], [3]] output_shape [1, 8, 256, 64] : tensor<8x256x64xf32> into tensor<1x8x256x64xf32>
    %33 = tensor.empty() : tensor<1x256x8x64xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<1x8x256x64xf32>) outs(%33 : tensor<1x256x8x64xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_25 = tensor.collapse_shape %transposed_24 [[0, 1], [2, 3]] : tensor<1x256x8x64xf32> into tensor<256x512xf32>
    %transposed_26 = linalg.transpose ins(%cst_2 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
    %34 = linalg.matmul ins(%collapsed_25, %transposed_26 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_1 : tensor<512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%34, %35 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%1 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %37 = arith.addf %in, %in_28 : f32
      linalg.yield %37 : f32
    } -> tensor<256x512xf32>
    %expanded_27 = tensor.expand_shape %36 [[0, 1], [2]] output_shape [1, 256, 512] : tensor<256x512xf32> into tensor<1x256x512xf32>
    return %expanded_27 : tensor<1x256x512xf32>
  }
}
