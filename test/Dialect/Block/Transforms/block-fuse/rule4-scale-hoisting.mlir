// Rule 4, scale hoisting (lib/Dialect/Block/Transforms/Rules/ScaleHoisting.
// pdll for the local part, ScaleHoisting.cpp for the part out of reduces):
// dot(x * s, w) = dot(x, w) * s when s has no contracted axis, and
// sum_k (u_k * s) = (sum_k u_k) * s when s is defined outside the reduce
// over k; a factor g along the contraction moves onto a weight instead,
// dot(x * g, w) = dot(x, w * g). Only rule 4 runs.

// RUN: bb-opt %s -split-input-file --block-fuse='order=4 extend=false' | FileCheck %s

// RUN: bb-opt %s --block-fuse='order=4 extend=false' -o %t
// RUN: bb-run %t --entry lhs_product --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry lhs_product_swapped_relayout --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry rhs_products --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry divisors --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry out_of_reduce --check --reference %s --block-sizes=M=4,N=3,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry out_of_reduce_swapped_and_divisor --check --reference %s --block-sizes=M=4,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry out_of_reduce_smaller_state --check --reference %s --block-sizes=M=4,N=3,K=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry factor_to_weight --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry mask_out_of_dot_and_reduce --check --reference %s --block-sizes=M=4,N=3,K=4 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// dot(x * r, w) with a row factor r[M]: the product moves after the dot.

// CHECK-LABEL: block.program @lhs_product
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[R:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[XR:.*]] = block.mul %[[X]], %[[R]]
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[X]], %[[W]] contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[P:.*]] = block.mul %[[D]], %[[R]] : !block.tile<[M, N], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    block.yield %[[P]]
block.program @lhs_product axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %xr = block.mul %x, %r : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %d = block.dot %xr, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %d : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// dot(r * x, w) with the factor first: r[D] * x[M, D, J] has the axes
// [D, M, J], so the dot had [D, M, N]; dot(x, w) * r has [M, D, N] and is
// relaid out to the original type.

// CHECK-LABEL: block.program @lhs_product_swapped_relayout
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, D, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[R:.*]] = block.load %{{.*}} [D] :
// CHECK-NEXT:    block.mul %[[R]], %[[X]]
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[X]], %[[W]] contract [J] : !block.tile<[M, D, J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    %[[P:.*]] = block.mul %[[D]], %[[R]] : !block.tile<[M, D, N], f32>, !block.tile<[D], f32>
// CHECK-NEXT:    %[[T:.*]] = block.broadcast %[[P]] : !block.tile<[M, D, N], f32> to !block.tile<[D, M, N], f32>
// CHECK-NEXT:    block.yield %[[T]] : !block.tile<[D, M, N], f32>
block.program @lhs_product_swapped_relayout axes(M = 10 tiled, N = 7 tiled, D = 3 whole, J = 6 whole)
    (%X: !block.array<10x3x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<3xf32>)
    -> !block.array<3x10x7xf32> {
  %Y = block.map [M, N] -> !block.array<3x10x7xf32> {
    %x = block.load %X[M, D, J] : !block.array<10x3x6xf32> -> !block.tile<[M, D, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %r = block.load %R[D] : !block.array<3xf32> -> !block.tile<[D], f32>
    %xr = block.mul %r, %x : !block.tile<[D], f32>, !block.tile<[M, D, J], f32>
    %d = block.dot %xr, %w contract [J] : !block.tile<[D, M, J], f32>, !block.tile<[J, N], f32>
    block.yield %d : !block.tile<[D, M, N], f32>
  }
  block.return %Y : !block.array<3x10x7xf32>
}

// -----

// The scaled operand on the right, as x * r and as r * x.

// CHECK-LABEL: block.program @rhs_products
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [N, J]
// CHECK-NEXT:    %[[R:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    block.mul %[[X]], %[[R]]
// CHECK-NEXT:    %[[D1:.*]] = block.dot %[[W]], %[[X]] contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[P1:.*]] = block.mul %[[D1]], %[[R]] : !block.tile<[N, M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    block.mul %[[R]], %[[X]]
// CHECK-NEXT:    %[[D2:.*]] = block.dot %[[W]], %[[X]] contract [J]
// CHECK-NEXT:    %[[P2:.*]] = block.mul %[[D2]], %[[R]] : !block.tile<[N, M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[S:.*]] = block.add %[[P1]], %[[P2]]
// CHECK-NEXT:    block.yield %[[S]]
block.program @rhs_products axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<7x6xf32>, %R: !block.array<10xf32>)
    -> !block.array<7x10xf32> {
  %Y = block.map [M, N] -> !block.array<7x10xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %xr = block.mul %x, %r : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %d1 = block.dot %w, %xr contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %rx = block.mul %r, %x : !block.tile<[M], f32>, !block.tile<[M, J], f32>
    %d2 = block.dot %w, %rx contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %s = block.add %d1, %d2 : !block.tile<[N, M], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[N, M], f32>
  }
  block.return %Y : !block.array<7x10xf32>
}

