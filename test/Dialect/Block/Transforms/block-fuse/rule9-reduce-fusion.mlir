// Rule 9, reduce-reduce fusion and the online-softmax rewrite
// (lib/Dialect/Block/Transforms/Rules/ReduceFusion.cpp): two reduces over
// one axis in one body become one reduce over a tuple state. When the second
// reads the first's running maximum m only through exp(x - m), linearly,
// each iteration uses its own block maximum and the combiner rescales the
// sums. Only rule 9 runs.

// RUN: bb-opt %s -split-input-file --block-fuse='order=9 extend=false' | FileCheck %s

// RUN: bb-opt %s --block-fuse='order=9 extend=false' -o %t
// RUN: bb-run %t --entry online_softmax --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry side_by_side --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry online_three_reduces --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry online_with_free_term --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry softmax_non_last_axis --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry region_init_kept --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// A row maximum, then the softmax denominator and P V reading it through
// exp(s - m): one reduce with the state (m, l, acc) from (-inf, 0, 0). The
// body runs the first body, makes the block maximum a safe shift (0 where
// it is -inf: a fully masked block), then the second body with that shift.
// The combiner rescales l and acc by exp(m_a - M) and exp(m_b - M).

// CHECK-LABEL: block.program @online_softmax
// CHECK-SAME:    (%[[S:[^:]+]]: !block.array<10x13xf32>, %[[V:[^:]+]]: !block.array<13x5xf32>)
// CHECK-NEXT:    block.map [M] -> !block.array<10x5xf32> {
// CHECK-NEXT:      %[[NINF:.*]] = block.constant [M] 0xFF800000 : f32
// CHECK-NEXT:      %[[Z1:.*]] = block.constant [M] 0.000000e+00 : f32
// CHECK-NEXT:      %[[Z2:.*]] = block.constant [M, D] 0.000000e+00 : f32
// CHECK-NEXT:      %[[R:.*]]:3 = block.reduce N init(%[[NINF]], %[[Z1]], %[[Z2]] : {{.*}}) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32> {
// CHECK-NEXT:        %[[S1:.*]] = block.load %[[S]] [M, N]
// CHECK-NEXT:        %[[BM:.*]] = block.tile_reduce max %[[S1]] over [N]
// CHECK-NEXT:        %[[C0:.*]] = block.constant [] 0xFF800000 : f32
// CHECK-NEXT:        %[[MASK:.*]] = block.compare eq %[[BM]], %[[C0]]
// CHECK-NEXT:        %[[C1:.*]] = block.constant [] 0.000000e+00 : f32
// CHECK-NEXT:        %[[SH:.*]] = block.select %[[MASK]], %[[C1]], %[[BM]]
// CHECK-NEXT:        %[[S2:.*]] = block.load %[[S]] [M, N]
// CHECK-NEXT:        %[[DIFF:.*]] = block.sub %[[S2]], %[[SH]]
// CHECK-NEXT:        %[[E:.*]] = block.exp %[[DIFF]]
// CHECK-NEXT:        %[[L:.*]] = block.tile_reduce add %[[E]] over [N]
// CHECK-NEXT:        %[[LV:.*]] = block.load %[[V]] [N, D]
// CHECK-NEXT:        %[[PV:.*]] = block.dot %[[E]], %[[LV]] contract [N]
// CHECK-NEXT:        block.yield %[[BM]], %[[L]], %[[PV]]
// CHECK-NEXT:      } combine {
// CHECK-NEXT:      ^bb0(%[[MA:[^:]+]]: !block.tile<[M], f32>, %[[LA:[^:]+]]: !block.tile<[M], f32>, %[[AA:[^:]+]]: !block.tile<[M, D], f32>, %[[MB:[^:]+]]: !block.tile<[M], f32>, %[[LB:[^:]+]]: !block.tile<[M], f32>, %[[AB:[^:]+]]: !block.tile<[M, D], f32>):
// CHECK-NEXT:        %[[MX:.*]] = block.max %[[MA]], %[[MB]]
// CHECK-NEXT:        %[[K0:.*]] = block.constant [] 0xFF800000 : f32
// CHECK-NEXT:        %[[KM:.*]] = block.compare eq %[[MX]], %[[K0]]
// CHECK-NEXT:        %[[K1:.*]] = block.constant [] 0.000000e+00 : f32
// CHECK-NEXT:        %[[KS:.*]] = block.select %[[KM]], %[[K1]], %[[MX]]
// CHECK-NEXT:        %[[DA:.*]] = block.sub %[[MA]], %[[KS]]
// CHECK-NEXT:        %[[FA:.*]] = block.exp %[[DA]]
// CHECK-NEXT:        %[[DB:.*]] = block.sub %[[MB]], %[[KS]]
// CHECK-NEXT:        %[[FB:.*]] = block.exp %[[DB]]
// CHECK-NEXT:        %[[L1:.*]] = block.mul %[[LA]], %[[FA]]
// CHECK-NEXT:        %[[L2:.*]] = block.mul %[[LB]], %[[FB]]
// CHECK-NEXT:        %[[LN:.*]] = block.add %[[L1]], %[[L2]]
// CHECK-NEXT:        %[[A1:.*]] = block.mul %[[AA]], %[[FA]]
// CHECK-NEXT:        %[[A2:.*]] = block.mul %[[AB]], %[[FB]]
// CHECK-NEXT:        %[[AN:.*]] = block.add %[[A1]], %[[A2]]
// CHECK-NEXT:        block.yield %[[MX]], %[[LN]], %[[AN]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[O:.*]] = block.div %[[R]]#2, %[[R]]#1
// CHECK-NEXT:      block.yield %[[O]]
block.program @online_softmax axes(M = 10 tiled, N = 13 tiled, D = 5 whole)
    (%S: !block.array<10x13xf32>, %V: !block.array<13x5xf32>) -> !block.array<10x5xf32> {
  %O = block.map [M] -> !block.array<10x5xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l, %acc = block.reduce N combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M, D], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      %v = block.load %V[N, D] : !block.array<13x5xf32> -> !block.tile<[N, D], f32>
      %pv = block.dot %e, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
      block.yield %t, %pv : !block.tile<[M], f32>, !block.tile<[M, D], f32>
    }
    %o = block.div %acc, %l : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<10x5xf32>
}

