// Rule 8's normalisations of what torch-mlir's SDPA writes
// (lib/Dialect/Block/Transforms/Rules/StructureNormalization.pdll): a
// transpose feeding a dot is dropped, a dot of two operands widened from
// bf16 contracts the bf16 tiles, a widened float compared with a constant
// its own type holds is compared in its own type, all(x == -inf) is
// max(x) == -inf (in a tile and across a loop), and a cast of a constant is
// the rounded constant. All exact: the CPU check compares with the program
// as written. Rules 8 and 7 (cleanup, for the dead ops) run. `round-dot-operands` (inexact, on request)
// rounds an f32 operand against a widened bf16 one.

// RUN: bb-opt %s -split-input-file --block-fuse='order=8,7 extend=false' | FileCheck %s
// RUN: bb-opt %s -split-input-file --block-fuse='order=8,7 extend=false round-dot-operands=true' | FileCheck %s --check-prefix=ROUND

// RUN: bb-opt %s --block-fuse='order=8,7 extend=false' -o %t
// RUN: bb-run %t --entry widened_dot --check --reference %s --block-sizes=M=4,N=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry all_minus_infinity --check --reference %s --block-sizes=M=4,N=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry additive_causal_mask --check --reference %s --block-sizes=M=4,N=4 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry unsigned_difference --check --reference %s --block-sizes=M=4,N=4 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// S = q (k * s)^T with q and k widened from bf16, k transposed: the
// transpose goes, and (rule 4 hoisting s, not run here) the dot of the
// widenings becomes a bf16 dot.

