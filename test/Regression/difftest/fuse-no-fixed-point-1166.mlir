// Program 1166 of bb-difftest --seed 100, not minimised: block-fuse did not
// terminate on it (a 9-step cycle of rules 5, 7 and 4 once the program was
// fused, from step ~76 with bb-opt --block-fuse=trace). Its minimised form,
// fuse-no-fixed-point.mlir, has every extent 1; this one contracts over 100
// elements, so a fix that only holds for extent-1 contractions fails here.
// The cause is in fuse-no-fixed-point.mlir.
//
// The checks, in the directory of a copy of this file as prog.mlir:
//   bb-opt prog.mlir --convert-linalg-to-block=whole-threshold=64 -o unfused.mlir
//   bb-opt unfused.mlir --block-report=output=unfused.json --block-fuse=max-steps=5000 --block-report=output=fused.json -o fused.mlir
//
// RUN: bb-difftest --replay %s | FileCheck %s
// CHECK: PASS {{.*}}.mlir
// bb-difftest-config: whole-threshold=64 seed=28931 block-salt=330670160
func.func @difftest(%v1: tensor<300x100xf32>, %v6: tensor<100xf32>, %v8: tensor<300xf32>, %v10: tensor<300x100xf32>, %v12: tensor<300x31xf32>, %v19: tensor<100xf32>, %v21: tensor<100xf32>, %v24: tensor<100xf32>, %v26: tensor<100xf32>, %v29: tensor<100xf32>, %v31: tensor<100x31xf32>) -> (tensor<100xf32>, tensor<31x300xf32>) {
  %t1 = tensor.empty() : tensor<300xf32>
  %t2 = arith.constant 0xFF800000 : f32
  %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<300xf32>) -> tensor<300xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v1 : tensor<300x100xf32>) outs(%t3 : tensor<300xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t4 = arith.maximumf %acc, %in0 : f32
    linalg.yield %t4 : f32
  } -> tensor<300xf32>
  %t5 = tensor.empty() : tensor<300x100xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v1, %v2 : tensor<300x100xf32>, tensor<300xf32>) outs(%t5 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t6 = arith.subf %in0, %in1 : f32
    %t7 = math.exp %t6 : f32
    linalg.yield %t7 : f32
  } -> tensor<300x100xf32>
  %t8 = tensor.empty() : tensor<300xf32>
  %t9 = arith.constant 0.000000000e+00 : f32
  %t10 = linalg.fill ins(%t9 : f32) outs(%t8 : tensor<300xf32>) -> tensor<300xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v3 : tensor<300x100xf32>) outs(%t10 : tensor<300xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t11 = arith.addf %acc, %in0 : f32
    linalg.yield %t11 : f32
  } -> tensor<300xf32>
  %t12 = tensor.empty() : tensor<300x100xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %v4 : tensor<300x100xf32>, tensor<300xf32>) outs(%t12 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t13 = arith.divf %in0, %in1 : f32
    linalg.yield %t13 : f32
  } -> tensor<300x100xf32>
  %t14 = tensor.empty() : tensor<300x100xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v5, %v6 : tensor<300x100xf32>, tensor<100xf32>) outs(%t14 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t15 = arith.mulf %in1, %in1 : f32
    %t16 = arith.constant 1.000000000e+00 : f32
    %t17 = arith.addf %t15, %t16 : f32
    %t18 = arith.divf %in0, %t17 : f32
    %t19 = arith.mulf %t18, %t18 : f32
    %t20 = arith.constant 1.000000000e+00 : f32
    %t21 = arith.addf %t19, %t20 : f32
    %t22 = arith.constant 5.000000000e-01 : f32
    %t23 = math.powf %t21, %t22 : f32
    linalg.yield %t23 : f32
  } -> tensor<300x100xf32>
  %t24 = tensor.empty() : tensor<300x100xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v7, %v5, %v8 : tensor<300x100xf32>, tensor<300x100xf32>, tensor<300xf32>) outs(%t24 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t25 = arith.constant 5.000000000e-01 : f32
    %t26 = arith.mulf %t25, %t25 : f32
    %t27 = arith.addf %t26, %in2 : f32
    %t28 = math.erf %t27 : f32
    %t29 = arith.maximumf %t28, %in1 : f32
    %t30 = arith.constant 2.000000000e+00 : f32
    %t31 = math.powf %t29, %t30 : f32
    %t32 = arith.maxnumf %t31, %in0 : f32
    linalg.yield %t32 : f32
  } -> tensor<300x100xf32>
  %t33 = tensor.empty() : tensor<300x100xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v9, %v10 : tensor<300x100xf32>, tensor<300x100xf32>) outs(%t33 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t34 = arith.mulf %in1, %in1 : f32
    %t35 = arith.constant 1.000000000e+00 : f32
    %t36 = arith.addf %t34, %t35 : f32
    %t37 = arith.divf %in0, %t36 : f32
    %t38 = arith.mulf %t37, %t37 : f32
    %t39 = arith.constant 5.000000000e-01 : f32
    %t40 = arith.addf %t38, %t39 : f32
    %t41 = math.rsqrt %t40 : f32
    linalg.yield %t41 : f32
  } -> tensor<300x100xf32>
  %t42 = tensor.empty() : tensor<100x31xf32>
  %t43 = arith.constant 0.000000000e+00 : f32
  %t44 = linalg.fill ins(%t43 : f32) outs(%t42 : tensor<100x31xf32>) -> tensor<100x31xf32>
  %v13 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%v11, %v12 : tensor<300x100xf32>, tensor<300x31xf32>) outs(%t44 : tensor<100x31xf32>) -> tensor<100x31xf32>
  %t45 = tensor.empty() : tensor<100x31xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v13 : tensor<100x31xf32>) outs(%t45 : tensor<100x31xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t46 = arith.constant 3.125000000e-02 : f32
    %t47 = arith.mulf %in0, %t46 : f32
    linalg.yield %t47 : f32
  } -> tensor<100x31xf32>
  %t48 = tensor.empty() : tensor<100x31xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v14, %v13 : tensor<100x31xf32>, tensor<100x31xf32>) outs(%t48 : tensor<100x31xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t49 = arith.constant 7.500000000e-01 : f32
    %t50 = arith.subf %t49, %in1 : f32
    %t51 = arith.mulf %t50, %t50 : f32
    %t52 = arith.constant 5.000000000e-01 : f32
    %t53 = arith.addf %t51, %t52 : f32
    %t54 = math.rsqrt %t53 : f32
    %t55 = arith.mulf %in0, %in0 : f32
    %t56 = arith.constant 1.000000000e+00 : f32
    %t57 = arith.addf %t55, %t56 : f32
    %t58 = arith.divf %t54, %t57 : f32
    %t59 = arith.negf %t58 : f32
    %t60 = math.exp %t59 : f32
    %t61 = arith.constant 1.000000000e+00 : f32
    %t62 = arith.addf %t61, %t60 : f32
    %t63 = arith.divf %t61, %t62 : f32
    linalg.yield %t63 : f32
  } -> tensor<100x31xf32>
  %t64 = tensor.empty() : tensor<100xf32>
  %t65 = arith.constant 5.000000000e-01 : f32
  %t66 = linalg.fill ins(%t65 : f32) outs(%t64 : tensor<100xf32>) -> tensor<100xf32>
  %v17 = linalg.reduce ins(%v16 : tensor<100x31xf32>) outs(%t66 : tensor<100xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
    %t67 = arith.addf %in, %acc : f32
    linalg.yield %t67 : f32
  }
  %t68 = tensor.empty() : tensor<100xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v17 : tensor<100xf32>) outs(%t68 : tensor<100xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t69 = arith.constant 3.225806452e-02 : f32
    %t70 = arith.mulf %in0, %t69 : f32
    linalg.yield %t70 : f32
  } -> tensor<100xf32>
  %t71 = tensor.empty() : tensor<100xf32>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v18, %v19, %v17 : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) outs(%t71 : tensor<100xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t72 = arith.constant 2.000000000e+00 : f32
    %t73 = arith.constant 3 : i32
    %t74 = math.fpowi %t72, %t73 : f32, i32
    %t75 = arith.mulf %t74, %in2 : f32
    %t76 = arith.maximumf %t75, %in1 : f32
    %t77 = arith.maximumf %t76, %in0 : f32
    %t78 = math.sin %t77 : f32
    linalg.yield %t78 : f32
  } -> tensor<100xf32>
  %t79 = tensor.empty() : tensor<300xf32>
  %t80 = arith.constant 0.000000000e+00 : f32
  %t81 = linalg.fill ins(%t80 : f32) outs(%t79 : tensor<300xf32>) -> tensor<300xf32>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v11 : tensor<300x100xf32>) outs(%t81 : tensor<300xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t82 = arith.constant 1.000000000e-02 : f32
    %t83 = arith.mulf %in0, %t82 : f32
    %t84 = arith.addf %t83, %acc : f32
    linalg.yield %t84 : f32
  } -> tensor<300xf32>
  %t85 = tensor.empty() : tensor<300xf32>
  %t86 = arith.constant 0.000000000e+00 : f32
  %t87 = linalg.fill ins(%t86 : f32) outs(%t85 : tensor<300xf32>) -> tensor<300xf32>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v11, %v22 : tensor<300x100xf32>, tensor<300xf32>) outs(%t87 : tensor<300xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t88 = arith.subf %in0, %in1 : f32
    %t89 = arith.subf %in0, %in1 : f32
    %t90 = arith.mulf %t88, %t89 : f32
    %t91 = arith.constant 1.000000000e-02 : f32
    %t92 = arith.mulf %t90, %t91 : f32
    %t93 = arith.addf %t92, %acc : f32
    linalg.yield %t93 : f32
  } -> tensor<300xf32>
  %t94 = tensor.empty() : tensor<300x100xf32>
  %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11, %v22, %v23, %v21, %v24 : tensor<300x100xf32>, tensor<300xf32>, tensor<300xf32>, tensor<100xf32>, tensor<100xf32>) outs(%t94 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %in4: f32, %acc: f32):
    %t95 = arith.subf %in0, %in1 : f32
    %t96 = arith.constant 1.000000000e-05 : f32
    %t97 = arith.addf %in2, %t96 : f32
    %t98 = math.rsqrt %t97 : f32
    %t99 = arith.mulf %t95, %t98 : f32
    %t100 = arith.mulf %t99, %in3 : f32
    %t101 = arith.addf %t100, %in4 : f32
    linalg.yield %t101 : f32
  } -> tensor<300x100xf32>
  %t102 = tensor.empty() : tensor<300xf32>
  %t103 = arith.constant 0.000000000e+00 : f32
  %t104 = linalg.fill ins(%t103 : f32) outs(%t102 : tensor<300xf32>) -> tensor<300xf32>
  %v27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v25 : tensor<300x100xf32>) outs(%t104 : tensor<300xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t105 = arith.constant 1.000000000e-02 : f32
    %t106 = arith.mulf %in0, %t105 : f32
    %t107 = arith.addf %acc, %t106 : f32
    linalg.yield %t107 : f32
  } -> tensor<300xf32>
  %t108 = tensor.empty() : tensor<300xf32>
  %t109 = arith.constant 0.000000000e+00 : f32
  %t110 = linalg.fill ins(%t109 : f32) outs(%t108 : tensor<300xf32>) -> tensor<300xf32>
  %v28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v25, %v27 : tensor<300x100xf32>, tensor<300xf32>) outs(%t110 : tensor<300xf32>) {
^bb0(%in0: f32, %in1: f32, %acc: f32):
    %t111 = arith.subf %in0, %in1 : f32
    %t112 = arith.subf %in0, %in1 : f32
    %t113 = arith.mulf %t111, %t112 : f32
    %t114 = arith.constant 1.000000000e-02 : f32
    %t115 = arith.mulf %t113, %t114 : f32
    %t116 = arith.addf %acc, %t115 : f32
    linalg.yield %t116 : f32
  } -> tensor<300xf32>
  %t117 = tensor.empty() : tensor<300x100xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v25, %v27, %v28, %v26, %v29 : tensor<300x100xf32>, tensor<300xf32>, tensor<300xf32>, tensor<100xf32>, tensor<100xf32>) outs(%t117 : tensor<300x100xf32>) {
^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %in4: f32, %acc: f32):
    %t118 = arith.subf %in0, %in1 : f32
    %t119 = arith.constant 1.000000000e-05 : f32
    %t120 = arith.addf %in2, %t119 : f32
    %t121 = math.rsqrt %t120 : f32
    %t122 = arith.mulf %t118, %t121 : f32
    %t123 = arith.mulf %t122, %in3 : f32
    %t124 = arith.addf %t123, %in4 : f32
    linalg.yield %t124 : f32
  } -> tensor<300x100xf32>
  %t125 = tensor.empty() : tensor<300x31xf32>
  %t126 = arith.constant 0.000000000e+00 : f32
  %t127 = linalg.fill ins(%t126 : f32) outs(%t125 : tensor<300x31xf32>) -> tensor<300x31xf32>
  %v32 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%v30, %v31 : tensor<300x100xf32>, tensor<100x31xf32>) outs(%t127 : tensor<300x31xf32>) -> tensor<300x31xf32>
  %t128 = tensor.empty() : tensor<300x31xf32>
  %v33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v32 : tensor<300x31xf32>) outs(%t128 : tensor<300x31xf32>) {
^bb0(%in0: f32, %acc: f32):
    %t129 = arith.constant 3.125000000e-02 : f32
    %t130 = arith.mulf %in0, %t129 : f32
    linalg.yield %t130 : f32
  } -> tensor<300x31xf32>
  %t131 = tensor.empty() : tensor<31x300xf32>
  %v34 = linalg.transpose ins(%v33 : tensor<300x31xf32>) outs(%t131 : tensor<31x300xf32>) permutation = [1, 0]
  return %v20, %v34 : tensor<100xf32>, tensor<31x300xf32>
}
