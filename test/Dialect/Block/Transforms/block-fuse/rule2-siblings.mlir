// Rule 2, sibling map fusion (lib/Dialect/Block/Transforms/Rules/
// SiblingFusion.cpp): two maps over the same tiled axes that read a common
// array, with no path between them, become one map running both bodies.
// Only rule 2 runs (no cleanup: the shared array is still loaded twice).

// RUN: bb-opt %s -split-input-file --block-fuse='order=2 extend=false' | FileCheck %s

// With cleanup (rule 7) the duplicate load is merged.
// RUN: bb-opt %s -split-input-file --block-fuse='order=2,7 extend=false' | FileCheck %s --check-prefix=CLEAN

// RUN: bb-opt %s --block-fuse='order=2 extend=false' -o %t
// RUN: bb-run %t --entry siblings --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry user_in_between --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// Two maps reading X: one map with two results; the program returns both.

// CHECK-LABEL: block.program @siblings
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>, %[[Y:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[F:.*]]:2 = block.map [M, N] -> !block.array<10x7xf32>, !block.array<10x7xf32> {
// CHECK-NEXT:      %[[X1:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[A:.*]] = block.exp %[[X1]]
// CHECK-NEXT:      %[[X2:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[LY:.*]] = block.load %[[Y]] [M, N]
// CHECK-NEXT:      %[[B:.*]] = block.mul %[[X2]], %[[LY]]
// CHECK-NEXT:      block.yield %[[A]], %[[B]] : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[F]]#0, %[[F]]#1

// CLEAN-LABEL: block.program @siblings
// CLEAN:         block.map [M, N]
// CLEAN-NEXT:      %[[X1:.*]] = block.load %{{.*}} [M, N]
// CLEAN-NEXT:      block.exp %[[X1]]
// CLEAN-NEXT:      %[[LY:.*]] = block.load
// CLEAN-NEXT:      block.mul %[[X1]], %[[LY]]
block.program @siblings axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>)
    -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.mul %x, %y : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10x7xf32>
}

// -----

// A map C over other axes reads the first sibling's result between the two
// siblings: it does not lie on a path between them, so they fuse, and C is
// reordered after the fused map.

// CHECK-LABEL: block.program @user_in_between
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[F:.*]]:2 = block.map [M, N] -> !block.array<10x7xf32>, !block.array<10x7xf32> {
// CHECK-NEXT:      %[[X1:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[A:.*]] = block.exp %[[X1]]
// CHECK-NEXT:      %[[X2:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[B:.*]] = block.neg %[[X2]]
// CHECK-NEXT:      block.yield %[[A]], %[[B]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.reduce N
// CHECK-NEXT:        block.load %[[F]]#0 [M, N]
// CHECK:         block.return %[[F]]#1, %[[C]]
block.program @user_in_between axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %a over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %x : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B, %C : !block.array<10x7xf32>, !block.array<10xf32>
}

// -----

// B reads X and A's result, A reads X: a direct path A -> B. Siblings only
// by the shared X; merging them is rule 1's job, rule 2 leaves them.

// CHECK-LABEL: block.program @negative_direct_path
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.exp
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.load %[[A]] [M, N]
block.program @negative_direct_path axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.mul %x, %a : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// A -> C -> B with A and B both reading X: an indirect path through C (over
// other axes). Fusing A and B would have to run before and after C.

// CHECK-LABEL: block.program @negative_indirect_path
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK:         %[[C:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK:         %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.load %[[C]] [M]
// CHECK:         block.return %[[A]], %[[B]]
block.program @negative_indirect_path axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %a over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.load %C[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.div %x, %c : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10x7xf32>
}

// -----

// Two maps over the same axes that share no array: not siblings.

// CHECK-LABEL: block.program @negative_no_shared_array
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.exp
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.neg
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[A]], %[[B]]
block.program @negative_no_shared_array axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>)
    -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %y : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10x7xf32>
}

// -----

// Two maps reading X over different tiled axes: not siblings.

// CHECK-LABEL: block.program @negative_different_axes
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK:         %[[B:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK:         block.return %[[A]], %[[B]]
block.program @negative_different_axes axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10xf32>
}