// CHECK-LABEL: block.program @widened_dot
// CHECK:         %[[Q:.*]] = block.load %{{.*}} [M, D] {{.*}} bf16>
// CHECK:         %[[K:.*]] = block.load %{{.*}} [N, D] {{.*}} bf16>
// CHECK-NOT:     block.broadcast
// CHECK:         block.dot %[[Q]], %[[K]] contract [D] : !block.tile<[M, D], bf16>, !block.tile<[N, D], bf16>
// CHECK-NOT:     block.broadcast
// CHECK:         block.yield
// ROUND-LABEL: block.program @widened_dot
// ROUND-NOT:     block.cast {{.*}} f32> to !block.tile<[M, N], bf16>
block.program @widened_dot axes(M = 8 tiled, N = 8 tiled, D = 16 whole)
    (%Q: !block.array<8x16xbf16>, %K: !block.array<8x16xbf16>) -> !block.array<8x8xf32> {
  %S = block.map [M, N] -> !block.array<8x8xf32> {
    %q = block.load %Q[M, D] : !block.array<8x16xbf16> -> !block.tile<[M, D], bf16>
    %k = block.load %K[N, D] : !block.array<8x16xbf16> -> !block.tile<[N, D], bf16>
    %qf = block.cast %q : !block.tile<[M, D], bf16> to !block.tile<[M, D], f32>
    %kf = block.cast %k : !block.tile<[N, D], bf16> to !block.tile<[N, D], f32>
    %kt = block.broadcast %kf : !block.tile<[N, D], f32> to !block.tile<[D, N], f32>
    %s = block.dot %qf, %kt contract [D] : !block.tile<[M, D], f32>, !block.tile<[D, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %S : !block.array<8x8xf32>
}

// -----

// Rows of scores all -inf (SDPA's fully masked rows): the test on the
// scores widened to f64 against an f64 -inf becomes an f32 test, the
// all() a max, and the loop tracks the maximum, compared once after it.
// The f64 scale constant cast to f32 is folded.

// CHECK-LABEL: block.program @all_minus_infinity
// CHECK-NOT:     f64
// CHECK:         %[[NINF:.*]] = block.constant [] 0xFF800000 : f32
// CHECK:         %[[M:.*]] = block.reduce N combiners [max] -> !block.tile<[M], f32> {
// CHECK:           %[[T:.*]] = block.tile_reduce max %{{.*}} over [N] : !block.tile<[M, N], f32>
// CHECK:           block.yield %[[T]]
// CHECK:         block.compare eq %[[M]], %[[NINF]] : !block.tile<[M], f32>, !block.tile<[], f32>
// CHECK-NOT:     f64
block.program @all_minus_infinity axes(M = 8 tiled, N = 16 tiled)
    (%X: !block.array<8x16xf32>) -> !block.array<8xi1> {
  %A = block.map [M] -> !block.array<8xi1> {
    %all = block.reduce N combiners [min] -> !block.tile<[M], i1> {
      %x = block.load %X[M, N] : !block.array<8x16xf32> -> !block.tile<[M, N], f32>
      %c = block.constant [] 0.5 : f64
      %s = block.cast %c : !block.tile<[], f64> to !block.tile<[], f32>
      %y = block.mul %x, %s : !block.tile<[M, N], f32>, !block.tile<[], f32>
      %w = block.cast %y : !block.tile<[M, N], f32> to !block.tile<[M, N], f64>
      %ninf = block.constant [] 0xFFF0000000000000 : f64
      %e = block.compare eq %w, %ninf : !block.tile<[M, N], f64>, !block.tile<[], f64>
      %t = block.tile_reduce min %e over [N] : !block.tile<[M, N], i1>
      block.yield %t : !block.tile<[M], i1>
    }
    block.yield %all : !block.tile<[M], i1>
  }
  block.return %A : !block.array<8xi1>
}

// -----

// P V with P computed in f32 and V widened from bf16: exact by default (an
// f32 dot); with round-dot-operands, P is rounded to bf16 and the dot is a
// bf16 dot.

// CHECK-LABEL: block.program @f32_against_widened
// CHECK:         block.dot %{{.*}}, %{{.*}} contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, D], f32>
// ROUND-LABEL: block.program @f32_against_widened
// ROUND:         %[[V:.*]] = block.load %{{.*}} [J, D] {{.*}} bf16>
// ROUND:         %[[P:.*]] = block.cast %{{.*}} : !block.tile<[M, J], f32> to !block.tile<[M, J], bf16>
// ROUND:         block.dot %[[P]], %[[V]] contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, D], bf16>
block.program @f32_against_widened axes(M = 8 tiled, J = 16 whole, D = 16 whole)
    (%X: !block.array<8x16xf32>, %V: !block.array<16x16xbf16>) -> !block.array<8x16xf32> {
  %O = block.map [M] -> !block.array<8x16xf32> {
    %x = block.load %X[M, J] : !block.array<8x16xf32> -> !block.tile<[M, J], f32>
    %p = block.exp %x : !block.tile<[M, J], f32>
    %v = block.load %V[J, D] : !block.array<16x16xbf16> -> !block.tile<[J, D], bf16>
    %vf = block.cast %v : !block.tile<[J, D], bf16> to !block.tile<[J, D], f32>
    %o = block.dot %p, %vf contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, D], f32>
    block.yield %o : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<8x16xf32>
}

// -----

// torch-mlir's causal mask: `S + select((j - i <= 0) and true, 0, -inf)`
// with the positions in i64. The `and true` goes, the comparison is of the
// positions themselves (no i64, no difference), and the sum distributes
// over the select: select(j <= i, S + 0, S + -inf), the mask broadcast to
// S's axes.

// CHECK-LABEL: block.program @additive_causal_mask
// CHECK-DAG:     %[[I:.*]] = block.iota M : !block.tile<[M], index>
// CHECK-DAG:     %[[J:.*]] = block.iota N : !block.tile<[N], index>
// CHECK:         %[[C:.*]] = block.compare le %[[J]], %[[I]] : !block.tile<[N], index>, !block.tile<[M], index>
// CHECK:         %[[B:.*]] = block.broadcast %[[C]] : !block.tile<[N, M], i1> to !block.tile<[M, N], i1>
// CHECK:         %[[KEPT:.*]] = block.add %[[S:.*]], %{{.*}} : !block.tile<[M, N], f32>, !block.tile<[], f32>
// CHECK:         %[[MASKED:.*]] = block.add %[[S]], %{{.*}} : !block.tile<[M, N], f32>, !block.tile<[], f32>
// CHECK:         block.select %[[B]], %[[KEPT]], %[[MASKED]]
// CHECK-NOT:     i64
block.program @additive_causal_mask axes(M = 8 tiled, N = 8 tiled)
    (%S: !block.array<8x8xf32>) -> !block.array<8x8xf32> {
  %O = block.map [M, N] -> !block.array<8x8xf32> {
    %s = block.load %S[M, N] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
    %i = block.iota M : !block.tile<[M], index>
    %j = block.iota N : !block.tile<[N], index>
    %i64 = block.cast %i : !block.tile<[M], index> to !block.tile<[M], i64>
    %j64 = block.cast %j : !block.tile<[N], index> to !block.tile<[N], i64>
    %d = block.sub %j64, %i64 : !block.tile<[N], i64>, !block.tile<[M], i64>
    %zero = block.constant [] 0 : i64
    %le = block.compare le %d, %zero : !block.tile<[N, M], i64>, !block.tile<[], i64>
    %true = block.constant [] true
    %keep = block.min %le, %true : !block.tile<[N, M], i1>, !block.tile<[], i1>
    %keepT = block.broadcast %keep : !block.tile<[N, M], i1> to !block.tile<[M, N], i1>
    %fzero = block.constant [] 0.0 : f32
    %ninf = block.constant [] 0xFF800000 : f32
    %bias = block.select %keepT, %fzero, %ninf : !block.tile<[M, N], i1>, !block.tile<[], f32>, !block.tile<[], f32>
    %r = block.add %s, %bias : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %O : !block.array<8x8xf32>
}

// -----

// Unsigned, `j - i <= 0` holds only where j == i: not `j <= i`. The
// comparison of the difference stays.

// CHECK-LABEL: block.program @unsigned_difference
// CHECK:         %[[D:.*]] = block.sub
// CHECK:         block.compare ule %[[D]]
block.program @unsigned_difference axes(M = 8 tiled, N = 8 tiled)
    () -> !block.array<8x8xi1> {
  %O = block.map [M, N] -> !block.array<8x8xi1> {
    %i = block.iota M : !block.tile<[M], index>
    %j = block.iota N : !block.tile<[N], index>
    %i64 = block.cast %i : !block.tile<[M], index> to !block.tile<[M], i64>
    %j64 = block.cast %j : !block.tile<[N], index> to !block.tile<[N], i64>
    %d = block.sub %j64, %i64 : !block.tile<[N], i64>, !block.tile<[M], i64>
    %zero = block.constant [] 0 : i64
    %le = block.compare ule %d, %zero : !block.tile<[N, M], i64>, !block.tile<[], i64>
    %r = block.broadcast %le : !block.tile<[N, M], i1> to !block.tile<[M, N], i1>
    block.yield %r : !block.tile<[M, N], i1>
  }
  block.return %O : !block.array<8x8xi1>
}
