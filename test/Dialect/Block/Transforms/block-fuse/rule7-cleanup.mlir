// Rule 7, cleanup (lib/Dialect/Block/Transforms/Rules/Cleanup.cpp): merge
// duplicate pure ops (reduces with identical combine regions included),
// hoist loop-invariant ops out of reduces, merge duplicate reduce states,
// drop results nobody reads (combine-region states the read ones do not
// need included) and erase unused ops.
// Only rule 7 runs.

// RUN: bb-opt %s -split-input-file --block-fuse='order=7 extend=false' | FileCheck %s

// RUN: bb-opt %s --block-fuse='order=7 extend=false' -o %t
// RUN: bb-run %t --entry merge_duplicates --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry hoist_loop_invariant --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry negative_merge_across_iterated_axis --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry drop_dead_results --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry merge_duplicate_states --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry drop_dead_region_state --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry merge_identical_region_reduces --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// Duplicate loads and a duplicate computation in one body, and two equal
// maps: each is kept once (the reader of both maps then loads one array
// twice, and those loads merge too).

// CHECK-LABEL: block.program @merge_duplicates
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>)
// CHECK-NEXT:    %[[A:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[L:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[E:.*]] = block.exp %[[L]]
// CHECK-NEXT:      %[[S:.*]] = block.add %[[E]], %[[E]]
// CHECK-NEXT:      block.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LA:.*]] = block.load %[[A]] [M, N]
// CHECK-NEXT:      %[[P:.*]] = block.mul %[[LA]], %[[LA]]
// CHECK-NEXT:      block.yield %[[P]]
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[C]]
block.program @merge_duplicates axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x1 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %x2 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e1 = block.exp %x1 : !block.tile<[M, N], f32>
    %e2 = block.exp %x2 : !block.tile<[M, N], f32>
    %s = block.add %e1, %e2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x1 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e1 = block.exp %x1 : !block.tile<[M, N], f32>
    %s = block.add %e1, %e1 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  %C = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.load %B[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %p = block.mul %a, %b : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  block.return %C : !block.array<10x7xf32>
}

// -----

// Inside the reduce over K: the load of v[M] and the computation on it do
// not depend on the iteration and leave the loop; the constant [K] and the
// iota of K name the reduced axis (one block per iteration) and stay, as
// does everything computed from the load of X.

// CHECK-LABEL: block.program @hoist_loop_invariant
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x9xf32>, %[[V:[^:]+]]: !block.array<10xf32>)
// CHECK-NEXT:    block.map [M]
// CHECK-NEXT:      %[[LV:.*]] = block.load %[[V]] [M]
// CHECK-NEXT:      %[[E:.*]] = block.exp %[[LV]]
// CHECK-NEXT:      %[[S:.*]] = block.reduce K combiners [add] -> !block.tile<[M], f32> {
// CHECK-NEXT:        %[[LX:.*]] = block.load %[[X]] [M, K]
// CHECK-NEXT:        %[[C:.*]] = block.constant [K] 2.000000e+00 : f32
// CHECK-NEXT:        %[[I:.*]] = block.iota K : !block.tile<[K], i64>
// CHECK-NEXT:        %[[F:.*]] = block.cast %[[I]]
// CHECK-NEXT:        %[[P:.*]] = block.mul %[[LX]], %[[E]]
// CHECK-NEXT:        %[[Q:.*]] = block.mul %[[P]], %[[C]]
// CHECK-NEXT:        %[[R:.*]] = block.mul %[[Q]], %[[F]]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[R]] over [K]
// CHECK-NEXT:        block.yield %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      block.yield %[[S]]
block.program @hoist_loop_invariant axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %e = block.exp %v : !block.tile<[M], f32>
      %c = block.constant [K] 2.0 : f32
      %i = block.iota K : !block.tile<[K], i64>
      %f = block.cast %i : !block.tile<[K], i64> to !block.tile<[K], f32>
      %p = block.mul %x, %e : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %q = block.mul %p, %c : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %r = block.mul %q, %f : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce add %r over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// An op inside a reduce and an equal one outside merge when no axis their
