// RUN: bb-opt %s --gpu-warpgroup-matmul | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: bb-opt %s --gpu-warpgroup-matmul=products-one-wgmma=false | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: bb-opt %s --gpu-warpgroup-matmul=prologue-registers=false | FileCheck %s --check-prefix=SYNC
// RUN: bb-opt %s --gpu-warpgroup-matmul=fragment-epilogue=false | FileCheck %s --check-prefix=SYNC

// The up projections of an RMSNorm + SwiGLU FFN as bufferization leaves
// them (h = silu(xn W1) * (xn W3), xn the rows of X normalised with the sums
// of squares of a kernel before it and rounded to bf16): one block of 128 x
// 128 of h, a k loop of two steps of 64 in which one elementwise op writes
// the normalised A tile and two dots read it, each into an accumulator of
// its own; the gating epilogue reads both. gpu-warpgroup-matmul runs both
// dots on one TMA ring and mainloop: the slot holds the raw X tile, then
// the two boxes of W3's and the two of W1's 128 columns; two warpgroups
// (64 rows each) compute their A registers once per k16 and issue one
// m64n256k16 over both B parts, which lie side by side in the slot at the
// descriptor's 8 KB leading-byte stride (with products-one-wgmma=false,
// one m64n128k16 into each accumulator); the epilogue runs on both
// accumulators' registers.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @ffn_up(%arg0: memref<256x128xbf16>, %arg1: memref<128xbf16>, %arg2: memref<128x256xbf16>, %arg3: memref<128x256xbf16>, %sumsq: memref<256xf32>, %h: memref<256x256xbf16>) {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 9.99999997E-7 : f32
    %cst_1 = arith.constant 1.280000e+02 : f32
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst_2 = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg6, %arg7) in (2, 2) {
      %0 = arith.muli %arg6, %c128 : index
      %1 = arith.muli %arg7, %c128 : index
      %subview = memref.subview %sumsq[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_2 : f32) outs(%alloc_4 : memref<128x128xf32, #gpu.address_space<workgroup>>)
      %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_2 : f32) outs(%alloc_5 : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg8 = %c0 to %c2 step %c1 {
        %2 = arith.muli %arg8, %c64 : index
        %subview_8 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x128xbf16> to memref<128x64xbf16, strided<[128, 1], offset: ?>>
        %subview_9 = memref.subview %arg1[%2] [64] [1] : memref<128xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %alloc_10 = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_8, %subview, %subview_9 : memref<128x64xbf16, strided<[128, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%alloc_10 : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_15: f32, %in_16: bf16, %out: bf16):
          %3 = arith.extf %in_16 : bf16 to f32
          %4 = arith.divf %in_15, %cst_1 : f32
          %5 = arith.addf %4, %cst_0 : f32
          %6 = math.rsqrt %5 : f32
          %7 = arith.extf %in : bf16 to f32
          %8 = arith.mulf %7, %6 : f32
          %9 = arith.mulf %8, %3 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_11 = memref.subview %arg3[%2, %1] [64, 128] [1, 1] : memref<128x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
        %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_2 : f32) outs(%alloc_12 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_10, %subview_11 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[256, 1], offset: ?>>) outs(%alloc_12 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_15: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_15 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        %subview_13 = memref.subview %arg2[%2, %1] [64, 128] [1, 1] : memref<128x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
        %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_2 : f32) outs(%alloc_14 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_10, %subview_13 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[256, 1], offset: ?>>) outs(%alloc_14 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_15: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_15 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_12 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_4 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_14 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_5 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_5, %alloc_4 : memref<128x128xf32, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %in_8: f32, %out: bf16):
        %2 = arith.negf %in : f32
        %3 = math.exp %2 : f32
        %4 = arith.addf %3, %cst : f32
        %5 = arith.divf %in, %4 : f32
        %6 = arith.mulf %5, %in_8 : f32
        %7 = arith.truncf %6 : f32 to bf16
        linalg.yield %7 : bf16
      }
      %subview_7 = memref.subview %h[%0, %1] [128, 128] [1, 1] : memref<256x256xbf16> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      memref.copy %alloc_6, %subview_7 : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// One TMA descriptor for X and one for each B.
// CHECK-LABEL: func.func @ffn_up
// CHECK: nvgpu.tma.create.descriptor {{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// Two warpgroups; a ring of 4 slots of 48 KB (X 16 KB, W3 and W1 16 KB each).
// CHECK: scf.forall
// CHECK: memref.alloc() {alignment = 1024 : i64} : memref<196608xi8, #gpu.address_space<workgroup>>
// The copies of a step: X, then W3's two boxes, then W1's, one barrier.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c49152
// CHECK: nvgpu.tma.async.load %[[X:.*]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = memref<128x64xbf16
// CHECK: nvgpu.tma.async.load %[[W3:.*]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = memref<64x64xbf16
// CHECK: nvgpu.tma.async.load %[[W3]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = memref<64x64xbf16
// CHECK: nvgpu.tma.async.load %[[W1:.*]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = memref<64x64xbf16
// CHECK: nvgpu.tma.async.load %[[W1]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = memref<64x64xbf16
// Two accumulators of 64 x 128 per warpgroup, carried by the loop with the
// A registers.
// CHECK: %[[UP0:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: %[[GATE0:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: nvgpu.ldmatrix
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[UP0]], %{{.*}} = %[[GATE0]],
// One k step: a fence, one m64n256k16 per k16 from W3's part of the slot
// (byte 16384) on, whose 256 columns are W3's 128 and W1's, one commit, the
// wait that leaves the group in flight. Or the wgmmas of the first
// accumulator on W3's part, then those of the second on W1's (byte 32768).
// CHECK: nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[W3]]
// ONE-NOT: nvgpu.warpgroup.generate.descriptor
// TWO: nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[W1]]
// CHECK: nvvm.wgmma.fence.aligned
// ONE-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// TWO-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// After the loop: the gating on both accumulators' registers, 16-byte stores.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: arith.truncf
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<128x128xbf16, strided<[256, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.copy
// CHECK: blockbuster.block_threads = 256

// Without the register prologue or the epilogue on the fragments, both
// dots stay for the mma.sync lowering.
// SYNC-LABEL: func.func @ffn_up
// SYNC-NOT: nvgpu.tma
// SYNC-NOT: wgmma
// SYNC-COUNT-2: iterator_types = ["parallel", "parallel", "reduction"]
// SYNC-NOT: blockbuster.block_threads
