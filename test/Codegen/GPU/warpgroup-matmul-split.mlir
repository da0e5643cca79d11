// RUN: bb-opt %s --gpu-warpgroup-matmul | FileCheck %s
// RUN: bb-opt %s --gpu-warpgroup-matmul=split-max-blocks=0 | FileCheck %s --check-prefix=OFF
// RUN: bb-opt %s --gpu-warpgroup-matmul=fragment-epilogue=false | FileCheck %s --check-prefix=OFF
// RUN: bb-opt %s --gpu-warpgroup-matmul=stages=3 | FileCheck %s --check-prefix=STAGES

// gpu-warpgroup-matmul splits the k steps of a grid too small for the SMs
// (docs/GPUPipeline.md, "Split GEMM blocks on Hopper"): 4 blocks of one
// 128 x 128 tile of A[128, 4096] * B[4096, 512], 64 k steps of 64, take 4
// splits (SplitFactor.h, at most 4: 16 blocks, 16 steps each) along a third
// grid dimension; with one block per SM the ring gets a fourth slot
// (128 KB). Each split runs its own k steps (the TMA coordinates from its
// first step), stores its accumulator registers into its slot of the f32
// partials (16-byte stores, the block's threads side by side), and after
// the block's barrier thread 0 fences (acq_rel at GPU scope) and counts the
// block in on the tile's counter (a workspace); the block that counts last
// fences, zeroes the counter, and after a barrier every thread sums the
// four partials in split order and runs the epilogue (the bf16 cast, quad
// exchange, 16-byte stores) on the sums. Not split: with split-max-blocks=0,
// or with the epilogue through shared memory (fragment-epilogue=false);
// the partials and the combine stay in registers.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @split(%arg0: memref<128x4096xbf16>, %arg1: memref<4096x512xbf16>, %arg2: memref<1024x512xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c64k = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (1, 4) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c64k step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<128x4096xbf16> to memref<128x64xbf16, strided<[4096, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 128] [1, 1] : memref<4096x512xbf16> to memref<64x128xbf16, strided<[512, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<128x64xbf16, strided<[4096, 1], offset: ?>>, memref<64x128xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<1024x512xbf16> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }


  func.func @few_steps(%arg0: memref<128x1024xbf16>, %arg1: memref<1024x512xbf16>, %arg2: memref<1024x512xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (1, 4) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c16 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<128x1024xbf16> to memref<128x64xbf16, strided<[1024, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 128] [1, 1] : memref<1024x512xbf16> to memref<64x128xbf16, strided<[512, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<128x64xbf16, strided<[1024, 1], offset: ?>>, memref<64x128xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<1024x512xbf16> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @split
// CHECK:      %[[PARTIALS:.*]] = memref.alloc() : memref<262144xf32>
// CHECK:      %[[COUNTERS:.*]] = memref.alloc() {blockbuster.workspace} : memref<4xi32>
// CHECK:      scf.forall (%{{.*}}, %{{.*}}, %[[SPLIT:.*]]) in (1, 4, 4) {
// CHECK:        %[[FIRST:.*]] = arith.muli %[[SPLIT]], %c16{{.*}} : index
// CHECK:        memref.alloc() {alignment = 1024 : i64} : memref<131072xi8, #gpu.address_space<workgroup>>
// CHECK:        %[[K0:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK:        arith.muli %[[K0]], %c64{{.*}} : index
// CHECK:        nvgpu.tma.async.load
// CHECK:        scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c1{{.*}}
// CHECK:          nvgpu.warpgroup.mma
// CHECK:        nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-32: vector.store %{{.*}}, %[[PARTIALS]][%{{.*}}] {alignment = 16 : i64} : memref<262144xf32>, vector<4xf32>
// CHECK-NOT:    nvvm.memory.barrier
// CHECK:        gpu.barrier
// CHECK:        scf.if
// CHECK-NEXT:     llvm.fence syncscope("device") acq_rel
// CHECK:          %[[BEFORE:.*]] = memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]][%{{.*}}] : (i32, memref<4xi32>) -> i32
// CHECK:          %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %c3_i32 : i32
// CHECK:          scf.if %[[LAST]] {
// CHECK-NEXT:       llvm.fence syncscope("device") acq_rel
// CHECK:            memref.store %{{.*}}, %[[COUNTERS]][%{{.*}}] : memref<4xi32>
// CHECK:        gpu.barrier
// CHECK:        scf.if
// Split 0's partial, plus split 1's, plus 2's, plus 3's.
// CHECK:          %[[P0:.*]] = vector.load %[[PARTIALS]][%{{.*}}] : memref<262144xf32>, vector<4xf32>
// CHECK:          %[[P1:.*]] = vector.load %[[PARTIALS]][%{{.*}}] : memref<262144xf32>, vector<4xf32>
// CHECK-NEXT:     %[[S1:.*]] = arith.addf %[[P0]], %[[P1]] : vector<4xf32>
// CHECK:          %[[P2:.*]] = vector.load %[[PARTIALS]][%{{.*}}] : memref<262144xf32>, vector<4xf32>
// CHECK-NEXT:     %[[S2:.*]] = arith.addf %[[S1]], %[[P2]] : vector<4xf32>
// CHECK:          %[[P3:.*]] = vector.load %[[PARTIALS]][%{{.*}}] : memref<262144xf32>, vector<4xf32>
// CHECK-NEXT:     arith.addf %[[S2]], %[[P3]] : vector<4xf32>
// CHECK:          arith.truncf
// CHECK:          gpu.shuffle xor
// CHECK:          vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// CHECK:      } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}

// OFF-LABEL: func.func @split
// OFF-NOT:    memref<262144xf32>
// OFF:        scf.forall (%{{.*}}, %{{.*}}) in (1, 4) {
// OFF:          memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
// OFF-NOT:      memref.atomic_rmw
// OFF:        } {mapping = [#gpu.block<y>, #gpu.block<x>]}

// The same grid over K = 1024 (16 k steps) is not split: 4 splits of 4
// steps (or 2 of 8) are fewer than kMinWarpgroupStepsPerSplit (GEMM 1024^3
// on the H200: 2 splits of 8 steps 1.28x slower than unsplit).
// CHECK-LABEL: func.func @few_steps
// CHECK-NOT:  memref.atomic_rmw
// CHECK:      } {mapping = [#gpu.block<y>, #gpu.block<x>]}

// An explicit ring depth is kept: 3 slots (96 KB).
// STAGES:     scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 4, 4) {
// STAGES:       memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
