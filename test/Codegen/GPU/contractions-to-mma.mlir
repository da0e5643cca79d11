// RUN: bb-opt %s --gpu-contractions-to-mma=threads=128 --canonicalize | FileCheck %s

#wg = #gpu.address_space<workgroup>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// A bf16 tile dot of a partial edge block (the m extent is dynamic, at most
// 64): A[m, k] and B[k, n] are staged zero-padded by all 128 threads, A as
// [m][k] (64 x (64 + 8)), B as [k][n] because n is contiguous in B (read
// with ldmatrix .trans), 16 bytes per copy where inside the tile and
// aligned (cp.async from global memory, vector copies within shared
// memory), waited for before the barrier; 4 warps each take 16 rows x 8 n fragments and run
// the k loop in 4 steps of 16 on mma.sync with f32 accumulators; each lane
// adds the elements it owns inside the tile to C.
// CHECK-LABEL: func.func @bf16_dot
// CHECK-DAG: %[[A_S:.*]] = memref.alloc() {alignment = 128 : i64} : memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B_S:.*]] = memref.alloc() {alignment = 128 : i64} : memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%[[T:.*]]) in (128) {
// CHECK:   scf.for %{{.*}} = %[[T]] to %c512 step %c128 {
// CHECK:     %[[ALIGNED:.*]] = arith.cmpi eq
// CHECK:     %[[WHOLE:.*]] = arith.andi %{{.*}}, %[[ALIGNED]]
// CHECK:     scf.if %[[WHOLE]] {
// CHECK:       nvgpu.device_async_copy %{{.*}}, %[[A_S]][{{.*}}], 8 {bypassL1} : memref<?x64xbf16, strided<[64, 1]>> to memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK:     } else {
// CHECK:       scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK:         scf.if
// CHECK:           memref.load %{{.*}} : memref<?x64xbf16
// CHECK:         } else {
// CHECK:           scf.yield %cst{{.*}} : bf16
// CHECK:         memref.store %{{.*}}, %[[A_S]]
// CHECK:   scf.for
// CHECK:       %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:       vector.store %[[V]], %[[B_S]]{{.*}} {alignment = 16 : i64}
// CHECK:   %[[GROUP:.*]] = nvgpu.device_async_create_group
// CHECK:   nvgpu.device_async_wait %[[GROUP]] {numGroups = 0 : i32}
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK: scf.forall (%[[W:.*]]) in (4) {
// CHECK:   gpu.lane_id
// CHECK:   scf.for %{{.*}} = %[[W]] to %c4 step %c4 {
// CHECK:     scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args(
// CHECK:       nvgpu.ldmatrix %[[A_S]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK:       nvgpu.ldmatrix %[[B_S]]{{.*}} {numTiles = 2 : i32, transpose = true} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK:       nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-COUNT-7: nvvm.mma.sync
// CHECK:       scf.yield
// CHECK:     scf.if
// CHECK:       memref.load %{{.*}} : memref<?x64xf32, #gpu.address_space<workgroup>>
// CHECK:       arith.addf
// CHECK:       memref.store
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK-NOT: linalg.generic
func.func @bf16_dot(%x: memref<100x64xbf16>, %w: memref<64x64xbf16, #wg>, %out: memref<?x64xf32, #wg>, %rows: index) {
  scf.forall (%i) in (2) {
    %c64 = arith.constant 64 : index
    %r = arith.minsi %rows, %c64 : index
    %xs = memref.subview %x[0, 0] [%r, 64] [1, 1] : memref<100x64xbf16> to memref<?x64xbf16, strided<[64, 1]>>
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xs, %w : memref<?x64xbf16, strided<[64, 1]>>, memref<64x64xbf16, #wg>) outs(%out : memref<?x64xf32, #wg>) {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %pq = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Q K^T in f16: B is [n, k] with k contiguous, so it is staged as [n][k]
// and read without .trans; odd sizes pad to 32 x 16 x 48 (m, n, k), split
// into 2 strips x 2 fragments so that each of the 4 warps has one; f16 pairs
// go to mma.sync without a bitcast.
// CHECK-LABEL: func.func @f16_dot_transposed_b
// CHECK-DAG: memref.alloc() {alignment = 128 : i64} : memref<32x56xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloc() {alignment = 128 : i64} : memref<16x56xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = false} : memref<16x56xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK: {mapping = [#gpu.warp<linear_dim_0>]}
func.func @f16_dot_transposed_b(%q: memref<17x33xf16>, %k: memref<9x33xf16>, %s: memref<17x9xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%q, %k : memref<17x33xf16>, memref<9x33xf16>) outs(%s : memref<17x9xf32>) {
    ^bb0(%p: f16, %r: f16, %acc: f32):
      %pf = arith.extf %p : f16 to f32
      %rf = arith.extf %r : f16 to f32
      %pr = arith.mulf %pf, %rf : f32
      %t = arith.addf %acc, %pr : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Left to the SIMT lowering: f32 operands (no 16-bit mma), a dot without an
// n dimension (a row sum of squares), and a contraction outside a block grid.
// CHECK-LABEL: func.func @negative_f32_dot
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic
// CHECK-NOT: nvvm.mma.sync
func.func @negative_f32_dot(%x: memref<64x64xf32>, %w: memref<64x64xf32>, %out: memref<64x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w : memref<64x64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @negative_row_sum_of_squares
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic
func.func @negative_row_sum_of_squares(%x: memref<64x64xbf16>, %out: memref<64xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                    iterator_types = ["parallel", "reduction"]}
        ins(%x, %x : memref<64x64xbf16>, memref<64x64xbf16>) outs(%out : memref<64xf32>) {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %pq = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @negative_outside_block_grid
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic
func.func @negative_outside_block_grid(%x: memref<64x64xbf16>, %w: memref<64x64xbf16>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x64xbf16>, memref<64x64xbf16>) outs(%out : memref<64x64xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pf = arith.extf %p : bf16 to f32
    %qf = arith.extf %q : bf16 to f32
    %pq = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %pq : f32
    linalg.yield %s : f32
  }
  return
}

// One k step of a reduce: the dot writes a zero-filled tile that is then
// added into the reduce state. The lanes add straight into the state; the
// fill, the add and the tile disappear. A second dot whose state is read
// between it and its add keeps its tile.
// CHECK-LABEL: func.func @dot_into_reduce_state
// CHECK-NOT: linalg.fill
// CHECK: nvvm.mma.sync
// CHECK: scf.if
// CHECK:   %[[OLD:.*]] = memref.load %[[STATE:.*]][%{{.*}}, %{{.*}}] : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK:   %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK:   memref.store %[[NEW]], %[[STATE]]
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK-NOT: linalg.generic
// CHECK: linalg.fill
// CHECK: nvvm.mma.sync
// CHECK: linalg.copy
// CHECK: linalg.generic
func.func @dot_into_reduce_state(%x: memref<64x64xbf16>, %w: memref<64x64xbf16>, %state: memref<64x64xf32, #wg>,
                                 %state2: memref<64x64xf32, #wg>, %copy: memref<64x64xf32, #wg>) {
  scf.forall (%i) in (1) {
    %zero = arith.constant 0.0 : f32
    %tile = memref.alloc() : memref<64x64xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%tile : memref<64x64xf32, #wg>)
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w : memref<64x64xbf16>, memref<64x64xbf16>) outs(%tile : memref<64x64xf32, #wg>) {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %pq = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%tile : memref<64x64xf32, #wg>) outs(%state : memref<64x64xf32, #wg>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %out, %in : f32
      linalg.yield %s : f32
    }
    %tile2 = memref.alloc() : memref<64x64xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%tile2 : memref<64x64xf32, #wg>)
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w : memref<64x64xbf16>, memref<64x64xbf16>) outs(%tile2 : memref<64x64xf32, #wg>) {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %pq = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    }
    linalg.copy ins(%state2 : memref<64x64xf32, #wg>) outs(%copy : memref<64x64xf32, #wg>)
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%tile2 : memref<64x64xf32, #wg>) outs(%state2 : memref<64x64xf32, #wg>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}
