// RUN: bb-opt %s --hoist-tensor-constants -split-input-file | FileCheck %s

// Non-splat tensor constants become trailing arguments, in program order;
// splats and scalars stay.
// CHECK-LABEL: func.func @weights
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32> {blockbuster.hoisted_constant}, %[[R:.*]]: tensor<2xi64> {blockbuster.hoisted_constant})
// CHECK-NOT: dense<[
// CHECK: arith.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: return %[[X]], %[[W]], %{{.*}}, %[[R]]
func.func @weights(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>) {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h = arith.constant dense<0.5> : tensor<4xf32>
  %r = arith.constant dense_resource<elided> : tensor<2xi64>
  return %x, %w, %h, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>
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