// -----

// Two independent reduces over N (a sum and a maximum): one reduce with
// the built-in combiners side by side. A reader of the first result placed
// between them moves after the fused reduce.

// CHECK-LABEL: block.program @side_by_side
// CHECK-NEXT:    block.map [M]
// CHECK-NEXT:      %[[R:.*]]:2 = block.reduce N combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK-NEXT:        %[[X1:.*]] = block.load %{{.*}} [M, N]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[X1]] over [N]
// CHECK-NEXT:        %[[X2:.*]] = block.load %{{.*}} [M, N]
// CHECK-NEXT:        %[[U:.*]] = block.tile_reduce max %[[X2]] over [N]
// CHECK-NEXT:        block.yield %[[T]], %[[U]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[E:.*]] = block.exp %[[R]]#0
// CHECK-NEXT:      block.add %[[E]], %[[R]]#1
block.program @side_by_side axes(M = 10 tiled, N = 13 tiled)
    (%X: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %e = block.exp %s : !block.tile<[M], f32>
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %y = block.add %e, %m : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// The attention chain as three reduces: m, then l reading m, then acc
// reading m. m and l fuse (online); then acc reads the running maximum of
// that fused reduce and joins it: one reduce with (m, l, acc).

// CHECK-LABEL: block.program @online_three_reduces
// CHECK:           %[[R:.*]]:3 = block.reduce N init({{.*}}) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32> {
// CHECK:             %[[BM:.*]] = block.tile_reduce max
// CHECK:             %[[L:.*]] = block.tile_reduce add
// CHECK:             %[[SH:.*]] = block.select %{{.*}}, %{{.*}}, %[[BM]]
// CHECK-NEXT:        %[[S3:.*]] = block.load %{{.*}} [M, N]
// CHECK-NEXT:        %[[D3:.*]] = block.sub %[[S3]], %[[SH]]
// CHECK-NEXT:        %[[E3:.*]] = block.exp %[[D3]]
// CHECK-NEXT:        %[[V:.*]] = block.load %{{.*}} [N, D]
// CHECK-NEXT:        %[[PV:.*]] = block.dot %[[E3]], %[[V]] contract [N]
// CHECK-NEXT:        block.yield %[[BM]], %[[L]], %[[PV]]
// CHECK-NEXT:      } combine {
// CHECK-COUNT-2:     block.exp
// CHECK-COUNT-2:     block.add
// CHECK-NEXT:        block.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      block.div %[[R]]#2, %[[R]]#1
// CHECK-NOT:     block.reduce
block.program @online_three_reduces axes(M = 10 tiled, N = 13 tiled, D = 5 whole)
    (%S: !block.array<10x13xf32>, %V: !block.array<13x5xf32>) -> !block.array<10x5xf32> {
  %O = block.map [M] -> !block.array<10x5xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %acc = block.reduce N combiners [add] -> !block.tile<[M, D], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %v = block.load %V[N, D] : !block.array<13x5xf32> -> !block.tile<[N, D], f32>
      %pv = block.dot %e, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
      block.yield %pv : !block.tile<[M, D], f32>
    }
    %o = block.div %acc, %l : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<10x5xf32>
}

