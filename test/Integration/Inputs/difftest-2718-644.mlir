// program 644 of seed 2718
// bb-difftest-config: whole-threshold=32 seed=19098 block-salt=936649415
func.func @difftest(%v0: tensor<2xf32>, %v7: tensor<2x1xf32>, %v8: tensor<2x100xf32>, %v10: tensor<1x127xf32>, %v12: tensor<2x1x100xf32>, %v15: tensor<127x512xf32>, %v20: tensor<2xf32>) -> (tensor<100x512xf32>, tensor<100xf32>, tensor<f32>, tensor<2xf32>) {
  %t1 = tensor.empty() : tensor<f32>
  %t2 = arith.constant 0xFF800000 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<f32>) -> tensor<f32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v0 : tensor<2xf32>) outs(%t3 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t4 = arith.maxnumf %in0, %acc : f32
    linalg.yield %t4 : f32
  } -> tensor<f32>
  %t5 = tensor.empty() : tensor<2xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v0, %v1 : tensor<2xf32>, tensor<f32>) outs(%t5 : tensor<2xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t6 = arith.subf %in0, %in1 : f32
    %t7 = math.exp %t6 : f32
    linalg.yield %t7 : f32
  } -> tensor<2xf32>
  %t8 = tensor.empty() : tensor<f32>
  %t9 = arith.constant 0.000000000e+00 : f32
  %t10 = linalg.fill ins(%t9 : f32) outs(%t8 : tensor<f32>) -> tensor<f32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v2 : tensor<2xf32>) outs(%t10 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t11 = arith.addf %acc, %in0 : f32
    linalg.yield %t11 : f32
  } -> tensor<f32>
  %t12 = tensor.empty() : tensor<2xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v2, %v3 : tensor<2xf32>, tensor<f32>) outs(%t12 : tensor<2xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t13 = arith.divf %in0, %in1 : f32
    linalg.yield %t13 : f32
  } -> tensor<2xf32>
  %t14 = tensor.empty() : tensor<2xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v4 : tensor<2xf32>) outs(%t14 : tensor<2xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t15 = arith.negf %in0 : f32
    %t16 = math.exp %t15 : f32
    %t17 = arith.constant 1.000000000e+00 : f32
    %t18 = arith.addf %t17, %t16 : f32
    %t19 = arith.divf %t17, %t18 : f32
    linalg.yield %t19 : f32
  } -> tensor<2xf32>
  %t20 = tensor.empty() : tensor<2xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v5, %v4 : tensor<2xf32>, tensor<2xf32>) outs(%t20 : tensor<2xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t21 = arith.subf %in1, %in0 : f32
    %t22 = math.erf %t21 : f32
    linalg.yield %t22 : f32
  } -> tensor<2xf32>
  %t23 = tensor.empty() : tensor<1x100xf32>
  %t24 = arith.constant 0.000000000e+00 : f32
  %t25 = linalg.fill ins(%t24 : f32) outs(%t23 : tensor<1x100xf32>) -> tensor<1x100xf32>
  %t26 = tensor.empty() : tensor<1x2xf32>
  %t27 = linalg.transpose ins(%v7 : tensor<2x1xf32>) outs(%t26 : tensor<1x2xf32>) permutation = [1, 0]
  %v9 = linalg.matmul ins(%t27, %v8 : tensor<1x2xf32>, tensor<2x100xf32>) outs(%t25 : tensor<1x100xf32>) -> tensor<1x100xf32>
  %t28 = tensor.empty() : tensor<100x127xf32>
  %t29 = arith.constant 0.000000000e+00 : f32
  %t30 = linalg.fill ins(%t29 : f32) outs(%t28 : tensor<100x127xf32>) -> tensor<100x127xf32>
  %t31 = tensor.empty() : tensor<100x1xf32>
  %t32 = linalg.transpose ins(%v9 : tensor<1x100xf32>) outs(%t31 : tensor<100x1xf32>) permutation = [1, 0]
  %v11 = linalg.matmul ins(%t32, %v10 : tensor<100x1xf32>, tensor<1x127xf32>) outs(%t30 : tensor<100x127xf32>) -> tensor<100x127xf32>
  %t33 = tensor.empty() : tensor<2xf32>
  %t34 = arith.constant 5.000000000e-01 : f32
  %t35 = linalg.fill ins(%t34 : f32) outs(%t33 : tensor<2xf32>) -> tensor<2xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%v12 : tensor<2x1x100xf32>) outs(%t35 : tensor<2xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t36 = arith.maxnumf %acc, %in0 : f32
    linalg.yield %t36 : f32
  } -> tensor<2xf32>
  %t37 = tensor.empty() : tensor<100x127xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11 : tensor<100x127xf32>) outs(%t37 : tensor<100x127xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t38 = math.exp %in0 : f32
    linalg.yield %t38 : f32
  } -> tensor<100x127xf32>
  %t39 = tensor.empty() : tensor<100x512xf32>
  %t40 = arith.constant 0.000000000e+00 : f32
  %t41 = linalg.fill ins(%t40 : f32) outs(%t39 : tensor<100x512xf32>) -> tensor<100x512xf32>
  %v16 = linalg.matmul ins(%v14, %v15 : tensor<100x127xf32>, tensor<127x512xf32>) outs(%t41 : tensor<100x512xf32>) -> tensor<100x512xf32>
  %t42 = tensor.empty() : tensor<100x512xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v16 : tensor<100x512xf32>) outs(%t42 : tensor<100x512xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t43 = arith.constant 1.562500000e-02 : f32
    %t44 = arith.mulf %in0, %t43 : f32
    linalg.yield %t44 : f32
  } -> tensor<100x512xf32>
  %t45 = tensor.empty() : tensor<2xf32>
  %v18 = linalg.add ins(%v6, %v13 : tensor<2xf32>, tensor<2xf32>) outs(%t45 : tensor<2xf32>) -> tensor<2xf32>
  %t46 = tensor.empty() : tensor<100xf32>
  %t47 = arith.constant 0.000000000e+00 : f32
  %t48 = linalg.fill ins(%t47 : f32) outs(%t46 : tensor<100xf32>) -> tensor<100xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v17 : tensor<100x512xf32>) outs(%t48 : tensor<100xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t49 = arith.constant 4.419417382e-02 : f32
    %t50 = arith.mulf %in0, %t49 : f32
    %t51 = arith.addf %t50, %acc : f32
    linalg.yield %t51 : f32
  } -> tensor<100xf32>
  %t52 = tensor.empty() : tensor<f32>
  %t53 = arith.constant 0.000000000e+00 : f32
  %t54 = linalg.fill ins(%t53 : f32) outs(%t52 : tensor<f32>) -> tensor<f32>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v18 : tensor<2xf32>) outs(%t54 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t55 = arith.constant 5.000000000e-01 : f32
    %t56 = arith.mulf %in0, %t55 : f32
    %t57 = arith.addf %t56, %acc : f32
    linalg.yield %t57 : f32
  } -> tensor<f32>
  %t58 = tensor.empty() : tensor<f32>
  %t59 = arith.constant 0.000000000e+00 : f32
  %t60 = linalg.fill ins(%t59 : f32) outs(%t58 : tensor<f32>) -> tensor<f32>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v18, %v21 : tensor<2xf32>, tensor<f32>) outs(%t60 : tensor<f32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t61 = arith.subf %in0, %in1 : f32
    %t62 = arith.subf %in0, %in1 : f32
    %t63 = arith.mulf %t61, %t62 : f32
    %t64 = arith.constant 5.000000000e-01 : f32
    %t65 = arith.mulf %t63, %t64 : f32
    %t66 = arith.addf %acc, %t65 : f32
    linalg.yield %t66 : f32
  } -> tensor<f32>
  %t67 = tensor.empty() : tensor<2xf32>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v18, %v21, %v22, %v20 : tensor<2xf32>, tensor<f32>, tensor<f32>, tensor<2xf32>) outs(%t67 : tensor<2xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %acc: f32):
    %t68 = arith.subf %in0, %in1 : f32
    %t69 = arith.constant 1.000000000e-05 : f32
    %t70 = arith.addf %in2, %t69 : f32
    %t71 = math.rsqrt %t70 : f32
    %t72 = arith.mulf %t68, %t71 : f32
    %t73 = arith.mulf %t72, %in3 : f32
    linalg.yield %t73 : f32
  } -> tensor<2xf32>
  return %v16, %v19, %v21, %v23 : tensor<100x512xf32>, tensor<100xf32>, tensor<f32>, tensor<2xf32>
}
