// Rule 1, producer-consumer map fusion (lib/Dialect/Block/Transforms/Rules/
// ProducerConsumerFusion.cpp): a map that loads, at its own block indices,
// an array another map over the same tiled axes writes, absorbs that map.
// Only rule 1 runs, without the extend step; cleanup (rule 7) is not run, so
// the fused body shows exactly what the rule did.

// RUN: bb-opt %s -split-input-file --block-fuse='order=1 extend=false' | FileCheck %s

// Numerics: the fused programs against the unfused file, on extents the
// block sizes do not divide.
// RUN: bb-opt %s --block-fuse='order=1 extend=false' -o %t
// RUN: bb-run %t --entry chain --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry transposed --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry two_results --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry load_in_reduce --check --reference %s --block-sizes=M=4,K=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry diamond_fuses_through_c --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry negative_intermediate_is_output --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// An elementwise chain: A = X + 1, B = A * Y. One map; the load of A is
// replaced by the producer's tile.

// CHECK-LABEL: block.program @chain
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>, %[[Y:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[ONE:.*]] = block.constant [] 1.000000e+00 : f32
// CHECK-NEXT:      %[[A:.*]] = block.add %[[LX]], %[[ONE]]
// CHECK-NEXT:      %[[LY:.*]] = block.load %[[Y]] [M, N]
// CHECK-NEXT:      %[[P:.*]] = block.mul %[[A]], %[[LY]]
// CHECK-NEXT:      block.yield %[[P]] : !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[B]]
block.program @chain axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.constant [] 1.0 : f32
    %a = block.add %x, %c : !block.tile<[M, N], f32>, !block.tile<[], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.mul %a, %y : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// The consumer reads the produced block with its axes in another order (a
// transposed tile of the same block): the producer's tile is relaid out.

// CHECK-LABEL: block.program @transposed
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>, %[[Y:[^:]+]]: !block.array<7x10xf32>)
// CHECK-NEXT:    %[[B:.*]] = block.map [N, M] -> !block.array<7x10xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[A:.*]] = block.exp %[[LX]] : !block.tile<[M, N], f32>
// CHECK-NEXT:      %[[T:.*]] = block.broadcast %[[A]] : !block.tile<[M, N], f32> to !block.tile<[N, M], f32>
// CHECK-NEXT:      %[[LY:.*]] = block.load %[[Y]] [N, M]
// CHECK-NEXT:      %[[S:.*]] = block.sub %[[T]], %[[LY]]
// CHECK-NEXT:      block.yield %[[S]] : !block.tile<[N, M], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[B]]
block.program @transposed axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<7x10xf32>) -> !block.array<7x10xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [N, M] -> !block.array<7x10xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[N, M], f32>
    %y = block.load %Y[N, M] : !block.array<7x10xf32> -> !block.tile<[N, M], f32>
    %b = block.sub %a, %y : !block.tile<[N, M], f32>, !block.tile<[N, M], f32>
    block.yield %b : !block.tile<[N, M], f32>
  }
  block.return %B : !block.array<7x10xf32>
}

// -----

// A producer with two results, both read by the consumer: both loads are
// replaced; neither result is yielded any more.

// CHECK-LABEL: block.program @two_results
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[E:.*]] = block.exp %[[LX]]
// CHECK-NEXT:      %[[G:.*]] = block.neg %[[LX]]
// CHECK-NEXT:      %[[D:.*]] = block.div %[[E]], %[[G]]
// CHECK-NEXT:      block.yield %[[D]] : !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[B]]
block.program @two_results axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %E, %G = block.map [M, N] -> !block.array<10x7xf32>, !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.exp %x : !block.tile<[M, N], f32>
    %g = block.neg %x : !block.tile<[M, N], f32>
    block.yield %e, %g : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %e = block.load %E[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %g = block.load %G[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.div %e, %g : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// The consumer reads the produced row vector inside a reduce over K (an axis
// the produced block does not have): the producer's body runs once per
// instance, in front of the reduce, and the reduce uses its tile.

// CHECK-LABEL: block.program @load_in_reduce
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x9xf32>, %[[V:[^:]+]]: !block.array<10xf32>)
// CHECK-NEXT:    %[[R:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      %[[LV:.*]] = block.load %[[V]] [M]
// CHECK-NEXT:      %[[S:.*]] = block.exp %[[LV]]
// CHECK-NEXT:      %[[SUM:.*]] = block.reduce K combiners [add] -> !block.tile<[M], f32> {
// CHECK-NEXT:        %[[LX:.*]] = block.load %[[X]] [M, K]
// CHECK-NEXT:        %[[P:.*]] = block.mul %[[LX]], %[[S]]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[P]] over [K]
// CHECK-NEXT:        block.yield %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      block.yield %[[SUM]] : !block.tile<[M], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[R]]
block.program @load_in_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %S = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.exp %v : !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %sum = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %p = block.mul %x, %s : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %sum : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// The diamond A -> B, A -> C -> B over one set of axes: A is fused into C
// first (A stays a second output of the fused map because B reads it), then
// the fused map into B. Never A into B while C still runs between them.

// CHECK-LABEL: block.program @diamond_fuses_through_c
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[A:.*]] = block.exp %[[LX]]
// CHECK-NEXT:      %[[C:.*]] = block.neg %[[A]]
// CHECK-NEXT:      %[[S:.*]] = block.add %[[A]], %[[C]]
// CHECK-NEXT:      block.yield %[[S]] : !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[B]]
block.program @diamond_fuses_through_c axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %C = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.neg %a : !block.tile<[M, N], f32>
    block.yield %c : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.load %C[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.add %a, %c : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// The diamond with C over other axes (a row sum, which rule 1 cannot fuse):
// A -> C -> B is an indirect path, so A must not be fused into B (the fused
// map would have to run both before and after C). Nothing changes.

// CHECK-LABEL: block.program @negative_diamond
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %[[X]] [M, N]
// CHECK-NEXT:      block.exp
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.reduce N
// CHECK-NEXT:        block.load %[[A]] [M, N]
// CHECK:         %[[B:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %[[A]] [M, N]
// CHECK-NEXT:      block.load %[[C]] [M]
// CHECK-NEXT:      block.div
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[B]]
block.program @negative_diamond axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
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
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.load %C[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.div %a, %c : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// The intermediate A is also a program output: the fused map keeps yielding
// it as a second result, and the program still returns it.

// CHECK-LABEL: block.program @negative_intermediate_is_output
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[F:.*]]:2 = block.map [M, N] -> !block.array<10x7xf32>, !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[A:.*]] = block.exp %[[LX]]
// CHECK-NEXT:      %[[B:.*]] = block.neg %[[A]]
// CHECK-NEXT:      block.yield %[[B]], %[[A]] : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[F]]#0, %[[F]]#1 : !block.array<10x7xf32>, !block.array<10x7xf32>
block.program @negative_intermediate_is_output axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %a : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B, %A : !block.array<10x7xf32>, !block.array<10x7xf32>
}

