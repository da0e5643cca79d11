// Program 72 of bb-difftest seed 366821 (issue 18): a 3x150 i1 mask tile,
// placed last in shared memory, written a byte per element.
// program 72 of seed 366821
// bb-difftest-config: whole-threshold=256 seed=2884 block-salt=414704433
func.func @difftest(%v1: tensor<96x150x3xf32>, %v5: tensor<3x96xf32>, %v9: tensor<96x150xf32>, %v12: tensor<150xf32>, %v14: tensor<96x150xf32>) -> (tensor<96x3xf32>, tensor<96xf32>, tensor<1x96xf32>, tensor<150xf32>) {
  %t1 = tensor.empty() : tensor<96x3xf32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<96x3xf32>) -> tensor<96x3xf32>
  %v2 = linalg.reduce ins(%v1 : tensor<96x150x3xf32>) outs(%t3 : tensor<96x3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
    %t4 = arith.addf %in, %acc : f32
    linalg.yield %t4 : f32
  }
  %t5 = tensor.empty() : tensor<96x3xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<96x3xf32>) outs(%t5 : tensor<96x3xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t6 = arith.constant 8.164965809e-02 : f32
    %t7 = arith.mulf %in0, %t6 : f32
    linalg.yield %t7 : f32
  } -> tensor<96x3xf32>
  %t8 = tensor.empty() : tensor<96xf32>
  %t9 = arith.constant 0.000000000e+00 : f32
  %t10 = linalg.fill ins(%t9 : f32) outs(%t8 : tensor<96xf32>) -> tensor<96xf32>
  %v4 = linalg.reduce ins(%v3 : tensor<96x3xf32>) outs(%t10 : tensor<96xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
    %t11 = arith.addf %in, %acc : f32
    linalg.yield %t11 : f32
  }
  %t12 = tensor.empty() : tensor<3x96xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %v5 : tensor<96x3xf32>, tensor<3x96xf32>) outs(%t12 : tensor<3x96xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t13 = arith.mulf %in0, %in1 : f32
    %t14 = math.erf %t13 : f32
    linalg.yield %t14 : f32
  } -> tensor<3x96xf32>
  %t15 = tensor.empty() : tensor<1x96xf32>
  %t16 = arith.constant 0x7F800000 : f32
  %t17 = linalg.fill ins(%t16 : f32) outs(%t15 : tensor<1x96xf32>) -> tensor<1x96xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v6 : tensor<3x96xf32>) outs(%t17 : tensor<1x96xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t18 = arith.minnumf %acc, %in0 : f32
    linalg.yield %t18 : f32
  } -> tensor<1x96xf32>
  %t19 = tensor.empty() : tensor<3x96xf32>
  %v8 = linalg.transpose ins(%v2 : tensor<96x3xf32>) outs(%t19 : tensor<3x96xf32>) permutation = [1, 0]
  %t20 = tensor.empty() : tensor<3x150xf32>
  %t21 = arith.constant 0.000000000e+00 : f32
  %t22 = linalg.fill ins(%t21 : f32) outs(%t20 : tensor<3x150xf32>) -> tensor<3x150xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v8, %v9 : tensor<3x96xf32>, tensor<96x150xf32>) outs(%t22 : tensor<3x150xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t23 = arith.mulf %in0, %in1 : f32
    %t24 = arith.addf %acc, %t23 : f32
    linalg.yield %t24 : f32
  } -> tensor<3x150xf32>
  %t25 = tensor.empty() : tensor<3x150xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v10 : tensor<3x150xf32>) outs(%t25 : tensor<3x150xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t26 = arith.constant 7.812500000e-03 : f32
    %t27 = arith.mulf %in0, %t26 : f32
    linalg.yield %t27 : f32
  } -> tensor<3x150xf32>
  %t28 = tensor.empty() : tensor<150xf32>
  %t29 = arith.constant 0x7F800000 : f32
  %t30 = linalg.fill ins(%t29 : f32) outs(%t28 : tensor<150xf32>) -> tensor<150xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v11, %v12 : tensor<3x150xf32>, tensor<150xf32>) outs(%t30 : tensor<150xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t31 = linalg.index 0 : index
    %t32 = linalg.index 1 : index
    %t33 = arith.minnumf %in1, %in0 : f32
    %t34 = arith.constant 0.000000000e+00 : f32
    %t35 = arith.cmpi sge, %t31, %t32 : index
    %t36 = arith.select %t35, %t33, %t34 : f32
    %t37 = arith.minnumf %t36, %acc : f32
    linalg.yield %t37 : f32
  } -> tensor<150xf32>
  %t38 = tensor.empty() : tensor<3x150xf32>
  %t39 = arith.constant 0.000000000e+00 : f32
  %t40 = linalg.fill ins(%t39 : f32) outs(%t38 : tensor<3x150xf32>) -> tensor<3x150xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v2, %v14 : tensor<96x3xf32>, tensor<96x150xf32>) outs(%t40 : tensor<3x150xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t41 = arith.mulf %in0, %in1 : f32
    %t42 = arith.addf %acc, %t41 : f32
    linalg.yield %t42 : f32
  } -> tensor<3x150xf32>
  %t43 = tensor.empty() : tensor<3x150xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v15 : tensor<3x150xf32>) outs(%t43 : tensor<3x150xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t44 = arith.constant 7.812500000e-03 : f32
    %t45 = arith.mulf %in0, %t44 : f32
    linalg.yield %t45 : f32
  } -> tensor<3x150xf32>
  %t46 = tensor.empty() : tensor<3x150xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v16 : tensor<3x150xf32>) outs(%t46 : tensor<3x150xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t47 = arith.constant 7.500000000e-01 : f32
    %t48 = math.cos %t47 : f32
    %t49 = arith.subf %t48, %in0 : f32
    %t50 = arith.mulf %t49, %t49 : f32
    %t51 = arith.constant 1.000000000e+00 : f32
    %t52 = arith.addf %t50, %t51 : f32
    %t53 = math.log %t52 : f32
    linalg.yield %t53 : f32
  } -> tensor<3x150xf32>
  %t54 = tensor.empty() : tensor<150xf32>
  %t55 = arith.constant -1.000000000e+00 : f32
  %t56 = linalg.fill ins(%t55 : f32) outs(%t54 : tensor<150xf32>) -> tensor<150xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v17, %v13 : tensor<3x150xf32>, tensor<150xf32>) outs(%t56 : tensor<150xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t57 = linalg.index 0 : index
    %t58 = linalg.index 1 : index
    %t59 = arith.mulf %in0, %in0 : f32
    %t60 = arith.constant 1.000000000e+00 : f32
    %t61 = arith.addf %t59, %t60 : f32
    %t62 = arith.divf %in1, %t61 : f32
    %t63 = math.cos %t62 : f32
    %t64 = arith.constant -2.000000000e+00 : f32
    %t65 = arith.cmpi sge, %t57, %t58 : index
    %t66 = arith.select %t65, %t63, %t64 : f32
    %t67 = arith.minimumf %acc, %t66 : f32
    linalg.yield %t67 : f32
  } -> tensor<150xf32>
  return %v2, %v4, %v7, %v18 : tensor<96x3xf32>, tensor<96xf32>, tensor<1x96xf32>, tensor<150xf32>
}
