// Fixed: rule 3 weighs a recomputation in global bytes and refuses one
// that may leave the program moving more (MapIntoReduce.cpp,
// recomputationMayAddBytes). Before, the replay failed as below.
//
// Fusion made the program move more global bytes (792 -> 964; kernels
// 4 -> 1). A row max %v2 of a 15x8 input is read by a sum %v3 and by an
// elementwise op %v4 that a max %v5 reduces. Rule 3 moves the row max into
// both reductions (steps 1, 2 and 7 of --block-fuse=trace), so the 15x8 input
// is loaded twice where the unfused program loaded it once and then moved
// 15-element vectors. The kernel count drops, the bytes grow: the main loop
// applies rule 3 without comparing bytes. Reproduce:
//   bb-difftest --replay test/Regression/difftest/rule3-recompute-into-two-reduces.mlir
//
// Found by bb-difftest --seed 3 (program 99 of an earlier, uncommitted version of the generator), minimised from 7 to 4
// operators. Failure: more-bytes: 964 global bytes fused, 792 unfused
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=8 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=8 seed=8939 block-salt=0
func.func @difftest(%v1: tensor<15x8xf32>) -> tensor<f32> {
  %t1 = tensor.empty() : tensor<15xf32>
  %t2 = arith.constant 0xFF800000 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<15xf32>) -> tensor<15xf32>
  %v2 = linalg.reduce ins(%v1 : tensor<15x8xf32>) outs(%t3 : tensor<15xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
    %t4 = arith.maximumf %in, %acc : f32
    linalg.yield %t4 : f32
  }
  %t5 = tensor.empty() : tensor<f32>
  %t6 = arith.constant 0.000000000e+00 : f32
  %t7 = linalg.fill ins(%t6 : f32) outs(%t5 : tensor<f32>) -> tensor<f32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v2 : tensor<15xf32>) outs(%t7 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t8 = arith.addf %in0, %acc : f32
    linalg.yield %t8 : f32
  } -> tensor<f32>
  %t9 = tensor.empty() : tensor<15xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v2, %v3 : tensor<15xf32>, tensor<f32>) outs(%t9 : tensor<15xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t10 = arith.constant 1.000000000e-05 : f32
    %t11 = arith.addf %in1, %t10 : f32
    %t12 = math.rsqrt %t11 : f32
    %t13 = arith.mulf %in0, %t12 : f32
    linalg.yield %t13 : f32
  } -> tensor<15xf32>
  %t14 = tensor.empty() : tensor<f32>
  %t15 = arith.constant 0xFF800000 : f32
  %t16 = linalg.fill ins(%t15 : f32) outs(%t14 : tensor<f32>) -> tensor<f32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v4 : tensor<15xf32>) outs(%t16 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t17 = arith.maxnumf %acc, %in0 : f32
    linalg.yield %t17 : f32
  } -> tensor<f32>
  return %v5 : tensor<f32>
}
