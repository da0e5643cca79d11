// Rule 3, map-into-reduce fusion (lib/Dialect/Block/Transforms/Rules/
// MapIntoReduce.cpp): a reduce over K that loads, in iteration k, block k of
// an array a map over [..., K] writes runs that map's body itself. The map
// keeps running until nobody reads it: rule 7 (cleanup) then erases it.

// RUN: bb-opt %s -split-input-file --block-fuse='order=3 extend=false' | FileCheck %s
// RUN: bb-opt %s -split-input-file --block-fuse='order=3,7 extend=false' | FileCheck %s --check-prefix=CLEAN

// RUN: bb-opt %s --block-fuse='order=3,7 extend=false' -o %t
// RUN: bb-run %t --entry matrix_into_reduce --check --reference %s --block-sizes=M=4,K=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry vector_into_reduce --check --reference %s --block-sizes=M=4,K=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry other_reader --check --reference %s --block-sizes=M=4,K=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry negative_producer_names_consumer_axis --check --reference %s --block-sizes=M=4,K=3 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// P = exp(X) over [M, K]; R = rowsum(P * Y) with a reduce over K. P's body
// moves in front of the reduce body's own ops; the load of P is gone. P
// itself stays until cleanup.

// CHECK-LABEL: block.program @matrix_into_reduce
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x9xf32>, %[[Y:[^:]+]]: !block.array<10x9xf32>)
// CHECK-NEXT:    %[[P:.*]] = block.map [M, K] -> !block.array<10x9xf32> {
// CHECK:         %[[R:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      %[[S:.*]] = block.reduce K combiners [add] -> !block.tile<[M], f32> {
// CHECK-NEXT:        %[[LX:.*]] = block.load %[[X]] [M, K]
// CHECK-NEXT:        %[[E:.*]] = block.exp %[[LX]]
// CHECK-NEXT:        %[[LY:.*]] = block.load %[[Y]] [M, K]
// CHECK-NEXT:        %[[PR:.*]] = block.mul %[[E]], %[[LY]]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[PR]] over [K]
// CHECK-NEXT:        block.yield %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      block.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[R]]

