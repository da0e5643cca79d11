// Program 16 of bb-difftest seed 366821 (issue 18): a 16x127 i1 mask tile in
// shared memory, written a byte per element.
// program 16 of seed 366821
// bb-difftest-config: whole-threshold=32 seed=61999 block-salt=1068382973
func.func @difftest(%v0: tensor<16x127xf32>, %v2: tensor<16xf32>, %v3: tensor<16xf32>, %v5: tensor<127xf32>) -> (tensor<16x127xf32>, tensor<127xf32>, tensor<16xf32>) {
  %t1 = tensor.empty() : tensor<16x127xf32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v0 : tensor<16x127xf32>) outs(%t1 : tensor<16x127xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t2 = arith.constant 1.500000000e+00 : f32
    %t3 = math.cos %t2 : f32
    %t4 = arith.subf %t3, %in0 : f32
    linalg.yield %t4 : f32
  } -> tensor<16x127xf32>
  %t5 = tensor.empty() : tensor<16xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v2, %v3 : tensor<16xf32>, tensor<16xf32>) outs(%t5 : tensor<16xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t6 = arith.mulf %in1, %in1 : f32
    %t7 = arith.constant 1.000000000e+00 : f32
    %t8 = arith.addf %t6, %t7 : f32
    %t9 = arith.divf %in0, %t8 : f32
    %t10 = arith.mulf %t9, %t9 : f32
    linalg.yield %t10 : f32
  } -> tensor<16xf32>
  %t11 = tensor.empty() : tensor<127xf32>
  %t12 = arith.constant 0.000000000e+00 : f32
  %t13 = linalg.fill ins(%t12 : f32) outs(%t11 : tensor<127xf32>) -> tensor<127xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v1, %v5 : tensor<16x127xf32>, tensor<127xf32>) outs(%t13 : tensor<127xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t14 = linalg.index 0 : index
    %t15 = linalg.index 1 : index
    %t16 = arith.addf %in0, %in1 : f32
    %t17 = arith.constant 1.000000000e+00 : f32
    %t18 = arith.cmpi sge, %t14, %t15 : index
    %t19 = arith.select %t18, %t16, %t17 : f32
    %t20 = arith.constant 2.500000000e-01 : f32
    %t21 = arith.mulf %t19, %t20 : f32
    %t22 = arith.addf %acc, %t21 : f32
    linalg.yield %t22 : f32
  } -> tensor<127xf32>
  %t23 = tensor.empty() : tensor<16x127xf32>
  %v7 = linalg.softmax dimension(1) ins(%v1 : tensor<16x127xf32>) outs(%t23 : tensor<16x127xf32>) -> tensor<16x127xf32>
  %t24 = tensor.empty() : tensor<16x127xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %v1 : tensor<16x127xf32>, tensor<16x127xf32>) outs(%t24 : tensor<16x127xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t25 = linalg.index 0 : index
    %t26 = linalg.index 1 : index
    %t27 = arith.maxnumf %in0, %in1 : f32
    %t28 = arith.negf %t27 : f32
    %t29 = arith.constant 1.000000000e+00 : f32
    %t30 = arith.cmpi sge, %t25, %t26 : index
    %t31 = arith.select %t30, %t28, %t29 : f32
    linalg.yield %t31 : f32
  } -> tensor<16x127xf32>
  %t32 = tensor.empty() : tensor<16x127xf32>
  %v9 = linalg.exp ins(%v8 : tensor<16x127xf32>) outs(%t32 : tensor<16x127xf32>) -> tensor<16x127xf32>
  return %v9, %v6, %v4 : tensor<16x127xf32>, tensor<127xf32>, tensor<16xf32>
}