// -----

// Divisors, on either side: dot(x / r, w) = dot(x, w) / r.

// CHECK-LABEL: block.program @divisors
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[L:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[R:.*]] = block.exp %[[L]]
// CHECK-NEXT:    block.div %[[X]], %[[R]]
// CHECK-NEXT:    %[[D1:.*]] = block.dot %[[X]], %[[W]] contract [J]
// CHECK-NEXT:    %[[Q1:.*]] = block.div %[[D1]], %[[R]] : !block.tile<[M, N], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[D2:.*]] = block.dot %[[W]], %[[X]] contract [J]
// CHECK-NEXT:    %[[Q2:.*]] = block.div %[[D2]], %[[R]] : !block.tile<[N, M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[S:.*]] = block.add %[[Q1]], %[[Q2]]
// CHECK-NEXT:    block.yield %[[S]]
block.program @divisors axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %l = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %r = block.exp %l : !block.tile<[M], f32>
    %xr = block.div %x, %r : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %d1 = block.dot %xr, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %d2 = block.dot %w, %xr contract [J] : !block.tile<[J, N], f32>, !block.tile<[M, J], f32>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The LayerNorm shape: inside a reduce over K, dot(x * r, w) with r defined
// outside the reduce. The factor first leaves the dot, then the reduce: the
// loop accumulates dot(x, w) and the product is taken once, after it.

// CHECK-LABEL: block.program @out_of_reduce
// CHECK:         block.map [M, N]
// CHECK-NEXT:      %[[R:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:      %[[ACC:.*]] = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
// CHECK-NEXT:        %[[X:.*]] = block.load %{{.*}} [M, K]
// CHECK-NEXT:        %[[W:.*]] = block.load %{{.*}} [K, N]
// CHECK-NEXT:        block.mul %[[X]], %[[R]]
// CHECK-NEXT:        %[[D:.*]] = block.dot %[[X]], %[[W]] contract [K]
// CHECK-NEXT:        block.mul %[[D]], %[[R]]
// CHECK-NEXT:        block.yield %[[D]] : !block.tile<[M, N], f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[P:.*]] = block.mul %[[ACC]], %[[R]] : !block.tile<[M, N], f32>, !block.tile<[M], f32>
// CHECK-NEXT:      block.yield %[[P]]
block.program @out_of_reduce axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %xr = block.mul %x, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %d = block.dot %xr, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %d : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// Out of a reduce with two sums: s * u (factor first) and u / s. Each
// leaves the loop; the state keeps its order, and the product after it
// the term's operand order.

