// llama_block_real_b1: scripts/export-torch-corpus.py (llama_block, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 1); weights elided
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1) -> (0, d1)>
#map7 = affine_map<(d0, d1) -> (d0, 0)>
#map8 = affine_map<(d0, d1) -> (d0, d1)>
#map9 = affine_map<(d0, d1) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_block_real_b1(%arg0: tensor<1x256x512xf32>) -> tensor<1x256x512xf32> {
    %c2_i64 = arith.constant 2 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<1x8x256x256xf32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = arith.constant dense<true> : tensor<256x256xi1>
    %cst_6 = arith.constant dense_resource<torch_tensor_512_1408_torch.float32> : tensor<512x1408xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32_1> : tensor<1408x512xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_1408_512_torch.float32> : tensor<1408x512xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_512_torch.float32_1> : tensor<512xf32>
    %cst_10 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_3> : tensor<512x512xf32>
    %cst_11 = arith.constant 0xFFF0000000000000 : f64
    %cst_12 = arith.constant 0.35355339059327379 : f64
    %cst_13 = arith.constant dense_resource<torch_tensor_256_64_torch.float32_1> : tensor<256x64xf32>
    %cst_14 = arith.constant dense_resource<torch_tensor_256_64_torch.float32> : tensor<256x64xf32>
    %cst_15 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_2> : tensor<512x512xf32>
    %cst_16 = arith.constant dense_resource<torch_tensor_512_512_torch.float32_1> : tensor<512x512xf32>
    %cst_17 = arith.constant dense_resource<torch_tensor_512_512_torch.float32> : tensor<512x512xf32>
    %cst_18 = arith.constant dense_resource<torch_tensor_512_torch.float32> : tensor<512xf32>
    %cst_19 = arith.constant 9.9999999999999995E-7 : f64
    %cst_20 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<1x256x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %2 = tensor.empty() : tensor<1x256x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x256x1xf32>) -> tensor<1x256x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x256x512xf32>) outs(%3 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_20 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_19 : f64 to f32
      %86 = arith.addf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x256x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.rsqrt %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_18, %8 : tensor<512xf32>, tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %10 = tensor.empty() : tensor<512x512xf32>
    %transposed = linalg.transpose ins(%cst_17 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<1x256x512xf32> into tensor<256x512xf32>
    %11 = tensor.empty() : tensor<256x512xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<256x512xf32>, tensor<512x512xf32>) outs(%12 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %expanded = tensor.expand_shape %13 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %14 = tensor.empty() : tensor<1x8x256x64xf32>
    %transposed_21 = linalg.transpose ins(%expanded : tensor<1x256x8x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_22 = linalg.transpose ins(%cst_16 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %15 = linalg.matmul ins(%collapsed, %transposed_22 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%12 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %expanded_23 = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<1x256x8x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_25 = linalg.transpose ins(%cst_15 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%collapsed, %transposed_25 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%12 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %expanded_26 = tensor.expand_shape %16 [[0, 1], [2, 3]] output_shape [1, 256, 8, 64] : tensor<256x512xf32> into tensor<1x256x8x64xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<1x256x8x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %17 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_21, %cst_14 : tensor<1x8x256x64xf32>, tensor<256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %extracted_slice = tensor.extract_slice %transposed_21[0, 0, 0, 32] [1, 8, 256, 32] [1, 1, 1, 1] : tensor<1x8x256x64xf32> to tensor<1x8x256x32xf32>
    %18 = tensor.empty() : tensor<1x8x256x32xf32>
    %19 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x8x256x32xf32>) outs(%18 : tensor<1x8x256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.negf %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x32xf32>
    %extracted_slice_28 = tensor.extract_slice %transposed_21[0, 0, 0, 0] [1, 8, 256, 32] [1, 1, 1, 1] : tensor<1x8x256x64xf32> to tensor<1x8x256x32xf32>
    %concat = tensor.concat dim(3) %19, %extracted_slice_28 : (tensor<1x8x256x32xf32>, tensor<1x8x256x32xf32>) -> tensor<1x8x256x64xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %cst_13 : tensor<1x8x256x64xf32>, tensor<256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %21 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<1x8x256x64xf32>, tensor<1x8x256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.addf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_24, %cst_14 : tensor<1x8x256x64xf32>, tensor<256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %extracted_slice_29 = tensor.extract_slice %transposed_24[0, 0, 0, 32] [1, 8, 256, 32] [1, 1, 1, 1] : tensor<1x8x256x64xf32> to tensor<1x8x256x32xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_29 : tensor<1x8x256x32xf32>) outs(%18 : tensor<1x8x256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.negf %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x32xf32>
    %extracted_slice_30 = tensor.extract_slice %transposed_24[0, 0, 0, 0] [1, 8, 256, 32] [1, 1, 1, 1] : tensor<1x8x256x64xf32> to tensor<1x8x256x32xf32>
    %concat_31 = tensor.concat dim(3) %23, %extracted_slice_30 : (tensor<1x8x256x32xf32>, tensor<1x8x256x32xf32>) -> tensor<1x8x256x64xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_31, %cst_13 : tensor<1x8x256x64xf32>, tensor<256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %24 : tensor<1x8x256x64xf32>, tensor<1x8x256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.addf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x64xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<1x8x256x64xf32>) outs(%14 : tensor<1x8x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_12 : f64 to f32
      %86 = arith.mulf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x256x64xf32>
    %27 = tensor.empty() : tensor<256xi64>
    %28 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel"]} outs(%27 : tensor<256xi64>) {
    ^bb0(%out: i64):
      %85 = linalg.index 0 : index
      %86 = arith.index_cast %85 : index to i64
      linalg.yield %86 : i64
    } -> tensor<256xi64>
    %expanded_32 = tensor.expand_shape %28 [[0, 1]] output_shape [1, 256] : tensor<256xi64> into tensor<1x256xi64>
    %expanded_33 = tensor.expand_shape %28 [[0, 1]] output_shape [256, 1] : tensor<256xi64> into tensor<256x1xi64>
    %29 = tensor.empty() : tensor<256x256xi64>
    %30 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel"]} ins(%expanded_32, %expanded_33 : tensor<1x256xi64>, tensor<256x1xi64>) outs(%29 : tensor<256x256xi64>) {
    ^bb0(%in: i64, %in_54: i64, %out: i64):
      %85 = arith.subi %in, %in_54 : i64
      linalg.yield %85 : i64
    } -> tensor<256x256xi64>
    %31 = tensor.empty() : tensor<256x256xi1>
    %32 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%30 : tensor<256x256xi64>) outs(%31 : tensor<256x256xi1>) {
    ^bb0(%in: i64, %out: i1):
      %85 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %85 : i1
    } -> tensor<256x256xi1>
    %33 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%32, %cst_5 : tensor<256x256xi1>, tensor<256x256xi1>) outs(%31 : tensor<256x256xi1>) {
    ^bb0(%in: i1, %in_54: i1, %out: i1):
      %85 = arith.andi %in, %in_54 : i1
      linalg.yield %85 : i1
    } -> tensor<256x256xi1>
    %34 = tensor.empty() : tensor<256x256xf32>
    %35 = linalg.generic {indexing_maps = [#map8, #map9, #map9, #map8], iterator_types = ["parallel", "parallel"]} ins(%33, %cst_3, %cst_4 : tensor<256x256xi1>, tensor<f32>, tensor<f32>) outs(%34 : tensor<256x256xf32>) {
    ^bb0(%in: i1, %in_54: f32, %in_55: f32, %out: f32):
      %85 = arith.select %in, %in_54, %in_55 : f32
      linalg.yield %85 : f32
    } -> tensor<256x256xf32>
    %36 = tensor.empty() : tensor<1x8x64x256xf32>
    %transposed_34 = linalg.transpose ins(%25 : tensor<1x8x256x64xf32>) outs(%36 : tensor<1x8x64x256xf32>) permutation = [0, 1, 3, 2] 
    %37 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_34 : tensor<1x8x64x256xf32>) outs(%36 : tensor<1x8x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_12 : f64 to f32
      %86 = arith.mulf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x64x256xf32>
    %collapsed_35 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<1x8x256x64xf32> into tensor<8x256x64xf32>
    %collapsed_36 = tensor.collapse_shape %37 [[0, 1], [2], [3]] : tensor<1x8x64x256xf32> into tensor<8x64x256xf32>
    %38 = tensor.empty() : tensor<8x256x256xf32>
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %40 = linalg.batch_matmul ins(%collapsed_35, %collapsed_36 : tensor<8x256x64xf32>, tensor<8x64x256xf32>) outs(%39 : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %expanded_37 = tensor.expand_shape %40 [[0, 1], [2], [3]] output_shape [1, 8, 256, 256] : tensor<8x256x256xf32> into tensor<1x8x256x256xf32>
    %41 = tensor.empty() : tensor<1x8x256x256xf32>
    %42 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_37, %35 : tensor<1x8x256x256xf32>, tensor<256x256xf32>) outs(%41 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.addf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x256xf32>
    %43 = tensor.empty() : tensor<1x8x256xi64>
    %44 = linalg.fill ins(%c0_i64 : i64) outs(%43 : tensor<1x8x256xi64>) -> tensor<1x8x256xi64>
    %45 = tensor.empty() : tensor<1x8x256xf32>
    %46 = linalg.fill ins(%cst_0 : f32) outs(%45 : tensor<1x8x256xf32>) -> tensor<1x8x256xf32>
    %47:2 = linalg.generic {indexing_maps = [#map3, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%42 : tensor<1x8x256x256xf32>) outs(%46, %44 : tensor<1x8x256xf32>, tensor<1x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_54: i64):
      %85 = linalg.index 3 : index
      %86 = arith.index_cast %85 : index to i64
      %87 = arith.maximumf %in, %out : f32
      %88 = arith.cmpf ogt, %in, %out : f32
      %89 = arith.select %88, %86, %out_54 : i64
      linalg.yield %87, %89 : f32, i64
    } -> (tensor<1x8x256xf32>, tensor<1x8x256xi64>)
    %expanded_38 = tensor.expand_shape %47#0 [[0], [1], [2, 3]] output_shape [1, 8, 256, 1] : tensor<1x8x256xf32> into tensor<1x8x256x1xf32>
    %48 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %expanded_38 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%41 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.subf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x256xf32>
    %49 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<1x8x256x256xf32>) outs(%41 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.exp %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x256xf32>
    %50 = tensor.empty() : tensor<1x8x256x1xf32>
    %51 = linalg.fill ins(%cst : f32) outs(%50 : tensor<1x8x256x1xf32>) -> tensor<1x8x256x1xf32>
    %52 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%49 : tensor<1x8x256x256xf32>) outs(%51 : tensor<1x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x1xf32>
    %53 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %52 : tensor<1x8x256x256xf32>, tensor<1x8x256x1xf32>) outs(%41 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.divf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x256xf32>
    %54 = tensor.empty() : tensor<1x8x256x256xi1>
    %55 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42 : tensor<1x8x256x256xf32>) outs(%54 : tensor<1x8x256x256xi1>) {
    ^bb0(%in: f32, %out: i1):
      %85 = arith.extf %in : f32 to f64
      %86 = arith.cmpf oeq, %85, %cst_11 : f64
      linalg.yield %86 : i1
    } -> tensor<1x8x256x256xi1>
    %56 = tensor.empty() : tensor<1x8x256x1xi1>
    %57 = linalg.fill ins(%true : i1) outs(%56 : tensor<1x8x256x1xi1>) -> tensor<1x8x256x1xi1>
    %58 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%55 : tensor<1x8x256x256xi1>) outs(%57 : tensor<1x8x256x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %85 = arith.andi %in, %out : i1
      linalg.yield %85 : i1
    } -> tensor<1x8x256x1xi1>
    %59 = linalg.generic {indexing_maps = [#map11, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58, %cst_2, %53 : tensor<1x8x256x1xi1>, tensor<1x8x256x256xf32>, tensor<1x8x256x256xf32>) outs(%41 : tensor<1x8x256x256xf32>) {
    ^bb0(%in: i1, %in_54: f32, %in_55: f32, %out: f32):
      %85 = arith.select %in, %in_54, %in_55 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256x256xf32>
    %collapsed_39 = tensor.collapse_shape %59 [[0, 1], [2], [3]] : tensor<1x8x256x256xf32> into tensor<8x256x256xf32>
    %collapsed_40 = tensor.collapse_shape %transposed_27 [[0, 1], [2], [3]] : tensor<1x8x256x64xf32> into tensor<8x256x64xf32>
    %60 = tensor.empty() : tensor<8x256x64xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %62 = linalg.batch_matmul ins(%collapsed_39, %collapsed_40 : tensor<8x256x256xf32>, tensor<8x256x64xf32>) outs(%61 : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
    %expanded_41 = tensor.expand_shape %62 [[0, 1], [2], [3]] output_shape [1, 8, 256, 64] : tensor<8x256x64xf32> into tensor<1x8x256x64xf32>
    %63 = tensor.empty() : tensor<1x256x8x64xf32>
    %transposed_42 = linalg.transpose ins(%expanded_41 : tensor<1x8x256x64xf32>) outs(%63 : tensor<1x256x8x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_43 = linalg.transpose ins(%cst_10 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %collapsed_44 = tensor.collapse_shape %transposed_42 [[0, 1], [2, 3]] : tensor<1x256x8x64xf32> into tensor<256x512xf32>
    %64 = linalg.matmul ins(%collapsed_44, %transposed_43 : tensor<256x512xf32>, tensor<512x512xf32>) outs(%12 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %expanded_45 = tensor.expand_shape %64 [[0, 1], [2]] output_shape [1, 256, 512] : tensor<256x512xf32> into tensor<1x256x512xf32>
    %65 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_45 : tensor<1x256x512xf32>, tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.addf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65 : tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%66 : tensor<1x256x512xf32>) outs(%3 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_20 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_19 : f64 to f32
      %86 = arith.addf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x256x1xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<1x256x1xf32>) outs(%2 : tensor<1x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.rsqrt %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65, %70 : tensor<1x256x512xf32>, tensor<1x256x1xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %72 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_9, %71 : tensor<512xf32>, tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    %73 = tensor.empty() : tensor<512x1408xf32>
    %transposed_46 = linalg.transpose ins(%cst_8 : tensor<1408x512xf32>) outs(%73 : tensor<512x1408xf32>) permutation = [1, 0] 
    %collapsed_47 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<1x256x512xf32> into tensor<256x512xf32>
    %74 = tensor.empty() : tensor<256x1408xf32>
    %75 = linalg.fill ins(%cst : f32) outs(%74 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %76 = linalg.matmul ins(%collapsed_47, %transposed_46 : tensor<256x512xf32>, tensor<512x1408xf32>) outs(%75 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %expanded_48 = tensor.expand_shape %76 [[0, 1], [2]] output_shape [1, 256, 1408] : tensor<256x1408xf32> into tensor<1x256x1408xf32>
    %77 = tensor.empty() : tensor<1x256x1408xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_48 : tensor<1x256x1408xf32>) outs(%77 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.negf %in : f32
      %86 = math.exp %85 : f32
      %87 = arith.addf %86, %cst_1 : f32
      %88 = arith.divf %cst_1, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<1x256x1408xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_48, %78 : tensor<1x256x1408xf32>, tensor<1x256x1408xf32>) outs(%77 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1408xf32>
    %transposed_49 = linalg.transpose ins(%cst_7 : tensor<1408x512xf32>) outs(%73 : tensor<512x1408xf32>) permutation = [1, 0] 
    %80 = linalg.matmul ins(%collapsed_47, %transposed_49 : tensor<256x512xf32>, tensor<512x1408xf32>) outs(%75 : tensor<256x1408xf32>) -> tensor<256x1408xf32>
    %expanded_50 = tensor.expand_shape %80 [[0, 1], [2]] output_shape [1, 256, 1408] : tensor<256x1408xf32> into tensor<1x256x1408xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79, %expanded_50 : tensor<1x256x1408xf32>, tensor<1x256x1408xf32>) outs(%77 : tensor<1x256x1408xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.mulf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x1408xf32>
    %82 = tensor.empty() : tensor<1408x512xf32>
    %transposed_51 = linalg.transpose ins(%cst_6 : tensor<512x1408xf32>) outs(%82 : tensor<1408x512xf32>) permutation = [1, 0] 
    %collapsed_52 = tensor.collapse_shape %81 [[0, 1], [2]] : tensor<1x256x1408xf32> into tensor<256x1408xf32>
    %83 = linalg.matmul ins(%collapsed_52, %transposed_51 : tensor<256x1408xf32>, tensor<1408x512xf32>) outs(%12 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %expanded_53 = tensor.expand_shape %83 [[0, 1], [2]] output_shape [1, 256, 512] : tensor<256x512xf32> into tensor<1x256x512xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65, %expanded_53 : tensor<1x256x512xf32>, tensor<1x256x512xf32>) outs(%0 : tensor<1x256x512xf32>) {
    ^bb0(%in: f32, %in_54: f32, %out: f32):
      %85 = arith.addf %in, %in_54 : f32
      linalg.yield %85 : f32
    } -> tensor<1x256x512xf32>
    return %84 : tensor<1x256x512xf32>
  }
}
