// Rule 8, structure normalisation (lib/Dialect/Block/Transforms/Rules/
// StructureNormalization.cpp): a reduce over a whole axis runs once and is
// inlined; a broadcast to its operand's own type, or of a broadcast, is
// folded. Only rule 8 runs.

// RUN: bb-opt %s -split-input-file --block-fuse='order=8 extend=false' | FileCheck %s

// RUN: bb-opt %s --block-fuse='order=8 extend=false' -o %t
// RUN: bb-run %t --entry inline_whole_reduce --check --reference %s --block-sizes=M=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry inline_whole_region_reduce --check --reference %s --block-sizes=M=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry fold_broadcasts --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// A reduce over the whole axis D (one block, one iteration) with built-in
// combiners: its results are its terms.

// CHECK-LABEL: block.program @inline_whole_reduce
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x6xf32>)
// CHECK-NEXT:    block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      %[[L:.*]] = block.load %[[X]] [M, D]
// CHECK-NEXT:      %[[S:.*]] = block.tile_reduce add %[[L]] over [D]
// CHECK-NEXT:      %[[T:.*]] = block.tile_reduce max %[[L]] over [D]
// CHECK-NEXT:      %[[R:.*]] = block.sub %[[S]], %[[T]]
// CHECK-NEXT:      block.yield %[[R]]
// CHECK-NOT:     block.reduce
block.program @inline_whole_reduce axes(M = 10 tiled, D = 6 whole)
    (%X: !block.array<10x6xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s, %m = block.reduce D combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, D] : !block.array<10x6xf32> -> !block.tile<[M, D], f32>
      %t = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      %u = block.tile_reduce max %x over [D] : !block.tile<[M, D], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %r = block.sub %s, %m : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// With a combine region: the single term is folded once into the initial
// state (state + term for the first element; the second element's combine
// yields the state unchanged, so the result is its init).

// CHECK-LABEL: block.program @inline_whole_region_reduce
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x6xf32>)
// CHECK-NEXT:    block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      %[[I0:.*]] = block.constant [M] 3.000000e+00 : f32
// CHECK-NEXT:      %[[I1:.*]] = block.constant [M] 5.000000e+00 : f32
// CHECK-NEXT:      %[[L:.*]] = block.load %[[X]] [M, D]
// CHECK-NEXT:      %[[T:.*]] = block.tile_reduce add %[[L]] over [D]
// CHECK-NEXT:      %[[A:.*]] = block.add %[[I0]], %[[T]]
// CHECK-NEXT:      %[[R:.*]] = block.mul %[[A]], %[[I1]]
// CHECK-NEXT:      block.yield %[[R]]
// CHECK-NOT:     block.reduce
block.program @inline_whole_region_reduce axes(M = 10 tiled, D = 6 whole)
    (%X: !block.array<10x6xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %i0 = block.constant [M] 3.0 : f32
    %i1 = block.constant [M] 5.0 : f32
    %s, %k = block.reduce D init(%i0, %i1 : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, D] : !block.array<10x6xf32> -> !block.tile<[M, D], f32>
      %t = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      block.yield %t, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>, %ta: !block.tile<[M], f32>, %tb: !block.tile<[M], f32>):
      %n = block.add %a, %ta : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %n, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %r = block.mul %s, %k : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// broadcast [M, N] -> [M, N] is its operand; broadcast([N] -> [N, M]) then
// [N, M] -> [M, N] is one broadcast [N] -> [M, N] (the inner one, now
// unused, is left for cleanup).

// CHECK-LABEL: block.program @fold_broadcasts
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>, %[[B:[^:]+]]: !block.array<7xf32>)
// CHECK-NEXT:    block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[LB:.*]] = block.load %[[B]] [N]
// CHECK-NEXT:      block.broadcast %[[LB]] : !block.tile<[N], f32> to !block.tile<[N, M], f32>
// CHECK-NEXT:      %[[BB:.*]] = block.broadcast %[[LB]] : !block.tile<[N], f32> to !block.tile<[M, N], f32>
// CHECK-NEXT:      %[[S:.*]] = block.add %[[LX]], %[[BB]]
// CHECK-NEXT:      block.yield %[[S]]
block.program @fold_broadcasts axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %B: !block.array<7xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %same = block.broadcast %x : !block.tile<[M, N], f32> to !block.tile<[M, N], f32>
    %b = block.load %B[N] : !block.array<7xf32> -> !block.tile<[N], f32>
    %b1 = block.broadcast %b : !block.tile<[N], f32> to !block.tile<[N, M], f32>
    %b2 = block.broadcast %b1 : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
    %s = block.add %same, %b2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A reduce over a tiled axis iterates: it stays. A broadcast that changes
// the axes stays.

// CHECK-LABEL: block.program @negative_tiled_reduce_and_real_broadcast
// CHECK:         block.broadcast %{{.*}} : !block.tile<[M], f32> to !block.tile<[M, N], f32>
// CHECK:         block.reduce K combiners [add]
block.program @negative_tiled_reduce_and_real_broadcast axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> (!block.array<10x7xf32>, !block.array<10xf32>) {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.broadcast %v : !block.tile<[M], f32> to !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  %Z = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %Y, %Z : !block.array<10x7xf32>, !block.array<10xf32>
}