// -----

// The second reduce also sums a term free of m (a plain row sum), and scales
// the exponentials by an m-free factor and negates them: linear. The free
// term keeps a plain sum in the combiner; the others are rescaled.

// CHECK-LABEL: block.program @online_with_free_term
// CHECK:           %[[R:.*]]:3 = block.reduce N init(
// CHECK:             %[[BM:.*]] = block.tile_reduce max
// CHECK:             %[[SH:.*]] = block.select %{{.*}}, %{{.*}}, %[[BM]]
// CHECK-NEXT:        %[[S:.*]] = block.load %{{.*}} [M, N]
// CHECK-NEXT:        %[[D:.*]] = block.sub %[[S]], %[[SH]]
// CHECK-NEXT:        %[[E:.*]] = block.exp %[[D]]
// CHECK-NEXT:        %[[W:.*]] = block.load %{{.*}} [N]
// CHECK-NEXT:        %[[EW:.*]] = block.mul %[[E]], %[[W]]
// CHECK-NEXT:        %[[NEG:.*]] = block.neg %[[EW]]
// CHECK-NEXT:        %[[T:.*]] = block.tile_reduce add %[[NEG]] over [N]
// CHECK-NEXT:        %[[U:.*]] = block.tile_reduce add %[[S]] over [N]
// CHECK-NEXT:        block.yield %[[BM]], %[[T]], %[[U]]
// CHECK-NEXT:      } combine {
// CHECK-NEXT:      ^bb0(%[[MA:[^:]+]]: {{.*}}, %[[LA:[^:]+]]: {{.*}}, %[[CA:[^:]+]]: {{.*}}, %[[MB:[^:]+]]: {{.*}}, %[[LB:[^:]+]]: {{.*}}, %[[CB:[^:]+]]: !block.tile<[M], f32>):
// CHECK:             %[[L1:.*]] = block.mul %[[LA]], %{{.*}}
// CHECK-NEXT:        %[[L2:.*]] = block.mul %[[LB]], %{{.*}}
// CHECK-NEXT:        %[[LN:.*]] = block.add %[[L1]], %[[L2]]
// CHECK-NEXT:        %[[CN:.*]] = block.add %[[CA]], %[[CB]]
// CHECK-NEXT:        block.yield %{{.*}}, %[[LN]], %[[CN]]
block.program @online_with_free_term axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>, %W: !block.array<13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l, %c = block.reduce N combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %w = block.load %W[N] : !block.array<13xf32> -> !block.tile<[N], f32>
      %ew = block.mul %e, %w : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      %n = block.neg %ew : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %n over [N] : !block.tile<[M, N], f32>
      %u = block.tile_reduce add %s over [N] : !block.tile<[M, N], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %l, %c : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// A softmax over the first axis (columns of S, reduced over M in a map over
// N). Axes are matched by name, so it fuses exactly like the last-axis
// case; bb-run checks the numbers.

