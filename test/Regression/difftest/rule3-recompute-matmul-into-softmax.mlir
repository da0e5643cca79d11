// Fixed: rule 3 weighs a recomputation in global bytes and refuses one
// that may leave the program moving more (MapIntoReduce.cpp,
// recomputationMayAddBytes). Before, the replay failed as below.
//
// Fusion made the program move more global bytes (948 -> 1100; kernels
// 5 -> 2). A 1x15 matmul (against a 15x8 weight) feeds a softmax over its 15
// columns: the attention pattern with a single query row. Rule 3 recomputes
// the matmul inside both softmax reductions (steps 1, 3, 5 of
// --block-fuse=trace), rule 9 merges them online, and the weight is loaded
// by two kernels instead of the 15 scores once. FlashAttention's trade
// (recompute instead of buffering the scores) pays for many query rows,
// not for one; rule 3 does not weigh it. Reproduce:
//   bb-difftest --replay test/Regression/difftest/rule3-recompute-matmul-into-softmax.mlir
//
// Found by bb-difftest --seed 1 (program 246, in the CI batch), minimised from 5 to 2
// operators. Failure: more-bytes: 1100 global bytes fused, 948 unfused
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=8 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=8 seed=54543 block-salt=0
func.func @difftest(%v3: tensor<15x8xf32>, %v2: tensor<1x8xf32>) -> tensor<1x15xf32> {
  %t1 = tensor.empty() : tensor<1x15xf32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<1x15xf32>) -> tensor<1x15xf32>
  %v4 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%v2, %v3 : tensor<1x8xf32>, tensor<15x8xf32>) outs(%t3 : tensor<1x15xf32>) -> tensor<1x15xf32>
  %t4 = tensor.empty() : tensor<1x15xf32>
  %v6 = linalg.softmax dimension(1) ins(%v4 : tensor<1x15xf32>) outs(%t4 : tensor<1x15xf32>) -> tensor<1x15xf32>
  return %v6 : tensor<1x15xf32>
}
