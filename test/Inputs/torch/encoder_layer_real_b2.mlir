// encoder_layer_real_b2: scripts/export-torch-corpus.py (encoder_layer, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map6 = affine_map<(d0, d1) -> (d1)>
#map7 = affine_map<(d0, d1) -> (d0, d1)>
#map8 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @encoder_layer_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0.000000e+00 : f64
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x8x256x256xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_512_torch.float32_5> : tensor<512xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_512_torch.float32_4> : tensor<512xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_512_torch.float32_3> : tensor<512xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_512_1408_torch.float32> : tensor<512x1408xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_1408_torch.float32> : tensor<1408xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32> : tensor<1408x512xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_512_torch.float32_2> : tensor<512xf32>
    %cst_10 = arith.constant dense_resource<torch_tensor_512_torch.float32_1> : tensor<512xf32>
    %cst_11 = arith.constant 1.000000e-05 : f64
    %cst_12 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_13 = arith.constant dense_resource<torch_tensor_512_512_torch.float32> : tensor<512x512xf32>
    %cst_14 = arith.constant 0xFFF0000000000000 : f64
    %cst_15 = arith.constant 0.35355339059327379 : f64
    %cst_16 = arith.constant dense_resource<torch_tensor_1536_torch.float32> : tensor<1536xf32>
    %cst_17 = arith.constant dense_resource<torch_tensor_1536_512_torch.float32> : tensor<1536x512xf32>
    %cst_18 = arith.constant 5.120000e+02 : f64
    %cst_19 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<256x2x512xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<2x256x512xf32>) outs(%0 : tensor<256x2x512xf32>) permutation = [1, 0, 2] 
    %1 = tensor.empty() : tensor<512x1536xf32>
    %transposed_20 = linalg.transpose ins(%cst_17 : tensor<1536x512xf32>) outs(%1 : tensor<512x1536xf32>) permutation = [1, 0] 
    %2 = tensor.empty() : tensor<256x512x1536xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_20 : tensor<512x1536xf32>) outs(%2 : tensor<256x512x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512x1536xf32>
    %4 = tensor.empty() : tensor<256x2x1536xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<256x2x1536xf32>) -> tensor<256x2x1536xf32>
    %6 = linalg.batch_matmul ins(%transposed, %3 : tensor<256x2x512xf32>, tensor<256x512x1536xf32>) outs(%5 : tensor<256x2x1536xf32>) -> tensor<256x2x1536xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %cst_16 : tensor<256x2x1536xf32>, tensor<1536xf32>) outs(%4 : tensor<256x2x1536xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<256x2x1536xf32>
    %expanded = tensor.expand_shape %7 [[0, 1], [2], [3, 4]] output_shape [1, 256, 2, 3, 512] : tensor<256x2x1536xf32> into tensor<1x256x2x3x512xf32>
    %8 = tensor.empty() : tensor<3x256x2x1x512xf32>
    %transposed_21 = linalg.transpose ins(%expanded : tensor<1x256x2x3x512xf32>) outs(%8 : tensor<3x256x2x1x512xf32>) permutation = [3, 1, 2, 0, 4] 
    %collapsed = tensor.collapse_shape %transposed_21 [[0], [1], [2, 3], [4]] : tensor<3x256x2x1x512xf32> into tensor<3x256x2x512xf32>
    %extracted_slice = tensor.extract_slice %collapsed[0, 0, 0, 0] [1, 256, 2, 512] [1, 1, 1, 1] : tensor<3x256x2x512xf32> to tensor<1x256x2x512xf32>
    %extracted_slice_22 = tensor.extract_slice %collapsed[1, 0, 0, 0] [1, 256, 2, 512] [1, 1, 1, 1] : tensor<3x256x2x512xf32> to tensor<1x256x2x512xf32>
    %extracted_slice_23 = tensor.extract_slice %collapsed[2, 0, 0, 0] [1, 256, 2, 512] [1, 1, 1, 1] : tensor<3x256x2x512xf32> to tensor<1x256x2x512xf32>
    %collapsed_24 = tensor.collapse_shape %extracted_slice [[0, 1], [2, 3]] : tensor<1x256x2x512xf32> into tensor<256x1024xf32>
    %expanded_25 = tensor.expand_shape %collapsed_24 [[0], [1, 2]] output_shape [256, 16, 64] : tensor<256x1024xf32> into tensor<256x16x64xf32>
    %9 = tensor.empty() : tensor<16x256x64xf32>
    %transposed_26 = linalg.transpose ins(%expanded_25 : tensor<256x16x64xf32>) outs(%9 : tensor<16x256x64xf32>) permutation = [1, 0, 2] 
    %collapsed_27 = tensor.collapse_shape %extracted_slice_22 [[0, 1], [2, 3]] : tensor<1x256x2x512xf32> into tensor<256x1024xf32>
    %expanded_28 = tensor.expand_shape %collapsed_27 [[0], [1, 2]] output_shape [256, 16, 64] : tensor<256x1024xf32> into tensor<256x16x64xf32>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<256x16x64xf32>) outs(%9 : tensor<16x256x64xf32>) permutation = [1, 0, 2] 
    %collapsed_30 = tensor.collapse_shape %extracted_slice_23 [[0, 1], [2, 3]] : tensor<1x256x2x512xf32> into tensor<256x1024xf32>
    %expanded_31 = tensor.expand_shape %collapsed_30 [[0], [1, 2]] output_shape [256, 16, 64] : tensor<256x1024xf32> into tensor<256x16x64xf32>
    %transposed_32 = linalg.transpose ins(%expanded_31 : tensor<256x16x64xf32>) outs(%9 : tensor<16x256x64xf32>) permutation = [1, 0, 2] 
    %expanded_33 = tensor.expand_shape %transposed_26 [[0, 1], [2], [3]] output_shape [2, 8, 256, 64] : tensor<16x256x64xf32> into tensor<2x8x256x64xf32>
    %expanded_34 = tensor.expand_shape %transposed_29 [[0, 1], [2], [3]] output_shape [2, 8, 256, 64] : tensor<16x256x64xf32> into tensor<2x8x256x64xf32>
    %10 = tensor.empty() : tensor<2x8x256x64xf32>
    %11 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_33 : tensor<2x8x256x64xf32>) outs(%10 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.truncf %cst_15 : f64 to f32
      %95 = arith.mulf %in, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<2x8x256x64xf32>
    %12 = tensor.empty() : tensor<2x8x64x256xf32>
    %transposed_35 = linalg.transpose ins(%expanded_34 : tensor<2x8x256x64xf32>) outs(%12 : tensor<2x8x64x256xf32>) permutation = [0, 1, 3, 2] 
    %13 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_35 : tensor<2x8x64x256xf32>) outs(%12 : tensor<2x8x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.truncf %cst_15 : f64 to f32
      %95 = arith.mulf %in, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<2x8x64x256xf32>
    %collapsed_36 = tensor.collapse_shape %11 [[0, 1], [2], [3]] : tensor<2x8x256x64xf32> into tensor<16x256x64xf32>
    %collapsed_37 = tensor.collapse_shape %13 [[0, 1], [2], [3]] : tensor<2x8x64x256xf32> into tensor<16x64x256xf32>
    %14 = tensor.empty() : tensor<16x256x256xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %16 = linalg.batch_matmul ins(%collapsed_36, %collapsed_37 : tensor<16x256x64xf32>, tensor<16x64x256xf32>) outs(%15 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %expanded_38 = tensor.expand_shape %16 [[0, 1], [2], [3]] output_shape [2, 8, 256, 256] : tensor<16x256x256xf32> into tensor<2x8x256x256xf32>
    %17 = tensor.empty() : tensor<2x8x256xi64>
    %18 = linalg.fill ins(%c0_i64 : i64) outs(%17 : tensor<2x8x256xi64>) -> tensor<2x8x256xi64>
    %19 = tensor.empty() : tensor<2x8x256xf32>
    %20 = linalg.fill ins(%cst_0 : f32) outs(%19 : tensor<2x8x256xf32>) -> tensor<2x8x256xf32>
    %21:2 = linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded_38 : tensor<2x8x256x256xf32>) outs(%20, %18 : tensor<2x8x256xf32>, tensor<2x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_53: i64):
      %94 = linalg.index 3 : index
      %95 = arith.index_cast %94 : index to i64
      %96 = arith.maximumf %in, %out : f32
      %97 = arith.cmpf ogt, %in, %out : f32
      %98 = arith.select %97, %95, %out_53 : i64
      linalg.yield %96, %98 : f32, i64
    } -> (tensor<2x8x256xf32>, tensor<2x8x256xi64>)
    %expanded_39 = tensor.expand_shape %21#0 [[0], [1], [2, 3]] output_shape [2, 8, 256, 1] : tensor<2x8x256xf32> into tensor<2x8x256x1xf32>
    %22 = tensor.empty() : tensor<2x8x256x256xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_38, %expanded_39 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%22 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.subf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x8x256x256xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x8x256x256xf32>) outs(%22 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = math.exp %in : f32
      linalg.yield %94 : f32
    } -> tensor<2x8x256x256xf32>
    %25 = tensor.empty() : tensor<2x8x256x1xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<2x8x256x1xf32>) -> tensor<2x8x256x1xf32>
    %27 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%24 : tensor<2x8x256x256xf32>) outs(%26 : tensor<2x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.addf %in, %out : f32
      linalg.yield %94 : f32
    } -> tensor<2x8x256x1xf32>
    %28 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %27 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%22 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.divf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x8x256x256xf32>
    %29 = tensor.empty() : tensor<2x8x256x256xi1>
    %30 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_38 : tensor<2x8x256x256xf32>) outs(%29 : tensor<2x8x256x256xi1>) {
    ^bb0(%in: f32, %out: i1):
      %94 = arith.extf %in : f32 to f64
      %95 = arith.cmpf oeq, %94, %cst_14 : f64
      linalg.yield %95 : i1
    } -> tensor<2x8x256x256xi1>
    %31 = tensor.empty() : tensor<2x8x256x1xi1>
    %32 = linalg.fill ins(%true : i1) outs(%31 : tensor<2x8x256x1xi1>) -> tensor<2x8x256x1xi1>
    %33 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<2x8x256x256xi1>) outs(%32 : tensor<2x8x256x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %94 = arith.andi %in, %out : i1
      linalg.yield %94 : i1
    } -> tensor<2x8x256x1xi1>
    %34 = linalg.generic {indexing_maps = [#map5, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %cst_2, %28 : tensor<2x8x256x1xi1>, tensor<2x8x256x256xf32>, tensor<2x8x256x256xf32>) outs(%22 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: i1, %in_53: f32, %in_54: f32, %out: f32):
      %94 = arith.select %in, %in_53, %in_54 : f32
      linalg.yield %94 : f32
    } -> tensor<2x8x256x256xf32>
    %collapsed_40 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<2x8x256x256xf32> into tensor<16x256x256xf32>
    %35 = linalg.fill ins(%cst : f32) outs(%9 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %36 = linalg.batch_matmul ins(%collapsed_40, %transposed_32 : tensor<16x256x256xf32>, tensor<16x256x64xf32>) outs(%35 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %expanded_41 = tensor.expand_shape %36 [[0, 1], [2], [3]] output_shape [2, 8, 256, 64] : tensor<16x256x64xf32> into tensor<2x8x256x64xf32>
    %37 = tensor.empty() : tensor<256x2x8x64xf32>
    %transposed_42 = linalg.transpose ins(%expanded_41 : tensor<2x8x256x64xf32>) outs(%37 : tensor<256x2x8x64xf32>) permutation = [2, 0, 1, 3] 
    %collapsed_43 = tensor.collapse_shape %transposed_42 [[0, 1], [2, 3]] : tensor<256x2x8x64xf32> into tensor<512x512xf32>
    %38 = tensor.empty() : tensor<512x512xf32>
    %transposed_44 = linalg.transpose ins(%cst_13 : tensor<512x512xf32>) outs(%38 : tensor<512x512xf32>) permutation = [1, 0] 
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %40 = linalg.matmul ins(%collapsed_43, %transposed_44 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%39 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %41 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel"]} ins(%cst_12 : tensor<512xf32>) outs(%38 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x512xf32>
    %42 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel"]} ins(%40, %41 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%38 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<512x512xf32>
    %expanded_45 = tensor.expand_shape %42 [[0, 1], [2]] output_shape [256, 2, 512] : tensor<512x512xf32> into tensor<256x2x512xf32>
    %43 = tensor.empty() : tensor<2x256x512xf32>
    %transposed_46 = linalg.transpose ins(%expanded_45 : tensor<256x2x512xf32>) outs(%43 : tensor<2x256x512xf32>) permutation = [1, 0, 2] 
    %44 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %transposed_46 : tensor<2x256x512xf32>, tensor<2x256x512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %45 = tensor.empty() : tensor<2x256x512xf64>
    %46 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<2x256x512xf32>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f32, %out: f64):
      %94 = arith.extf %in : f32 to f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %47 = tensor.empty() : tensor<2x256x1xf64>
    %48 = linalg.fill ins(%cst_1 : f64) outs(%47 : tensor<2x256x1xf64>) -> tensor<2x256x1xf64>
    %49 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%46 : tensor<2x256x512xf64>) outs(%48 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.addf %in, %out : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %50 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%49 : tensor<2x256x1xf64>) outs(%47 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.divf %in, %cst_18 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %51 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46, %50 : tensor<2x256x512xf64>, tensor<2x256x1xf64>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_53: f64, %out: f64):
      %94 = arith.subf %in, %in_53 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %52 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%51, %51 : tensor<2x256x512xf64>, tensor<2x256x512xf64>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_53: f64, %out: f64):
      %94 = arith.mulf %in, %in_53 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %53 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%52 : tensor<2x256x512xf64>) outs(%48 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.addf %in, %out : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %54 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53 : tensor<2x256x1xf64>) outs(%47 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.divf %in, %cst_18 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %55 = tensor.empty() : tensor<2x256x1xf32>
    %56 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54 : tensor<2x256x1xf64>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %94 = arith.truncf %in : f64 to f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %57 = linalg.fill ins(%cst : f32) outs(%55 : tensor<2x256x1xf32>) -> tensor<2x256x1xf32>
    %58 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%44 : tensor<2x256x512xf32>) outs(%57 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.addf %in, %out : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %59 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.divf %in, %cst_19 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %60 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.truncf %cst_11 : f64 to f32
      %95 = arith.addf %in, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<2x256x1xf32>
    %61 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = math.rsqrt %in : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %62 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44, %59 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.subf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %61 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.mulf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %cst_10 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.mulf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %65 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64, %cst_9 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %collapsed_47 = tensor.collapse_shape %65 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %66 = tensor.empty() : tensor<512x1408xf32>
    %transposed_48 = linalg.transpose ins(%cst_8 : tensor<1408x512xf32>) outs(%66 : tensor<512x1408xf32>) permutation = [1, 0] 
    %67 = linalg.fill ins(%cst : f32) outs(%66 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %68 = linalg.matmul ins(%collapsed_47, %transposed_48 : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%67 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %69 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel"]} ins(%cst_7 : tensor<1408xf32>) outs(%66 : tensor<512x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x1408xf32>
    %70 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel"]} ins(%68, %69 : tensor<512x1408xf32>, tensor<512x1408xf32>) outs(%66 : tensor<512x1408xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<512x1408xf32>
    %expanded_49 = tensor.expand_shape %70 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %71 = tensor.empty() : tensor<2x256x1408xf32>
    %72 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_49 : tensor<2x256x1408xf32>) outs(%71 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.cmpf ugt, %in, %cst : f32
      %95 = arith.select %94, %in, %cst : f32
      linalg.yield %95 : f32
    } -> tensor<2x256x1408xf32>
    %collapsed_50 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<2x256x1408xf32> into tensor<512x1408xf32>
    %73 = tensor.empty() : tensor<1408x512xf32>
    %transposed_51 = linalg.transpose ins(%cst_6 : tensor<512x1408xf32>) outs(%73 : tensor<1408x512xf32>) permutation = [1, 0] 
    %74 = linalg.matmul ins(%collapsed_50, %transposed_51 : tensor<512x1408xf32>, tensor<1408x512xf32>) outs(%39 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %75 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel"]} ins(%cst_5 : tensor<512xf32>) outs(%38 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<512x512xf32>
    %76 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel"]} ins(%74, %75 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%38 : tensor<512x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<512x512xf32>
    %expanded_52 = tensor.expand_shape %76 [[0, 1], [2]] output_shape [2, 256, 512] : tensor<512x512xf32> into tensor<2x256x512xf32>
    %77 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65, %expanded_52 : tensor<2x256x512xf32>, tensor<2x256x512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %78 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77 : tensor<2x256x512xf32>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f32, %out: f64):
      %94 = arith.extf %in : f32 to f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %79 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%78 : tensor<2x256x512xf64>) outs(%48 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.addf %in, %out : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %80 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79 : tensor<2x256x1xf64>) outs(%47 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.divf %in, %cst_18 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %81 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78, %80 : tensor<2x256x512xf64>, tensor<2x256x1xf64>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_53: f64, %out: f64):
      %94 = arith.subf %in, %in_53 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %82 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%81, %81 : tensor<2x256x512xf64>, tensor<2x256x512xf64>) outs(%45 : tensor<2x256x512xf64>) {
    ^bb0(%in: f64, %in_53: f64, %out: f64):
      %94 = arith.mulf %in, %in_53 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x512xf64>
    %83 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%82 : tensor<2x256x512xf64>) outs(%48 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.addf %in, %out : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %84 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83 : tensor<2x256x1xf64>) outs(%47 : tensor<2x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %94 = arith.divf %in, %cst_18 : f64
      linalg.yield %94 : f64
    } -> tensor<2x256x1xf64>
    %85 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84 : tensor<2x256x1xf64>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %94 = arith.truncf %in : f64 to f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %86 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%77 : tensor<2x256x512xf32>) outs(%57 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.addf %in, %out : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %87 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%86 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.divf %in, %cst_19 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %88 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = arith.truncf %cst_11 : f64 to f32
      %95 = arith.addf %in, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<2x256x1xf32>
    %89 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88 : tensor<2x256x1xf32>) outs(%55 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %94 = math.rsqrt %in : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x1xf32>
    %90 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77, %87 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.subf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90, %89 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.mulf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91, %cst_4 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.mulf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    %93 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92, %cst_3 : tensor<2x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %94 = arith.addf %in, %in_53 : f32
      linalg.yield %94 : f32
    } -> tensor<2x256x512xf32>
    return %93 : tensor<2x256x512xf32>
  }
}
