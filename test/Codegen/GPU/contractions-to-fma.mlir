// RUN: bb-opt %s --gpu-contractions-to-fma=threads=128 --canonicalize | FileCheck %s

#wg = #gpu.address_space<workgroup>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// An f32 dot of a partial edge tile (m at most 32, n 16, k 40): the 128
// threads stand 16 x 8; each owns rows r, r + 16 and columns c, c + 8, so 4
// accumulators, which start from C inside the tile and from zero outside
// it (a clamped load of C would read another thread's element while that
// thread writes it: racecheck's WAR hazard); per k it loads 2 elements of A
// and 2 of B (rows clamped to the tile) and applies the body 4 times; it
// stores the elements inside the tile.
// CHECK-LABEL: func.func @f32_dot
// CHECK: scf.forall (%[[T:.*]]) in (128) {
// CHECK:   %[[R:.*]] = arith.divui %[[T]], %c8
// CHECK:   %[[C:.*]] = arith.remui %[[T]], %c8
// CHECK-DAG:   %[[LAST:.*]] = arith.subi %[[ROWS:.*]], %c1
// CHECK-DAG:   %[[R1:.*]] = arith.addi %[[R]], %c16
// CHECK-DAG:   %[[LR0:.*]] = arith.minui %[[R]], %[[LAST]]
// CHECK-DAG:   %[[LR1:.*]] = arith.minui %[[R1]], %[[LAST]]
// CHECK:   %[[IN_ROW:.*]] = arith.cmpi ult, %[[R]], %[[ROWS]]
// CHECK:   %[[IN:.*]] = arith.andi %[[IN_ROW]],
// CHECK:   %[[C00:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[R]], %[[C]]] : memref<?x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: scf.yield %[[V]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %cst
// CHECK-COUNT-3: scf.if %{{.*}} -> (f32) {
// CHECK:   %[[ACC:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c40 step %c1 iter_args(
// CHECK:     memref.load %{{.*}}[%[[LR0]], %[[K]]] : memref<?x40xf32
// CHECK:     memref.load %{{.*}}[%[[LR1]], %[[K]]] : memref<?x40xf32
// CHECK:     memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<40x16xf32>
// CHECK:     memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<40x16xf32>
// CHECK-COUNT-4: arith.mulf
// CHECK:     scf.yield
// CHECK:   scf.if %[[IN]] {
// CHECK:     memref.store %[[ACC]]#0, %{{.*}}[%[[R]], %[[C]]]
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK-NOT: linalg.generic
func.func @f32_dot(%x: memref<100x40xf32>, %w: memref<40x16xf32>, %out: memref<?x16xf32, #wg>, %rows: index) {
  scf.forall (%i) in (4) {
    %c32 = arith.constant 32 : index
    %r = arith.minsi %rows, %c32 : index
    %xs = memref.subview %x[0, 0] [%r, 40] [1, 1] : memref<100x40xf32> to memref<?x40xf32, strided<[40, 1]>>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xs, %w : memref<?x40xf32, strided<[40, 1]>>, memref<40x16xf32>) outs(%out : memref<?x16xf32, #wg>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Q K^T into a zero-filled tile that is then added into the reduce state:
// accumulators start from zero and the threads add into the state.
// CHECK-LABEL: func.func @dot_into_reduce_state
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.if
// CHECK:   %[[OLD:.*]] = memref.load %[[STATE:.*]][%{{.*}}, %{{.*}}] : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK:   %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK:   memref.store %[[NEW]], %[[STATE]]
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK-NOT: linalg
func.func @dot_into_reduce_state(%q: memref<64x32xf32>, %k: memref<64x32xf32>, %state: memref<64x64xf32, #wg>) {
  scf.forall (%i) in (1) {
    %zero = arith.constant 0.0 : f32
    %tile = memref.alloc() : memref<64x64xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%tile : memref<64x64xf32, #wg>)
    linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%q, %k : memref<64x32xf32>, memref<64x32xf32>) outs(%tile : memref<64x64xf32, #wg>) {
    ^bb0(%p: f32, %r: f32, %acc: f32):
      %pr = arith.mulf %p, %r : f32
      %s = arith.addf %acc, %pr : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%tile : memref<64x64xf32, #wg>) outs(%state : memref<64x64xf32, #wg>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %out, %in : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Left to gpu-distribute-to-threads: a tile needing more than 64
// accumulators per thread (256 x 64: 16 x 8), and a dot outside a block grid.
// CHECK-LABEL: func.func @negative_cases
// CHECK-NOT: scf.forall ({{.*}}) in (128)
// CHECK-COUNT-2: linalg.generic
func.func @negative_cases(%x: memref<256x16xf32>, %w: memref<16x64xf32>, %out: memref<256x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w : memref<256x16xf32>, memref<16x64xf32>) outs(%out : memref<256x64xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<256x16xf32>, memref<16x64xf32>) outs(%out : memref<256x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %pq = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %pq : f32
    linalg.yield %s : f32
  }
  return
}

// A dot per head (batch h) stays with gpu-distribute-to-threads: measured
// slower with the heads folded into the rows (docs/performance.md).
// CHECK-LABEL: func.func @negative_batched_dot
// CHECK-NOT: scf.forall ({{.*}}) in (128)
// CHECK: linalg.generic
func.func @negative_batched_dot(%q: memref<8x8x64xf32>, %k: memref<8x8x64xf32, #wg>, %s: memref<8x8x8xf32, #wg>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [affine_map<(h, m, n, d) -> (h, m, d)>, affine_map<(h, m, n, d) -> (h, n, d)>,
                                     affine_map<(h, m, n, d) -> (h, m, n)>],
                    iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : memref<8x8x64xf32>, memref<8x8x64xf32, #wg>) outs(%s : memref<8x8x8xf32, #wg>) {
    ^bb0(%p: f32, %r: f32, %acc: f32):
      %pr = arith.mulf %p, %r : f32
      %t = arith.addf %acc, %pr : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}
