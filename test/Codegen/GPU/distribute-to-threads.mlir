// RUN: bb-opt %s --gpu-distribute-to-threads=threads=128 --canonicalize | FileCheck %s

#wg = #gpu.address_space<workgroup>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
// A 2-D op is split 4 x 32 over the threads (a warp spans the columns); a
// row reduction keeps whole rows in one thread, all 128 threads over rows;
// an op without parallel loops runs on one thread; copies become linalg ops
// distributed like the others.
// CHECK-LABEL: func.func @block_body
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 32)
// CHECK:   linalg.exp ins(%{{.*}} : memref<16x2xf32, strided<[64, 1], offset: ?>>)
// CHECK: } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK: scf.forall (%{{.*}}) in (128)
// CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK: scf.forall (%{{.*}}) in (1)
// CHECK:   linalg.fill {{.*}} memref<f32, #gpu.address_space<workgroup>>
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK: scf.forall (%{{.*}}) in (128)
// CHECK:   linalg.copy
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
func.func @block_body(%x: memref<64x64xf32>, %y: memref<64xf32>) {
  scf.forall (%b) in (1) {
    %zero = arith.constant 0.0 : f32
    %e = memref.alloc() : memref<64x64xf32, #wg>
    linalg.exp ins(%x : memref<64x64xf32>) outs(%e : memref<64x64xf32, #wg>)
    %s = memref.alloc() : memref<64xf32, #wg>
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%e : memref<64x64xf32, #wg>) outs(%s : memref<64xf32, #wg>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
    %scalar = memref.alloc() : memref<f32, #wg>
    linalg.fill ins(%zero : f32) outs(%scalar : memref<f32, #wg>)
    memref.copy %s, %y : memref<64xf32, #wg> to memref<64xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// A grid whose schedule chose its own thread count (gpu-warpgroup-matmul's
// 128 x 256 blocks run two warpgroups): its tile ops are split over those
// 256 threads, 8 x 32, not over the pipeline's 128.
// CHECK-LABEL: func.func @chosen_threads
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (8, 32)
// CHECK:   linalg.copy
// CHECK: } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
func.func @chosen_threads(%x: memref<128x256xf32>) {
  scf.forall (%b) in (1) {
    %t = memref.alloc() : memref<128x256xf32, #wg>
    memref.copy %t, %x : memref<128x256xf32, #wg> to memref<128x256xf32>
  } {mapping = [#gpu.block<x>], blockbuster.block_threads = 256 : i64}
  return
}