// -----

// Different tiled axes (a map over [M] feeding one over [M, N]): not rule
// 1's job (rule 6 replicates in the extend step). Nothing changes.

// CHECK-LABEL: block.program @negative_different_axes
// CHECK-NEXT:    %[[S:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK:         block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, N]
// CHECK-NEXT:      block.load %[[S]] [M]
block.program @negative_different_axes axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %V: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %S = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.exp %v : !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.mul %x, %s : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}

// -----

// The consumer reads a slice of the produced block (columns 2..5 of the
// whole axis D): not the block the producer wrote. Nothing changes.

// CHECK-LABEL: block.program @negative_slice
// CHECK-NEXT:    %[[P:.*]] = block.map [M] -> !block.array<10x8xf32> {
// CHECK:         block.map [M] -> !block.array<10x4xf32> {
// CHECK-NEXT:      block.load %[[P]] [M, E + 2] : !block.array<10x8xf32> -> !block.tile<[M, E], f32>
block.program @negative_slice axes(M = 10 tiled, D = 8 whole, E = 4 whole)
    (%X: !block.array<10x8xf32>) -> !block.array<10x4xf32> {
  %P = block.map [M] -> !block.array<10x8xf32> {
    %x = block.load %X[M, D] : !block.array<10x8xf32> -> !block.tile<[M, D], f32>
    %p = block.exp %x : !block.tile<[M, D], f32>
    block.yield %p : !block.tile<[M, D], f32>
  }
  %B = block.map [M] -> !block.array<10x4xf32> {
    %p = block.load %P[M, E + 2] : !block.array<10x8xf32> -> !block.tile<[M, E], f32>
    %b = block.neg %p : !block.tile<[M, E], f32>
    block.yield %b : !block.tile<[M, E], f32>
  }
  block.return %B : !block.array<10x4xf32>
}

// -----

// The consumer reads one fixed column of the produced block. Nothing
// changes.

// CHECK-LABEL: block.program @negative_fixed_index
// CHECK-NEXT:    %[[P:.*]] = block.map [M] -> !block.array<10x8xf32> {
// CHECK:         block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.load %[[P]] [M, 3] : !block.array<10x8xf32> -> !block.tile<[M], f32>
block.program @negative_fixed_index axes(M = 10 tiled, D = 8 whole)
    (%X: !block.array<10x8xf32>) -> !block.array<10xf32> {
  %P = block.map [M] -> !block.array<10x8xf32> {
    %x = block.load %X[M, D] : !block.array<10x8xf32> -> !block.tile<[M, D], f32>
    %p = block.exp %x : !block.tile<[M, D], f32>
    block.yield %p : !block.tile<[M, D], f32>
  }
  %B = block.map [M] -> !block.array<10xf32> {
    %p = block.load %P[M, 3] : !block.array<10x8xf32> -> !block.tile<[M], f32>
    %b = block.neg %p : !block.tile<[M], f32>
    block.yield %b : !block.tile<[M], f32>
  }
  block.return %B : !block.array<10xf32>
}

// -----

// The consumer (over the same axes) reads another block: P[N, M], the
// mirror block, of a square array. Nothing changes.

// CHECK-LABEL: block.program @negative_other_block
// CHECK-NEXT:    %[[P:.*]] = block.map [M, N] -> !block.array<8x8xf32> {
// CHECK:         block.map [M, N] -> !block.array<8x8xf32> {
// CHECK-NEXT:      block.load %[[P]] [N, M] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
block.program @negative_other_block axes(M = 8 tiled, N = 8 tiled)
    (%X: !block.array<8x8xf32>) -> !block.array<8x8xf32> {
  %P = block.map [M, N] -> !block.array<8x8xf32> {
    %x = block.load %X[M, N] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
    %p = block.exp %x : !block.tile<[M, N], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<8x8xf32> {
    %p = block.load %P[N, M] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %p : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<8x8xf32>
}
