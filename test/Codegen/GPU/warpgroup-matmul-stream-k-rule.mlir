// Stream-K's rule (gpu-warpgroup-matmul's stream-k-min-waves, default 5):
// a persistent grid of 16 tiles of 128 x 256 on 3 SMs (5.3 waves) shares
// its last waves' k steps (the partial sums and one counter per shared
// tile); on 5 SMs (3.2 waves) it keeps whole tiles, unless the threshold
// is lowered.
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=3" | FileCheck %s --check-prefix=SHARED
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=5" | FileCheck %s --check-prefix=WHOLE
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=5 stream-k-min-waves=3" | FileCheck %s --check-prefix=LOWERED
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=3 stream-k=false" | FileCheck %s --check-prefix=WHOLE

// Three blocks: 4 whole waves (12 tiles), then the fifth wave and the
// partial one (4 tiles) shared out as k steps.
// SHARED-LABEL: func.func @sixteen_tiles
// SHARED:         memref.alloc() : memref<{{[0-9]+}}xf32>
// SHARED:         memref.alloc() {blockbuster.workspace} : memref<4xi32>
// SHARED:         scf.forall (%{{.*}}) in (3) {

// WHOLE-LABEL: func.func @sixteen_tiles
// WHOLE-NOT:     blockbuster.workspace
// WHOLE:         scf.forall (%{{.*}}) in ({{3|5}}) {
// WHOLE-NOT:     blockbuster.workspace

// Five blocks: 2 whole waves (10 tiles), then 6 tiles shared.
// LOWERED-LABEL: func.func @sixteen_tiles
// LOWERED:         memref.alloc() {blockbuster.workspace} : memref<6xi32>
// LOWERED:         scf.forall (%{{.*}}) in (5) {

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

// RMSNorm's register-A prologue on the same grid: its row factor (rstd)
// scales each partial, and a work item's A fragments run its own count of
// steps, in pairs and an odd last one decided at run time.
// RUN: bb-opt %s --gpu-warpgroup-matmul="producer=true persistent=true sms=3" | FileCheck %s --check-prefix=REGA
// REGA-LABEL: func.func @rms_sixteen_tiles
// REGA:         memref.alloc() {blockbuster.workspace} : memref<4xi32>
// REGA:         scf.forall (%{{.*}}) in (3) {
// REGA:           math.rsqrt
// The first fragments' gamma pairs: columns of the item's first k step.
// REGA:           %[[K0:.*]] = arith.addi %{{.*}}, %c0{{[_0-9]*}} : index
// REGA:           %[[COLUMN:.*]] = arith.muli %[[K0]], %c64{{[_0-9]*}} : index
// REGA:           %[[PAIR:.*]] = arith.addi %[[COLUMN]],
// REGA:           arith.addi %[[PAIR]], %c0{{[_0-9]*}} : index
// REGA-NEXT:      vector.load %arg1[
// REGA:           %[[PAIRS:.*]] = arith.divui %[[COUNT:.*]], %c2{{[_0-9]*}} : index
// REGA:           scf.for %{{.*}} = %c0{{[_0-9]*}} to %[[PAIRS]] step
// REGA:             wgmma.mma_async
// REGA:           arith.remui %[[COUNT]], %c2{{[_0-9]*}} : index
// REGA:           scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator
// REGA:             wgmma.mma_async
// The rows scaled by rstd, then the partial's combine.
// REGA:           arith.mulf
// REGA:           scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator<{{.*}}>, i1)

#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d1)>
  func.func @rms_sixteen_tiles(%x: memref<512x256xbf16>, %gamma: memref<256xbf16>, %w: memref<256x1024xbf16>, %out: memref<512x1024xbf16>, %var: memref<512xf32>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.forall (%arg3, %arg4) in (4, 4) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c256 : index
      %ss = memref.subview %var[%0] [128] [1] : memref<512xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %xt = memref.subview %x[%0, %2] [128, 64] [1, 1] : memref<512x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %gt = memref.subview %gamma[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %xn = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map5, #map3], iterator_types = ["parallel", "parallel"]} ins(%xt, %ss, %gt : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%xn : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %s: f32, %g: bf16, %o: bf16):
          %5 = arith.divf %s, %n : f32
          %6 = arith.addf %5, %eps : f32
          %7 = math.rsqrt %6 : f32
          %8 = arith.extf %in : bf16 to f32
          %10 = arith.mulf %8, %7 : f32
          %4 = arith.extf %g : bf16 to f32
          %11 = arith.mulf %10, %4 : f32
          %13 = arith.truncf %11 : f32 to bf16
          linalg.yield %13 : bf16
        }
        %wt = memref.subview %w[%2, %1] [64, 256] [1, 1] : memref<256x1024xbf16> to memref<64x256xbf16, strided<[1024, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xn, %wt : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[1024, 1], offset: ?>>) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %o: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %o, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %o: f32):
          %3 = arith.addf %o, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<128x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<128x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %out[%0, %1] [128, 256] [1, 1] : memref<512x1024xbf16> to memref<128x256xbf16, strided<[1024, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[1024, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
