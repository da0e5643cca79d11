// Rule 5 leaves dot(x - p, w) with p x's pivot, and must recognise p as
// that pivot afterwards, or it hoists the shift about the same pivot again
// (with rule 7, which merges the new copy of p into the old one, the same
// dot comes back) and never stops. Here x is a chain of squares, each
// x * x sharing its operand: walked as a tree, comparing the pivot with x
// visits 94 pairs of ops for 11 distinct ones, and the comparison's budget
// of 64 rejected a pivot that was small enough to build (bb-difftest
// --seed 100, program 1166; test/Regression/difftest/fuse-no-fixed-point.mlir).
// The contracted axis has 6 elements: nothing depends on an extent of 1.

// RUN: bb-opt %s --block-fuse='order=5,7 extend=false max-steps=50 trace' -o %t 2>&1 | FileCheck %s --check-prefix=TRACE --match-full-lines
// RUN: FileCheck %s --input-file=%t
// RUN: bb-opt %t --block-fuse='order=5,7 extend=false' | diff %t -
// RUN: bb-run %t --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM

// TRACE:      step 1: rule 5 at {{.*}}: HoistShift{{From(Lhs|Rhs)}}AboutPivot
// TRACE-NEXT: step 2: rule 7 at {{.*}}: erase-dead-op: erased an unused block.sub
// TRACE-NOT:  step

// NUM: PASS

// The pivot is x's chain on X[M, 0]; the dot reads x - p.
// CHECK-LABEL: block.program @pivot_of_squares
// CHECK:         block.load %[[XA:.*]] [M, J]
// CHECK-COUNT-9: block.{{mul|tanh}} {{.*}} : !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[X:.*]] = block.tanh %{{.*}} : !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    block.load %[[XA]] [M, 0]
// CHECK-COUNT-9: block.{{mul|tanh}} {{.*}} : !block.tile<[M], f32>
// CHECK-NEXT:    %[[P:.*]] = block.tanh %{{.*}} : !block.tile<[M], f32>
// CHECK-NEXT:    %[[C:.*]] = block.sub %[[X]], %[[P]]
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[C]], %[[W]] contract [J]
// CHECK-NEXT:    %[[E:.*]] = block.sub %[[U]], %[[P]]
// CHECK-NEXT:    %[[S:.*]] = block.tile_reduce add %[[W]] over [J]
// CHECK-NEXT:    %[[F:.*]] = block.mul %[[E]], %[[S]]
// CHECK-NEXT:    %[[R:.*]] = block.sub %[[D]], %[[F]]
// CHECK-NEXT:    block.yield %[[R]]
block.program @pivot_of_squares axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %s1 = block.mul %x, %x : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t1 = block.tanh %s1 : !block.tile<[M, J], f32>
    %s2 = block.mul %t1, %t1 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t2 = block.tanh %s2 : !block.tile<[M, J], f32>
    %s3 = block.mul %t2, %t2 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t3 = block.tanh %s3 : !block.tile<[M, J], f32>
    %s4 = block.mul %t3, %t3 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t4 = block.tanh %s4 : !block.tile<[M, J], f32>
    %s5 = block.mul %t4, %t4 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t5 = block.tanh %s5 : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %t5, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
