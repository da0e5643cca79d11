// program 184 of seed 8128
// bb-difftest-config: whole-threshold=8 seed=8133 block-salt=331384467
func.func @difftest(%v0: tensor<1x64x31xf32>, %v1: tensor<1x8192x31xf32>, %v6: tensor<1xf32>) -> (tensor<f32>, tensor<1xf32>) {
  %t1 = tensor.empty() : tensor<1x64x8192xf32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<1x64x8192xf32>) -> tensor<1x64x8192xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%v0, %v1 : tensor<1x64x31xf32>, tensor<1x8192x31xf32>) outs(%t3 : tensor<1x64x8192xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t4 = arith.mulf %in0, %in1 : f32
    %t5 = arith.addf %t4, %acc : f32
    linalg.yield %t5 : f32
  } -> tensor<1x64x8192xf32>
  %t6 = tensor.empty() : tensor<1x64x8192xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v2 : tensor<1x64x8192xf32>) outs(%t6 : tensor<1x64x8192xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t7 = arith.constant 1.250000000e-01 : f32
    %t8 = arith.mulf %in0, %t7 : f32
    linalg.yield %t8 : f32
  } -> tensor<1x64x8192xf32>
  %t9 = tensor.empty() : tensor<1xf32>
  %t10 = arith.constant 0.000000000e+00 : f32
  %t11 = linalg.fill ins(%t10 : f32) outs(%t9 : tensor<1xf32>) -> tensor<1xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%v3 : tensor<1x64x8192xf32>) outs(%t11 : tensor<1xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t12 = arith.constant 1.381067932e-03 : f32
    %t13 = arith.mulf %in0, %t12 : f32
    %t14 = arith.addf %acc, %t13 : f32
    linalg.yield %t14 : f32
  } -> tensor<1xf32>
  %t15 = tensor.empty() : tensor<f32>
  %t16 = arith.constant 0.000000000e+00 : f32
  %t17 = linalg.fill ins(%t16 : f32) outs(%t15 : tensor<f32>) -> tensor<f32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v4 : tensor<1xf32>) outs(%t17 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t18 = arith.addf %in0, %acc : f32
    linalg.yield %t18 : f32
  } -> tensor<f32>
  %t19 = tensor.empty() : tensor<1xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v4, %v6 : tensor<1xf32>, tensor<1xf32>) outs(%t19 : tensor<1xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t20 = arith.constant 2.000000000e+00 : f32
    %t21 = math.powf %in0, %t20 : f32
    %t22 = arith.minnumf %t21, %in1 : f32
    linalg.yield %t22 : f32
  } -> tensor<1xf32>
  return %v5, %v7 : tensor<f32>, tensor<1xf32>
}
