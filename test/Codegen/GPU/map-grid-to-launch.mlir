// RUN: bb-opt %s --gpu-map-grid-to-launch=threads=128 --split-input-file --verify-diagnostics | FileCheck %s

#wg = #gpu.address_space<workgroup>
// The grid becomes the launch's grid (the mapping says which dimension is
// x), block ids replace the induction variables, thread foralls become
// thread ids with a barrier after each; a forall of fewer threads than the
// block is guarded.
// CHECK-LABEL: func.func @kernel
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.block_id y
// CHECK: gpu.thread_id x
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: gpu.terminator
func.func @kernel(%out: memref<3x2x64xf32>) {
  scf.forall (%i, %j) in (3, 2) {
    %t = memref.alloc() : memref<64xf32, #wg>
    scf.forall (%k) in (64) {
      %f = arith.index_cast %k : index to i32
      %v = arith.sitofp %f : i32 to f32
      memref.store %v, %out[%i, %j, %k] : memref<3x2x64xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----
// A grid that chose its block's threads (blockbuster.block_threads, as
// gpu-row-kernels sets it) launches that many, not the pass's `threads`,
// and its warp forall maps onto them without a guard.
// CHECK-LABEL: func.func @chosen_threads
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK-NOT: scf.if
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @chosen_threads(%out: memref<4x2xf32>) {
  %c = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    scf.forall (%w) in (2) {
      memref.store %c, %out[%i, %w] : memref<4x2xf32>
    } {mapping = [#gpu.warp<linear_dim_0>]}
  } {blockbuster.block_threads = 64 : i64, mapping = [#gpu.block<x>]}
  return
}

// -----
// A grid of clusters (blockbuster.cluster_blocks, gpu-warpgroup-matmul's
// multicast ring) launches in clusters of that many blocks along x.
// CHECK-LABEL: func.func @clusters
// CHECK: gpu.launch clusters(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}},
// CHECK: gpu.block_id x
// CHECK: gpu.terminator
func.func @clusters(%out: memref<4x2xf32>) {
  %c = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    scf.forall (%w) in (2) {
      memref.store %c, %out[%i, %w] : memref<4x2xf32>
    } {mapping = [#gpu.warp<linear_dim_0>]}
  } {blockbuster.block_threads = 64 : i64, blockbuster.cluster_blocks = 2 : i64, mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @clusters_not_dividing(%out: memref<3xf32>) {
  %c = arith.constant 1.0 : f32
  // expected-error @below {{a cluster of 2 blocks does not divide the grid's 3 blocks along x}}
  scf.forall (%i) in (3) {
    memref.store %c, %out[%i] : memref<3xf32>
  } {blockbuster.cluster_blocks = 2 : i64, mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @dynamic_grid(%n: index) {
  // expected-error @below {{expected a block grid with static trip counts, lower bounds 0 and steps 1}}
  scf.forall (%i) in (%n) {
  } {mapping = [#gpu.block<x>]}
  return
}
