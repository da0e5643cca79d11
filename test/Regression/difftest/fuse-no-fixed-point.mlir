// block-fuse did not terminate here: "error: block-fuse did not reach a
// fixed point after 5000 rewrites" (without max-steps it ran past 39000
// rewrites and 120 s on the unminimised program). Once everything is fused
// into one kernel, rule 5 ("shift hoisting (a PDLL pattern)") rewrote
// dot(x - u, w) about x's pivot p, leaving dot(x - p, w), and then did not
// recognise p as x's pivot: x squares its intermediate values (a * a), the
// comparison walked that DAG as a tree and ran out of its budget of 64
// visits. So rule 5 hoisted again about a new copy of p, rule 7 merged the
// copy into p ("merged duplicate loads and computations"), and the same dot
// came back, forever. On the unminimised program the leftover correction
// (p - p) * colsum(w) also went through rule 5's split, rule 4 and rule 7's
// merge of state elements each time round, a 9-step cycle. Fixed by
// comparing each pair of values once, with the same bound as building a
// pivot (test/Dialect/Block/Transforms/block-fuse/rule5-pivot-recognised.mlir).
// Reproduce:
//   bb-difftest --replay test/Regression/difftest/fuse-no-fixed-point.mlir
//   bb-opt test/Regression/difftest/fuse-no-fixed-point.mlir \
//     --convert-linalg-to-block=whole-threshold=64 | bb-opt --block-fuse=trace
//
// Found by bb-difftest --seed 100 (program 1166), minimised from 22 to 8
// operators. Failure: fuse-error: unfused.mlir:2:3: error: block-fuse did not reach a fixed point after 5000 rewrites
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=64 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse=max-steps=5000 --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=64 seed=28931 block-salt=330670160
func.func @difftest(%v6: tensor<1xf32>, %v8: tensor<1xf32>, %v10: tensor<1x1xf32>, %v31: tensor<1x1xf32>, %v3: tensor<1x1xf32>, %v4: tensor<1xf32>, %v22: tensor<1xf32>, %v23: tensor<1xf32>, %v27: tensor<1xf32>) -> tensor<1x1xf32> {
  %t1 = tensor.empty() : tensor<1x1xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v4 : tensor<1x1xf32>, tensor<1xf32>) outs(%t1 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t2 = arith.divf %in0, %in1 : f32
    linalg.yield %t2 : f32
  } -> tensor<1x1xf32>
  %t3 = tensor.empty() : tensor<1x1xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v6 : tensor<1x1xf32>, tensor<1xf32>) outs(%t3 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t4 = arith.mulf %in1, %in1 : f32
    %t5 = arith.constant 1.000000000e+00 : f32
    %t6 = arith.addf %t4, %t5 : f32
    %t7 = arith.divf %in0, %t6 : f32
    %t8 = arith.mulf %t7, %t7 : f32
    %t9 = arith.constant 1.000000000e+00 : f32
    %t10 = arith.addf %t8, %t9 : f32
    %t11 = arith.constant 5.000000000e-01 : f32
    %t12 = math.powf %t10, %t11 : f32
    linalg.yield %t12 : f32
  } -> tensor<1x1xf32>
  %t13 = tensor.empty() : tensor<1x1xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %v5, %v8 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>) outs(%t13 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t14 = arith.constant 5.000000000e-01 : f32
    %t15 = arith.mulf %t14, %t14 : f32
    %t16 = arith.addf %t15, %in2 : f32
    %t17 = math.erf %t16 : f32
    %t18 = arith.maximumf %t17, %in1 : f32
    %t19 = arith.constant 2.000000000e+00 : f32
    %t20 = math.powf %t18, %t19 : f32
    %t21 = arith.maxnumf %t20, %in0 : f32
    linalg.yield %t21 : f32
  } -> tensor<1x1xf32>
  %t22 = tensor.empty() : tensor<1x1xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v9, %v10 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%t22 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t23 = arith.mulf %in1, %in1 : f32
    %t24 = arith.constant 1.000000000e+00 : f32
    %t25 = arith.addf %t23, %t24 : f32
    %t26 = arith.divf %in0, %t25 : f32
    %t27 = arith.mulf %t26, %t26 : f32
    %t28 = arith.constant 5.000000000e-01 : f32
    %t29 = arith.addf %t27, %t28 : f32
    %t30 = math.rsqrt %t29 : f32
    linalg.yield %t30 : f32
  } -> tensor<1x1xf32>
  %t31 = tensor.empty() : tensor<1x1xf32>
  %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11, %v22, %v23 : tensor<1x1xf32>, tensor<1xf32>, tensor<1xf32>) outs(%t31 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t32 = arith.subf %in0, %in1 : f32
    %t33 = math.absf %in2 : f32
    %t34 = arith.constant 1.000000000e-05 : f32
    %t35 = arith.addf %t33, %t34 : f32
    %t36 = math.rsqrt %t35 : f32
    %t37 = arith.mulf %t32, %t36 : f32
    linalg.yield %t37 : f32
  } -> tensor<1x1xf32>
  %t38 = tensor.empty() : tensor<1x1xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v25, %v27 : tensor<1x1xf32>, tensor<1xf32>) outs(%t38 : tensor<1x1xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t39 = arith.subf %in0, %in1 : f32
    linalg.yield %t39 : f32
  } -> tensor<1x1xf32>
  %t40 = tensor.empty() : tensor<1x1xf32>
  %t41 = arith.constant 0.000000000e+00 : f32
  %t42 = linalg.fill ins(%t41 : f32) outs(%t40 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %v32 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%v30, %v31 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%t42 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %t43 = tensor.empty() : tensor<1x1xf32>
  %v34 = linalg.transpose ins(%v32 : tensor<1x1xf32>) outs(%t43 : tensor<1x1xf32>) permutation = [1, 0]
  return %v34 : tensor<1x1xf32>
}
