// Rule 5, shift hoisting and the linearity it needs (lib/Dialect/Block/
// Transforms/Rules/ShiftHoisting.pdll for the local part, ShiftHoisting.cpp
// for the parts on reduces):
//   dot(x - u, w) = dot(x - p, w) - (u - p) * colsum(w)
//                                                 when u has no contracted
//                                                 axis and only axes of x,
//                                                 p = x's pivot: x loaded at
//                                                 the first index of the
//                                                 contracted axis (without
//                                                 one, p = 0);
//   dot(a +- b, w) = dot(a, w) +- dot(b, w)       when one term lacks an axis
//                                                 of the other that w lacks;
//   sum_k (p_k +- q_k) = sum_k p_k +- sum_k q_k   for an add combiner;
//   sum_k (x_k - u)^2 = S2 - e (2 S1 - n e)       u defined outside the loop,
//                                                 e = u - p, S2 and S1 the
//                                                 sums of (x - p)^2 and x - p,
//                                                 n the extent of K.
// Only rule 5 runs, except in the LOOP checks, where rules 4 and 7 run too
// (the shift's u * colsum(w) leaves the loop through rule 4).

// RUN: bb-opt %s -split-input-file --block-fuse='order=5 extend=false' | FileCheck %s
// RUN: bb-opt %s -split-input-file --block-fuse='order=4,5,7 extend=false' | FileCheck %s --check-prefix=LOOP

// RUN: bb-opt %s --block-fuse='order=5 extend=false' -o %t
// RUN: bb-run %t --entry lhs_shift --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry rhs_and_scalar_shifts --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry distribute --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry split_terms --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry shifted_squares --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry pivots_of_computed_x --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-opt %s --block-fuse='order=4,5,7 extend=false' -o %t.loop
// RUN: bb-run %t.loop --entry shift_out_of_reduce --check --reference %s --block-sizes=M=4,N=3,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t.loop --entry layernorm_shape --check --reference %s --block-sizes=M=4,N=3,K=4 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// dot(x - u, w) with a row shift u[M]: the dot reads x - p, p = x[M, 0]
// the pivot, and the shift's remainder u - p times the column sums of w is
// subtracted after it. (x - u is left for rule 7.)

// CHECK-LABEL: block.program @lhs_shift
// CHECK:         %[[X:.*]] = block.load %[[XA:.*]] [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    block.sub %[[X]], %[[U]]
// CHECK-NEXT:    %[[P:.*]] = block.load %[[XA]] [M, 0] : !block.array<10x6xf32> -> !block.tile<[M], f32>
// CHECK-NEXT:    %[[XP:.*]] = block.sub %[[X]], %[[P]]
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[XP]], %[[W]] contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[E:.*]] = block.sub %[[U]], %[[P]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[C:.*]] = block.tile_reduce add %[[W]] over [J] : !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[S:.*]] = block.mul %[[E]], %[[C]] : !block.tile<[M], f32>, !block.tile<[N], f32>
// CHECK-NEXT:    %[[R:.*]] = block.sub %[[D]], %[[S]] : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    block.yield %[[R]]
block.program @lhs_shift axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %x, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The shifted operand on the right, dot(w, x - u) = dot(w, x - p) -
// colsum(w) * (u - p); and a scalar shift (no axes at all) on the left,
// whose remainder u - p has the pivot's axes. (Rule 7 would merge the two
// pivot loads.)

