// RUN: bb-opt %s --gpu-warp-row-reductions=threads=128 --canonicalize | FileCheck %s

#wg = #gpu.address_space<workgroup>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
#col = affine_map<(m, n) -> (n)>

// A row sum of exp(s - max): 4 warps take the (at most 64) rows in turn;
// each lane folds elements lane, lane + 32, ... with the op's body from 0,
// five xor shuffles combine the lanes, lane 0 adds the total to the output.
// CHECK-LABEL: func.func @row_sum_of_exp
// CHECK: scf.forall (%[[W:.*]]) in (4) {
// CHECK:   %[[LANE:.*]] = gpu.lane_id
// CHECK:   scf.for %[[R:.*]] = %[[W]] to %{{.*}} step %c4 {
// CHECK:     %[[P:.*]] = scf.for %[[J:.*]] = %[[LANE]] to %c64 step %c32 iter_args(%[[ACC:.*]] = %cst{{.*}}) -> (f32) {
// CHECK:       %[[S:.*]] = memref.load %{{.*}}[%[[R]], %[[J]]]
// CHECK:       %[[M:.*]] = memref.load %{{.*}}[%[[R]]]
// CHECK:       arith.subf %[[S]], %[[M]]
// CHECK:       math.exp
// CHECK:       %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}}
// CHECK:       scf.yield %[[NEXT]]
// CHECK:     gpu.shuffle  xor %[[P]], %c16_i32, %c32_i32 : f32
// CHECK:     gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK:     gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK:     gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK:     %[[LAST:.*]], %{{.*}} = gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK:     %[[TOTAL:.*]] = arith.addf
// CHECK:     scf.if
// CHECK:       %[[OLD:.*]] = memref.load %{{.*}}[%[[R]]]
// CHECK:       arith.addf %[[OLD]], %[[TOTAL]]
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK-NOT: linalg.generic
func.func @row_sum_of_exp(%s: memref<?x64xf32, #wg>, %m: memref<?xf32, #wg>, %l: memref<?xf32, #wg>) {
  scf.forall (%b) in (2) {
    linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
        ins(%s, %m : memref<?x64xf32, #wg>, memref<?xf32, #wg>) outs(%l : memref<?xf32, #wg>) {
    ^bb0(%x: f32, %mx: f32, %acc: f32):
      %d = arith.subf %x, %mx : f32
      %e = math.exp %d : f32
      %r = arith.addf %acc, %e : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// A masked row max (linalg.index in the body) starts from -inf and combines
// lanes with maximumf; the index becomes the loop's.
// CHECK-LABEL: func.func @masked_row_max
// CHECK: scf.for %{{.*}} = %{{.*}} to %c100 step %c32 iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK:   arith.cmpi ule
// CHECK:   arith.select
// CHECK:   arith.maximumf
// CHECK: gpu.shuffle  xor
// CHECK: arith.maximumf
// CHECK: {mapping = [#gpu.warp<linear_dim_0>]}
func.func @masked_row_max(%s: memref<48x100xf32>, %m: memref<48xf32>) {
  scf.forall (%b) in (1) {
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%s : memref<48x100xf32>) outs(%m : memref<48xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %keep = arith.cmpi ule, %j, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %v = arith.select %keep, %x, %ninf : f32
      %r = arith.maximumf %acc, %v : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// A full reduction (no parallel loop) is one row for one warp.
// CHECK-LABEL: func.func @full_sum
// CHECK: scf.forall (%[[W:.*]]) in (4) {
// CHECK:   scf.for %{{.*}} = %[[W]] to %c1 step %c4 {
// CHECK:     gpu.shuffle  xor
// CHECK: {mapping = [#gpu.warp<linear_dim_0>]}
func.func @full_sum(%x: memref<256xf32>, %s: memref<f32>) {
  scf.forall (%b) in (1) {
    linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]}
        ins(%x : memref<256xf32>) outs(%s : memref<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %r = arith.addf %acc, %v : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Left alone: a column reduction (lanes would stride through memory), a row
// of fewer than 32 elements, a combiner that cannot be reassociated (the
// output used twice), an f16 output, an op outside a block grid.
// CHECK-LABEL: func.func @negative_cases
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: gpu.shuffle
func.func @negative_cases(%x: memref<64x64xf32>, %y: memref<64x16xf32>, %h: memref<64x64xf16>,
                          %o: memref<64xf32>, %oh: memref<64xf16>) {
  scf.forall (%b) in (1) {
    linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
        ins(%x : memref<64x64xf32>) outs(%o : memref<64xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %r = arith.addf %acc, %v : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%y : memref<64x16xf32>) outs(%o : memref<64xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %r = arith.addf %acc, %v : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<64x64xf32>) outs(%o : memref<64xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %d = arith.subf %v, %acc : f32
      %r = arith.addf %acc, %d : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%h : memref<64x64xf16>) outs(%oh : memref<64xf16>) {
    ^bb0(%v: f16, %acc: f16):
      %r = arith.addf %acc, %v : f16
      linalg.yield %r : f16
    }
  } {mapping = [#gpu.block<x>]}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  }
  return
}

// A dot is not a row reduction: one warp per output element would serialise
// m x n shuffle trees.
// CHECK-LABEL: func.func @negative_dot
// CHECK-NOT: gpu.shuffle
// CHECK: linalg.generic
func.func @negative_dot(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// A matrix-vector product x[k] * W[k, n] (decode GEMV at M1): x, the first
// input, has k innermost, but W in global memory has it outermost; lanes
// folding over k would each read a column of W, one 2-byte element per
// 32-byte sector (LDG.E.U16 per lane and k). Left to one thread per column
// (rows of W per warp). The same product with W staged in shared memory is
// still taken.
// CHECK-LABEL: func.func @negative_column_of_global
// CHECK-NOT: gpu.shuffle
// CHECK: linalg.generic
// CHECK-LABEL: func.func @workgroup_column
// CHECK: gpu.shuffle
#k = affine_map<(n, k) -> (k)>
#kn = affine_map<(n, k) -> (k, n)>
#n = affine_map<(n, k) -> (n)>
func.func @negative_column_of_global(%x: memref<128xbf16, #wg>, %w: memref<128x128xbf16>, %y: memref<128xf32, #wg>) {
  scf.forall (%b) in (1) {
    linalg.generic {indexing_maps = [#k, #kn, #n], iterator_types = ["parallel", "reduction"]}
        ins(%x, %w : memref<128xbf16, #wg>, memref<128x128xbf16>) outs(%y : memref<128xf32, #wg>) {
    ^bb0(%a: bf16, %b2: bf16, %acc: f32):
      %af = arith.extf %a : bf16 to f32
      %bf = arith.extf %b2 : bf16 to f32
      %p = arith.mulf %af, %bf : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}
func.func @workgroup_column(%x: memref<128xbf16, #wg>, %w: memref<128x128xbf16, #wg>, %y: memref<128xf32, #wg>) {
  scf.forall (%b) in (1) {
    linalg.generic {indexing_maps = [#k, #kn, #n], iterator_types = ["parallel", "reduction"]}
        ins(%x, %w : memref<128xbf16, #wg>, memref<128x128xbf16, #wg>) outs(%y : memref<128xf32, #wg>) {
    ^bb0(%a: bf16, %b2: bf16, %acc: f32):
      %af = arith.extf %a : bf16 to f32
      %bf = arith.extf %b2 : bf16 to f32
      %p = arith.mulf %af, %bf : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}