// CHECK-LABEL: block.program @softmax_non_last_axis
// CHECK-NEXT:    block.map [N] -> !block.array<13xf32> {
// CHECK:           %[[R:.*]]:3 = block.reduce M init({{.*}}) -> !block.tile<[N], f32>, !block.tile<[N], f32>, !block.tile<[N], f32> {
// CHECK:             %[[BM:.*]] = block.tile_reduce max %{{.*}} over [M]
// CHECK:             %[[SH:.*]] = block.select %{{.*}}, %{{.*}}, %[[BM]]
// CHECK-NEXT:        %[[S:.*]] = block.load %{{.*}} [M, N]
// CHECK-NEXT:        block.sub %[[S]], %[[SH]] : !block.tile<[M, N], f32>, !block.tile<[N], f32>
// CHECK:           } combine {
// CHECK:           block.div %[[R]]#2, %[[R]]#1
// CHECK-NOT:     block.reduce
block.program @softmax_non_last_axis axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<13xf32> {
  %O = block.map [N] -> !block.array<13xf32> {
    %m = block.reduce M combiners [max] -> !block.tile<[N], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [M] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[N], f32>
    }
    %l, %a = block.reduce M combiners [add, add] -> !block.tile<[N], f32>, !block.tile<[N], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [M] : !block.tile<[M, N], f32>
      %es = block.mul %e, %s : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %u = block.tile_reduce add %es over [M] : !block.tile<[M, N], f32>
      block.yield %t, %u : !block.tile<[N], f32>, !block.tile<[N], f32>
    }
    %y = block.div %a, %l : !block.tile<[N], f32>, !block.tile<[N], f32>
    block.yield %y : !block.tile<[N], f32>
  }
  block.return %O : !block.array<13xf32>
}

// -----

// Regression: a reduce with a combine region whose init is not the identity
// (a sum that starts at 5) beside a plain maximum. The rule used built-in
// combiners for the fused reduce and dropped the init (the result was off
// by 5). The fused reduce keeps the region and the init.

// CHECK-LABEL: block.program @region_init_kept
// CHECK-NEXT:    block.map [M]
// CHECK-NEXT:      %[[FIVE:.*]] = block.constant [M] 5.000000e+00 : f32
// CHECK-NEXT:      %[[NINF:.*]] = block.constant [M] 0xFF800000 : f32
// CHECK-NEXT:      %[[R:.*]]:2 = block.reduce N init(%[[FIVE]], %[[NINF]] : {{.*}}) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK:           } combine {
// CHECK-NEXT:      ^bb0(%[[A0:[^:]+]]: {{.*}}, %[[B0:[^:]+]]: {{.*}}, %[[A1:[^:]+]]: {{.*}}, %[[B1:[^:]+]]: !block.tile<[M], f32>):
// CHECK-NEXT:        %[[A:.*]] = block.add %[[A0]], %[[A1]]
// CHECK-NEXT:        %[[B:.*]] = block.max %[[B0]], %[[B1]]
// CHECK-NEXT:        block.yield %[[A]], %[[B]]
block.program @region_init_kept axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %five = block.constant [M] 5.0 : f32
    %a = block.reduce N init(%five : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    } combine {
    ^bb0(%x: !block.tile<[M], f32>, %y: !block.tile<[M], f32>):
      %z = block.add %x, %y : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %z : !block.tile<[M], f32>
    }
    %b = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %r = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// Two reduces over different axes (N and K): nothing to share.

// CHECK-LABEL: block.program @negative_different_axes
// CHECK:         block.reduce N combiners [max]
// CHECK:         block.reduce K combiners [add]
block.program @negative_different_axes axes(M = 10 tiled, N = 13 tiled, K = 9 tiled)
    (%S: !block.array<10x13xf32>, %X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, K], f32>
      %t = block.tile_reduce add %e over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// The second reduce uses m as a factor (x * m), not through exp(x - m):
// the terms depend on the final maximum in a way no rescaling recovers.

// CHECK-LABEL: block.program @negative_m_as_factor
// CHECK:         %[[M:.*]] = block.reduce N combiners [max]
// CHECK:         block.reduce N combiners [add]
// CHECK-NEXT:      %[[S:.*]] = block.load
// CHECK-NEXT:      block.mul %[[S]], %[[M]]
block.program @negative_m_as_factor axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %p = block.mul %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// The rescaled term is combined by max, not add: max_j (e_j * f_j) is not
// rescalable like a sum (and the rule only rescales sums).

// CHECK-LABEL: block.program @negative_max_of_exponentials
// CHECK:         block.reduce N combiners [max]
// CHECK:         block.reduce N combiners [max]
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.sub
// CHECK-NEXT:      block.exp
block.program @negative_max_of_exponentials axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce max %e over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// The first reduce is a sum, not a maximum: exp(x - s) with s a running
// sum is not the online-softmax form.