// CHECK-LABEL: block.program @out_of_reduce_swapped_and_divisor
// CHECK:         block.map [M]
// CHECK-NEXT:      %[[L:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:      %[[S:.*]] = block.exp %[[L]]
// CHECK-NEXT:      %[[R:.*]]:2 = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
// CHECK-NEXT:        %[[X:.*]] = block.load %{{.*}} [M, K]
// CHECK-NEXT:        %[[U:.*]] = block.tile_reduce add %[[X]] over [K]
// CHECK-NEXT:        block.mul %[[S]], %[[U]]
// CHECK-NEXT:        block.div %[[U]], %[[S]]
// CHECK-NEXT:        block.yield %[[U]], %[[U]] : !block.tile<[M], f32>, !block.tile<[M], f32>
// CHECK-NEXT:      }
// CHECK-DAG:       %[[Q:.*]] = block.div %[[R]]#1, %[[S]]
// CHECK-DAG:       %[[P:.*]] = block.mul %[[S]], %[[R]]#0
// CHECK:           block.add %[[P]], %[[Q]]
block.program @out_of_reduce_swapped_and_divisor axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %S: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %l = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.exp %l : !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %u = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %su = block.mul %s, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
      %us = block.div %u, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %su, %us : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// Out of a reduce, a term u * c_k with u[M] outside the loop and c_k[N]:
// the state is c's type, [N], not the term's [M, N]; the product after the
// loop has the term's type again.

// CHECK-LABEL: block.program @out_of_reduce_smaller_state
// CHECK:         %[[U:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[R:.*]] = block.reduce K combiners [add] -> !block.tile<[N], f32> {
// CHECK-NEXT:      %[[W:.*]] = block.load %{{.*}} [K, N]
// CHECK-NEXT:      %[[C:.*]] = block.tile_reduce add %[[W]] over [K]
// CHECK-NEXT:      block.mul %[[U]], %[[C]]
// CHECK-NEXT:      block.yield %[[C]] : !block.tile<[N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[P:.*]] = block.mul %[[U]], %[[R]] : !block.tile<[M], f32>, !block.tile<[N], f32>
// CHECK-NEXT:    block.yield %[[P]] : !block.tile<[M, N], f32>
block.program @out_of_reduce_smaller_state axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%W: !block.array<9x7xf32>, %U: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %c = block.tile_reduce add %w over [K] : !block.tile<[K, N], f32>
      %t = block.mul %u, %c : !block.tile<[M], f32>, !block.tile<[N], f32>
      block.yield %t : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A factor g[J] along the contraction, on a computed operand (exp(x)),
// moves onto the loaded weight: dot(x * g, w) = dot(x, w * g) (x * g as
// the dot's lhs), and dot(v, g * x) = dot(v * g, x) (g * x as its rhs).