// types name is iterated in between: the load of v[M] inside the reduce
// over K is the one outside.

// CHECK-LABEL: block.program @merge_across_regions
// CHECK:         %[[LV:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[E:.*]] = block.exp %[[LV]]
// CHECK-NEXT:    block.reduce K
// CHECK-NEXT:      %[[LX:.*]] = block.load %{{.*}} [M, K]
// CHECK-NEXT:      block.mul %[[LX]], %[[LV]]
block.program @merge_across_regions axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %v0 = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %v0 : !block.tile<[M], f32>
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %p = block.mul %x, %v : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %y = block.add %s, %e : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// Regression: the load of X[M, K] in the map over [M] reads all of K; the
// same text inside the reduce over K reads one block of K. They only print
// alike, so they must not merge (upstream CSE merged them, and the program
// no longer lowered: a tile spanning all of K used where K is one block).
// Likewise the constants [K].

// CHECK-LABEL: block.program @negative_merge_across_iterated_axis
// CHECK:         %[[XW:.*]] = block.load %{{.*}} [M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
// CHECK-NEXT:    %[[CW:.*]] = block.constant [K] 2.000000e+00 : f32
// CHECK-NEXT:    block.mul %[[XW]], %[[CW]]
// CHECK-NEXT:    block.tile_reduce add
// CHECK-NEXT:    block.reduce K
// CHECK-NEXT:      %[[XB:.*]] = block.load %{{.*}} [M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
// CHECK-NEXT:      %[[CB:.*]] = block.constant [K] 2.000000e+00 : f32
// CHECK-NEXT:      %[[SQ:.*]] = block.mul %[[XB]], %[[XB]]
// CHECK-NEXT:      block.mul %[[SQ]], %[[CB]]
block.program @negative_merge_across_iterated_axis axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %R = block.map [M] -> !block.array<10xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %c = block.constant [K] 2.0 : f32
    %xc = block.mul %x, %c : !block.tile<[M, K], f32>, !block.tile<[K], f32>
    %t = block.tile_reduce add %xc over [K] : !block.tile<[M, K], f32>
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %xk = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %ck = block.constant [K] 2.0 : f32
      %sq = block.mul %xk, %xk : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %sqc = block.mul %sq, %ck : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %u = block.tile_reduce add %sqc over [K] : !block.tile<[M, K], f32>
      block.yield %u : !block.tile<[M], f32>
    }
    %r = block.add %t, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}

// -----

// Results nobody reads: the second result of the map, the max state of the
// reduce, the unused neg; the map nobody reads at all is erased.

