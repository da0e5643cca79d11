// gpu-warpgroup-matmul's cluster-multicast: a persistent grid of 4 x 4
// tiles of 128 x 256 (8 pairs of row tiles) on 4 SMs (4 waves: no
// stream-K) becomes 2 clusters of two blocks (blockbuster.cluster_blocks),
// each cluster looping over the pairs c, c + 2, ...: the block of rank
// r = block % 2 takes the pair's row r. The empty barriers count both
// blocks' consumer warpgroups (4), the inits are published to the cluster
// (fence.mbarrier_init, the cluster's barrier) before the branch, the
// producer loads A alone and its half of B's boxes (rank r: box r h .. of
// each product) multicast to both blocks (mask 0b11), each consumer
// warpgroup releases a slot here and in the partner (mapa, a remote
// arrive without .release.cluster, which costs a MEMBAR.ALL.GPU per
// arrive) and the consumers pass the cluster's barrier before they exit.
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=4 cluster-multicast=true" | FileCheck %s
// Where stream-K shares out the last waves (3 SMs: 5.3 waves) the grid
// keeps stream-K and no clusters; without stream-K it takes them (1
// cluster on 3 SMs); without the option, none.
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=3 cluster-multicast=true" | FileCheck %s --check-prefix=STREAMK
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=3 stream-k=false cluster-multicast=true" | FileCheck %s --check-prefix=ONE
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=4" | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @sixteen_tiles
// CHECK:         scf.forall (%[[BLOCK:.*]]) in (4) {
// CHECK:           %[[RANK:.*]] = arith.remui %[[BLOCK]], %c2{{[_0-9]*}} : index
// CHECK:           %[[FIRST:.*]] = arith.divui %[[BLOCK]], %c2{{[_0-9]*}} : index
// CHECK-COUNT-4:   nvgpu.mbarrier.init %{{.*}}, %c1{{[_0-9]*}}, predicate
// CHECK-COUNT-4:   nvgpu.mbarrier.init %{{.*}}, %c4{{[_0-9]*}}, predicate
// CHECK:           gpu.barrier
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK-NEXT:      nvvm.cluster.arrive
// CHECK-NEXT:      nvvm.cluster.wait
// CHECK:           nvvm.setmaxregister  decrease 56
// CHECK:           scf.for %{{.*}} = %[[FIRST]] to %c8{{[_0-9]*}} step %c2{{[_0-9]*}} {
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK-NOT:         multicast_mask
// CHECK:             nvgpu.tma.async.load {{.*}} to %{{.*}} : {{.*}} -> memref<128x64xbf16
// CHECK:             arith.muli %[[RANK]], %c2{{[_0-9]*}} : index
// CHECK-COUNT-2:     nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16 : {{.*}} -> memref<64x64xbf16
// CHECK-NOT:         nvgpu.tma.async.load
// CHECK:           nvvm.setmaxregister  increase 224
// CHECK:           arith.xori %[[RANK]], %c1{{[_0-9]*}} : index
// CHECK:           llvm.inline_asm has_side_effects {{.*}}mapa.shared::cluster.u32 remote, $0, $1;{{.*}}mbarrier.arrive.shared::cluster.b64 _, [remote];
// CHECK:           nvvm.cluster.arrive
// CHECK-NEXT:      nvvm.cluster.wait
// CHECK:         } {blockbuster.block_threads = 384 : i64, blockbuster.cluster_blocks = 2 : i64, mapping = [#gpu.block<x>]}
// CHECK-NOT:     release.cluster

// STREAMK-LABEL: func.func @sixteen_tiles
// STREAMK:         memref.alloc() {blockbuster.workspace} : memref<4xi32>
// STREAMK-NOT:     multicast_mask
// STREAMK-NOT:     cluster

// ONE-LABEL: func.func @sixteen_tiles
// ONE:         scf.forall (%{{.*}}) in (2) {
// ONE:           multicast_mask
// ONE:         } {blockbuster.block_threads = 384 : i64, blockbuster.cluster_blocks = 2 : i64

// OFF-LABEL: func.func @sixteen_tiles
// OFF-NOT:     multicast_mask
// OFF-NOT:     cluster

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @sixteen_tiles(%arg0: memref<512x256xbf16>, %arg1: memref<256x1024xbf16>, %arg2: memref<512x1024xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.forall (%arg3, %arg4) in (4, 4) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c256 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<512x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 256] [1, 1] : memref<256x1024xbf16> to memref<64x256xbf16, strided<[1024, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<64x256xbf16, strided<[1024, 1], offset: ?>>) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<128x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<128x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %arg2[%0, %1] [128, 256] [1, 1] : memref<512x1024xbf16> to memref<128x256xbf16, strided<[1024, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[1024, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