// CHECK-LABEL: block.program @negative_shift_by_a_sum
// CHECK:         block.reduce N combiners [add]
// CHECK:         block.reduce N combiners [add]
block.program @negative_shift_by_a_sum axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// The variance after the mean: the second reduce reads mu = s / N, computed
// from the first's result between them. A dependence other than through a
// running maximum: not fused (a Welford-style combiner could, but rule 9
// has none).

// CHECK-LABEL: block.program @negative_reads_a_derived_value
// CHECK:         %[[S:.*]] = block.reduce N combiners [add]
// CHECK:         %[[MU:.*]] = block.div %[[S]], %{{.*}}
// CHECK-NEXT:    block.reduce N combiners [add]
// CHECK-NEXT:      %[[X:.*]] = block.load
// CHECK-NEXT:      block.sub %[[X]], %[[MU]]
block.program @negative_reads_a_derived_value axes(M = 10 tiled, N = 13 tiled)
    (%X: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %n = block.constant [] 13.0 : f32
    %mu = block.div %s, %n : !block.tile<[M], f32>, !block.tile<[], f32>
    %v = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %x, %mu : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %d2 = block.mul %d, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %t = block.tile_reduce add %d2 over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %v : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// Regression: the exponentials summed over the rows (m's axis M) too, then
// broadcast back to [M]. Each row has its own maximum, so a per-row
// rescaling cannot correct a sum that mixes rows; the rule fused it and the
// result was wrong. A scaled value must keep every axis of m: not fused.

// CHECK-LABEL: block.program @negative_mixes_rows
// CHECK:         block.reduce N combiners [max]
// CHECK:         block.reduce N combiners [add]
// CHECK:           block.tile_reduce add %{{.*}} over [M, N]
block.program @negative_mixes_rows axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %z = block.tile_reduce add %e over [M, N] : !block.tile<[M, N], f32>
      %b = block.broadcast %z : !block.tile<[], f32> to !block.tile<[M], f32>
      block.yield %b : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// Regression: exp(exp(s - m) - m) is not linear in the exponentials; the
// rule took the outer exp for one and fused (wrong result). Not fused.

// CHECK-LABEL: block.program @negative_exp_of_exp
// CHECK:         block.reduce N combiners [max]
// CHECK:         block.reduce N combiners [add]
block.program @negative_exp_of_exp axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %d2 = block.sub %e, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e2 = block.exp %d2 : !block.tile<[M, N], f32>
      %z = block.tile_reduce add %e2 over [N] : !block.tile<[M, N], f32>
      block.yield %z : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// Regression: the exponentials are used inside a reduce nested in the
// second reduce's body. The rule took the nested reduce's result for free
// of m, so it was neither rescaled nor computed with the final maximum
// (wrong result). Not fused.

// CHECK-LABEL: block.program @negative_exponentials_in_nested_reduce
// CHECK:         block.reduce N combiners [max]
// CHECK:         block.reduce N combiners [add]
// CHECK:           block.reduce K combiners [add]
block.program @negative_exponentials_in_nested_reduce axes(M = 10 tiled, N = 13 tiled, K = 6 tiled)
    (%S: !block.array<10x13xf32>, %W: !block.array<13x6xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %i = block.reduce K combiners [add] -> !block.tile<[M], f32> {
        %w = block.load %W[N, K] : !block.array<13x6xf32> -> !block.tile<[N, K], f32>
        %p = block.dot %e, %w contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, K], f32>
        %q = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
        block.yield %q : !block.tile<[M], f32>
      }
      block.yield %i : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}

// -----

// Regression: a bf16 maximum with an f32 sum (the dot accumulates in f32).
// The combiner would rescale the f32 state by bf16 factors; the rule built
// an f32 * bf16 multiply, and the pass produced invalid IR. Not fused.

