// Round trip of every op of the block dialect, in the pretty and the generic
// form; printing is a fixpoint.
// RUN: bb-opt %s | bb-opt | FileCheck %s
// RUN: bb-opt %s --mlir-print-op-generic | bb-opt | FileCheck %s
// RUN: bb-opt %s > %t.1 && bb-opt %t.1 > %t.2 && diff %t.1 %t.2

// CHECK-LABEL: block.program @structure
// CHECK-SAME: axes(M = 100 tiled block 32, N = 64 tiled, D = 16 whole, "head dim" = 4 whole)
// CHECK-SAME: (%[[X:.*]]: !block.array<100x16xf32>, %[[B:.*]]: !block.array<1x64xbf16>, %[[W:.*]]: !block.array<16x128xbf16>)
// CHECK-SAME: -> (!block.array<100x16xf32>, !block.array<100xf32>)
block.program @structure axes(M = 100 tiled block 32, N = 64 tiled, D = 16 whole, "head dim" = 4 whole)
    (%x: !block.array<100x16xf32>, %b: !block.array<1x64xbf16>, %w: !block.array<16x128xbf16>)
    -> (!block.array<100x16xf32>, !block.array<100xf32>) {
  // CHECK: %[[R:.*]]:2 = block.map [M] -> !block.array<100x16xf32>, !block.array<100xf32> {
  %y, %s = block.map [M] -> !block.array<100x16xf32>, !block.array<100xf32> {
    // CHECK: %[[T:.*]] = block.load %[[X]] [M, D] : !block.array<100x16xf32> -> !block.tile<[M, D], f32>
    %t = block.load %x[M, D] : !block.array<100x16xf32> -> !block.tile<[M, D], f32>
    // Transposed read.
    // CHECK: block.load %[[X]] [M, D] : !block.array<100x16xf32> -> !block.tile<[D, M], f32>
    %tt = block.load %x[M, D] : !block.array<100x16xf32> -> !block.tile<[D, M], f32>
    // CHECK: %[[SUM:.*]] = block.reduce N combiners [add] -> !block.tile<[M], f32> {
    %sum = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      // Fixed index (broadcast of a unit dimension) and slice.
      // CHECK: block.load %[[B]] [0, N] : !block.array<1x64xbf16> -> !block.tile<[N], bf16>
      %bias = block.load %b[0, N] : !block.array<1x64xbf16> -> !block.tile<[N], bf16>
      // CHECK: block.load %[[W]] [D, N + 64] : !block.array<16x128xbf16> -> !block.tile<[D, N], bf16>
      %wt = block.load %w[D, N + 64] : !block.array<16x128xbf16> -> !block.tile<[D, N], bf16>
      // CHECK: block.cast %{{.*}} : !block.tile<[M, D], f32> to !block.tile<[M, D], bf16>
      %tb = block.cast %t : !block.tile<[M, D], f32> to !block.tile<[M, D], bf16>
      // CHECK: block.dot %{{.*}}, %{{.*}} contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, N], bf16>
      %p = block.dot %tb, %wt contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, N], bf16>
      %bf = block.cast %bias : !block.tile<[N], bf16> to !block.tile<[N], f32>
      // CHECK: block.add %{{.*}}, %{{.*}} : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      %q = block.add %p, %bf : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      // CHECK: block.tile_reduce add %{{.*}} over [N] : !block.tile<[M, N], f32>
      %r = block.tile_reduce add %q over [N] : !block.tile<[M, N], f32>
      // CHECK: block.yield %{{.*}} : !block.tile<[M], f32>
      block.yield %r : !block.tile<[M], f32>
    }
    // CHECK: block.yield %[[T]], %[[SUM]] : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    block.yield %t, %sum : !block.tile<[M, D], f32>, !block.tile<[M], f32>
  }
  // CHECK: block.return %[[R]]#0, %[[R]]#1 : !block.array<100x16xf32>, !block.array<100xf32>
  block.return %y, %s : !block.array<100x16xf32>, !block.array<100xf32>
}