// CHECK-LABEL: block.program @rhs_and_scalar_shifts
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [N, J]
// CHECK-NEXT:    %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    block.sub %[[X]], %[[U]]
// CHECK-NEXT:    %[[P1:.*]] = block.load %{{.*}} [M, 0]
// CHECK-NEXT:    %[[XP1:.*]] = block.sub %[[X]], %[[P1]]
// CHECK-NEXT:    %[[D1:.*]] = block.dot %[[W]], %[[XP1]] contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[E1:.*]] = block.sub %[[U]], %[[P1]]
// CHECK-NEXT:    %[[C1:.*]] = block.tile_reduce add %[[W]] over [J] : !block.tile<[N, J], f32>
// CHECK-NEXT:    %[[S1:.*]] = block.mul %[[C1]], %[[E1]] : !block.tile<[N], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[R1:.*]] = block.sub %[[D1]], %[[S1]] : !block.tile<[N, M], f32>, !block.tile<[N, M], f32>
// CHECK-NEXT:    %[[H:.*]] = block.constant [] 5.000000e-01 : f32
// CHECK-NEXT:    block.sub %[[X]], %[[H]]
// CHECK-NEXT:    %[[P2:.*]] = block.load %{{.*}} [M, 0]
// CHECK-NEXT:    %[[XP2:.*]] = block.sub %[[X]], %[[P2]]
// CHECK-NEXT:    %[[D2:.*]] = block.dot %[[XP2]], %[[W]] contract [J] : !block.tile<[M, J], f32>, !block.tile<[N, J], f32>
// CHECK-NEXT:    %[[E2:.*]] = block.sub %[[H]], %[[P2]] : !block.tile<[], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[C2:.*]] = block.tile_reduce add %[[W]] over [J]
// CHECK-NEXT:    %[[S2:.*]] = block.mul %[[E2]], %[[C2]] : !block.tile<[M], f32>, !block.tile<[N], f32>
// CHECK-NEXT:    %[[R2:.*]] = block.sub %[[D2]], %[[S2]] : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    block.add %[[R1]], %[[R2]]
block.program @rhs_and_scalar_shifts axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<7x6xf32>, %U: !block.array<10xf32>)
    -> !block.array<7x10xf32> {
  %Y = block.map [M, N] -> !block.array<7x10xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %x, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y1 = block.dot %w, %d contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %half = block.constant [] 5.000000e-01 : f32
    %e = block.sub %x, %half : !block.tile<[M, J], f32>, !block.tile<[], f32>
    %y2 = block.dot %e, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[N, J], f32>
    %y = block.add %y1, %y2 : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[N, M], f32>
  }
  block.return %Y : !block.array<7x10xf32>
}

// -----

// A contraction of a sum with a broadcast term b[J] (beta in LayerNorm)
// distributes: dot(b + a, w) = dot(b, w) + dot(a, w), where dot(b, w) is a
// vector-matrix product; the sum's axes [N, M] are relaid out to the
// original [M, N]. Likewise a difference, the sum on the right.

