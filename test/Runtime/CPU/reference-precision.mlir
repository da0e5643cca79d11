// RUN: bb-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(reference-precision))' | FileCheck %s
// RUN: bb-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(reference-precision{to=f64}))' | FileCheck %s --check-prefix=F64
// RUN: not bb-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(reference-precision{to=f16}))' 2>&1 | FileCheck %s --check-prefix=BAD

// to=f32: the f16 sum accumulates in f32 (upstream's lowering of the program
// as written would accumulate in f16 and lose the small terms); what the
// program stores in f16 (the generic's f16 result, the truncf) is still
// rounded to f16 and extended again; the signature stays f16/bf16.
// CHECK-LABEL: func.func @f16_sum(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf16>, %[[S:.*]]: bf16) -> tensor<4xf16>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[SF:.*]] = arith.extf %[[S]] : bf16 to f32
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.addf %{{.*}} : f32
// CHECK: } -> tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.mulf %{{.*}}, %[[SF]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : f16 to f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: return %{{.*}} : tensor<4xf16>
// An f16 sum with a bf16 scale.
func.func @f16_sum(%x: tensor<4x8xf16>, %s: bf16) -> tensor<4xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf16>) outs(%init : tensor<4xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %r = arith.addf %a, %acc : f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                            iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%a: f16, %o: f16):
    %w = arith.extf %a : f16 to f32
    %sf = arith.extf %s : bf16 to f32
    %m = arith.mulf %w, %sf : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4xf16>
  return %scaled : tensor<4xf16>
}

// -----

// to=f64: the oracle computes every f32 value in f64 and rounds nothing in
// between: the truncf to f32 disappears.
// F64-LABEL: func.func @f32_sum(
// F64-SAME: %[[X:.*]]: tensor<16xf32>) -> tensor<f32>
// F64: arith.extf %{{.*}} : f32 to f64
// F64: arith.constant 0.000000e+00 : f64
// F64: ^bb0(%{{.*}}: f64, %{{.*}}: f64):
// F64-NEXT: arith.mulf %{{.*}} : f64
// F64-NEXT: arith.addf %{{.*}} : f64
// F64-NOT: arith.truncf %{{.*}} : f64 to f32
// F64: } -> tensor<f64>
// F64: %[[OUT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<f32>)
// F64: arith.truncf %{{.*}} : f64 to f32
// F64: return %[[OUT]] : tensor<f32>

// BAD: error: reference-precision: to=f16 is not one of f32, f64
func.func @f32_sum(%x: tensor<16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