// CHECK-LABEL: block.program @drop_dead_results
// CHECK-NEXT:    %[[A:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      %[[S:.*]] = block.reduce K combiners [add] -> !block.tile<[M], f32> {
// CHECK-NEXT:        %[[LX:.*]] = block.load %{{.*}} [M, K]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[LX]] over [K]
// CHECK-NEXT:        block.yield %[[T]] : !block.tile<[M], f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      block.yield %[[S]] : !block.tile<[M], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[A]] : !block.array<10xf32>
block.program @drop_dead_results axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A, %B = block.map [M] -> !block.array<10xf32>, !block.array<10xf32> {
    %s, %m = block.reduce K combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %n = block.neg %x : !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %e = block.exp %s : !block.tile<[M], f32>
    block.yield %s, %e : !block.tile<[M], f32>, !block.tile<[M], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %b = block.load %B[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    block.yield %b : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}

// -----

// A reduce with a combine region keeps its unread state: the combine region
// may read it to compute the state that is read.

// CHECK-LABEL: block.program @negative_region_combiner_state
// CHECK:         %[[R:.*]]:2 = block.reduce K init(
// CHECK:         block.yield %[[R]]#1
block.program @negative_region_combiner_state axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A = block.map [M] -> !block.array<10xf32> {
    %z = block.constant [M] 0.0 : f32
    %c, %s = block.reduce K init(%z, %z : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %t, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%c0: !block.tile<[M], f32>, %s0: !block.tile<[M], f32>, %c1: !block.tile<[M], f32>, %s1: !block.tile<[M], f32>):
      %c2 = block.add %c0, %c1 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %s2 = block.add %s0, %c2 : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c2, %s2 : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}

// -----

// A nested reduce that does not depend on the outer loop (a row statistic
// recomputed for every block of F) is hoisted out whole.
// CHECK-LABEL: block.program @hoist_invariant_reduce
// CHECK:      block.map [M]
// CHECK-NEXT:   %[[SS:.*]] = block.reduce D combiners [add]
// CHECK:        block.reduce F combiners [add]
// CHECK-NOT:      block.reduce D
// CHECK:          block.mul %{{.*}}, %[[SS]]
block.program @hoist_invariant_reduce axes(M = 64 tiled, D = 512 tiled, F = 1024 tiled)
    (%x: !block.array<64x512xf32>, %w: !block.array<64x1024xf32>) -> !block.array<64xf32> {
  %o = block.map [M] -> !block.array<64xf32> {
    %r = block.reduce F combiners [add] -> !block.tile<[M], f32> {
      %ss = block.reduce D combiners [add] -> !block.tile<[M], f32> {
        %t = block.load %x[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
        %s = block.tile_reduce add %t over [D] : !block.tile<[M, D], f32>
        block.yield %s : !block.tile<[M], f32>
      }
      %wt = block.load %w[M, F] : !block.array<64x1024xf32> -> !block.tile<[M, F], f32>
      %p = block.mul %wt, %ss : !block.tile<[M, F], f32>, !block.tile<[M], f32>
      %q = block.tile_reduce add %p over [F] : !block.tile<[M, F], f32>
      block.yield %q : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %o : !block.array<64xf32>
}

// -----

// Two states of one reduce that accumulate the same term with the same
// combiner (LayerNorm's row sum, once for the mean and once for the
// one-pass variance, after rule 9 merged their reduces) are one: the
// readers of the second read the first, and the second is dropped. The
// same term under another combiner (max) is another value and stays.
// CHECK-LABEL: block.program @merge_duplicate_states
// CHECK:         %[[R:.*]]:2 = block.reduce K combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK-NEXT:      %[[X:.*]] = block.load
// CHECK-NEXT:      %[[S:.*]] = block.tile_reduce add %[[X]] over [K]
// CHECK-NEXT:      block.yield %[[S]], %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[A:.*]] = block.add %[[R]]#0, %[[R]]#0
// CHECK-NEXT:    %[[B:.*]] = block.add %[[A]], %[[R]]#1
block.program @merge_duplicate_states axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %a, %b, %c = block.reduce K combiners [add, add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %s = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %s, %s, %s : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %ab = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    %y = block.add %ab, %c : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// A combine-region state that nobody reads and that the read states do not
// need (here the third, a running maximum of its own) is dropped: its init,
// its term, its two block arguments and its ops in the combine region. The
// first state stays although unread: the second needs it.

// CHECK-LABEL: block.program @drop_dead_region_state
// CHECK:         %[[R:.*]]:2 = block.reduce K init(%{{.*}}, %{{.*}} : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK:           block.yield %[[T:.*]], %[[T]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    } combine {
// CHECK-NEXT:    ^bb0(%[[C0:.*]]: !block.tile<[M], f32>, %[[S0:.*]]: !block.tile<[M], f32>, %[[C1:.*]]: !block.tile<[M], f32>, %[[S1:.*]]: !block.tile<[M], f32>):
// CHECK-NEXT:      %[[C2:.*]] = block.add %[[C0]], %[[C1]]
// CHECK-NEXT:      %[[S2:.*]] = block.add %[[S0]], %[[C2]]
// CHECK-NEXT:      block.yield %[[C2]], %[[S2]]
// CHECK-NEXT:    }
// CHECK-NOT:     block.max
// CHECK:         block.yield %[[R]]#1
block.program @drop_dead_region_state axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A = block.map [M] -> !block.array<10xf32> {
    %z = block.constant [M] 0.0 : f32
    %ninf = block.constant [M] 0xFF800000 : f32
    %c, %s, %m = block.reduce K init(%z, %z, %ninf : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      block.yield %t, %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%c0: !block.tile<[M], f32>, %s0: !block.tile<[M], f32>, %m0: !block.tile<[M], f32>, %c1: !block.tile<[M], f32>, %s1: !block.tile<[M], f32>, %m1: !block.tile<[M], f32>):
      %c2 = block.add %c0, %c1 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %s2 = block.add %s0, %c2 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %m2 = block.max %m0, %m1 : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c2, %s2, %m2 : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}

// -----

// Two reduces with the same inits, bodies and combine regions (an online
// softmax's (m, l) computed twice, as replication leaves it) are one; a
// third whose combine region differs (it does not rescale l) is not the
// same reduce and stays; its m is independent of its l there, and unread,
// so that state goes.

// CHECK-LABEL: block.program @merge_identical_region_reduces
// CHECK:         %[[R:.*]]:2 = block.reduce K init(
// CHECK:         } combine {
// CHECK:         %[[Q:.*]] = block.reduce K init(%{{.*}} : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
// CHECK:         } combine {
// CHECK-NEXT:    ^bb0(%[[LA:.*]]: !block.tile<[M], f32>, %[[LB:.*]]: !block.tile<[M], f32>):
// CHECK-NEXT:      %[[LL:.*]] = block.add %[[LA]], %[[LB]]
// CHECK-NEXT:      block.yield %[[LL]]
// CHECK-NOT:     block.reduce
// CHECK:         %[[A:.*]] = block.div %[[R]]#1, %[[R]]#1
// CHECK-NEXT:    block.add %[[A]], %[[Q]]
block.program @merge_identical_region_reduces axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A = block.map [M] -> !block.array<10xf32> {
    %ninf = block.constant [M] 0xFF800000 : f32
    %z = block.constant [M] 0.0 : f32
    %m, %l = block.reduce K init(%ninf, %z : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %mj = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %d = block.sub %x, %mj : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, K], f32>
      %lj = block.tile_reduce add %e over [K] : !block.tile<[M, K], f32>
      block.yield %mj, %lj : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>):
      %mm = block.max %ma, %mb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %da = block.sub %ma, %mm : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ea = block.exp %da : !block.tile<[M], f32>
      %db = block.sub %mb, %mm : !block.tile<[M], f32>, !block.tile<[M], f32>
      %eb = block.exp %db : !block.tile<[M], f32>
      %sa = block.mul %la, %ea : !block.tile<[M], f32>, !block.tile<[M], f32>
      %sb = block.mul %lb, %eb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ll = block.add %sa, %sb : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %mm, %ll : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %m2, %l2 = block.reduce K init(%ninf, %z : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %mj = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %d = block.sub %x, %mj : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, K], f32>
      %lj = block.tile_reduce add %e over [K] : !block.tile<[M, K], f32>
      block.yield %mj, %lj : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>):
      %mm = block.max %ma, %mb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %da = block.sub %ma, %mm : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ea = block.exp %da : !block.tile<[M], f32>
      %db = block.sub %mb, %mm : !block.tile<[M], f32>, !block.tile<[M], f32>
      %eb = block.exp %db : !block.tile<[M], f32>
      %sa = block.mul %la, %ea : !block.tile<[M], f32>, !block.tile<[M], f32>
      %sb = block.mul %lb, %eb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ll = block.add %sa, %sb : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %mm, %ll : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %m3, %l3 = block.reduce K init(%ninf, %z : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %mj = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %d = block.sub %x, %mj : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, K], f32>
      %lj = block.tile_reduce add %e over [K] : !block.tile<[M, K], f32>
      block.yield %mj, %lj : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>):
      %mm = block.max %ma, %mb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ll = block.add %la, %lb : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %mm, %ll : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %a = block.div %l, %l2 : !block.tile<[M], f32>, !block.tile<[M], f32>
    %y = block.add %a, %l3 : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}
