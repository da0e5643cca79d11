// RUN: bb-opt %s --convert-linalg-to-block | FileCheck %s
// RUN: bb-run %s --check --fuse | FileCheck %s --check-prefix=CPU

// maxnumf ignores a NaN operand; block.max propagates it. A keepdim max over
// an axis of extent 1 (softmax along it, as the difftest program 7:575 has)
// becomes maxnumf(x, NaN) once the axis is dropped: the result is x, not NaN.
// CHECK-LABEL: block.program @softmax_unit_axis
// CHECK:       %[[MAX:.*]] = block.max %[[X:[0-9]+]], %[[NAN:[0-9]+]] :
// CHECK:       %[[RHS_NAN:[0-9]+]] = block.compare une %[[NAN]], %[[NAN]]
// CHECK:       %[[R:[0-9]+]] = block.select %[[RHS_NAN]], %[[X]], %[[MAX]]
// CHECK:       %[[LHS_NAN:[0-9]+]] = block.compare une %[[X]], %[[X]]
// CHECK:       block.select %[[LHS_NAN]], %[[NAN]], %[[R]]
// CPU: output #0 (64x16x1xf32): {{.*}} nan 0 of 1024: PASS
func.func @softmax_unit_axis(%x: tensor<64x16x1xf32>) -> tensor<64x16x1xf32> {
  %e = tensor.empty() : tensor<64x16x1xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<64x16x1xf32>) outs(%e : tensor<64x16x1xf32>) -> tensor<64x16x1xf32>
  return %s : tensor<64x16x1xf32>
}