// CHECK-LABEL: block.program @negative_bf16_maximum
// CHECK:         block.reduce N combiners [max] -> !block.tile<[M], bf16>
// CHECK:         block.reduce N combiners [add] -> !block.tile<[M, D], f32>
block.program @negative_bf16_maximum axes(M = 10 tiled, N = 13 tiled, D = 5 whole)
    (%S: !block.array<10x13xbf16>, %V: !block.array<13x5xbf16>) -> !block.array<10x5xf32> {
  %O = block.map [M] -> !block.array<10x5xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], bf16> {
      %s = block.load %S[M, N] : !block.array<10x13xbf16> -> !block.tile<[M, N], bf16>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], bf16>
      block.yield %t : !block.tile<[M], bf16>
    }
    %acc = block.reduce N combiners [add] -> !block.tile<[M, D], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xbf16> -> !block.tile<[M, N], bf16>
      %d = block.sub %s, %m : !block.tile<[M, N], bf16>, !block.tile<[M], bf16>
      %e = block.exp %d : !block.tile<[M, N], bf16>
      %v = block.load %V[N, D] : !block.array<13x5xbf16> -> !block.tile<[N, D], bf16>
      %pv = block.dot %e, %v contract [N] : !block.tile<[M, N], bf16>, !block.tile<[N, D], bf16>
      block.yield %pv : !block.tile<[M, D], f32>
    }
    block.yield %acc : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<10x5xf32>
}

// -----

// Regression: two online-softmax reduces (as this rule writes them) over
// the same axis, with independent maxima. The combiner has one running
// maximum to rescale by; side by side, the first's sum was rescaled by the
// second's maximum (wrong result). Not fused.

// CHECK-LABEL: block.program @negative_two_online_reduces
// CHECK:         block.reduce N init(
// CHECK:         } combine {
// CHECK:         block.reduce N init(
// CHECK:         } combine {
block.program @negative_two_online_reduces axes(M = 10 tiled, N = 13 tiled)
    (%S1: !block.array<10x13xf32>, %S2: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %ninf = block.constant [M] 0xFF800000 : f32
    %zero = block.constant [M] 0.000000e+00 : f32
    %r1:2 = block.reduce N init(%ninf, %zero : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %s = block.load %S1[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %bm = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      %c0 = block.constant [] 0xFF800000 : f32
      %c1 = block.compare eq %bm, %c0 : !block.tile<[M], f32>, !block.tile<[], f32>
      %c2 = block.constant [] 0.000000e+00 : f32
      %sh = block.select %c1, %c2, %bm : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M], f32>
      %d = block.sub %s, %sh : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %bm, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%a0: !block.tile<[M], f32>, %a1: !block.tile<[M], f32>, %b0: !block.tile<[M], f32>, %b1: !block.tile<[M], f32>):
      %x = block.max %a0, %b0 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k0 = block.constant [] 0xFF800000 : f32
      %k1 = block.compare eq %x, %k0 : !block.tile<[M], f32>, !block.tile<[], f32>
      %k2 = block.constant [] 0.000000e+00 : f32
      %k3 = block.select %k1, %k2, %x : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M], f32>
      %k4 = block.sub %a0, %k3 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k5 = block.exp %k4 : !block.tile<[M], f32>
      %k6 = block.sub %b0, %k3 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k7 = block.exp %k6 : !block.tile<[M], f32>
      %k8 = block.mul %a1, %k5 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k9 = block.mul %b1, %k7 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k10 = block.add %k8, %k9 : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %x, %k10 : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %r2:2 = block.reduce N init(%ninf, %zero : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %s = block.load %S2[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %bm = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      %c0 = block.constant [] 0xFF800000 : f32
      %c1 = block.compare eq %bm, %c0 : !block.tile<[M], f32>, !block.tile<[], f32>
      %c2 = block.constant [] 0.000000e+00 : f32
      %sh = block.select %c1, %c2, %bm : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M], f32>
      %d = block.sub %s, %sh : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %bm, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%a0: !block.tile<[M], f32>, %a1: !block.tile<[M], f32>, %b0: !block.tile<[M], f32>, %b1: !block.tile<[M], f32>):
      %x = block.max %a0, %b0 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k0 = block.constant [] 0xFF800000 : f32
      %k1 = block.compare eq %x, %k0 : !block.tile<[M], f32>, !block.tile<[], f32>
      %k2 = block.constant [] 0.000000e+00 : f32
      %k3 = block.select %k1, %k2, %x : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M], f32>
      %k4 = block.sub %a0, %k3 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k5 = block.exp %k4 : !block.tile<[M], f32>
      %k6 = block.sub %b0, %k3 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k7 = block.exp %k6 : !block.tile<[M], f32>
      %k8 = block.mul %a1, %k5 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k9 = block.mul %b1, %k7 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %k10 = block.add %k8, %k9 : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %x, %k10 : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %r1#1, %r2#1 : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
