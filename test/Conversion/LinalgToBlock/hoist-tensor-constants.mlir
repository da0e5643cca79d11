// RUN: bb-opt %s --hoist-tensor-constants -split-input-file | FileCheck %s

// Non-splat tensor constants become trailing arguments, in program order;
// splats and scalars stay. A `dense_resource` keeps its key as the marker's
// value (what binds the weight by name: docs/Artifact.md, "constant"), quoted
// or not; MLIR's elision marker `__elided__` names nothing and is dropped.
// Equal constants keep one argument each, with the same key.
// CHECK-LABEL: func.func @weights
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32> {blockbuster.hoisted_constant},
// CHECK-SAME: %[[R:.*]]: tensor<2xi64> {blockbuster.hoisted_constant = "torch_tensor_2_torch.int64"},
// CHECK-SAME: %[[N:.*]]: tensor<2x3xf32> {blockbuster.hoisted_constant = "layers.0.proj.weight"},
// CHECK-SAME: %[[E:.*]]: tensor<2xi64> {blockbuster.hoisted_constant},
// CHECK-SAME: %[[R2:.*]]: tensor<2xi64> {blockbuster.hoisted_constant = "torch_tensor_2_torch.int64"})
// CHECK-NOT: dense<[
// CHECK-NOT: dense_resource
// CHECK: arith.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: return %[[X]], %[[W]], %{{.*}}, %[[R]], %[[N]], %[[E]], %[[R2]]
func.func @weights(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h = arith.constant dense<0.5> : tensor<4xf32>
  %r = arith.constant dense_resource<torch_tensor_2_torch.int64> : tensor<2xi64>
  %n = arith.constant dense_resource<"layers.0.proj.weight"> : tensor<2x3xf32>
  %e = arith.constant dense_resource<__elided__> : tensor<2xi64>
  %r2 = arith.constant dense_resource<torch_tensor_2_torch.int64> : tensor<2xi64>
  return %x, %w, %h, %r, %n, %e, %r2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>
}

// -----

// A function that is called keeps its signature.
// CHECK-LABEL: func.func @callee(%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]>
func.func @callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %w : tensor<2xf32>
}
func.func @caller(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = func.call @callee(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