// CHECK-LABEL: block.program @factor_to_weight
// CHECK:         %[[X:.*]] = block.exp
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[V:.*]] = block.load %{{.*}} [N, J]
// CHECK-NEXT:    %[[G:.*]] = block.load %{{.*}} [J] :
// CHECK-NEXT:    block.mul %[[X]], %[[G]]
// CHECK-NEXT:    %[[WG:.*]] = block.mul %[[W]], %[[G]] : !block.tile<[J, N], f32>, !block.tile<[J], f32>
// CHECK-NEXT:    %[[D1:.*]] = block.dot %[[X]], %[[WG]] contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
// CHECK-NEXT:    block.mul %[[G]], %[[X]]
// CHECK-NEXT:    %[[VG:.*]] = block.mul %[[V]], %[[G]] : !block.tile<[N, J], f32>, !block.tile<[J], f32>
// CHECK-NEXT:    %[[D2:.*]] = block.dot %[[VG]], %[[X]] contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    block.add %[[D1]], %[[D2]]
block.program @factor_to_weight axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %V: !block.array<7x6xf32>,
     %G: !block.array<6xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %l = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %x = block.exp %l : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %v = block.load %V[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %g = block.load %G[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xg = block.mul %x, %g : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %d1 = block.dot %xg, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %gx = block.mul %g, %x : !block.tile<[J], f32>, !block.tile<[M, J], f32>
    %d2 = block.dot %v, %gx contract [J] : !block.tile<[N, J], f32>, !block.tile<[J, M], f32>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The factor moves only onto a weight, and only in f32: onto exp(w) (a
// computed operand, which could move it back), or in bf16 (x * g rounds to
// bf16 before the dot; w * g would round differently), it stays.

// CHECK-LABEL: block.program @negative_factor_not_to_weight
// CHECK:         %[[XG:.*]] = block.mul %{{.*}}, %{{.*}} : !block.tile<[M, J], f32>, !block.tile<[J], f32>
// CHECK-NEXT:    %[[D1:.*]] = block.dot %[[XG]], %{{.*}} contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
// CHECK:         %[[YG:.*]] = block.mul %{{.*}}, %{{.*}} : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
// CHECK-NEXT:    %[[D2:.*]] = block.dot %[[YG]], %{{.*}} contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
// CHECK-NEXT:    block.add %[[D1]], %[[D2]]
block.program @negative_factor_not_to_weight axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %G: !block.array<6xf32>,
     %XB: !block.array<10x6xbf16>, %WB: !block.array<6x7xbf16>, %GB: !block.array<6xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %l = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %x = block.exp %l : !block.tile<[M, J], f32>
    %lw = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %w = block.exp %lw : !block.tile<[J, N], f32>
    %g = block.load %G[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xg = block.mul %x, %g : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %d1 = block.dot %xg, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %lb = block.load %XB[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %y = block.exp %lb : !block.tile<[M, J], bf16>
    %wb = block.load %WB[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %gb = block.load %GB[J] : !block.array<6xbf16> -> !block.tile<[J], bf16>
    %yg = block.mul %y, %gb : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
    %d2 = block.dot %yg, %wb contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A factor that varies along the contraction axis (gamma[J] on a whole
// axis, gamma[K] inside the reduce over K: per-column weights) cannot leave
// the dot, nor the reduce. It would move onto the weight, but x is a load
// too (a weight itself), and the move only goes from a computed operand
// onto a loaded one. Nothing changes.

// CHECK-LABEL: block.program @negative_scale_along_k
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[G:.*]] = block.load %{{.*}} [J] :
// CHECK-NEXT:    %[[XG:.*]] = block.mul %[[X]], %[[G]]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    block.dot %[[XG]], %[[W]] contract [J]
// CHECK-NEXT:    block.reduce K combiners [add]
// CHECK-NEXT:      %[[X2:.*]] = block.load %{{.*}} [M, K]
// CHECK-NEXT:      %[[G2:.*]] = block.load %{{.*}} [K] :
// CHECK-NEXT:      %[[XG2:.*]] = block.mul %[[X2]], %[[G2]]
// CHECK-NEXT:      %[[W2:.*]] = block.load %{{.*}} [K, N]
// CHECK-NEXT:      %[[D2:.*]] = block.dot %[[XG2]], %[[W2]] contract [K]
// CHECK-NEXT:      block.yield %[[D2]]
block.program @negative_scale_along_k axes(M = 10 tiled, N = 7 tiled, K = 9 tiled, J = 6 whole)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %G: !block.array<9xf32>,
     %XJ: !block.array<10x6xf32>, %WJ: !block.array<6x7xf32>, %GJ: !block.array<6xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %xj = block.load %XJ[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %gj = block.load %GJ[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xgj = block.mul %xj, %gj : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %wj = block.load %WJ[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %dj = block.dot %xgj, %wj contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %xg = block.mul %x, %g : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.dot %xg, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %d : !block.tile<[M, N], f32>
    }
    %y = block.add %acc, %dj : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A bf16 factor: x * r is rounded to bf16 before the dot accumulates in
// f32; dot(x, w) * r would multiply f32 by bf16 (no implicit conversions).
// Nothing changes.

// CHECK-LABEL: block.program @negative_bf16_scale
// CHECK:         %[[X:.*]] = block.load %{{.*}} [M, J]
// CHECK-NEXT:    %[[W:.*]] = block.load %{{.*}} [J, N]
// CHECK-NEXT:    %[[R:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[XR:.*]] = block.mul %[[X]], %[[R]] : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[XR]], %[[W]] contract [J]
// CHECK-NEXT:    block.yield %[[D]]
block.program @negative_bf16_scale axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xbf16>, %W: !block.array<6x7xbf16>, %R: !block.array<10xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %w = block.load %W[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %r = block.load %R[M] : !block.array<10xbf16> -> !block.tile<[M], bf16>
    %xr = block.mul %x, %r : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
    %d = block.dot %xr, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    block.yield %d : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A max (or mul) combiner is not linear: max_k (u_k * s) is not
// (max_k u_k) * s when s < 0, and prod_k (u_k * s) is (prod_k u_k) * s^n.
// Nothing leaves these reduces.

// CHECK-LABEL: block.program @negative_nonlinear_combiners
// CHECK:         %[[S:.*]] = block.load %{{.*}} [M] :
// CHECK-NEXT:    %[[R:.*]]:2 = block.reduce K combiners [max, mul]
// CHECK-NEXT:      block.load
// CHECK-NEXT:      %[[U:.*]] = block.tile_reduce max
// CHECK-NEXT:      %[[A:.*]] = block.mul %[[U]], %[[S]]
// CHECK-NEXT:      %[[B:.*]] = block.mul %[[U]], %[[S]]
// CHECK-NEXT:      block.yield %[[A]], %[[B]]
// CHECK-NEXT:    }
// CHECK-NEXT:    block.add %[[R]]#0, %[[R]]#1
block.program @negative_nonlinear_combiners axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %S: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [max, mul] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %us = block.mul %u, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
      %us2 = block.mul %u, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %us, %us2 : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}

// -----

// s / x is not linear in x: dot(s / x, w) keeps its form.

// CHECK-LABEL: block.program @negative_factor_divided_by_x
// CHECK:         %[[Q:.*]] = block.div %{{.*}}, %{{.*}} : !block.tile<[M], f32>, !block.tile<[M, J], f32>
// CHECK-NEXT:    %[[D:.*]] = block.dot %[[Q]], %{{.*}} contract [J]
// CHECK-NEXT:    block.yield %[[D]]
block.program @negative_factor_divided_by_x axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %q = block.div %r, %x : !block.tile<[M], f32>, !block.tile<[M, J], f32>
    %d = block.dot %q, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %d : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// A mask of rows, select(c, 0, x) with c[M] (attention exported by
// torch-mlir zeroes the rows of P whose scores are all -inf this way),
// leaves the dot, also through a cast (cast(select(c, 0, x)) =
// select(c, 0, cast(x))), and then the reduce over K whose terms it masks:
// a masked row sums zeros either way. The rescalable cast (a rounding the
// user asked for: --round-dot-operands) then lets the division by r leave
// the dot as well, as --divide-after-rounding does for any cast.

// CHECK-LABEL: block.program @mask_out_of_dot_and_reduce
// CHECK:         %[[R:.*]] = block.exp
// CHECK:         %[[C:.*]] = block.compare gt
// CHECK:         %[[ACC:.*]] = block.reduce K combiners [add]
// CHECK:           %[[X:.*]] = block.load %{{.*}} [M, K]
// CHECK:           %[[XR:.*]] = block.cast %[[X]] {block.rescalable} : !block.tile<[M, K], f32> to !block.tile<[M, K], bf16>
// CHECK-NEXT:      %[[D:.*]] = block.dot %[[XR]], %{{.*}} contract [K]
// CHECK:           block.yield %[[D]] : !block.tile<[M, N], f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Q:.*]] = block.div %[[ACC]], %[[R]] : !block.tile<[M, N], f32>, !block.tile<[M], f32>
// CHECK-NEXT:    %[[Z:.*]] = block.constant [] 0.000000e+00 : f32
// CHECK-NEXT:    %[[M:.*]] = block.select %[[C]], %[[Z]], %[[Q]] : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M, N], f32>
// CHECK-NEXT:    block.yield %[[M]]
block.program @mask_out_of_dot_and_reduce axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xbf16>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %l = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %r = block.exp %l : !block.tile<[M], f32>
    %zero = block.constant [] 0.0 : f32
    %c = block.compare gt %l, %zero : !block.tile<[M], f32>, !block.tile<[], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xbf16> -> !block.tile<[K, N], bf16>
      %xr = block.div %x, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %m = block.select %c, %zero, %xr : !block.tile<[M], i1>, !block.tile<[], f32>, !block.tile<[M, K], f32>
      %p = block.cast %m {block.rescalable} : !block.tile<[M, K], f32> to !block.tile<[M, K], bf16>
      %d = block.dot %p, %w contract [K] : !block.tile<[M, K], bf16>, !block.tile<[K, N], bf16>
      block.yield %d : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
