// RUN: bb-opt %s --split-input-file --gpu-sink-prologue-statistics | FileCheck %s
// RUN: bb-opt %s --split-input-file --gpu-sink-prologue-statistics --gpu-warpgroup-matmul | FileCheck %s --check-prefix=FOLD
// RUN: bb-opt %s --split-input-file --gpu-sink-prologue-statistics --gpu-warpgroup-matmul=prologue-statistics=false | FileCheck %s --check-prefix=NOFOLD
// RUN: bb-opt %s --split-input-file --gpu-sink-prologue-statistics=small-grids=false | FileCheck %s --check-prefix=NOSMALL
// RUN: bb-opt %s --split-input-file --gpu-sink-prologue-statistics --gpu-warpgroup-matmul=prologue-registers-one-warpgroup=false | FileCheck %s --check-prefix=CHUNK

// RMSNorm + matmul as the GPU pipeline has it before gpu-row-kernels (M256
// K256 N512, blocks of 128 x 256 x 64): a statistics kernel (the sum of
// squares of X's rows over 4 k steps into a vector of the host), then the
// GEMM block whose prologue normalises X with it (rstd a factor of the
// rounded product, the register-A row factor).
// The kernel's body moves into the GEMM block (its row block as the
// block's first induction variable): one grid, the vector gone, the
// prologue reading the block's tile.
// CHECK-LABEL: func.func @rms_stats
// CHECK-NOT:     memref<256xf32>
// CHECK:         scf.forall (%[[M:[a-z0-9]+]], %{{.*}}) in (2, 2)
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[M]], %c128
// CHECK-NEXT:      %[[STATS:.*]] = memref.alloc() {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[STATS]] :
// CHECK-NEXT:      scf.for
// CHECK:             memref.subview %arg0[%[[ROW]], %{{.*}}] [128, 64]
// CHECK:             %[[X:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:        arith.mulf %[[X]], %[[X]] : f32
// CHECK:             outs(%[[STATS]] :
// CHECK:           scf.for
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[STATS]], %{{.*}} :
// CHECK-NOT:     scf.forall

// gpu-warpgroup-matmul then folds the statistics loop into its register-A
// mainloop: each thread adds the squares of its ldmatrix pairs (widened by
// a shift or a mask, one fma each) into two f32 sums carried by the loop
// (its rows r and r + 8); after the loop two butterfly shuffles per row
// total the quad's sums, and rstd follows from them, before the row factor
// scales the accumulator.
// FOLD-LABEL:  func.func @rms_stats
// FOLD-NOT:      linalg.generic
// FOLD-NOT:      math.rsqrt
// FOLD:          nvgpu.ldmatrix
// FOLD:          %[[LO:.*]] = arith.shli %{{.*}}, %c16_i32{{.*}} : i32
// FOLD-NEXT:     %[[XLO:.*]] = arith.bitcast %[[LO]] : i32 to f32
// FOLD-NEXT:     %[[S0:.*]] = math.fma %[[XLO]], %[[XLO]], %{{.*}} : f32
// FOLD:          %[[HI:.*]] = arith.andi %{{.*}}, %c-65536_i32{{.*}} : i32
// FOLD-NEXT:     %[[XHI:.*]] = arith.bitcast %[[HI]] : i32 to f32
// FOLD-NEXT:     math.fma %[[XHI]], %[[XHI]], %[[S0]] : f32
// FOLD:          %[[LOOP:.*]]:19 = scf.for {{.*}} -> ({{.*}}, f32, f32)
// FOLD:          gpu.shuffle  xor %[[LOOP]]#17, %c1_i32
// FOLD:          gpu.shuffle  xor
// FOLD:          gpu.shuffle  xor %[[LOOP]]#18, %c1_i32
// FOLD:          gpu.shuffle  xor
// FOLD:          math.rsqrt
// FOLD:          math.rsqrt
// FOLD-NEXT:     nvvm.wgmma.wait.group.sync.aligned 0
// FOLD-NOT:      linalg.generic

