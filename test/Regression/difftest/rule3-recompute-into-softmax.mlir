// Fixed: rule 3 weighs a recomputation in global bytes and refuses one
// that may leave the program moving more (MapIntoReduce.cpp,
// recomputationMayAddBytes). Before, the replay failed as below.
//
// Fusion made the program move more global bytes (15452 -> 17508; kernels
// 5 -> 2). A column sum of an 8x257 input (through three copies) feeds a
// softmax over its 257 elements. Rule 3 recomputes the column sum inside
// both reductions of the softmax (max and sum; steps 1, 2, 4), and rule 9
// then merges them online: the 8x257 input is loaded by two kernels instead
// of the 257-element sum. Reproduce:
//   bb-difftest --replay test/Regression/difftest/rule3-recompute-into-softmax.mlir
//
// Found by bb-difftest --seed 3 (program 45 of an earlier, uncommitted version of the generator), minimised from 12 to 5
// operators. Failure: more-bytes: 17508 global bytes fused, 15452 unfused
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=256 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=256 seed=251 block-salt=0
func.func @difftest(%v0: tensor<8x257xf32>) -> tensor<257xf32> {
  %t1 = tensor.empty() : tensor<257xf32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<257xf32>) -> tensor<257xf32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v0 : tensor<8x257xf32>) outs(%t3 : tensor<257xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t4 = arith.addf %acc, %in0 : f32
    linalg.yield %t4 : f32
  } -> tensor<257xf32>
  %t5 = tensor.empty() : tensor<257xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v1 : tensor<257xf32>) outs(%t5 : tensor<257xf32>) {
^bb0(%in0: f32, %acc: f32):
    linalg.yield %in0 : f32
  } -> tensor<257xf32>
  %t6 = tensor.empty() : tensor<257xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v3 : tensor<257xf32>) outs(%t6 : tensor<257xf32>) {
^bb0(%in0: f32, %acc: f32):
    linalg.yield %in0 : f32
  } -> tensor<257xf32>
  %t7 = tensor.empty() : tensor<257xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v5 : tensor<257xf32>) outs(%t7 : tensor<257xf32>) {
^bb0(%in0: f32, %acc: f32):
    linalg.yield %in0 : f32
  } -> tensor<257xf32>
  %t8 = tensor.empty() : tensor<257xf32>
  %v15 = linalg.softmax dimension(0) ins(%v14 : tensor<257xf32>) outs(%t8 : tensor<257xf32>) -> tensor<257xf32>
  return %v15 : tensor<257xf32>
}
