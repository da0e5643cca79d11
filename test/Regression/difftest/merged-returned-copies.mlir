// Two copies of one argument, both returned: after fusion one map yields
// both, and the CPU pipeline's CSE merged the two equal results into one
// value; buffer-results-to-out-params then crashed on the buffer returned
// twice (bb-run: "Stack dump", found by bb-difftest --seed 3, program 44).
// Fixed in the CPU pipeline (lib/Pipelines/CPUPipeline.cpp).
//
// Found by bb-difftest --seed 3 (program 44 of an earlier, uncommitted version of the generator), minimised from 15 to 3
// operators. Failure: run-crash: Stack dump:
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=256 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse --block-report=output=fused.json -o fused.mlir
//   bb-opt unfused.mlir --block-fuse=keep-snapshots --block-select=target=cpu -o selected.mlir
//   bb-opt fused.mlir --block-select=target=cpu -o fused-selected.mlir
//   bb-run unfused.mlir --fuse --check --reference prog.mlir --seed=3444
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=256 seed=3444 block-salt=0
func.func @difftest(%v6: tensor<1xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
  %t1 = tensor.empty() : tensor<1x1xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<1xf32>) outs(%t1 : tensor<1x1xf32>) {
^bb0(%in0: f32, %acc: f32):
    linalg.yield %in0 : f32
  } -> tensor<1x1xf32>
  %t2 = tensor.empty() : tensor<1x1xf32>
  %v8 = linalg.transpose ins(%v7 : tensor<1x1xf32>) outs(%t2 : tensor<1x1xf32>) permutation = [1, 0]
  %t3 = tensor.empty() : tensor<1x1xf32>
  %v9 = linalg.transpose ins(%v8 : tensor<1x1xf32>) outs(%t3 : tensor<1x1xf32>) permutation = [1, 0]
  return %v7, %v9 : tensor<1x1xf32>, tensor<1x1xf32>
}