// With prologue-statistics=false the loop stays before the mainloop, and
// the rows' rstd is computed from its tile before the mainloop.
// NOFOLD-LABEL:  func.func @rms_stats
// NOFOLD:          linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// NOFOLD-NOT:      math.fma
// NOFOLD:          math.rsqrt
// NOFOLD-NOT:      math.fma
// NOFOLD:          nvvm.wgmma.wait.group.sync.aligned 0

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @rms_stats(%arg0: memref<256x256xbf16>, %arg1: memref<256xbf16>, %arg2: memref<256x512xbf16>, %arg3: memref<256x512xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 2.560000e+02 : f32
    %c256 = arith.constant 256 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c128 : index
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %1 = arith.muli %arg5, %c64 : index
        %subview_3 = memref.subview %arg0[%0, %1] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%subview_3 : memref<128x64xbf16, strided<[256, 1], offset: ?>>) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %3 = arith.mulf %2, %2 : f32
          %4 = arith.addf %out, %3 : f32
          linalg.yield %4 : f32
        }
        linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      memref.copy %alloc_2, %subview : memref<128xf32, #gpu.address_space<workgroup>> to memref<128xf32, strided<[1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    scf.forall (%arg4, %arg5) in (2, 2) {
      %0 = arith.muli %arg4, %c128 : index
      %1 = arith.muli %arg5, %c256 : index
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg6, %c64 : index
        %subview_5 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_6 = memref.subview %arg1[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_5, %subview, %subview_6 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%alloc_7 : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: f32, %in_11: bf16, %out: bf16):
          %3 = arith.extf %in_11 : bf16 to f32
          %4 = arith.divf %in_10, %cst_0 : f32
          %5 = arith.addf %4, %cst : f32
          %6 = math.rsqrt %5 : f32
          %7 = arith.extf %in : bf16 to f32
          %8 = arith.mulf %7, %6 : f32
          %9 = arith.mulf %8, %3 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_8 = memref.subview %arg2[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_7, %subview_8 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_10 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_3 : memref<128x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview_4 = memref.subview %arg3[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_3, %subview_4 : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

// The statistics are read elsewhere too (copied to another vector): the
// kernel stays.
// CHECK-LABEL: func.func @stats_read_twice
// FOLD-LABEL:  func.func @stats_read_twice
// CHECK:         scf.forall (%{{.*}}) in (2)
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<256xf32> to memref<256xf32>

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @stats_read_twice(%arg0: memref<256x256xbf16>, %arg1: memref<256xbf16>, %arg2: memref<256x512xbf16>, %arg3: memref<256x512xbf16>, %extra: memref<256xf32>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 2.560000e+02 : f32
    %c256 = arith.constant 256 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c128 : index
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %1 = arith.muli %arg5, %c64 : index
        %subview_3 = memref.subview %arg0[%0, %1] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%subview_3 : memref<128x64xbf16, strided<[256, 1], offset: ?>>) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %3 = arith.mulf %2, %2 : f32
          %4 = arith.addf %out, %3 : f32
          linalg.yield %4 : f32
        }
        linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      memref.copy %alloc_2, %subview : memref<128xf32, #gpu.address_space<workgroup>> to memref<128xf32, strided<[1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    scf.forall (%arg4, %arg5) in (2, 2) {
      %0 = arith.muli %arg4, %c128 : index
      %1 = arith.muli %arg5, %c256 : index
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg6, %c64 : index
        %subview_5 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_6 = memref.subview %arg1[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_5, %subview, %subview_6 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%alloc_7 : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: f32, %in_11: bf16, %out: bf16):
          %3 = arith.extf %in_11 : bf16 to f32
          %4 = arith.divf %in_10, %cst_0 : f32
          %5 = arith.addf %4, %cst : f32
          %6 = math.rsqrt %5 : f32
          %7 = arith.extf %in : bf16 to f32
          %8 = arith.mulf %7, %6 : f32
          %9 = arith.mulf %8, %3 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_8 = memref.subview %arg2[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_7, %subview_8 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_10 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_3 : memref<128x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview_4 = memref.subview %arg3[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_3, %subview_4 : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    memref.copy %alloc, %extra : memref<256xf32> to memref<256xf32>
    return
  }
}

// -----

// A kernel that sums X (not its squares): not the statistics the mainloop
// accumulates; it stays.
// CHECK-LABEL: func.func @sum_not_squares
// CHECK:         scf.forall (%{{.*}}) in (2)
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @sum_not_squares(%arg0: memref<256x256xbf16>, %arg1: memref<256xbf16>, %arg2: memref<256x512xbf16>, %arg3: memref<256x512xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 2.560000e+02 : f32
    %c256 = arith.constant 256 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c128 : index
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %1 = arith.muli %arg5, %c64 : index
        %subview_3 = memref.subview %arg0[%0, %1] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%subview_3 : memref<128x64xbf16, strided<[256, 1], offset: ?>>) outs(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %4 = arith.addf %out, %2 : f32
          linalg.yield %4 : f32
        }
        linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%alloc_4 : memref<128xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      memref.copy %alloc_2, %subview : memref<128xf32, #gpu.address_space<workgroup>> to memref<128xf32, strided<[1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    scf.forall (%arg4, %arg5) in (2, 2) {
      %0 = arith.muli %arg4, %c128 : index
      %1 = arith.muli %arg5, %c256 : index
      %subview = memref.subview %alloc[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg6, %c64 : index
        %subview_5 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_6 = memref.subview %arg1[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_5, %subview, %subview_6 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%alloc_7 : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: f32, %in_11: bf16, %out: bf16):
          %3 = arith.extf %in_11 : bf16 to f32
          %4 = arith.divf %in_10, %cst_0 : f32
          %5 = arith.addf %4, %cst : f32
          %6 = math.rsqrt %5 : f32
          %7 = arith.extf %in : bf16 to f32
          %8 = arith.mulf %7, %6 : f32
          %9 = arith.mulf %8, %3 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_8 = memref.subview %arg2[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_7, %subview_8 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_10 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_9 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_2 : memref<128x256xf32, #gpu.address_space<workgroup>>) outs(%alloc_3 : memref<128x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview_4 = memref.subview %arg3[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_3, %subview_4 : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

// RMSNorm + matmul M128 K4096 N512 as the pipeline has it (one row block:
// the statistics kernel writes the whole vector, which the GEMM block
// reads without a view). The GEMM grid of 4 blocks of 128 x 128 (one
// warpgroup) is smaller than the SMs: with `small-grids` (the default) the
// statistics move into the block as above; gpu-warpgroup-matmul splits its
// 64 k steps 4 ways (grid z), each split's sums of squares (from its A
// fragments, in registers: whole tiles, RMSNorm's x * gamma) go into the
// partials first (a group of 4 before the 128 accumulator registers: 4 x 4
// tiles x 132 x 128 f32), and rstd comes from their sums in the block that
// counts last, after its atomic, before the row factor scales the combined
// accumulators: one kernel.
// CHECK-LABEL: func.func @m128_split
// CHECK:         scf.forall ({{.*}}) in (1, 4) {
// CHECK:           %[[STATS:.*]] = memref.alloc() {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK:             memref.subview %arg0[0, %{{.*}}] [128, 64]
// CHECK:           scf.for
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[STATS]], %{{.*}} :
// CHECK-NOT:     scf.forall

// NOSMALL-LABEL: func.func @m128_split
// NOSMALL:         scf.forall ({{.*}}) in (1) {
// NOSMALL:         scf.forall ({{.*}}) in (1, 4) {

// FOLD-LABEL:  func.func @m128_split
// FOLD:          memref.alloc() : memref<270336xf32>
// FOLD:          scf.forall ({{.*}}) in (1, 4, 4) {
// FOLD-NOT:      linalg.generic
// FOLD:          nvgpu.ldmatrix
// FOLD:          math.fma
// FOLD:          %[[LOOP:.*]]:37 = scf.for
// FOLD:          gpu.shuffle  xor %[[LOOP]]#33, %c1_i32
// FOLD:          %[[S0:.*]] = arith.addf
// FOLD:          %[[T0:.*]] = arith.addf %[[S0]]
// FOLD:          gpu.shuffle  xor %[[LOOP]]#36, %c1_i32
// FOLD-NOT:      math.rsqrt
// FOLD:          nvvm.wgmma.wait.group.sync.aligned 0
// FOLD:          %[[FIRST:.*]] = vector.from_elements %[[T0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// FOLD:          vector.store %[[FIRST]]
// FOLD-COUNT-32: vector.store %{{.*}} : memref<270336xf32>, vector<4xf32>
// FOLD-NOT:      math.rsqrt
// FOLD:          memref.atomic_rmw addi
// FOLD-COUNT-4:  math.rsqrt
// FOLD-NOT:      math.rsqrt
// FOLD:          } {mapping

// With prologue-registers-one-warpgroup=false the warpgroup rewrites each
// slot's A part (x * gamma rounded, no rstd) and adds the squares of its
// chunks' raw elements (8 fmas per chunk row); after the mainloop the 8
// lanes of a row total them (xor 1, 2, 4), the first stores the row's sum
// in shared memory, and past a barrier each thread reads the rows of its
// accumulator registers, the split's sums that the partials take first.
// CHUNK-LABEL:  func.func @m128_split
// CHUNK:          scf.forall ({{.*}}) in (1, 4, 4) {
// CHUNK-NOT:      nvgpu.ldmatrix
// CHUNK:          vector.load %{{.*}} : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHUNK-COUNT-8:  math.fma
// CHUNK:          vector.store %{{.*}} : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHUNK:          %[[LOOP:.*]]:9 = scf.for {{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>, f32, f32, f32, f32, f32, f32, f32, f32)
// CHUNK:          nvvm.wgmma.wait.group.sync.aligned 0
// CHUNK-NEXT:     gpu.barrier
// CHUNK-NEXT:     %[[ROWS:.*]] = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
// CHUNK:          gpu.shuffle  xor %[[LOOP]]#1, %c1_i32
// CHUNK:          gpu.shuffle  xor %{{.*}}, %c2_i32
// CHUNK:          gpu.shuffle  xor %{{.*}}, %c4_i32
// CHUNK:          scf.if
// CHUNK-COUNT-8:    memref.store %{{.*}}, %[[ROWS]]
// CHUNK:          gpu.barrier
// CHUNK-COUNT-4:  memref.load %[[ROWS]]
// CHUNK-NOT:      math.rsqrt
// CHUNK:          memref.atomic_rmw addi
// CHUNK-COUNT-4:  math.rsqrt
// CHUNK-NOT:      math.rsqrt
// CHUNK:          } {mapping

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @m128_split(%arg0: memref<128x4096xbf16>, %arg1: memref<4096xbf16>, %arg2: memref<4096x512xbf16>, %arg3: memref<128x512xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 4.096000e+03 : f32
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
    scf.forall (%arg4) in (1) {
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c64 step %c1 {
        %0 = arith.muli %arg5, %c64 : index
        %subview = memref.subview %arg0[0, %0] [128, 64] [1, 1] : memref<128x4096xbf16> to memref<128x64xbf16, strided<[4096, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%subview : memref<128x64xbf16, strided<[4096, 1], offset: ?>>) outs(%alloc_3 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %out: f32):
          %1 = arith.extf %in : bf16 to f32
          %2 = arith.mulf %1, %1 : f32
          %3 = arith.addf %out, %2 : f32
          linalg.yield %3 : f32
        }
        linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%alloc_3 : memref<128xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %1 = arith.addf %out, %in : f32
          linalg.yield %1 : f32
        }
      }
      memref.copy %alloc_2, %alloc : memref<128xf32, #gpu.address_space<workgroup>> to memref<128xf32>
    } {mapping = [#gpu.block<x>]}
    scf.forall (%arg4, %arg5) in (1, 4) {
      %0 = arith.muli %arg5, %c128 : index
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c64 step %c1 {
        %1 = arith.muli %arg6, %c64 : index
        %subview_4 = memref.subview %arg0[0, %1] [128, 64] [1, 1] : memref<128x4096xbf16> to memref<128x64xbf16, strided<[4096, 1], offset: ?>>
        %subview_5 = memref.subview %arg1[%1] [64] [1] : memref<4096xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_4, %alloc, %subview_5 : memref<128x64xbf16, strided<[4096, 1], offset: ?>>, memref<128xf32>, memref<64xbf16, strided<[1], offset: ?>>) outs(%alloc_6 : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_9: f32, %in_10: bf16, %out: bf16):
          %2 = arith.extf %in_10 : bf16 to f32
          %3 = arith.divf %in_9, %cst_0 : f32
          %4 = arith.addf %3, %cst : f32
          %5 = math.rsqrt %4 : f32
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.mulf %6, %5 : f32
          %8 = arith.mulf %7, %2 : f32
          %9 = arith.truncf %8 : f32 to bf16
          linalg.yield %9 : bf16
        }
        %subview_7 = memref.subview %arg2[%1, %0] [64, 128] [1, 1] : memref<4096x512xbf16> to memref<64x128xbf16, strided<[512, 1], offset: ?>>
        %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_8 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_6, %subview_7 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_8 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_9: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %3 = arith.extf %in_9 : bf16 to f32
          %4 = arith.mulf %2, %3 : f32
          %5 = arith.addf %out, %4 : f32
          linalg.yield %5 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_8 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_2 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_2 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_3 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %1 = arith.truncf %in : f32 to bf16
        linalg.yield %1 : bf16
      }
      %subview = memref.subview %arg3[0, %0] [128, 128] [1, 1] : memref<128x512xbf16> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_3, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}