// CHECK-LABEL: block.program @distribute
// CHECK:         %[[A:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[B:.*]] = block.load %{{.*}} [J] :
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    block.add %[[B]], %[[A]]
// CHECK-NEXT:    %[[DB:.*]] = block.dot %[[B]], %[[W]] contract [J] : !block.tile<[J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[DA:.*]] = block.dot %[[A]], %[[W]] contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[S:.*]] = block.add %[[DB]], %[[DA]] : !block.tile<[N], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    %[[Y1:.*]] = block.broadcast %[[S]] : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
// CHECK-NEXT:    block.sub %[[A]], %[[B]]
// CHECK-NEXT:    %[[EA:.*]] = block.dot %[[W]], %[[A]] contract [J] : !block.tile<[J, N], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[EB:.*]] = block.dot %[[W]], %[[B]] contract [J] : !block.tile<[J, N], f32>, !block.tile<[J], f32>
// CHECK-NEXT:    %[[Y2:.*]] = block.sub %[[EA]], %[[EB]] : !block.tile<[N, M], f32>, !block.tile<[N], f32>
// CHECK-NEXT:    block.add %[[Y1]], %[[Y2]]
block.program @distribute axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%A: !block.array<10x6xf32>, %B: !block.array<6xf32>, %W: !block.array<6x7xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %b = block.load %B[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %s = block.add %b, %a : !block.tile<[J], f32>, !block.tile<[M, J], f32>
    %y1 = block.dot %s, %w contract [J] : !block.tile<[J, M], f32>, !block.tile<[J, N], f32>
    %t = block.sub %a, %b : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %y2 = block.dot %w, %t contract [J] : !block.tile<[J, N], f32>, !block.tile<[M, J], f32>
    %y = block.add %y1, %y2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The linear split: terms q + p and p - q of an add-combined reduce become
// four accumulators (q, p, p, q), combined after the loop in the terms'
// own operand order (q[] + p[M] keeps its type). Rule 7 would merge the
// duplicate states.

// CHECK-LABEL: block.program @split_terms
// CHECK:         %[[R:.*]]:4 = block.reduce K combiners [add, add, add, add] -> !block.tile<[], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[], f32> {
// CHECK-NEXT:      block.load
// CHECK-NEXT:      block.load
// CHECK-NEXT:      %[[P:.*]] = block.tile_reduce add
// CHECK-NEXT:      %[[Q:.*]] = block.tile_reduce add
// CHECK-NEXT:      block.add %[[Q]], %[[P]]
// CHECK-NEXT:      block.sub %[[P]], %[[Q]]
// CHECK-NEXT:      block.yield %[[Q]], %[[P]], %[[P]], %[[Q]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DIFF:.*]] = block.sub %[[R]]#1, %[[R]]#3 : !block.tile<[M], f32>, !block.tile<[], f32>
// CHECK-NEXT:    %[[SUM:.*]] = block.add %[[R]]#0, %[[R]]#2 : !block.tile<[], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    block.mul %[[SUM]], %[[DIFF]]
block.program @split_terms axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %Z: !block.array<9xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s, %t = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %z = block.load %Z[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %p = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %q = block.tile_reduce add %z over [K] : !block.tile<[K], f32>
      %sum = block.add %q, %p : !block.tile<[], f32>, !block.tile<[M], f32>
      %diff = block.sub %p, %q : !block.tile<[M], f32>, !block.tile<[], f32>
      block.yield %sum, %diff : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.mul %s, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// Shifted squares with the shift defined outside the loop, in both forms a
// variance takes (dot(d, d) contract [K], and tile_reduce add (d * d)): the
// loop sums (x - p)^2 (in the same form) and x - p, p = X[M, 0] the pivot
// loaded before the loop, and sum (x - u)^2 is S2 - (2 S1 - 9 e) e with
// e = u - p after it, 9 being K's extent (the last block of 4 is partial:
// the count is the extent, not a multiple of the block size). The second
// shift is a scalar. (Rule 7 would merge the two pivots.)

// CHECK-LABEL: block.program @shifted_squares
// CHECK:         %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[C:.*]] = block.constant [] 2.500000e-01 : f32
// CHECK-NEXT:    %[[P1:.*]] = block.load %[[XA:.*]] [M, 0] : !block.array<10x9xf32> -> !block.tile<[M], f32>
// CHECK-NEXT:    %[[P2:.*]] = block.load %[[XA]] [M, 0] : !block.array<10x9xf32> -> !block.tile<[M], f32>
// CHECK-NEXT:    %[[R:.*]]:4 = block.reduce K combiners [add, add, add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK-NEXT:      %[[X:.*]] = block.load %[[XA]] [M, K]
// CHECK-NEXT:      %[[D:.*]] = block.sub %[[X]], %[[U]]
// CHECK-NEXT:      %[[XP:.*]] = block.sub %[[X]], %[[P1]]
// CHECK-NEXT:      %[[XX:.*]] = block.dot %[[XP]], %[[XP]] contract [K]
// CHECK-NEXT:      %[[S1:.*]] = block.tile_reduce add %[[XP]] over [K]
// CHECK-NEXT:      block.dot %[[D]], %[[D]] contract [K]
// CHECK-NEXT:      %[[E:.*]] = block.sub %[[X]], %[[C]]
// CHECK-NEXT:      block.mul %[[E]], %[[E]]
// CHECK-NEXT:      %[[XP2:.*]] = block.sub %[[X]], %[[P2]]
// CHECK-NEXT:      %[[SQ:.*]] = block.mul %[[XP2]], %[[XP2]]
// CHECK-NEXT:      %[[T2:.*]] = block.tile_reduce add %[[SQ]] over [K]
// CHECK-NEXT:      %[[T1:.*]] = block.tile_reduce add %[[XP2]] over [K]
// CHECK-NEXT:      block.tile_reduce add
// CHECK-NEXT:      block.yield %[[XX]], %[[T2]], %[[S1]], %[[T1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[TWO:.*]] = block.constant [] 2.000000e+00 : f32
// CHECK-NEXT:    %[[N:.*]] = block.constant [] 9.000000e+00 : f32
// CHECK-NEXT:    %[[E2:.*]] = block.sub %[[C]], %[[P2]] : !block.tile<[], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[A1:.*]] = block.mul %[[R]]#3, %[[TWO]]
// CHECK-NEXT:    %[[A2:.*]] = block.mul %[[E2]], %[[N]]
// CHECK-NEXT:    %[[A3:.*]] = block.sub %[[A1]], %[[A2]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[A4:.*]] = block.mul %[[A3]], %[[E2]]
// CHECK-NEXT:    %[[Q:.*]] = block.sub %[[R]]#1, %[[A4]]
// CHECK-NEXT:    %[[TWO2:.*]] = block.constant [] 2.000000e+00 : f32
// CHECK-NEXT:    %[[N2:.*]] = block.constant [] 9.000000e+00 : f32
// CHECK-NEXT:    %[[E1:.*]] = block.sub %[[U]], %[[P1]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[B1:.*]] = block.mul %[[R]]#2, %[[TWO2]]
// CHECK-NEXT:    %[[B2:.*]] = block.mul %[[E1]], %[[N2]]
// CHECK-NEXT:    %[[B3:.*]] = block.sub %[[B1]], %[[B2]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[B4:.*]] = block.mul %[[B3]], %[[E1]]
// CHECK-NEXT:    %[[V:.*]] = block.sub %[[R]]#0, %[[B4]]
// CHECK-NEXT:    block.add %[[V]], %[[Q]]
block.program @shifted_squares axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %U: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %c = block.constant [] 2.500000e-01 : f32
    %v, %q = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %e = block.sub %x, %c : !block.tile<[M, K], f32>, !block.tile<[], f32>
      %ee = block.mul %e, %e : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %r = block.tile_reduce add %ee over [K] : !block.tile<[M, K], f32>
      block.yield %dd, %r : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %v, %q : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// Inside a reduce over K, dot(x - u, w) with u defined outside: rule 5
// takes the shift out of the dot about the pivot p (loaded before the
// loop), splits the difference into two accumulators, and rule 4 takes
// u - p out of the second: the loop sums dot(x - p, w) and the column sums
// of w, and no longer reads u.

// CHECK-LABEL: block.program @shift_out_of_reduce
// CHECK:         %[[P:.*]] = block.load %{{.*}} [M, 0]
// CHECK-NEXT:    block.reduce K combiners [add, add] -> !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
// CHECK:           %[[S:.*]] = block.mul %{{.*}}, %{{.*}} : !block.tile<[M], f32>, !block.tile<[N], f32>
// CHECK:           block.yield %{{.*}}, %[[S]]

// LOOP-LABEL: block.program @shift_out_of_reduce
// LOOP:         %[[U:.*]] = block.load %{{.*}} [M] :
// LOOP-NEXT:    %[[P:.*]] = block.load %{{.*}} [M, 0]
// LOOP-NEXT:    %[[E:.*]] = block.sub %[[U]], %[[P]]
// LOOP-NEXT:    %[[R:.*]]:2 = block.reduce K combiners [add, add] -> !block.tile<[M, N], f32>, !block.tile<[N], f32> {
// LOOP-NEXT:      %[[X:.*]] = block.load %{{.*}} [M, K]
// LOOP-NEXT:      %[[W:.*]] = block.load %{{.*}} [K, N]
// LOOP-NEXT:      %[[XP:.*]] = block.sub %[[X]], %[[P]]
// LOOP-NEXT:      %[[D:.*]] = block.dot %[[XP]], %[[W]] contract [K]
// LOOP-NEXT:      %[[C:.*]] = block.tile_reduce add %[[W]] over [K]
// LOOP-NEXT:      block.yield %[[D]], %[[C]] : !block.tile<[M, N], f32>, !block.tile<[N], f32>
// LOOP-NEXT:    }
// LOOP-NEXT:    %[[S:.*]] = block.mul %[[E]], %[[R]]#1 : !block.tile<[M], f32>, !block.tile<[N], f32>
// LOOP-NEXT:    %[[Y:.*]] = block.sub %[[R]]#0, %[[S]]
// LOOP-NEXT:    block.yield %[[Y]]
block.program @shift_out_of_reduce axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %p = block.dot %d, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The LayerNorm matmul's K loop, with mu and rstd given:
// dot(((x - mu) * r) * g + b, w). Rule 5 distributes over + b; rule 4
// moves g[K] onto the weight and takes r out of the dot and the loop;
// rule 5 takes mu out of the dot about the pivot p = X[M, 0], rule 4
// mu - p out of the loop. The loop accumulates dot(x - p, w * g), dot(b, w)
// and colsum(w * g), and no longer reads mu or r.

// LOOP-LABEL: block.program @layernorm_shape
// LOOP:         %[[MU:.*]] = block.load %{{.*}} [M] :
// LOOP-NEXT:    %[[RS:.*]] = block.load %{{.*}} [M] :
// LOOP-NEXT:    %[[P:.*]] = block.load %{{.*}} [M, 0]
// LOOP-NEXT:    %[[E:.*]] = block.sub %[[MU]], %[[P]]
// LOOP-NEXT:    %[[R:.*]]:3 = block.reduce K combiners [add, add, add] -> !block.tile<[M, N], f32>, !block.tile<[N], f32>, !block.tile<[N], f32> {
// LOOP-NEXT:      %[[X:.*]] = block.load %{{.*}} [M, K]
// LOOP-NEXT:      %[[G:.*]] = block.load %{{.*}} [K] :
// LOOP-NEXT:      %[[B:.*]] = block.load %{{.*}} [K] :
// LOOP-NEXT:      %[[W:.*]] = block.load %{{.*}} [K, N]
// LOOP-NEXT:      %[[WG:.*]] = block.mul %[[W]], %[[G]] : !block.tile<[K, N], f32>, !block.tile<[K], f32>
// LOOP-NEXT:      %[[XP:.*]] = block.sub %[[X]], %[[P]]
// LOOP-NEXT:      %[[ACC:.*]] = block.dot %[[XP]], %[[WG]] contract [K]
// LOOP-NEXT:      %[[CW:.*]] = block.tile_reduce add %[[WG]] over [K]
// LOOP-NEXT:      %[[BW:.*]] = block.dot %[[B]], %[[W]] contract [K]
// LOOP-NEXT:      block.yield %[[ACC]], %[[BW]], %[[CW]]
// LOOP-NEXT:    }
// LOOP-NEXT:    %[[S:.*]] = block.mul %[[E]], %[[R]]#2 : !block.tile<[M], f32>, !block.tile<[N], f32>
// LOOP-NEXT:    %[[C:.*]] = block.sub %[[R]]#0, %[[S]]
// LOOP-NEXT:    %[[N:.*]] = block.mul %[[C]], %[[RS]]
// LOOP-NEXT:    %[[Y:.*]] = block.add %[[N]], %[[R]]#1 : !block.tile<[M, N], f32>, !block.tile<[N], f32>
// LOOP-NEXT:    block.yield %[[Y]]
block.program @layernorm_shape axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>, %B: !block.array<9xf32>,
     %W: !block.array<9x7xf32>, %MU: !block.array<10xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %mu = block.load %MU[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %b = block.load %B[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.sub %x, %mu : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %n = block.mul %d, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %ng = block.mul %n, %g : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %xn = block.add %ng, %b : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %p = block.dot %xn, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A "shift" that varies along the contraction axis (v[M, J]) is no shift:
// dot(x - v, w) sums (x - v)[k] w[k] with a different v on every term.
// Nor does it distribute: both terms have every axis, so the two dots
// would each cost as much as the one. Nothing changes, with rules 4 and 7
// either.

// CHECK-LABEL: block.program @negative_shift_along_k
// CHECK:         %[[D:.*]] = block.sub %{{.*}}, %{{.*}} : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[Y:.*]] = block.dot %[[D]], %{{.*}} contract [J]
// CHECK-NEXT:    block.yield %[[Y]]
// LOOP-LABEL: block.program @negative_shift_along_k
// LOOP:         %[[D:.*]] = block.sub %{{.*}}, %{{.*}} : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
// LOOP-NEXT:    %[[Y:.*]] = block.dot %[[D]], %{{.*}} contract [J]
// LOOP-NEXT:    block.yield %[[Y]]
block.program @negative_shift_along_k axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %V: !block.array<10x6xf32>, %W: !block.array<6x7xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %v = block.load %V[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %d = block.sub %x, %v : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// bf16 operands: x - u and x + b are rounded to bf16 before the dot
// accumulates in f32; the rewritten forms would round differently (and
// u * colsum(w) would multiply bf16 by f32). Nothing changes.

// CHECK-LABEL: block.program @negative_bf16
// CHECK:         %[[D:.*]] = block.sub %{{.*}}, %{{.*}} : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
// CHECK-NEXT:    %[[Y1:.*]] = block.dot %[[D]], %{{.*}} contract [J]
// CHECK-NEXT:    %[[S:.*]] = block.add %{{.*}}, %{{.*}} : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
// CHECK-NEXT:    %[[Y2:.*]] = block.dot %[[S]], %{{.*}} contract [J]
// CHECK-NEXT:    block.add %[[Y1]], %[[Y2]]
block.program @negative_bf16 axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xbf16>, %B: !block.array<6xbf16>, %W: !block.array<6x7xbf16>, %U: !block.array<10xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %b = block.load %B[J] : !block.array<6xbf16> -> !block.tile<[J], bf16>
    %w = block.load %W[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %u = block.load %U[M] : !block.array<10xbf16> -> !block.tile<[M], bf16>
    %d = block.sub %x, %u : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
    %y1 = block.dot %d, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %s = block.add %x, %b : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
    %y2 = block.dot %s, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %y = block.add %y1, %y2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// Non-add combiners are not linear: max_k (p_k + u) splits into nothing
// (max of a sum is not the sum of the maxima), and a product of squares
// is no variance. Nothing changes.

// CHECK-LABEL: block.program @negative_nonadd_combiners
// CHECK:         block.reduce K combiners [max, mul] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK-NEXT:      %[[X:.*]] = block.load
// CHECK-NEXT:      %[[D:.*]] = block.sub %[[X]], %{{.*}}
// CHECK-NEXT:      %[[DD:.*]] = block.dot %[[D]], %[[D]] contract [K]
// CHECK-NEXT:      %[[P:.*]] = block.tile_reduce max %[[X]]
// CHECK-NEXT:      %[[S:.*]] = block.add %[[P]], %{{.*}}
// CHECK-NEXT:      block.yield %[[S]], %[[DD]]
// CHECK-NEXT:    }
block.program @negative_nonadd_combiners axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %U: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [max, mul] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %p = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %s = block.add %p, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %s, %dd : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// Squares the variance pattern leaves alone: a shift computed in the loop
// (the block's own maximum: a different u in every iteration), and a
// square contracting [K, J] (the count would not be K's extent alone).
// As squares, they are not the generic shift pattern's either. Nothing
// changes.

// CHECK-LABEL: block.program @negative_squares
// CHECK:         block.reduce K combiners [add, add]
// CHECK-NEXT:      %[[X:.*]] = block.load
// CHECK-NEXT:      %[[M:.*]] = block.tile_reduce max %[[X]]
// CHECK-NEXT:      %[[D:.*]] = block.sub %[[X]], %[[M]]
// CHECK-NEXT:      %[[DD:.*]] = block.dot %[[D]], %[[D]] contract [K]
// CHECK-NEXT:      %[[Z:.*]] = block.load
// CHECK-NEXT:      %[[E:.*]] = block.sub %[[Z]], %{{.*}}
// CHECK-NEXT:      %[[EE:.*]] = block.dot %[[E]], %[[E]] contract [K, J]
// CHECK-NEXT:      block.yield %[[DD]], %[[EE]]
// CHECK-NEXT:    }
block.program @negative_squares axes(M = 10 tiled, K = 9 tiled, J = 6 whole)
    (%X: !block.array<10x9xf32>, %Z: !block.array<10x9x6xf32>, %U: !block.array<10xf32>)
    -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %m = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %z = block.load %Z[M, K, J] : !block.array<10x9x6xf32> -> !block.tile<[M, K, J], f32>
      %e = block.sub %z, %u : !block.tile<[M, K, J], f32>, !block.tile<[M], f32>
      %ee = block.dot %e, %e contract [K, J] : !block.tile<[M, K, J], f32>, !block.tile<[M, K, J], f32>
      block.yield %dd, %ee : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// x computed elementwise from a program argument (exp of a load) has a
// pivot, exp(X[M, 0]); x read from another kernel's result has none (a
// fixed-index load of it would keep that kernel alive): its shift stays in
// the dot.

// CHECK-LABEL: block.program @pivots_of_computed_x
// CHECK:         %[[H:.*]] = block.map [M] -> !block.array<10x6xf32>
// CHECK:         block.map [M, N]
// CHECK-NEXT:    %[[X:.*]] = block.load %[[XA:.*]] [M, J]
// CHECK-NEXT:    %[[E:.*]] = block.exp %[[X]]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    block.sub %[[E]], %[[U]]
// CHECK-NEXT:    %[[P:.*]] = block.load %[[XA]] [M, 0]
// CHECK-NEXT:    %[[PE:.*]] = block.exp %[[P]] : !block.tile<[M], f32>
// CHECK-NEXT:    %[[C:.*]] = block.sub %[[E]], %[[PE]]
// CHECK-NEXT:    block.dot %[[C]], %[[W]] contract [J]
// CHECK:         %[[Z:.*]] = block.load %[[H]] [M, J]
// CHECK-NEXT:    %[[DZ:.*]] = block.sub %[[Z]], %[[U]]
// CHECK-NEXT:    block.dot %[[DZ]], %[[W]] contract [J]
block.program @pivots_of_computed_x axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %H = block.map [M] -> !block.array<10x6xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %t = block.tanh %x : !block.tile<[M, J], f32>
    block.yield %t : !block.tile<[M, J], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %e = block.exp %x : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %e, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %z = block.load %H[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %dz = block.sub %z, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %yz = block.dot %dz, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %r = block.add %y, %yz : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
