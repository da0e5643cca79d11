// llama_block_real_b2: scripts/export-torch-corpus.py (llama_block, size real {'S': 256, 'D': 512, 'H': 8, 'FFN': 1408}, batch 2); weights elided
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
#map12 = affine_map<(d0, d1, d2) -> (d1, d2)>
module {
  func.func @llama_block_real_b2(%arg0: tensor<2x256x512xf32>) -> tensor<2x256x512xf32> {
    %c2_i64 = arith.constant 2 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x8x256x256xf32>
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
    %0 = tensor.empty() : tensor<2x256x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %2 = tensor.empty() : tensor<2x256x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x256x1xf32>) -> tensor<2x256x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x256x512xf32>) outs(%3 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.divf %in, %cst_20 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_19 : f64 to f32
      %87 = arith.addf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<2x256x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.rsqrt %in : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_18, %8 : tensor<512xf32>, tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %10 = tensor.empty() : tensor<512x512xf32>
    %transposed = linalg.transpose ins(%cst_17 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %12 = linalg.matmul ins(%collapsed, %transposed : tensor<512x512xf32>, tensor<512x512xf32>) outs(%11 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %expanded = tensor.expand_shape %12 [[0, 1], [2, 3]] output_shape [2, 256, 8, 64] : tensor<512x512xf32> into tensor<2x256x8x64xf32>
    %13 = tensor.empty() : tensor<2x8x256x64xf32>
    %transposed_21 = linalg.transpose ins(%expanded : tensor<2x256x8x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_22 = linalg.transpose ins(%cst_16 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %14 = linalg.matmul ins(%collapsed, %transposed_22 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%11 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %expanded_23 = tensor.expand_shape %14 [[0, 1], [2, 3]] output_shape [2, 256, 8, 64] : tensor<512x512xf32> into tensor<2x256x8x64xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<2x256x8x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_25 = linalg.transpose ins(%cst_15 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %15 = linalg.matmul ins(%collapsed, %transposed_25 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%11 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %expanded_26 = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [2, 256, 8, 64] : tensor<512x512xf32> into tensor<2x256x8x64xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<2x256x8x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) permutation = [0, 2, 1, 3] 
    %16 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_21, %cst_14 : tensor<2x8x256x64xf32>, tensor<256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %extracted_slice = tensor.extract_slice %transposed_21[0, 0, 0, 32] [2, 8, 256, 32] [1, 1, 1, 1] : tensor<2x8x256x64xf32> to tensor<2x8x256x32xf32>
    %17 = tensor.empty() : tensor<2x8x256x32xf32>
    %18 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<2x8x256x32xf32>) outs(%17 : tensor<2x8x256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.negf %in : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x32xf32>
    %extracted_slice_28 = tensor.extract_slice %transposed_21[0, 0, 0, 0] [2, 8, 256, 32] [1, 1, 1, 1] : tensor<2x8x256x64xf32> to tensor<2x8x256x32xf32>
    %concat = tensor.concat dim(3) %18, %extracted_slice_28 : (tensor<2x8x256x32xf32>, tensor<2x8x256x32xf32>) -> tensor<2x8x256x64xf32>
    %19 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %cst_13 : tensor<2x8x256x64xf32>, tensor<256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %19 : tensor<2x8x256x64xf32>, tensor<2x8x256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.addf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %21 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_24, %cst_14 : tensor<2x8x256x64xf32>, tensor<256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %extracted_slice_29 = tensor.extract_slice %transposed_24[0, 0, 0, 32] [2, 8, 256, 32] [1, 1, 1, 1] : tensor<2x8x256x64xf32> to tensor<2x8x256x32xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_29 : tensor<2x8x256x32xf32>) outs(%17 : tensor<2x8x256x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.negf %in : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x32xf32>
    %extracted_slice_30 = tensor.extract_slice %transposed_24[0, 0, 0, 0] [2, 8, 256, 32] [1, 1, 1, 1] : tensor<2x8x256x64xf32> to tensor<2x8x256x32xf32>
    %concat_31 = tensor.concat dim(3) %22, %extracted_slice_30 : (tensor<2x8x256x32xf32>, tensor<2x8x256x32xf32>) -> tensor<2x8x256x64xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_31, %cst_13 : tensor<2x8x256x64xf32>, tensor<256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %23 : tensor<2x8x256x64xf32>, tensor<2x8x256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.addf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x64xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<2x8x256x64xf32>) outs(%13 : tensor<2x8x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_12 : f64 to f32
      %87 = arith.mulf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<2x8x256x64xf32>
    %26 = tensor.empty() : tensor<256xi64>
    %27 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel"]} outs(%26 : tensor<256xi64>) {
    ^bb0(%out: i64):
      %86 = linalg.index 0 : index
      %87 = arith.index_cast %86 : index to i64
      linalg.yield %87 : i64
    } -> tensor<256xi64>
    %expanded_32 = tensor.expand_shape %27 [[0, 1]] output_shape [1, 256] : tensor<256xi64> into tensor<1x256xi64>
    %expanded_33 = tensor.expand_shape %27 [[0, 1]] output_shape [256, 1] : tensor<256xi64> into tensor<256x1xi64>
    %28 = tensor.empty() : tensor<256x256xi64>
    %29 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel"]} ins(%expanded_32, %expanded_33 : tensor<1x256xi64>, tensor<256x1xi64>) outs(%28 : tensor<256x256xi64>) {
    ^bb0(%in: i64, %in_53: i64, %out: i64):
      %86 = arith.subi %in, %in_53 : i64
      linalg.yield %86 : i64
    } -> tensor<256x256xi64>
    %30 = tensor.empty() : tensor<256x256xi1>
    %31 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%29 : tensor<256x256xi64>) outs(%30 : tensor<256x256xi1>) {
    ^bb0(%in: i64, %out: i1):
      %86 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %86 : i1
    } -> tensor<256x256xi1>
    %32 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%31, %cst_5 : tensor<256x256xi1>, tensor<256x256xi1>) outs(%30 : tensor<256x256xi1>) {
    ^bb0(%in: i1, %in_53: i1, %out: i1):
      %86 = arith.andi %in, %in_53 : i1
      linalg.yield %86 : i1
    } -> tensor<256x256xi1>
    %33 = tensor.empty() : tensor<256x256xf32>
    %34 = linalg.generic {indexing_maps = [#map8, #map9, #map9, #map8], iterator_types = ["parallel", "parallel"]} ins(%32, %cst_3, %cst_4 : tensor<256x256xi1>, tensor<f32>, tensor<f32>) outs(%33 : tensor<256x256xf32>) {
    ^bb0(%in: i1, %in_53: f32, %in_54: f32, %out: f32):
      %86 = arith.select %in, %in_53, %in_54 : f32
      linalg.yield %86 : f32
    } -> tensor<256x256xf32>
    %35 = tensor.empty() : tensor<2x8x64x256xf32>
    %transposed_34 = linalg.transpose ins(%24 : tensor<2x8x256x64xf32>) outs(%35 : tensor<2x8x64x256xf32>) permutation = [0, 1, 3, 2] 
    %36 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_34 : tensor<2x8x64x256xf32>) outs(%35 : tensor<2x8x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_12 : f64 to f32
      %87 = arith.mulf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<2x8x64x256xf32>
    %collapsed_35 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x8x256x64xf32> into tensor<16x256x64xf32>
    %collapsed_36 = tensor.collapse_shape %36 [[0, 1], [2], [3]] : tensor<2x8x64x256xf32> into tensor<16x64x256xf32>
    %37 = tensor.empty() : tensor<16x256x256xf32>
    %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %39 = linalg.batch_matmul ins(%collapsed_35, %collapsed_36 : tensor<16x256x64xf32>, tensor<16x64x256xf32>) outs(%38 : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
    %expanded_37 = tensor.expand_shape %39 [[0, 1], [2], [3]] output_shape [2, 8, 256, 256] : tensor<16x256x256xf32> into tensor<2x8x256x256xf32>
    %40 = tensor.empty() : tensor<2x8x256x256xf32>
    %41 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_37, %34 : tensor<2x8x256x256xf32>, tensor<256x256xf32>) outs(%40 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.addf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x256xf32>
    %42 = tensor.empty() : tensor<2x8x256xi64>
    %43 = linalg.fill ins(%c0_i64 : i64) outs(%42 : tensor<2x8x256xi64>) -> tensor<2x8x256xi64>
    %44 = tensor.empty() : tensor<2x8x256xf32>
    %45 = linalg.fill ins(%cst_0 : f32) outs(%44 : tensor<2x8x256xf32>) -> tensor<2x8x256xf32>
    %46:2 = linalg.generic {indexing_maps = [#map3, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%41 : tensor<2x8x256x256xf32>) outs(%45, %43 : tensor<2x8x256xf32>, tensor<2x8x256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_53: i64):
      %86 = linalg.index 3 : index
      %87 = arith.index_cast %86 : index to i64
      %88 = arith.maximumf %in, %out : f32
      %89 = arith.cmpf ogt, %in, %out : f32
      %90 = arith.select %89, %87, %out_53 : i64
      linalg.yield %88, %90 : f32, i64
    } -> (tensor<2x8x256xf32>, tensor<2x8x256xi64>)
    %expanded_38 = tensor.expand_shape %46#0 [[0], [1], [2, 3]] output_shape [2, 8, 256, 1] : tensor<2x8x256xf32> into tensor<2x8x256x1xf32>
    %47 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41, %expanded_38 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%40 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.subf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x256xf32>
    %48 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47 : tensor<2x8x256x256xf32>) outs(%40 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.exp %in : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x256xf32>
    %49 = tensor.empty() : tensor<2x8x256x1xf32>
    %50 = linalg.fill ins(%cst : f32) outs(%49 : tensor<2x8x256x1xf32>) -> tensor<2x8x256x1xf32>
    %51 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%48 : tensor<2x8x256x256xf32>) outs(%50 : tensor<2x8x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x1xf32>
    %52 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48, %51 : tensor<2x8x256x256xf32>, tensor<2x8x256x1xf32>) outs(%40 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.divf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x256xf32>
    %53 = tensor.empty() : tensor<2x8x256x256xi1>
    %54 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41 : tensor<2x8x256x256xf32>) outs(%53 : tensor<2x8x256x256xi1>) {
    ^bb0(%in: f32, %out: i1):
      %86 = arith.extf %in : f32 to f64
      %87 = arith.cmpf oeq, %86, %cst_11 : f64
      linalg.yield %87 : i1
    } -> tensor<2x8x256x256xi1>
    %55 = tensor.empty() : tensor<2x8x256x1xi1>
    %56 = linalg.fill ins(%true : i1) outs(%55 : tensor<2x8x256x1xi1>) -> tensor<2x8x256x1xi1>
    %57 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%54 : tensor<2x8x256x256xi1>) outs(%56 : tensor<2x8x256x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %86 = arith.andi %in, %out : i1
      linalg.yield %86 : i1
    } -> tensor<2x8x256x1xi1>
    %58 = linalg.generic {indexing_maps = [#map11, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %cst_2, %52 : tensor<2x8x256x1xi1>, tensor<2x8x256x256xf32>, tensor<2x8x256x256xf32>) outs(%40 : tensor<2x8x256x256xf32>) {
    ^bb0(%in: i1, %in_53: f32, %in_54: f32, %out: f32):
      %86 = arith.select %in, %in_53, %in_54 : f32
      linalg.yield %86 : f32
    } -> tensor<2x8x256x256xf32>
    %collapsed_39 = tensor.collapse_shape %58 [[0, 1], [2], [3]] : tensor<2x8x256x256xf32> into tensor<16x256x256xf32>
    %collapsed_40 = tensor.collapse_shape %transposed_27 [[0, 1], [2], [3]] : tensor<2x8x256x64xf32> into tensor<16x256x64xf32>
    %59 = tensor.empty() : tensor<16x256x64xf32>
    %60 = linalg.fill ins(%cst : f32) outs(%59 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %61 = linalg.batch_matmul ins(%collapsed_39, %collapsed_40 : tensor<16x256x256xf32>, tensor<16x256x64xf32>) outs(%60 : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
    %expanded_41 = tensor.expand_shape %61 [[0, 1], [2], [3]] output_shape [2, 8, 256, 64] : tensor<16x256x64xf32> into tensor<2x8x256x64xf32>
    %62 = tensor.empty() : tensor<2x256x8x64xf32>
    %transposed_42 = linalg.transpose ins(%expanded_41 : tensor<2x8x256x64xf32>) outs(%62 : tensor<2x256x8x64xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_43 = tensor.collapse_shape %transposed_42 [[0], [1], [2, 3]] : tensor<2x256x8x64xf32> into tensor<2x256x512xf32>
    %transposed_44 = linalg.transpose ins(%cst_10 : tensor<512x512xf32>) outs(%10 : tensor<512x512xf32>) permutation = [1, 0] 
    %63 = tensor.empty() : tensor<2x512x512xf32>
    %64 = linalg.generic {indexing_maps = [#map12, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_44 : tensor<512x512xf32>) outs(%63 : tensor<2x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x512x512xf32>
    %65 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x256x512xf32>) -> tensor<2x256x512xf32>
    %66 = linalg.batch_matmul ins(%collapsed_43, %64 : tensor<2x256x512xf32>, tensor<2x512x512xf32>) outs(%65 : tensor<2x256x512xf32>) -> tensor<2x256x512xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %66 : tensor<2x256x512xf32>, tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.addf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67 : tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%68 : tensor<2x256x512xf32>) outs(%3 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.divf %in, %cst_20 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_19 : f64 to f32
      %87 = arith.addf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<2x256x1xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71 : tensor<2x256x1xf32>) outs(%2 : tensor<2x256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.rsqrt %in : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %72 : tensor<2x256x512xf32>, tensor<2x256x1xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %74 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_9, %73 : tensor<512xf32>, tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    %75 = tensor.empty() : tensor<512x1408xf32>
    %transposed_45 = linalg.transpose ins(%cst_8 : tensor<1408x512xf32>) outs(%75 : tensor<512x1408xf32>) permutation = [1, 0] 
    %collapsed_46 = tensor.collapse_shape %74 [[0, 1], [2]] : tensor<2x256x512xf32> into tensor<512x512xf32>
    %76 = linalg.fill ins(%cst : f32) outs(%75 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %77 = linalg.matmul ins(%collapsed_46, %transposed_45 : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%76 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %expanded_47 = tensor.expand_shape %77 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %78 = tensor.empty() : tensor<2x256x1408xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_47 : tensor<2x256x1408xf32>) outs(%78 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.negf %in : f32
      %87 = math.exp %86 : f32
      %88 = arith.addf %87, %cst_1 : f32
      %89 = arith.divf %cst_1, %88 : f32
      linalg.yield %89 : f32
    } -> tensor<2x256x1408xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_47, %79 : tensor<2x256x1408xf32>, tensor<2x256x1408xf32>) outs(%78 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1408xf32>
    %transposed_48 = linalg.transpose ins(%cst_7 : tensor<1408x512xf32>) outs(%75 : tensor<512x1408xf32>) permutation = [1, 0] 
    %81 = linalg.matmul ins(%collapsed_46, %transposed_48 : tensor<512x512xf32>, tensor<512x1408xf32>) outs(%76 : tensor<512x1408xf32>) -> tensor<512x1408xf32>
    %expanded_49 = tensor.expand_shape %81 [[0, 1], [2]] output_shape [2, 256, 1408] : tensor<512x1408xf32> into tensor<2x256x1408xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%80, %expanded_49 : tensor<2x256x1408xf32>, tensor<2x256x1408xf32>) outs(%78 : tensor<2x256x1408xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.mulf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x1408xf32>
    %83 = tensor.empty() : tensor<1408x512xf32>
    %transposed_50 = linalg.transpose ins(%cst_6 : tensor<512x1408xf32>) outs(%83 : tensor<1408x512xf32>) permutation = [1, 0] 
    %collapsed_51 = tensor.collapse_shape %82 [[0, 1], [2]] : tensor<2x256x1408xf32> into tensor<512x1408xf32>
    %84 = linalg.matmul ins(%collapsed_51, %transposed_50 : tensor<512x1408xf32>, tensor<1408x512xf32>) outs(%11 : tensor<512x512xf32>) -> tensor<512x512xf32>
    %expanded_52 = tensor.expand_shape %84 [[0, 1], [2]] output_shape [2, 256, 512] : tensor<512x512xf32> into tensor<2x256x512xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %expanded_52 : tensor<2x256x512xf32>, tensor<2x256x512xf32>) outs(%0 : tensor<2x256x512xf32>) {
    ^bb0(%in: f32, %in_53: f32, %out: f32):
      %86 = arith.addf %in, %in_53 : f32
      linalg.yield %86 : f32
    } -> tensor<2x256x512xf32>
    return %85 : tensor<2x256x512xf32>
  }
}
