// Fixed: the extend step keeps a replication only when the program moves
// no more global bytes (BlockFuse.cpp). Before, the replay failed as
// below.
//
// Fusion made the program move more global bytes (1044 -> 1548; kernels
// 2 -> 1). The sum of a 129-vector is broadcast back to 129 elements; with
// whole-threshold=16 both axes are tiled (128-blocks: 2 blocks each). The
// extend step replicates the sum into the broadcast map ("rule 6 ...
// replicated map into a map over more axes"), so every block of the output
// reduces the whole input again: the input is read twice, where the unfused
// program read it once and wrote and read one scalar. The replication is
// kept because the roofline estimate drops (one launch less); the issue's
// criterion is no more kernels and no more bytes. Reproduce:
//   bb-difftest --replay test/Regression/difftest/rule6-replication-more-bytes.mlir
//
// Found by bb-difftest --seed 1 (program 182, in the CI batch), minimised from 11 to 2
// operators. Failure: more-bytes: 1548 global bytes fused, 1044 unfused
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=16 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=16 seed=41038 block-salt=0
func.func @difftest(%v11: tensor<129xf32>) -> tensor<129xf32> {
  %t1 = tensor.empty() : tensor<f32>
  %t2 = arith.constant 0.000000000e+00 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<f32>) -> tensor<f32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%v11 : tensor<129xf32>) outs(%t3 : tensor<f32>) {
^bb0(%in0: f32, %acc: f32):
    %t4 = arith.addf %in0, %acc : f32
    linalg.yield %t4 : f32
  } -> tensor<f32>
  %t5 = tensor.empty() : tensor<129xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v14 : tensor<f32>) outs(%t5 : tensor<129xf32>) {
^bb0(%in0: f32, %acc: f32):
    linalg.yield %in0 : f32
  } -> tensor<129xf32>
  return %v15 : tensor<129xf32>
}
