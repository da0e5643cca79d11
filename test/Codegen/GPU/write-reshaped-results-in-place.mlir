// RUN: bb-opt %s --gpu-write-reshaped-results-in-place --split-input-file | FileCheck %s

// A [1, 128, 64] result that is the expand_shape of the [128, 64] buffer a
// kernel writes: the kernel writes the out-parameter through the inverse
// view, and the host copy is gone.
// CHECK-LABEL: func.func @expanded_result
// CHECK-SAME:    (%[[X:.*]]: memref<128x64xf32>, %[[OUT:.*]]: memref<1x128x64xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[VIEW:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1], [2]] : memref<1x128x64xf32> into memref<128x64xf32>
// CHECK:       linalg.negf ins(%[[X]] : memref<128x64xf32>) outs(%[[VIEW]] : memref<128x64xf32>)
// CHECK-NOT:   memref.copy
// CHECK:       return
func.func @expanded_result(%x: memref<128x64xf32>, %out: memref<1x128x64xf32>) {
  %a = memref.alloc() : memref<128x64xf32>
  linalg.negf ins(%x : memref<128x64xf32>) outs(%a : memref<128x64xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 128, 64] : memref<128x64xf32> into memref<1x128x64xf32>
  memref.copy %e, %out : memref<1x128x64xf32> to memref<1x128x64xf32>
  return
}

// -----

// The collapse_shape direction: the out-parameter is expanded.
// CHECK-LABEL: func.func @collapsed_result
// CHECK:       %[[VIEW:.*]] = memref.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 16, 8] : memref<32x8xf32> into memref<2x16x8xf32>
// CHECK:       linalg.negf ins(%{{.*}}) outs(%[[VIEW]] : memref<2x16x8xf32>)
// CHECK-NOT:   memref.copy
func.func @collapsed_result(%x: memref<2x16x8xf32>, %out: memref<32x8xf32>) {
  %a = memref.alloc() : memref<2x16x8xf32>
  linalg.negf ins(%x : memref<2x16x8xf32>) outs(%a : memref<2x16x8xf32>)
  %c = memref.collapse_shape %a [[0, 1], [2]] : memref<2x16x8xf32> into memref<32x8xf32>
  memref.copy %c, %out : memref<32x8xf32> to memref<32x8xf32>
  return
}

// -----

// The buffer is written again after the copy: the copy holds its old
// contents, so it stays.
// CHECK-LABEL: func.func @written_after_copy
// CHECK:       memref.alloc
// CHECK:       memref.copy
func.func @written_after_copy(%x: memref<128x64xf32>, %out: memref<1x128x64xf32>, %out2: memref<128x64xf32>) {
  %a = memref.alloc() : memref<128x64xf32>
  linalg.negf ins(%x : memref<128x64xf32>) outs(%a : memref<128x64xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 128, 64] : memref<128x64xf32> into memref<1x128x64xf32>
  memref.copy %e, %out : memref<1x128x64xf32> to memref<1x128x64xf32>
  linalg.negf ins(%x : memref<128x64xf32>) outs(%a : memref<128x64xf32>)
  memref.copy %a, %out2 : memref<128x64xf32> to memref<128x64xf32>
  return
}

// -----

// A copy of a reshaped argument is a real copy: there is no allocation to
// replace.
// CHECK-LABEL: func.func @reshaped_argument
// CHECK:       memref.copy
func.func @reshaped_argument(%x: memref<128x64xf32>, %out: memref<1x128x64xf32>) {
  %e = memref.expand_shape %x [[0, 1], [2]] output_shape [1, 128, 64] : memref<128x64xf32> into memref<1x128x64xf32>
  memref.copy %e, %out : memref<1x128x64xf32> to memref<1x128x64xf32>
  return
}

// -----

// A chain of views (bb-difftest --sizes production seed 8128 program 390: a
// [32, 64] kernel output returned as [1, 2048], by way of [1, 32, 64]): the
// out-parameter is taken back through both reshapes, last first.
// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME:    (%[[X:.*]]: memref<32x64xf32>, %[[OUT:.*]]: memref<1x2048xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[V1:.*]] = memref.expand_shape %[[OUT]] {{\[}}[0], [1, 2]] output_shape [1, 32, 64] : memref<1x2048xf32> into memref<1x32x64xf32>
// CHECK:       %[[V0:.*]] = memref.collapse_shape %[[V1]] {{\[}}[0, 1], [2]] : memref<1x32x64xf32> into memref<32x64xf32>
// CHECK:       linalg.negf ins(%[[X]] : memref<32x64xf32>) outs(%[[V0]] : memref<32x64xf32>)
// CHECK-NOT:   memref.copy
// CHECK:       return
func.func @reshape_chain(%x: memref<32x64xf32>, %out: memref<1x2048xf32>) {
  %a = memref.alloc() : memref<32x64xf32>
  linalg.negf ins(%x : memref<32x64xf32>) outs(%a : memref<32x64xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 32, 64] : memref<32x64xf32> into memref<1x32x64xf32>
  %c = memref.collapse_shape %e [[0], [1, 2]] : memref<1x32x64xf32> into memref<1x2048xf32>
  memref.copy %c, %out : memref<1x2048xf32> to memref<1x2048xf32>
  return
}

// -----

// An inner view read by another op ends the chain: the copy through both
// views stays, and the copy of the inner view alone is the single-reshape
// case (the kernel writes %out2, which the remaining copy reads).
// CHECK-LABEL: func.func @reshape_chain_inner_use
// CHECK-SAME:    (%{{.*}}: memref<32x64xf32>, %[[OUT:.*]]: memref<1x2048xf32>, %[[OUT2:.*]]: memref<1x32x64xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[V:.*]] = memref.collapse_shape %[[OUT2]]
// CHECK:       linalg.negf ins(%{{.*}}) outs(%[[V]] : memref<32x64xf32>)
// CHECK:       memref.copy %{{.*}}, %[[OUT]]
// CHECK-NOT:   memref.copy
func.func @reshape_chain_inner_use(%x: memref<32x64xf32>, %out: memref<1x2048xf32>, %out2: memref<1x32x64xf32>) {
  %a = memref.alloc() : memref<32x64xf32>
  linalg.negf ins(%x : memref<32x64xf32>) outs(%a : memref<32x64xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 32, 64] : memref<32x64xf32> into memref<1x32x64xf32>
  %c = memref.collapse_shape %e [[0], [1, 2]] : memref<1x32x64xf32> into memref<1x2048xf32>
  memref.copy %c, %out : memref<1x2048xf32> to memref<1x2048xf32>
  memref.copy %e, %out2 : memref<1x32x64xf32> to memref<1x32x64xf32>
  return
}
