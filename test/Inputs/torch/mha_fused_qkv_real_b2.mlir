// mha_fused_qkv_real_b2: scripts/export-torch-corpus.py (mha_fused_qkv, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @mha_fused_qkv_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x8x256x256xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_512_512_torch.float32> : tensor<512x512xf32>
    %cst_4 = arith.constant 0xFFF0000000000000 : f64
    %cst_5 = arith.constant 0.35355339059327379 : f64
    %cst_6 = arith.constant dense_resource<torch_tensor_1536_torch.float32> : tensor<1536xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_1536_512_torch.float32> : tensor<1536x512xf32>
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %0 = tensor.empty() : tensor<512x1536xf32>
    %transposed = linalg.transpose ins(%cst_7 : tensor<1536x512xf32>) outs(%0 : tensor<512x1536xf32>) permutation = [1, 0] 
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512x1536xf32>) -> tensor<512x1536xf32>
    %2 = linalg.matmul ins(%collapsed, %transposed : tensor<512x512xf32>, tensor<512x1536xf32>) outs(%1 : tensor<512x1536xf32>) -> tensor<512x1536xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_6 : tensor<1536xf32>) outs(%0 : tensor<512x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x1536xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%2, %3 : tensor<512x1536xf32>, tensor<512x1536xf32>) outs(%0 : tensor<512x1536xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %42 = arith.addf %in, %in_24 : f32
      linalg.yield %42 : f32
    } -> tensor<512x1536xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2, 3, 4]] output_shape [2, 256, 3, 8, 64] : tensor<512x1536xf32> into tensor<2x256x3x8x64xf32>
    %5 = tensor.empty() : tensor<3x2x8x256x64xf32>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<2x256x3x8x64xf32>) outs(%5 : tensor<3x2x8x256x64xf32>) permutation = [2, 0, 3, 1, 4] 
    %extracted_slice = tensor.extract_slice %transposed_8[0, 0, 0, 0, 0] [1, 2, 8, 256, 64] [1, 1, 1, 1, 1] : tensor<3x2x8x256x64xf32> to tensor<1x2x8x256x64xf32>
    %extracted_slice_9 = tensor.extract_slice %transposed_8[1, 0, 0, 0, 0] [1, 2, 8, 256, 64] [1, 1, 1, 1, 1] : tensor<3x2x8x256x64xf32> to tensor<1x2x8x256x64xf32>
    %extracted_slice_10 = tensor.extract_slice %transposed_8[2, 0, 0, 0, 0] [1, 2, 8, 256, 64] [1, 1, 1, 1, 1] : tensor<3x2x8x256x64xf32> to tensor<1x2x8x256x64xf32>
    %collapsed_11 = tensor.collapse_shape %extracted_slice [[0, 1], [2], [3], [4]] : tensor<1x2x8x256x64xf32> into tensor<2x8x256x64xf32>
    %collapsed_12 = tensor.collapse_shape %extracted_slice_9 [[0, 1], [2], [3], [4]] : tensor<1x2x8x256x64xf32> into tensor<2x8x256x64xf32>
    %6 = tensor.empty() : tensor<2x8x256x64xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed_11 : tensor<2x8x256x64xf32>) outs(%6 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %42 = arith.truncf %cst_5 : f64 to f32
      %43 = arith.mulf %in, %42 : f32
      linalg.yield %43 : f32
    } -> tensor<2x8x256x64xf32>
    %8 = tensor.empty() : tensor<2x8x64x256xf32>
    %transposed_13 = linalg.transpose ins(%collapsed_12 : tensor<2x8x256x64xf32>) outs(%8 : tensor<2x8x64x256xf32>) permutation = [0, 1, 3, 2] 
    %9 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13 : tensor<2x8x64x256xf32>) outs(%8 : tensor<2x8x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %42 = arith.truncf %cst_5 : f64 to f32
      %43 = arith.mulf %in, %42 : f32
      linalg.yield %43 : f32
    } -> tensor<2x8x64x256xf32>
    %collapsed_14 = tensor.collapse_shape %7 [[0, 1], [2], [3]] : tensor<2x8x256x64xf32> into tensor<16x256x64xf32>
    %collapsed_15 = tensor.collapse_shape %9 [[0, 1], [2], [3]] : tensor<2x8x64x256xf32> into tensor<16x64x256xf32>
    %10 = tensor.empty() : tensor<16x256x256xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %12 = linalg.batch_matmul ins(%collapsed_14, %collapsed_15 : tensor<16x256x64xf32>, tensor<16x64x256xf32>) outs(%11 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %expanded_16 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [2, 8, 256, 256] : tensor<16x256x256xf32> into tensor<2x8x256x256xf32>
    %13 = tensor.empty() : tensor<2x8x256xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<2x8x256xi64>) -> tensor<2x8x256xi64>
    %15 = tensor.empty() : tensor<2x8x256xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<2x8x256xf32>) -> tensor<2x8x256xf32>
    %17:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded_16 : tensor<2x8x256x256xf32>) outs(%16, %14 : tensor<2x8x256xf32>, tensor<2x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_24: i64):
      %42 = linalg.index 3 : index
      %43 = arith.index_cast %42 : index to i64
      %44 = arith.maximumf %in, %out : f32
      %45 = arith.cmpf ogt, %in, %out : f32
      %46 = arith.select %45, %43, %out_24 : i64
      linalg.yield %44, %46 : f32, i64
    } -> (tensor<2x8x256xf32>, tensor<2x8x256xi64>)
    %expanded_17 = tensor.expand_shape %17#0 [[0], [1], [2, 3]] output_shape [2, 8, 256, 1] : tensor<2x8x256xf32> into tensor<2x8x256x1xf32>
    %18 = tensor.empty() : tensor<2x8x256x256xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16, %expanded_17 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%18 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %42 = arith.subf %in, %in_24 : f32
      linalg.yield %42 : f32
    } -> tensor<2x8x256x256xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x8x256x256xf32>) outs(%18 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %42 = math.exp %in : f32
      linalg.yield %42 : f32
    } -> tensor<2x8x256x256xf32>
    %21 = tensor.empty() : tensor<2x8x256x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<2x8x256x1xf32>) -> tensor<2x8x256x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<2x8x256x256xf32>) outs(%22 : tensor<2x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %42 = arith.addf %in, %out : f32
      linalg.yield %42 : f32
    } -> tensor<2x8x256x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%18 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %42 = arith.divf %in, %in_24 : f32
      linalg.yield %42 : f32
    } -> tensor<2x8x256x256xf32>
    %25 = tensor.empty() : tensor<2x8x256x256xi1>
    %26 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16 : tensor<2x8x256x256xf32>) outs(%25 : tensor<2x8x256x256xi1>) {
    ^bb0(%in: f32, %out: i1):
      %42 = arith.extf %in : f32 to f64
      %43 = arith.cmpf oeq, %42, %cst_4 : f64
      linalg.yield %43 : i1
    } -> tensor<2x8x256x256xi1>
    %27 = tensor.empty() : tensor<2x8x256x1xi1>
    %28 = linalg.fill ins(%true : i1) outs(%27 : tensor<2x8x256x1xi1>) -> tensor<2x8x256x1xi1>
    %29 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%26 : tensor<2x8x256x256xi1>) outs(%28 : tensor<2x8x256x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %42 = arith.andi %in, %out : i1
      linalg.yield %42 : i1
    } -> tensor<2x8x256x1xi1>
    %30 = linalg.generic {indexing_maps = [#map4, #map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %cst_1, %24 : tensor<2x8x256x1xi1>, tensor<2x8x256x256xf32>, tensor<2x8x256x256xf32>) outs(%18 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: i1, %in_24: f32, %in_25: f32, %out: f32):
      %42 = arith.select %in, %in_24, %in_25 : f32
      linalg.yield %42 : f32
    } -> tensor<2x8x256x256xf32>
    %collapsed_18 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<2x8x256x256xf32> into tensor<16x256x256xf32>
    %collapsed_19 = tensor.collapse_shape %extracted_slice_10 [[0, 1, 2], [3], [4]] : tensor<1x2x8x256x64xf32> into tensor<16x256x64xf32>
    %31 = tensor.empty() : tensor<16x256x64xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %33 = linalg.batch_matmul ins(%collapsed_18, %collapsed_19 : tensor<16x256x256xf32>, tensor<16x256x64xf32>) outs(%32 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %expanded_20 = tensor.expand_shape %33 [[0, 1], [2], [3]] output_shape [2, 8, 256, 64] : tensor<16x256x64xf32> into tensor<2x8x256x64xf32>
    %34 = tensor.empty() : tensor<2x256x8x64xf32>
    %transposed_21 = linalg.transpose ins(%expanded_20 : tensor<2x8x256x64xf32>) outs(%34 : tensor<2x256x8x64xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_22 = tensor.collapse_shape %transposed_21 [[0], [1], [2, 3]] : tensor<2x256x8x64xf32> into tensor<2x256x512xf32>
    %35 = tensor.empty() : tensor<512x512xf32>
    %transposed_23 = linalg.transpose ins(%cst_3 : tensor<512x512xf32>) outs(%35 : tensor<512x512xf32>) permutation = [1, 0] 
    %36 = tensor.empty() : tensor<2x512x512xf32>
    %37 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_23 : tensor<512x512xf32>) outs(%36 : tensor<2x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x512x512xf32>
    %38 = tensor.empty() : tensor<2x256x512xf32>
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<2x256x512xf32>) -> tensor<2x256x512xf32>
    %40 = linalg.batch_matmul ins(%collapsed_22, %37 : tensor<2x256x512xf32>, tensor<2x512x512xf32>) outs(%39 : tensor<2x256x512xf32>) -> tensor<2x256x512xf32>
    %41 = linalg.generic {indexing_maps = [#map6, #map7, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%40, %cst_2 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%38 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %42 = arith.addf %in, %in_24 : f32
      linalg.yield %42 : f32
    } -> tensor<2x256x512xf32>
    return %41 : tensor<2x256x512xf32>
  }
}
