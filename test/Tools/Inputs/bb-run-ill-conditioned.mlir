// sum(x - mean(x)) over one row of 257: zero but for rounding, so any two
// f32 summation orders disagree far beyond rtol (bb-difftest seed 200,
// program 328, minimised; the input of bb-run-f64-oracle.test).
func.func @difftest(%v5: tensor<1x257xf32>) -> tensor<1x1xf32> {
  %t1 = tensor.empty() : tensor<1xf32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<1xf32>) -> tensor<1xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v5 : tensor<1x257xf32>) outs(%t3 : tensor<1xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t4 = arith.constant 3.891050584e-03 : f32
    %t5 = arith.mulf %in0, %t4 : f32
    %t6 = arith.addf %t5, %acc : f32
    linalg.yield %t6 : f32
  } -> tensor<1xf32>
  %t7 = tensor.empty() : tensor<1x257xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v7 : tensor<1x257xf32>, tensor<1xf32>) outs(%t7 : tensor<1x257xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t8 = arith.subf %in0, %in1 : f32
    linalg.yield %t8 : f32
  } -> tensor<1x257xf32>
  %t9 = tensor.empty() : tensor<1x1xf32>
  %t10 = arith.constant 0.000000000e+00 : f32
  %t11 = linalg.fill ins(%t10 : f32) outs(%t9 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v9 : tensor<1x257xf32>) outs(%t11 : tensor<1x1xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t12 = arith.addf %in0, %acc : f32
    linalg.yield %t12 : f32
  } -> tensor<1x1xf32>
  return %v10 : tensor<1x1xf32>
}