// CHECK-LABEL: block.program @view
// CHECK: %[[V:.*]] = block.view %{{.*}} : !block.array<128x768xf32> to !block.array<128x12x64xf32>
// CHECK: block.load %[[V]] [T, H, D]
block.program @view axes(T = 128 tiled, H = 12 whole, D = 64 whole)
    (%x: !block.array<128x768xf32>) -> !block.array<128x12x64xf32> {
  %v = block.view %x : !block.array<128x768xf32> to !block.array<128x12x64xf32>
  %y = block.map [T] -> !block.array<128x12x64xf32> {
    %t = block.load %v[T, H, D] : !block.array<128x12x64xf32> -> !block.tile<[T, H, D], f32>
    block.yield %t : !block.tile<[T, H, D], f32>
  }
  block.return %y : !block.array<128x12x64xf32>
}

// CHECK-LABEL: block.program @region_combiner
block.program @region_combiner axes(M = 64 tiled, N = 256 tiled)
    (%s: !block.array<64x256xf32>) -> !block.array<64xf32> {
  %l = block.map [M] -> !block.array<64xf32> {
    // CHECK: block.constant [M] 0xFF800000 : f32
    %m0 = block.constant [M] 0xFF800000 : f32
    // CHECK: block.constant [M] 0.000000e+00 : f32
    %l0 = block.constant [M] 0.0 : f32
    // CHECK: %{{.*}}:2 = block.reduce N init(%{{.*}}, %{{.*}} : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
    %m, %sum = block.reduce N init(%m0, %l0 : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %t = block.load %s[M, N] : !block.array<64x256xf32> -> !block.tile<[M, N], f32>
      %mj = block.tile_reduce max %t over [N] : !block.tile<[M, N], f32>
      %d = block.sub %t, %mj : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %lj = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %mj, %lj : !block.tile<[M], f32>, !block.tile<[M], f32>
    // CHECK: } combine {
    // CHECK-NEXT: ^bb0(%{{.*}}: !block.tile<[M], f32>, %{{.*}}: !block.tile<[M], f32>, %{{.*}}: !block.tile<[M], f32>, %{{.*}}: !block.tile<[M], f32>):
    } combine {
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>):
      %mx = block.max %ma, %mb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %da = block.sub %ma, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %db = block.sub %mb, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ea = block.exp %da : !block.tile<[M], f32>
      %eb = block.exp %db : !block.tile<[M], f32>
      %xa = block.mul %la, %ea : !block.tile<[M], f32>, !block.tile<[M], f32>
      %xb = block.mul %lb, %eb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ln = block.add %xa, %xb : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %mx, %ln : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %lse = block.log %sum : !block.tile<[M], f32>
    %r = block.add %lse, %m : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %l : !block.array<64xf32>
}

// CHECK-LABEL: block.program @elementwise
block.program @elementwise axes(M = 32 tiled, N = 32 tiled)
    (%x: !block.array<32x32xf32>, %y: !block.array<32xf32>) -> !block.array<32x32xf32> {
  %o = block.map [M, N] -> !block.array<32x32xf32> {
    %a = block.load %x[M, N] : !block.array<32x32xf32> -> !block.tile<[M, N], f32>
    %b = block.load %y[N] : !block.array<32xf32> -> !block.tile<[N], f32>
    // Broadcasting by name: [N] op [M, N] has axes [N, M].
    // CHECK: %[[BA:.*]] = block.sub %{{.*}}, %{{.*}} : !block.tile<[N], f32>, !block.tile<[M, N], f32>
    %ba = block.sub %b, %a : !block.tile<[N], f32>, !block.tile<[M, N], f32>
    // CHECK: block.mul %[[BA]], %{{.*}} : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    %c0 = block.mul %ba, %a : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    // CHECK: block.div
    %c1 = block.div %c0, %b : !block.tile<[N, M], f32>, !block.tile<[N], f32>
    // CHECK: block.max
    %c2 = block.max %c1, %a : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    // CHECK: block.min
    %c3 = block.min %c2, %a : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    // CHECK: block.neg
    %u0 = block.neg %c3 : !block.tile<[N, M], f32>
    // CHECK: block.abs
    %u1 = block.abs %u0 : !block.tile<[N, M], f32>
    // CHECK: block.exp
    %u2 = block.exp %u1 : !block.tile<[N, M], f32>
    // CHECK: block.log
    %u3 = block.log %u2 : !block.tile<[N, M], f32>
    // CHECK: block.sqrt
    %u4 = block.sqrt %u3 : !block.tile<[N, M], f32>
    // CHECK: block.rsqrt
    %u5 = block.rsqrt %u4 : !block.tile<[N, M], f32>
    // CHECK: block.tanh
    %u6 = block.tanh %u5 : !block.tile<[N, M], f32>
    // CHECK: block.silu
    %u7 = block.silu %u6 : !block.tile<[N, M], f32>
    // CHECK: block.erf
    %e0 = block.erf %u7 : !block.tile<[N, M], f32>
    // CHECK: block.sin
    %e1 = block.sin %e0 : !block.tile<[N, M], f32>
    // CHECK: block.cos
    %e2 = block.cos %e1 : !block.tile<[N, M], f32>
    // CHECK: block.gelu
    %u8 = block.gelu %e2 : !block.tile<[N, M], f32>
    // A causal mask from global indices.
    // CHECK: %[[ROW:.*]] = block.iota M : !block.tile<[M], index>
    %row = block.iota M : !block.tile<[M], index>
    // CHECK: %[[COL:.*]] = block.iota N : !block.tile<[N], index>
    %col = block.iota N : !block.tile<[N], index>
    // CHECK: %[[MASK:.*]] = block.compare ge %[[ROW]], %[[COL]] : !block.tile<[M], index>, !block.tile<[N], index>
    %mask = block.compare ge %row, %col : !block.tile<[M], index>, !block.tile<[N], index>
    // On integers and indices the u predicates compare unsigned.
    // CHECK: block.compare ult %[[ROW]], %[[COL]] : !block.tile<[M], index>, !block.tile<[N], index>
    %below = block.compare ult %row, %col : !block.tile<[M], index>, !block.tile<[N], index>
    // CHECK: block.compare ugt
    %ugt = block.compare ugt %a, %u8 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    %lt = block.compare lt %a, %u8 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    // CHECK: block.constant [] -1.000000e+30 : f32
    %low = block.constant [] -1.0e30 : f32
    // CHECK: block.select %[[MASK]], %{{.*}}, %{{.*}} : !block.tile<[M, N], i1>, !block.tile<[M, N], f32>, !block.tile<[], f32>
    %sel = block.select %mask, %a, %low : !block.tile<[M, N], i1>, !block.tile<[M, N], f32>, !block.tile<[], f32>
    %sel2 = block.select %lt, %sel, %a : !block.tile<[M, N], i1>, !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    // Index elements convert to integers.
    // CHECK: block.cast %[[ROW]] : !block.tile<[M], index> to !block.tile<[M], i64>
    %rowi = block.cast %row : !block.tile<[M], index> to !block.tile<[M], i64>
    %i = block.constant [] 3 : i64
    %ri = block.add %rowi, %i : !block.tile<[M], i64>, !block.tile<[], i64>
    // Relayout: transpose and broadcast of a tile.
    // CHECK: block.broadcast %{{.*}} : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
    %tr = block.broadcast %u8 : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
    // CHECK: block.broadcast %{{.*}} : !block.tile<[N], f32> to !block.tile<[M, N], f32>
    %bb = block.broadcast %b : !block.tile<[N], f32> to !block.tile<[M, N], f32>
    %sum = block.add %tr, %bb : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %out = block.add %sel2, %sum : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %out : !block.tile<[M, N], f32>
  }
  block.return %o : !block.array<32x32xf32>
}