// CLEAN-LABEL: block.program @matrix_into_reduce
// CLEAN-NEXT:    block.map [M] -> !block.array<10xf32> {
// CLEAN-NEXT:      block.reduce K
// CLEAN-NOT:     block.map
// CLEAN:         block.return
block.program @matrix_into_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %Y: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %P = block.map [M, K] -> !block.array<10x9xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %e = block.exp %x : !block.tile<[M, K], f32>
    block.yield %e : !block.tile<[M, K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %y = block.load %Y[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %q = block.mul %p, %y : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %t = block.tile_reduce add %q over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// A producer over [K] only (a weight vector) into a reduce over K inside a
// map over [M]: its body names no axis of the map, so it may run there.

// CHECK-LABEL: block.program @vector_into_reduce
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x9xf32>, %[[G:[^:]+]]: !block.array<9xf32>)
// CHECK:         block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.reduce K combiners [max]
// CHECK-NEXT:        %[[LG:.*]] = block.load %[[G]] [K] : !block.array<9xf32> -> !block.tile<[K], f32>
// CHECK-NEXT:        %[[NG:.*]] = block.neg %[[LG]]
// CHECK-NEXT:        %[[LX:.*]] = block.load %[[X]] [M, K]
// CHECK-NEXT:        %[[Q:.*]] = block.mul %[[LX]], %[[NG]]
// CHECK-NEXT:        block.tile_reduce max %[[Q]] over [K]
block.program @vector_into_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
    %n = block.neg %g : !block.tile<[K], f32>
    block.yield %n : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [max] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %q = block.mul %x, %p : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce max %q over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// P is also a program output: it moves into the reduce, and also keeps
// running (cleanup does not erase it), so the program still returns it.

// CHECK-LABEL: block.program @other_reader
// CHECK-NEXT:    %[[P:.*]] = block.map [M, K] -> !block.array<10x9xf32> {
// CHECK:         %[[R:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.reduce K
// CHECK-NEXT:        block.load %{{[^ ]*}} [M, K]
// CHECK-NEXT:        block.exp
// CHECK-NOT:         block.load %[[P]]
// CHECK:         block.return %[[R]], %[[P]]

// CLEAN-LABEL: block.program @other_reader
// CLEAN-NEXT:    %[[P:.*]] = block.map [M, K] -> !block.array<10x9xf32> {
// CLEAN:         block.return %{{.*}}, %[[P]]
block.program @other_reader axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> (!block.array<10xf32>, !block.array<10x9xf32>) {
  %P = block.map [M, K] -> !block.array<10x9xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %e = block.exp %x : !block.tile<[M, K], f32>
    block.yield %e : !block.tile<[M, K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R, %P : !block.array<10xf32>, !block.array<10x9xf32>
}

// -----

// Every iteration of the reduce over K reads the whole of P (through the
// whole axis L of the same extent), not block k: nothing changes.

// CHECK-LABEL: block.program @negative_whole_producer
// CHECK-NEXT:    %[[P:.*]] = block.map [K] -> !block.array<9xf32> {
// CHECK:         block.reduce K
// CHECK-NEXT:      block.load %{{[^ ]*}} [M, K]
// CHECK-NEXT:      block.load %[[P]] [L] : !block.array<9xf32> -> !block.tile<[L], f32>
block.program @negative_whole_producer axes(M = 10 tiled, K = 9 tiled, L = 9 whole)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
    %n = block.neg %g : !block.tile<[K], f32>
    block.yield %n : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %p = block.load %P[L] : !block.array<9xf32> -> !block.tile<[L], f32>
      %a = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %b = block.tile_reduce add %p over [L] : !block.tile<[L], f32>
      %t = block.mul %a, %b : !block.tile<[M], f32>, !block.tile<[], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// Every iteration reads one fixed element of P: nothing changes.

// CHECK-LABEL: block.program @negative_fixed_index
// CHECK-NEXT:    %[[P:.*]] = block.map [K] -> !block.array<9xf32> {
// CHECK:         block.reduce K
// CHECK-NEXT:      block.load %{{[^ ]*}} [M, K]
// CHECK-NEXT:      block.load %[[P]] [4] : !block.array<9xf32> -> !block.tile<[], f32>
block.program @negative_fixed_index axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
    %n = block.neg %g : !block.tile<[K], f32>
    block.yield %n : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %p = block.load %P[4] : !block.array<9xf32> -> !block.tile<[], f32>
      %q = block.mul %x, %p : !block.tile<[M, K], f32>, !block.tile<[], f32>
      %t = block.tile_reduce add %q over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// The producer does not iterate the reduced axis: each instance computes a
// whole row (the whole axis L), which the reduce reads block by block
// through K. Rule 3 moves only a producer over K; nothing changes.

// CHECK-LABEL: block.program @negative_producer_not_over_k
// CHECK-NEXT:    %[[P:.*]] = block.map [M] -> !block.array<10x9xf32> {
// CHECK:         block.reduce K
// CHECK-NEXT:      block.load %[[P]] [M, K]
block.program @negative_producer_not_over_k axes(M = 10 tiled, K = 9 tiled, L = 9 whole)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %P = block.map [M] -> !block.array<10x9xf32> {
    %x = block.load %X[M, L] : !block.array<10x9xf32> -> !block.tile<[M, L], f32>
    %e = block.exp %x : !block.tile<[M, L], f32>
    block.yield %e : !block.tile<[M, L], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// Regression: P over [K] sums a load over the whole of M (M is whole in P's
// instances). Moved into the map over [M], its load would read one block of
// M and the sum would be partial (the rule did this, and the fused program
// computed a wrong result). P's body names M, which the destination
// iterates: nothing changes.

// CHECK-LABEL: block.program @negative_producer_names_consumer_axis
// CHECK-NEXT:    %[[P:.*]] = block.map [K] -> !block.array<9xf32> {
// CHECK-NEXT:      block.load %{{[^ ]*}} [M, K]
// CHECK-NEXT:      block.tile_reduce add %{{.*}} over [M]
// CHECK:         block.reduce K
// CHECK-NEXT:      block.load %[[P]] [K]
block.program @negative_producer_names_consumer_axis axes(M = 10 tiled, K = 9 tiled)
    (%A: !block.array<10x9xf32>, %X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %a = block.load %A[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %p = block.tile_reduce add %a over [M] : !block.tile<[M, K], f32>
    block.yield %p : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %y = block.mul %x, %p : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce add %y over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// A producer kept for another reader (here: returned) is recomputed in the
// reduce only when that reads no more than the array it replaces: at most
// one input as large as its output. A residual add (two) is left alone, so
// chains of them are never recomputed a layer at a time.
// CHECK-LABEL: block.program @negative_two_large_inputs
// CHECK:      %[[H:.*]] = block.map [M, D]
// CHECK:      block.reduce D
// CHECK-NEXT:   block.load %[[H]] [M, D]
block.program @negative_two_large_inputs axes(M = 64 tiled, D = 512 tiled)
    (%p: !block.array<64x512xf32>, %q: !block.array<64x512xf32>)
    -> (!block.array<64x512xf32>, !block.array<64xf32>) {
  %h = block.map [M, D] -> !block.array<64x512xf32> {
    %a = block.load %p[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
    %b = block.load %q[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
    %s = block.add %a, %b : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
    block.yield %s : !block.tile<[M, D], f32>
  }
  %r = block.map [M] -> !block.array<64xf32> {
    %t = block.reduce D combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %h[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
      %y = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      block.yield %y : !block.tile<[M], f32>
    }
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %h, %r : !block.array<64x512xf32>, !block.array<64xf32>
}

// -----

// With one large input the same producer is recomputed in the reduce and
// still written for its other reader.
// CHECK-LABEL: block.program @one_large_input
// CHECK:      block.map [M, D]
// CHECK:      block.reduce D
// CHECK-NEXT:   %[[A:.*]] = block.load %arg0 [M, D]
// CHECK-NEXT:   block.exp %[[A]]
block.program @one_large_input axes(M = 64 tiled, D = 512 tiled)
    (%p: !block.array<64x512xf32>) -> (!block.array<64x512xf32>, !block.array<64xf32>) {
  %h = block.map [M, D] -> !block.array<64x512xf32> {
    %a = block.load %p[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
    %e = block.exp %a : !block.tile<[M, D], f32>
    block.yield %e : !block.tile<[M, D], f32>
  }
  %r = block.map [M] -> !block.array<64xf32> {
    %t = block.reduce D combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %h[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
      %y = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      block.yield %y : !block.tile<[M], f32>
    }
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %h, %r : !block.array<64x512xf32>, !block.array<64xf32>
}

// -----

// Recomputation is weighed in global bytes (at the block sizes block-fuse
// judges by: the axis table's, else 128). P sums rows of X[K, D] over the
// whole D: recomputing it in the reduce over K would load X (9 x 64
// elements) instead of P (9), and P stays, because the program returns it.
// Nothing changes (difftest 1:227 and 30 programs of the long run: rule 3
// recomputed a row sum, a matmul or a softmax's scores where the producer
// stayed alive, and the fused program moved more bytes than the unfused).

// CHECK-LABEL: block.program @negative_recompute_reads_more
// CHECK:         block.map [] -> !block.array<f32> {
// CHECK-NEXT:      block.reduce K
// CHECK-NEXT:        block.load %{{.*}} [K] : !block.array<9xf32>
block.program @negative_recompute_reads_more axes(K = 9 tiled, D = 64 whole)
    (%X: !block.array<9x64xf32>) -> (!block.array<f32>, !block.array<9xf32>) {
  %P = block.map [K] -> !block.array<9xf32> {
    %x = block.load %X[K, D] : !block.array<9x64xf32> -> !block.tile<[K, D], f32>
    %s = block.tile_reduce add %x over [D] : !block.tile<[K, D], f32>
    block.yield %s : !block.tile<[K], f32>
  }
  %R = block.map [] -> !block.array<f32> {
    %t = block.reduce K combiners [add] -> !block.tile<[], f32> {
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %y = block.tile_reduce add %p over [K] : !block.tile<[K], f32>
      block.yield %y : !block.tile<[], f32>
    }
    block.yield %t : !block.tile<[], f32>
  }
  block.return %R, %P : !block.array<f32>, !block.array<9xf32>
}

// -----

// A recomputation that adds bytes is an investment in removing the
// producer: taken when every reader of P could run its body and all of them
// together add no more than P's kernel moves. E = exp(X - m) reads m as
// well as X (attention's exp(s - m)): each of the two reduces then loads m
// too, 10 elements more each, while E's 90 elements are written and read
// twice no more. Both take E's body and cleanup erases E.

// CLEAN-LABEL: block.program @recompute_to_remove_producer
// CLEAN-NEXT:    block.map [M]
// CLEAN:           block.reduce K combiners [add]
// CLEAN-NEXT:        block.load %{{.*}} [M, K]
// CLEAN-NEXT:        block.sub
// CLEAN-NEXT:        block.exp
// CLEAN:         block.map [M]
// CLEAN:           block.reduce K combiners [max]
// CLEAN-NEXT:        block.load %{{.*}} [M, K]
// CLEAN-NEXT:        block.sub
// CLEAN-NEXT:        block.exp
// CLEAN:         block.return
block.program @recompute_to_remove_producer axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %m: !block.array<10xf32>)
    -> (!block.array<10xf32>, !block.array<10xf32>) {
  %E = block.map [M, K] -> !block.array<10x9xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %v = block.load %m[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %x, %v : !block.tile<[M, K], f32>, !block.tile<[M], f32>
    %e = block.exp %d : !block.tile<[M, K], f32>
    block.yield %e : !block.tile<[M, K], f32>
  }
  %L = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %E[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  %N = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [max] -> !block.tile<[M], f32> {
      %p = block.load %E[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce max %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %L, %N : !block.array<10xf32>, !block.array<10xf32>
}
