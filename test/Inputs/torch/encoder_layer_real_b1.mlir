// encoder_layer_real_b1: scripts/export-torch-corpus.py (encoder_layer, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 1); weights elided
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map7 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @encoder_layer_real_b1(%arg0: tensor<1x256x512xf32>) -> tensor<1x256x512xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0.000000e+00 : f64
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<1x8x256x256xf32>
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
    %0 = tensor.empty() : tensor<256x1x512xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<1x256x512xf32>) outs(%0 : tensor<256x1x512xf32>) permutation = [1, 0, 2] 
    %collapsed = tensor.collapse_shape %transposed [[0], [1, 2]] : tensor<256x1x512xf32> into tensor<256x512xf32>
    %1 = tensor.empty() : tensor<512x1536xf32>
    %transposed_20 = linalg.transpose ins(%cst_17 : tensor<1536x512xf32>) outs(%1 : tensor<512x1536xf32>) permutation = [1, 0] 
    %2 = tensor.empty() : tensor<256x1536xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<256x1536xf32>) -> tensor<256x1536xf32>
    %4 = linalg.matmul ins(%collapsed, %transposed_20 : tensor<256x512xf32>, tensor<512x1536xf32>) outs(%3 : tensor<256x1536xf32>) -> tensor<256x1536xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_16 : tensor<1536xf32>) outs(%2 : tensor<256x1536xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x1536xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%4, %5 : tensor<256x1536xf32>, tensor<256x1536xf32>) outs(%2 : tensor<256x1536xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<256x1536xf32>
    %expanded = tensor.expand_shape %6 [[0, 1], [2, 3, 4]] output_shape [1, 256, 1, 3, 512] : tensor<256x1536xf32> into tensor<1x256x1x3x512xf32>
    %7 = tensor.empty() : tensor<3x256x1x1x512xf32>
    %transposed_21 = linalg.transpose ins(%expanded : tensor<1x256x1x3x512xf32>) outs(%7 : tensor<3x256x1x1x512xf32>) permutation = [3, 1, 2, 0, 4] 
    %collapsed_22 = tensor.collapse_shape %transposed_21 [[0], [1], [2, 3], [4]] : tensor<3x256x1x1x512xf32> into tensor<3x256x1x512xf32>
    %extracted_slice = tensor.extract_slice %collapsed_22[0, 0, 0, 0] [1, 256, 1, 512] [1, 1, 1, 1] : tensor<3x256x1x512xf32> to tensor<1x256x1x512xf32>
    %extracted_slice_23 = tensor.extract_slice %collapsed_22[1, 0, 0, 0] [1, 256, 1, 512] [1, 1, 1, 1] : tensor<3x256x1x512xf32> to tensor<1x256x1x512xf32>
    %extracted_slice_24 = tensor.extract_slice %collapsed_22[2, 0, 0, 0] [1, 256, 1, 512] [1, 1, 1, 1] : tensor<3x256x1x512xf32> to tensor<1x256x1x512xf32>
    %collapsed_25 = tensor.collapse_shape %extracted_slice [[0, 1], [2, 3]] : tensor<1x256x1x512xf32> into tensor<256x512xf32>
    %expanded_26 = tensor.expand_shape %collapsed_25 [[0], [1, 2]] output_shape [256, 8, 64] : tensor<256x512xf32> into tensor<256x8x64xf32>
    %8 = tensor.empty() : tensor<8x256x64xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<256x8x64xf32>) outs(%8 : tensor<8x256x64xf32>) permutation = [1, 0, 2] 
    %collapsed_28 = tensor.collapse_shape %extracted_slice_23 [[0, 1], [2, 3]] : tensor<1x256x1x512xf32> into tensor<256x512xf32>
    %expanded_29 = tensor.expand_shape %collapsed_28 [[0], [1, 2]] output_shape [256, 8, 64] : tensor<256x512xf32> into tensor<256x8x64xf32>
    %transposed_30 = linalg.transpose ins(%expanded_29 : tensor<256x8x64xf32>) outs(%8 : tensor<8x256x64xf32>) permutation = [1, 0, 2] 
    %collapsed_31 = tensor.collapse_shape %extracted_slice_24 [[0, 1], [2, 3]] : tensor<1x256x1x512xf32> into tensor<256x512xf32>
    %expanded_32 = tensor.expand_shape %collapsed_31 [[0], [1, 2]] output_shape [256, 8, 64] : tensor<256x512xf32> into tensor<256x8x64xf32>
    %transposed_33 = linalg.transpose ins(%expanded_32 : tensor<256x8x64xf32>) outs(%8 : tensor<8x256x64xf32>) permutation = [1, 0, 2] 
    %expanded_34 = tensor.expand_shape %transposed_27 [[0, 1], [2], [3]] output_shape [1, 8, 256, 64] : tensor<8x256x64xf32> into tensor<1x8x256x64xf32>
    %expanded_35 = tensor.expand_shape %transposed_30 [[0, 1], [2], [3]] output_shape [1, 8, 256, 64] : tensor<8x256x64xf32> into tensor<1x8x256x64xf32>
    %9 = tensor.empty() : tensor<1x8x256x64xf32>
    %10 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<1x8x256x64xf32>) outs(%9 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.truncf %cst_15 : f64 to f32
      %96 = arith.mulf %in, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<1x8x256x64xf32>
    %11 = tensor.empty() : tensor<1x8x64x256xf32>
    %transposed_36 = linalg.transpose ins(%expanded_35 : tensor<1x8x256x64xf32>) outs(%11 : tensor<1x8x64x256xf32>) permutation = [0, 1, 3, 2] 
    %12 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_36 : tensor<1x8x64x256xf32>) outs(%11 : tensor<1x8x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.truncf %cst_15 : f64 to f32
      %96 = arith.mulf %in, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<1x8x64x256xf32>
    %collapsed_37 = tensor.collapse_shape %10 [[0, 1], [2], [3]] : tensor<1x8x256x64xf32> into tensor<8x256x64xf32>
    %collapsed_38 = tensor.collapse_shape %12 [[0, 1], [2], [3]] : tensor<1x8x64x256xf32> into tensor<8x64x256xf32>
    %13 = tensor.empty() : tensor<8x256x256xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %15 = linalg.batch_matmul ins(%collapsed_37, %collapsed_38 : tensor<8x256x64xf32>, tensor<8x64x256xf32>) outs(%14 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %expanded_39 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [1, 8, 256, 256] : tensor<8x256x256xf32> into tensor<1x8x256x256xf32>
    %16 = tensor.empty() : tensor<1x8x256xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<1x8x256xi64>) -> tensor<1x8x256xi64>
    %18 = tensor.empty() : tensor<1x8x256xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<1x8x256xf32>) -> tensor<1x8x256xf32>
    %20:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded_39 : tensor<1x8x256x256xf32>) outs(%19, %17 : tensor<1x8x256xf32>, tensor<1x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_54: i64):
      %95 = linalg.index 3 : index
      %96 = arith.index_cast %95 : index to i64
      %97 = arith.maximumf %in, %out : f32
      %98 = arith.cmpf ogt, %in, %out : f32
      %99 = arith.select %98, %96, %out_54 : i64
      linalg.yield %97, %99 : f32, i64
    } -> (tensor<1x8x256xf32>, tensor<1x8x256xi64>)
    %expanded_40 = tensor.expand_shape %20#0 [[0], [1], [2, 3]] output_shape [1, 8, 256, 1] : tensor<1x8x256xf32> into tensor<1x8x256x1xf32>
    %21 = tensor.empty() : tensor<1x8x256x256xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_39, %expanded_40 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%21 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.subf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x8x256x256xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22 : tensor<1x8x256x256xf32>) outs(%21 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = math.exp %in : f32
      linalg.yield %95 : f32
    } -> tensor<1x8x256x256xf32>
    %24 = tensor.empty() : tensor<1x8x256x1xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%24 : tensor<1x8x256x1xf32>) -> tensor<1x8x256x1xf32>
    %26 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<1x8x256x256xf32>) outs(%25 : tensor<1x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.addf %in, %out : f32
      linalg.yield %95 : f32
    } -> tensor<1x8x256x1xf32>
    %27 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %26 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%21 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.divf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x8x256x256xf32>
    %28 = tensor.empty() : tensor<1x8x256x256xi1>
    %29 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_39 : tensor<1x8x256x256xf32>) outs(%28 : tensor<1x8x256x256xi1>) {
    ^bb0(%in: f32, %out: i1):
      %95 = arith.extf %in : f32 to f64
      %96 = arith.cmpf oeq, %95, %cst_14 : f64
      linalg.yield %96 : i1
    } -> tensor<1x8x256x256xi1>
    %30 = tensor.empty() : tensor<1x8x256x1xi1>
    %31 = linalg.fill ins(%true : i1) outs(%30 : tensor<1x8x256x1xi1>) -> tensor<1x8x256x1xi1>
    %32 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%29 : tensor<1x8x256x256xi1>) outs(%31 : tensor<1x8x256x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %95 = arith.andi %in, %out : i1
      linalg.yield %95 : i1
    } -> tensor<1x8x256x1xi1>
    %33 = linalg.generic {indexing_maps = [#map4, #map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %cst_2, %27 : tensor<1x8x256x1xi1>, tensor<1x8x256x256xf32>, tensor<1x8x256x256xf32>) outs(%21 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: i1, %in_54: f32, %in_55: f32, %out: f32):
      %95 = arith.select %in, %in_54, %in_55 : f32
      linalg.yield %95 : f32
    } -> tensor<1x8x256x256xf32>
    %collapsed_41 = tensor.collapse_shape %33 [[0, 1], [2], [3]] : tensor<1x8x256x256xf32> into tensor<8x256x256xf32>
    %34 = linalg.fill ins(%cst : f32) outs(%8 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %35 = linalg.batch_matmul ins(%collapsed_41, %transposed_33 : tensor<8x256x256xf32>, tensor<8x256x64xf32>) outs(%34 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %expanded_42 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [1, 8, 256, 64] : tensor<8x256x64xf32> into tensor<1x8x256x64xf32>
    %36 = tensor.empty() : tensor<256x1x8x64xf32>
    %transposed_43 = linalg.transpose ins(%expanded_42 : tensor<1x8x256x64xf32>) outs(%36 : tensor<256x1x8x64xf32>) permutation = [2, 0, 1, 3] 
    %collapsed_44 = tensor.collapse_shape %transposed_43 [[0], [1, 2, 3]] : tensor<256x1x8x64xf32> into tensor<256x512xf32>
    %37 = tensor.empty() : tensor<512x512xf32>
    %transposed_45 = linalg.transpose ins(%cst_13 : tensor<512x512xf32>) outs(%37 : tensor<512x512xf32>) permutation = [1, 0] 
    %38 = tensor.empty() : tensor<256x512xf32>
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %40 = linalg.matmul ins(%collapsed_44, %transposed_45 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%39 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_12 : tensor<512xf32>) outs(%38 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%40, %41 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%38 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<256x512xf32>
    %expanded_46 = tensor.expand_shape %42 [[0], [1, 2]] output_shape [256, 1, 512] : tensor<256x512xf32> into tensor<256x1x512xf32>
    %43 = tensor.empty() : tensor<1x256x512xf32>
    %transposed_47 = linalg.transpose ins(%expanded_46 : tensor<256x1x512xf32>) outs(%43 : tensor<1x256x512xf32>) permutation = [1, 0, 2] 
    %44 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %transposed_47 : tensor<1x256x512xf32>, tensor<1x256x512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %45 = tensor.empty() : tensor<1x256x512xf64>
    %46 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<1x256x512xf32>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f32, %out: f64):
      %95 = arith.extf %in : f32 to f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %47 = tensor.empty() : tensor<1x256x1xf64>
    %48 = linalg.fill ins(%cst_1 : f64) outs(%47 : tensor<1x256x1xf64>) -> tensor<1x256x1xf64>
    %49 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%46 : tensor<1x256x512xf64>) outs(%48 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.addf %in, %out : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %50 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%49 : tensor<1x256x1xf64>) outs(%47 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.divf %in, %cst_18 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %51 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46, %50 : tensor<1x256x512xf64>, tensor<1x256x1xf64>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f64, %in_54: f64, %out: f64):
      %95 = arith.subf %in, %in_54 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %52 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%51, %51 : tensor<1x256x512xf64>, tensor<1x256x512xf64>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f64, %in_54: f64, %out: f64):
      %95 = arith.mulf %in, %in_54 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %53 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%52 : tensor<1x256x512xf64>) outs(%48 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.addf %in, %out : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %54 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53 : tensor<1x256x1xf64>) outs(%47 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.divf %in, %cst_18 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %55 = tensor.empty() : tensor<1x256x1xf32>
    %56 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54 : tensor<1x256x1xf64>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %95 = arith.truncf %in : f64 to f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %57 = linalg.fill ins(%cst : f32) outs(%55 : tensor<1x256x1xf32>) -> tensor<1x256x1xf32>
    %58 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%44 : tensor<1x256x512xf32>) outs(%57 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.addf %in, %out : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %59 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.divf %in, %cst_19 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %60 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.truncf %cst_11 : f64 to f32
      %96 = arith.addf %in, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<1x256x1xf32>
    %61 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = math.rsqrt %in : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %62 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44, %59 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.subf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %63 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %61 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.mulf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %64 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %cst_10 : tensor<1x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.mulf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %65 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64, %cst_9 : tensor<1x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %collapsed_48 = tensor.collapse_shape %65 [[0, 1], [2]] : tensor<1x256x512xf32> into tensor<256x512xf32>
    %66 = tensor.empty() : tensor<512x1408xf32>
    %transposed_49 = linalg.transpose ins(%cst_8 : tensor<1408x512xf32>) outs(%66 : tensor<512x1408xf32>) permutation = [1, 0] 
    %67 = tensor.empty() : tensor<256x1408xf32>
    %68 = linalg.fill ins(%cst : f32) outs(%67 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %69 = linalg.matmul ins(%collapsed_48, %transposed_49 : tensor<256x512xf32>, tensor<512x1408xf32>) outs(%68 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_7 : tensor<1408xf32>) outs(%67 : tensor<256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x1408xf32>
    %71 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%69, %70 : tensor<256x1408xf32>, tensor<256x1408xf32>) outs(%67 : tensor<256x1408xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<256x1408xf32>
    %expanded_50 = tensor.expand_shape %71 [[0, 1], [2]] output_shape [1, 256, 1408] : tensor<256x1408xf32> into tensor<1x256x1408xf32>
    %72 = tensor.empty() : tensor<1x256x1408xf32>
    %73 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_50 : tensor<1x256x1408xf32>) outs(%72 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.cmpf ugt, %in, %cst : f32
      %96 = arith.select %95, %in, %cst : f32
      linalg.yield %96 : f32
    } -> tensor<1x256x1408xf32>
    %collapsed_51 = tensor.collapse_shape %73 [[0, 1], [2]] : tensor<1x256x1408xf32> into tensor<256x1408xf32>
    %74 = tensor.empty() : tensor<1408x512xf32>
    %transposed_52 = linalg.transpose ins(%cst_6 : tensor<512x1408xf32>) outs(%74 : tensor<1408x512xf32>) permutation = [1, 0] 
    %75 = linalg.matmul ins(%collapsed_51, %transposed_52 : tensor<256x1408xf32>, tensor<1408x512xf32>) outs(%39 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_5 : tensor<512xf32>) outs(%38 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x512xf32>
    %77 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%75, %76 : tensor<256x512xf32>, tensor<256x512xf32>) outs(%38 : tensor<256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<256x512xf32>
    %expanded_53 = tensor.expand_shape %77 [[0, 1], [2]] output_shape [1, 256, 512] : tensor<256x512xf32> into tensor<1x256x512xf32>
    %78 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65, %expanded_53 : tensor<1x256x512xf32>, tensor<1x256x512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %79 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78 : tensor<1x256x512xf32>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f32, %out: f64):
      %95 = arith.extf %in : f32 to f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %80 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%79 : tensor<1x256x512xf64>) outs(%48 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.addf %in, %out : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %81 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%80 : tensor<1x256x1xf64>) outs(%47 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.divf %in, %cst_18 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %82 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79, %81 : tensor<1x256x512xf64>, tensor<1x256x1xf64>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f64, %in_54: f64, %out: f64):
      %95 = arith.subf %in, %in_54 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %83 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%82, %82 : tensor<1x256x512xf64>, tensor<1x256x512xf64>) outs(%45 : tensor<1x256x512xf64>) {
    ^bb0(%in: f64, %in_54: f64, %out: f64):
      %95 = arith.mulf %in, %in_54 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x512xf64>
    %84 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%83 : tensor<1x256x512xf64>) outs(%48 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.addf %in, %out : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %85 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84 : tensor<1x256x1xf64>) outs(%47 : tensor<1x256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %95 = arith.divf %in, %cst_18 : f64
      linalg.yield %95 : f64
    } -> tensor<1x256x1xf64>
    %86 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<1x256x1xf64>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %95 = arith.truncf %in : f64 to f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %87 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%78 : tensor<1x256x512xf32>) outs(%57 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.addf %in, %out : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %88 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.divf %in, %cst_19 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %89 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%86 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.truncf %cst_11 : f64 to f32
      %96 = arith.addf %in, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<1x256x1xf32>
    %90 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<1x256x1xf32>) outs(%55 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = math.rsqrt %in : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x1xf32>
    %91 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78, %88 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.subf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %92 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91, %90 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.mulf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %93 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92, %cst_4 : tensor<1x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.mulf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    %94 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93, %cst_3 : tensor<1x256x512xf32>, tensor<512xf32>) outs(%43 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %95 = arith.addf %in, %in_54 : f32
      linalg.yield %95 : f32
    } -> tensor<1x256x512xf32>
    return %94 : tensor<1x256x512xf32>
  }
}
