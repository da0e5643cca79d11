// program 396 of seed 8128
// bb-difftest-config: whole-threshold=16 seed=24519 block-salt=229357831
func.func @difftest(%v0: tensor<2048x256xf32>, %v1: tensor<256x2048xf32>, %v7: tensor<f32>, %v9: tensor<16x256xf32>, %v13: tensor<2048xf32>) -> (tensor<256x2048xf32>, tensor<2048x16xf32>, tensor<256x2048xf32>, tensor<2048x16xf32>, tensor<2048x16xf32>, tensor<2048x16xf32>) {
  %t1 = tensor.empty() : tensor<256x2048xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v0, %v1 : tensor<2048x256xf32>, tensor<256x2048xf32>) outs(%t1 : tensor<256x2048xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t2 = linalg.index 1 : index
    %t3 = linalg.index 0 : index
    %t4 = arith.mulf %in0, %in0 : f32
    %t5 = arith.mulf %t4, %in1 : f32
    %t6 = math.erf %t5 : f32
    %t7 = arith.constant -2.000000000e+00 : f32
    %t8 = arith.cmpi sge, %t2, %t3 : index
    %t9 = arith.select %t8, %t6, %t7 : f32
    linalg.yield %t9 : f32
  } -> tensor<256x2048xf32>
  %t10 = tensor.empty() : tensor<2048xf32>
  %t11 = arith.constant 0xFF800000 : f32
  %t12 = linalg.fill ins(%t11 : f32) outs(%t10 : tensor<2048xf32>) -> tensor<2048xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v2 : tensor<256x2048xf32>) outs(%t12 : tensor<2048xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t13 = arith.maximumf %acc, %in0 : f32
    linalg.yield %t13 : f32
  } -> tensor<2048xf32>
  %t14 = tensor.empty() : tensor<256x2048xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v2, %v3 : tensor<256x2048xf32>, tensor<2048xf32>) outs(%t14 : tensor<256x2048xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t15 = arith.subf %in0, %in1 : f32
    %t16 = math.exp %t15 : f32
    linalg.yield %t16 : f32
  } -> tensor<256x2048xf32>
  %t17 = tensor.empty() : tensor<2048xf32>
  %t18 = arith.constant 0.000000000e+00 : f32
  %t19 = linalg.fill ins(%t18 : f32) outs(%t17 : tensor<2048xf32>) -> tensor<2048xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v4 : tensor<256x2048xf32>) outs(%t19 : tensor<2048xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t20 = arith.addf %in0, %acc : f32
    linalg.yield %t20 : f32
  } -> tensor<2048xf32>
  %t21 = tensor.empty() : tensor<256x2048xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v4, %v5 : tensor<256x2048xf32>, tensor<2048xf32>) outs(%t21 : tensor<256x2048xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t22 = arith.divf %in0, %in1 : f32
    linalg.yield %t22 : f32
  } -> tensor<256x2048xf32>
  %t23 = tensor.empty() : tensor<256x2048xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v6, %v7 : tensor<256x2048xf32>, tensor<f32>) outs(%t23 : tensor<256x2048xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t24 = arith.mulf %in1, %in1 : f32
    %t25 = arith.constant 1.000000000e+00 : f32
    %t26 = arith.addf %t24, %t25 : f32
    %t27 = arith.constant 5.000000000e-01 : f32
    %t28 = math.powf %t26, %t27 : f32
    %t29 = arith.mulf %in0, %in0 : f32
    %t30 = arith.constant 1.000000000e+00 : f32
    %t31 = arith.addf %t29, %t30 : f32
    %t32 = arith.divf %t28, %t31 : f32
    %t33 = arith.mulf %t32, %t32 : f32
    %t34 = arith.constant 5.000000000e-01 : f32
    %t35 = arith.addf %t33, %t34 : f32
    %t36 = math.rsqrt %t35 : f32
    linalg.yield %t36 : f32
  } -> tensor<256x2048xf32>
  %t37 = tensor.empty() : tensor<2048x16xf32>
  %t38 = arith.constant 0.000000000e+00 : f32
  %t39 = linalg.fill ins(%t38 : f32) outs(%t37 : tensor<2048x16xf32>) -> tensor<2048x16xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v8, %v9 : tensor<256x2048xf32>, tensor<16x256xf32>) outs(%t39 : tensor<2048x16xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t40 = arith.mulf %in0, %in1 : f32
    %t41 = arith.addf %acc, %t40 : f32
    linalg.yield %t41 : f32
  } -> tensor<2048x16xf32>
  %t42 = tensor.empty() : tensor<2048x16xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v10 : tensor<2048x16xf32>) outs(%t42 : tensor<2048x16xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t43 = arith.constant 3.125000000e-02 : f32
    %t44 = arith.mulf %in0, %t43 : f32
    linalg.yield %t44 : f32
  } -> tensor<2048x16xf32>
  %t45 = tensor.empty() : tensor<2048x16xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v10, %v3 : tensor<2048x16xf32>, tensor<2048xf32>) outs(%t45 : tensor<2048x16xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t46 = arith.minimumf %in1, %in0 : f32
    %t47 = arith.constant 2.000000000e+00 : f32
    %t48 = math.powf %t46, %t47 : f32
    %t49 = arith.constant 1.953125000e-03 : f32
    %t50 = arith.mulf %t48, %t49 : f32
    linalg.yield %t50 : f32
  } -> tensor<2048x16xf32>
  %t51 = tensor.empty() : tensor<2048x16xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v12, %v13 : tensor<2048x16xf32>, tensor<2048xf32>) outs(%t51 : tensor<2048x16xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t52 = arith.constant 1.250000000e-01 : f32
    %t53 = arith.addf %t52, %in0 : f32
    %t54 = math.sin %t53 : f32
    %t55 = arith.maximumf %t54, %in1 : f32
    %t56 = arith.mulf %t55, %t55 : f32
    %t57 = arith.constant 1.000000000e+00 : f32
    %t58 = arith.addf %t56, %t57 : f32
    %t59 = arith.constant 5.000000000e-01 : f32
    %t60 = math.powf %t58, %t59 : f32
    linalg.yield %t60 : f32
  } -> tensor<2048x16xf32>
  %t61 = tensor.empty() : tensor<2048x16xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11 : tensor<2048x16xf32>) outs(%t61 : tensor<2048x16xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t62 = arith.negf %in0 : f32
    linalg.yield %t62 : f32
  } -> tensor<2048x16xf32>
  return %v6, %v15, %v8, %v14, %v11, %v12 : tensor<256x2048xf32>, tensor<2048x16xf32>, tensor<256x2048xf32>, tensor<2048x16xf32>, tensor<2048x16xf32>, tensor<2048x16xf32>
}
