// RUN: bb-opt %s --gpu-carry-loop-state-in-place --canonicalize | FileCheck %s

// A reduce loop that yields a buffer allocated in its body (what one-shot
// bufferization makes of a reduce's state) keeps its state in one buffer
// allocated before the loop instead: copied in before, updated at the end of
// each iteration, read after the loop.
// CHECK-LABEL: func.func @running_sum
// CHECK: scf.forall
// CHECK:   %[[INIT:.*]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:   linalg.fill {{.*}} outs(%[[INIT]]
// CHECK:   %[[STATE:.*]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:   linalg.copy ins(%[[INIT]] {{.*}} outs(%[[STATE]]
// CHECK:   scf.for
// CHECK-NOT: iter_args
// CHECK:     %[[NEXT:.*]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:     linalg.add ins(%[[STATE]], %{{.*}} outs(%[[NEXT]]
// CHECK:     linalg.copy ins(%[[NEXT]] {{.*}} outs(%[[STATE]]
// CHECK:   }
// CHECK:   memref.copy %[[STATE]], %{{.*}}
#wg = #gpu.address_space<workgroup>
func.func @running_sum(%x: memref<4x8xf32>, %out: memref<8xf32>) {
  scf.forall (%b) in (1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %init = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%init : memref<8xf32, #wg>)
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %init) -> (memref<8xf32, #wg>) {
      %row = memref.subview %x[%k, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      %next = memref.alloc() : memref<8xf32, #wg>
      linalg.add ins(%s, %row : memref<8xf32, #wg>, memref<8xf32, strided<[1], offset: ?>>) outs(%next : memref<8xf32, #wg>)
      scf.yield %next : memref<8xf32, #wg>
    }
    memref.copy %r, %out : memref<8xf32, #wg> to memref<8xf32>
  } {mapping = [#gpu.block<x>]}
  return
}
