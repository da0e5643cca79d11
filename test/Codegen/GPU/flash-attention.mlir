// RUN: bb-opt %s --split-input-file --gpu-flash-attention | FileCheck %s
// RUN: bb-opt %s --split-input-file --gpu-flash-attention=threads=256 | FileCheck %s --check-prefix=WARPS8
// On the wgmma schedule (session 16: a head of 16 is one TMA box of 64
// columns, those past 16 zero-filled; S = Q K^T one k step, P V's n padded
// to 64), every block of 64 query rows here takes wgmma: Q, K and V by
// TMA, 6 m64n64k16 (each loop's S, P V's 4 k steps over 64 keys). The 128
// rows on 4 warps keep the generic path, as on mma.sync.
// RUN: bb-opt %s --split-input-file --gpu-flash-attention=mma=wgmma | FileCheck %s --check-prefix=WGMMA16
// WGMMA16-LABEL: func.func @attention
// WGMMA16-NOT: nvvm.mma.sync
// WGMMA16: nvgpu.tma.async.load
// WGMMA16-COUNT-6: wgmma.mma_async.sync.aligned.m64n64k16
// WGMMA16-NOT: nvvm.mma.sync
// WGMMA16-LABEL: func.func @negative_scale
// WGMMA16-COUNT-6: wgmma.mma_async.sync.aligned.m64n64k16
// WGMMA16-LABEL: func.func @attention_128_rows
// WGMMA16-NOT: wgmma.mma_async
// WGMMA16-LABEL: func.func @causal_attention
// WGMMA16-COUNT-6: wgmma.mma_async.sync.aligned.m64n64k16
// WGMMA16-LABEL: func.func @masked_to_zero
// WGMMA16-COUNT-6: wgmma.mma_async.sync.aligned.m64n64k16

// Attention over 100 queries and keys, D = 16, bf16 (scripts/build-anchors.py's
// program: P normalised, then rounded to bf16) in blocks of 64 queries x 64
// keys, as bufferization leaves it: a first loop over the key tiles for the
// row maximum and sum (online), a second for P and P V. Both key tiles of
// each loop and the second query block are partial (36 of 64). Every tile
// goes to registers: no linalg op is left, the loop state is iter_args
// (2 statistics x 2 rows per lane; O's 2 n8 tiles x 4 registers), Q's
// fragments are loaded once, K and V are copied one iteration ahead into
// two slots of a padded shared-memory buffer (2 x 64 rows of 16 + 8).

// CHECK-LABEL: func.func @attention
// CHECK: scf.forall
// CHECK-COUNT-4: vector.load %{{.*}} : memref<?x16xbf16, strided<[16, 1], offset: ?>>, vector<2xbf16>
// CHECK: gpu.barrier
// CHECK: %[[K1:.*]] = memref.alloc() {alignment = 16 : i64} : memref<128x24xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}}, %[[K1]][{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK: %[[STATS:.*]]:4 = scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK: nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.ldmatrix %[[K1]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: %[[S:.*]] = nvvm.mma.sync
// CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[S]][0]
// CHECK: nvvm.mma.sync
// The scale (a separate op, before the max) folded into the exponent: the
// row max of the raw scores, scaled once per row after the quad's shuffles
// (0.25 s is monotone in s: max(0.25 s) = 0.25 max(s) exactly), and
// exp(0.25 s - m) as ex2(fma(s, 0.25 log2(e), -m log2(e))) on the raw s.
// CHECK: arith.maximumf %{{.*}}, %[[S0]] : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT: arith.mulf %{{.*}}, %[[QUARTER]] : f32
// CHECK: %[[FOLDED:.*]] = arith.constant 0.360673755 : f32
// CHECK-NEXT: math.fma %[[S0]], %[[FOLDED]], %{{.*}} : f32
// exp(x) as ex2.approx(x log2(e)), not libdevice's expf.
// CHECK-NOT: math.exp
// CHECK: arith.constant 1.44269502 : f32
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK: scf.yield %{{.*}} : f32, f32, f32, f32
// CHECK: gpu.barrier
// CHECK: %[[K2:.*]] = memref.alloc() {{.*}} : memref<128x24xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[G2:.*]] = nvgpu.device_async_create_group
// CHECK: %[[V:.*]] = memref.alloc() {{.*}} : memref<128x24xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: %[[O:.*]]:8 = scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK: nvgpu.device_async_wait %[[G2]] {numGroups = 1 : i32}
// CHECK: nvgpu.ldmatrix %[[K2]]
// The program's P: exp(s * scale - m) / l rounded to bf16, per register,
// the exp as ex2.approx(s * (scale log2(e)) - m log2(e)): 0.25 log2(e) =
// 0.360673755.
// CHECK-NOT: math.exp
// CHECK: arith.constant -1.44269502 : f32
// CHECK-NEXT: %[[SHIFT:.*]] = arith.mulf %[[STATS]]#0, %{{.*}} : f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.constant 0.360673755 : f32
// CHECK-NEXT: %[[ARG:.*]] = math.fma %{{.*}}, %[[SCALED]], %[[SHIFT]] : f32
// CHECK-NEXT: %[[EXP:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[ARG]])
// CHECK-NEXT: arith.divf %[[EXP]], %[[STATS]]#2 : f32
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// Columns past the tile's end add nothing to P V.
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : bf16
// CHECK: nvgpu.device_async_wait %[[G2]] {numGroups = 1 : i32}
// CHECK: nvgpu.ldmatrix %[[V]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: arith.truncf %[[O]]#0 : f32 to bf16
// CHECK: scf.if
// CHECK: vector.store %{{.*}} : memref<?x16xbf16, strided<[16, 1], offset: ?>>, vector<2xbf16>
// CHECK-NOT: linalg.
// CHECK: return

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @attention(%arg0: memref<1x1x100x16xbf16>, %arg1: memref<1x1x100x16xbf16>, %arg2: memref<1x1x100x16xbf16>, %arg3: memref<1x1x100x16xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 2.500000e-01 : f32
    %c100 = arith.constant 100 : index
    %c64 = arith.constant 64 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c64 : index
      %1 = arith.subi %c100, %0 : index
      %2 = arith.minsi %1, %c64 : index
      %subview = memref.subview %collapse_shape[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      %alloc = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_5 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_18: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_18 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.mulf %in, %cst_1 : f32
          linalg.yield %6 : f32
        }
        %alloc_14 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_0 : f32) outs(%alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %out, %in : f32
          linalg.yield %6 : f32
        }
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_13, %alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_18, %cst_0 : f32
          %7 = arith.select %6, %cst, %in_18 : f32
          %8 = arith.subf %in, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.addf %out, %9 : f32
          linalg.yield %10 : f32
        }
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_6, %alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.maximumf %in, %in_18 : f32
          linalg.yield %6 : f32
        }
        %alloc_17 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_7, %alloc_6, %alloc_16, %alloc_15, %alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %in_19: f32, %in_20: f32, %in_21: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_19, %cst_0 : f32
          %7 = arith.select %6, %cst, %in_19 : f32
          %8 = arith.subf %in_21, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.mulf %in_20, %9 : f32
          %11 = arith.subf %in_18, %7 : f32
          %12 = math.exp %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.addf %13, %10 : f32
          linalg.yield %14 : f32
        }
        linalg.copy ins(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_8 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_12, %alloc_6, %alloc_7 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<?x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: bf16):
          %6 = arith.mulf %in, %cst_1 : f32
          %7 = arith.subf %6, %in_16 : f32
          %8 = math.exp %7 : f32
          %9 = arith.divf %8, %in_17 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_14 = memref.subview %collapse_shape_3[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map6, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_13, %subview_14 : memref<?x?xbf16, #gpu.address_space<workgroup>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %out, %in : f32
          linalg.yield %6 : f32
        }
      }
      %alloc_9 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<?x16xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %3 = arith.truncf %in : f32 to bf16
        linalg.yield %3 : bf16
      }
      %subview_10 = memref.subview %collapse_shape_4[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      memref.copy %alloc_9, %subview_10 : memref<?x16xbf16, #gpu.address_space<workgroup>> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    return
  }
}



// -----

// The same attention with a negative scale, -0.25: max(-0.25 s) is not
// -0.25 max(s), so the scale is not folded across ops: the row max reads
// the scaled registers (the exp in the same op as its scale still folds).

// CHECK-LABEL: func.func @negative_scale
// CHECK: scf.for
// CHECK: %[[S:.*]] = nvvm.mma.sync
// CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[S]][0]
// CHECK: %[[P0:.*]] = arith.mulf %[[S0]], %{{.*}} : f32
// CHECK-NOT: arith.maximumf %{{.*}}, %[[S0]] : f32
// CHECK: arith.maximumf %{{.*}}, %[[P0]] : f32
// CHECK: scf.yield

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @negative_scale(%arg0: memref<1x1x100x16xbf16>, %arg1: memref<1x1x100x16xbf16>, %arg2: memref<1x1x100x16xbf16>, %arg3: memref<1x1x100x16xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant -2.500000e-01 : f32
    %c100 = arith.constant 100 : index
    %c64 = arith.constant 64 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c64 : index
      %1 = arith.subi %c100, %0 : index
      %2 = arith.minsi %1, %c64 : index
      %subview = memref.subview %collapse_shape[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      %alloc = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_5 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_18: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_18 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.mulf %in, %cst_1 : f32
          linalg.yield %6 : f32
        }
        %alloc_14 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_0 : f32) outs(%alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %out, %in : f32
          linalg.yield %6 : f32
        }
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_13, %alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_18, %cst_0 : f32
          %7 = arith.select %6, %cst, %in_18 : f32
          %8 = arith.subf %in, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.addf %out, %9 : f32
          linalg.yield %10 : f32
        }
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_6, %alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.maximumf %in, %in_18 : f32
          linalg.yield %6 : f32
        }
        %alloc_17 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_7, %alloc_6, %alloc_16, %alloc_15, %alloc_14 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %in_19: f32, %in_20: f32, %in_21: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_19, %cst_0 : f32
          %7 = arith.select %6, %cst, %in_19 : f32
          %8 = arith.subf %in_21, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.mulf %in_20, %9 : f32
          %11 = arith.subf %in_18, %7 : f32
          %12 = math.exp %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.addf %13, %10 : f32
          linalg.yield %14 : f32
        }
        linalg.copy ins(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_8 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_12 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_12, %alloc_6, %alloc_7 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<?x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: bf16):
          %6 = arith.mulf %in, %cst_1 : f32
          %7 = arith.subf %6, %in_16 : f32
          %8 = math.exp %7 : f32
          %9 = arith.divf %8, %in_17 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_14 = memref.subview %collapse_shape_3[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map6, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_13, %subview_14 : memref<?x?xbf16, #gpu.address_space<workgroup>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_15 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %out, %in : f32
          linalg.yield %6 : f32
        }
      }
      %alloc_9 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_8 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<?x16xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %3 = arith.truncf %in : f32 to bf16
        linalg.yield %3 : bf16
      }
      %subview_10 = memref.subview %collapse_shape_4[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      memref.copy %alloc_9, %subview_10 : memref<?x16xbf16, #gpu.address_space<workgroup>> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    return
  }
}



// -----

// The same program in blocks of 128 queries: more rows than 4 warps of 16
// hold, so the block keeps the generic path at 128 threads; at 256 threads
// (8 warps) it runs in registers.

// CHECK-LABEL: func.func @attention_128_rows
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic
// WARPS8-LABEL: func.func @attention_128_rows
// WARPS8: scf.forall
// WARPS8-NOT: linalg.generic
// WARPS8: nvvm.mma.sync
// WARPS8-NOT: linalg.generic
// WARPS8: return

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @attention_128_rows(%arg0: memref<1x1x100x16xbf16>, %arg1: memref<1x1x100x16xbf16>, %arg2: memref<1x1x100x16xbf16>, %arg3: memref<1x1x100x16xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 2.500000e-01 : f32
    %c100 = arith.constant 100 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    scf.forall (%arg4) in (1) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<100xf32, #gpu.address_space<workgroup>>)
      %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<100xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc() : memref<100xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc : memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<100xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc() : memref<100xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<100xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %0 = arith.muli %arg5, %c64 : index
        %1 = arith.subi %c100, %0 : index
        %2 = arith.minsi %1, %c64 : index
        %subview = memref.subview %collapse_shape_2[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_10 = memref.alloc(%2) {alignment = 64 : i64} : memref<100x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_10 : memref<100x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapse_shape, %subview : memref<100x16xbf16>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_10 : memref<100x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_16 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        %alloc_11 = memref.alloc(%2) {alignment = 64 : i64} : memref<100x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_10 : memref<100x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_11 : memref<100x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.mulf %in, %cst_1 : f32
          linalg.yield %3 : f32
        }
        %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_0 : f32) outs(%alloc_12 : memref<100xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_11 : memref<100x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_12 : memref<100xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.maximumf %out, %in : f32
          linalg.yield %3 : f32
        }
        %alloc_13 = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<100xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_11, %alloc_12 : memref<100x?xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<100xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %out: f32):
          %3 = arith.cmpf oeq, %in_16, %cst_0 : f32
          %4 = arith.select %3, %cst, %in_16 : f32
          %5 = arith.subf %in, %4 : f32
          %6 = math.exp %5 : f32
          %7 = arith.addf %out, %6 : f32
          linalg.yield %7 : f32
        }
        %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_6, %alloc_12 : memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<100xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %out: f32):
          %3 = arith.maximumf %in, %in_16 : f32
          linalg.yield %3 : f32
        }
        %alloc_15 = memref.alloc() {alignment = 64 : i64} : memref<100xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5, #map5, #map5], iterator_types = ["parallel"]} ins(%alloc_7, %alloc_6, %alloc_14, %alloc_13, %alloc_12 : memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<100xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %in_17: f32, %in_18: f32, %in_19: f32, %out: f32):
          %3 = arith.cmpf oeq, %in_17, %cst_0 : f32
          %4 = arith.select %3, %cst, %in_17 : f32
          %5 = arith.subf %in_19, %4 : f32
          %6 = math.exp %5 : f32
          %7 = arith.mulf %in_18, %6 : f32
          %8 = arith.subf %in_16, %4 : f32
          %9 = math.exp %8 : f32
          %10 = arith.mulf %in, %9 : f32
          %11 = arith.addf %10, %7 : f32
          linalg.yield %11 : f32
        }
        linalg.copy ins(%alloc_14 : memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<100xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_15 : memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<100xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<100x16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_8 : memref<100x16xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %0 = arith.muli %arg5, %c64 : index
        %1 = arith.subi %c100, %0 : index
        %2 = arith.minsi %1, %c64 : index
        %subview = memref.subview %collapse_shape_2[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_10 = memref.alloc(%2) {alignment = 64 : i64} : memref<100x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_10 : memref<100x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapse_shape, %subview : memref<100x16xbf16>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_10 : memref<100x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_14: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_14 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        %alloc_11 = memref.alloc(%2) {alignment = 64 : i64} : memref<100x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_10, %alloc_6, %alloc_7 : memref<100x?xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>, memref<100xf32, #gpu.address_space<workgroup>>) outs(%alloc_11 : memref<100x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_14: f32, %in_15: f32, %out: bf16):
          %3 = arith.mulf %in, %cst_1 : f32
          %4 = arith.subf %3, %in_14 : f32
          %5 = math.exp %4 : f32
          %6 = arith.divf %5, %in_15 : f32
          %7 = arith.truncf %6 : f32 to bf16
          linalg.yield %7 : bf16
        }
        %subview_12 = memref.subview %collapse_shape_3[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_13 = memref.alloc() {alignment = 64 : i64} : memref<100x16xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<100x16xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map6, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_11, %subview_12 : memref<100x?xbf16, #gpu.address_space<workgroup>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_13 : memref<100x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_14: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_14 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_13 : memref<100x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<100x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<100x16xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_8 : memref<100x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<100x16xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %0 = arith.truncf %in : f32 to bf16
        linalg.yield %0 : bf16
      }
      memref.copy %alloc_9, %collapse_shape_4 : memref<100x16xbf16, #gpu.address_space<workgroup>> to memref<100x16xbf16>
    } {mapping = [#gpu.block<x>]}
    return
  }
}



// -----

// The causal form (scripts/build-anchors.py's attention_causal: scores of
// key j > query i set to -inf through linalg.index after the scale): the
// query positions are a row vector made from the row index (m0 + i), the
// mask compares the key position (n0 + j, n0 = 64 iv) with it.
//
// Key tiles whose first key comes after the block's last query are masked
// whole, and an iteration on such a tile leaves (m, l) of the first loop and
// O of the second unchanged (maskedIterationKeeps, both cases): each loop
// stops before them, at min(2, max(1, (rows - 1 + m0 - 0) floordiv 64 + 1)),
// and computes S = Q K^T on every tile it runs (no scf.if around the
// mma.sync). A tile the mask keeps whole (its last key <= the block's first
// query) runs the mask's body with the compare true; a tile crossing the
// diagonal compares the register's constant column offset with one
// threshold per row of the lane, m0 + row - (n0 + columnBase).

// CHECK-LABEL: func.func @causal_attention
// CHECK: %[[LIMIT:.*]] = arith.subi %{{.*}}, %c0{{.*}} : index
// CHECK-NEXT: %c64{{.*}} = arith.constant 64 : index
// CHECK-NEXT: %[[TILE:.*]] = arith.floordivsi %[[LIMIT]], %c64{{.*}} : index
// CHECK: %[[END:.*]] = arith.addi %[[TILE]], %c1{{.*}} : index
// CHECK-NEXT: %[[ATLEAST:.*]] = arith.maxsi %[[END]], %c1{{.*}} : index
// CHECK-NEXT: %[[BOUND:.*]] = arith.minsi %[[ATLEAST]], %c2 : index
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[BOUND]] step %c1
// The prefetch stops at the bound too.
// CHECK: arith.cmpi slt, %{{.*}}, %[[BOUND]] : index
// CHECK-NOT: scf.if %{{.*}} -> (f32
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: %[[THRESHOLD:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[KEPT:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[KEPT]] -> (f32,
// CHECK-NOT: arith.cmpi
// CHECK: } else {
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[HOLDS:.*]] = arith.cmpi sle, %[[C0]], %{{.*}} : index
// CHECK: arith.select %[[HOLDS]], %{{.*}}, %cst
// The second loop: the same bound.
// CHECK: arith.floordivsi
// CHECK: arith.maxsi
// CHECK-NEXT: %[[BOUND2:.*]] = arith.minsi %{{.*}}, %c2 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[BOUND2]] step %c1
// CHECK-NOT: scf.if %{{.*}} -> (f32
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: return

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @causal_attention(%arg0: memref<1x1x100x16xbf16>, %arg1: memref<1x1x100x16xbf16>, %arg2: memref<1x1x100x16xbf16>, %arg3: memref<1x1x100x16xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.500000e-01 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %c100 = arith.constant 100 : index
    %c64 = arith.constant 64 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c64 : index
      %1 = arith.subi %c100, %0 : index
      %2 = arith.minsi %1, %c64 : index
      %alloc = memref.alloc(%2) {alignment = 64 : i64} : memref<?xindex, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%alloc : memref<?xindex, #gpu.address_space<workgroup>>) {
      ^bb0(%out: index):
        %3 = linalg.index 0 : index
        %4 = arith.addi %3, %0 : index
        linalg.yield %4 : index
      }
      %subview = memref.subview %collapse_shape[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      %alloc_5 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_8 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_12 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_12 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_19: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_19 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_14 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map4, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_13 : memref<?xindex, #gpu.address_space<workgroup>>, memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: index, %in_19: f32, %out: f32):
          %6 = linalg.index 1 : index
          %7 = arith.mulf %in_19, %cst_0 : f32
          %8 = arith.addi %6, %3 : index
          %9 = arith.cmpi sle, %8, %in : index
          %10 = arith.select %9, %7, %cst_1 : f32
          linalg.yield %10 : f32
        }
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map5, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %out, %in : f32
          linalg.yield %6 : f32
        }
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map5, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_14, %alloc_15 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_19, %cst_1 : f32
          %7 = arith.select %6, %cst, %in_19 : f32
          %8 = arith.subf %in, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.addf %out, %9 : f32
          linalg.yield %10 : f32
        }
        %alloc_17 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%alloc_7, %alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %out: f32):
          %6 = arith.maximumf %in, %in_19 : f32
          linalg.yield %6 : f32
        }
        %alloc_18 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map], iterator_types = ["parallel"]} ins(%alloc_8, %alloc_7, %alloc_17, %alloc_16, %alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_18 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %in_20: f32, %in_21: f32, %in_22: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_20, %cst_1 : f32
          %7 = arith.select %6, %cst, %in_20 : f32
          %8 = arith.subf %in_22, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.mulf %in_21, %9 : f32
          %11 = arith.subf %in_19, %7 : f32
          %12 = math.exp %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.addf %13, %10 : f32
          linalg.yield %14 : f32
        }
        linalg.copy ins(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_18 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_9 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_12 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_12 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_17: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_17 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_14 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map4, #map5, #map4, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_13, %alloc_7, %alloc_8 : memref<?xindex, #gpu.address_space<workgroup>>, memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: index, %in_17: f32, %in_18: f32, %in_19: f32, %out: bf16):
          %6 = linalg.index 1 : index
          %7 = arith.mulf %in_17, %cst_0 : f32
          %8 = arith.addi %6, %3 : index
          %9 = arith.cmpi sle, %8, %in : index
          %10 = arith.select %9, %7, %cst_1 : f32
          %11 = arith.subf %10, %in_18 : f32
          %12 = math.exp %11 : f32
          %13 = arith.divf %12, %in_19 : f32
          %14 = arith.truncf %13 : f32 to bf16
          linalg.yield %14 : bf16
        }
        %subview_15 = memref.subview %collapse_shape_3[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map6, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_14, %subview_15 : memref<?x?xbf16, #gpu.address_space<workgroup>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_17: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_17 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %out, %in : f32
          linalg.yield %6 : f32
        }
      }
      %alloc_10 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_10 : memref<?x16xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %3 = arith.truncf %in : f32 to bf16
        linalg.yield %3 : bf16
      }
      %subview_11 = memref.subview %collapse_shape_4[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      memref.copy %alloc_10, %subview_11 : memref<?x16xbf16, #gpu.address_space<workgroup>> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    return
  }
}

// -----

// The same mask with 0 instead of -inf for the masked scores: a tile masked
// whole adds exp(0 - m) to l and O, so skipping it would change them, and
// maskedIterationKeeps says so. Both loops keep their bound (2); a tile
// masked whole still computes no Q K^T (its values are not read).

// CHECK-LABEL: func.func @masked_to_zero
// CHECK-NOT: arith.floordivsi
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.if %{{.*}} -> (f32,
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.if %{{.*}} -> (f32,
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: return

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @masked_to_zero(%arg0: memref<1x1x100x16xbf16>, %arg1: memref<1x1x100x16xbf16>, %arg2: memref<1x1x100x16xbf16>, %arg3: memref<1x1x100x16xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.500000e-01 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %c100 = arith.constant 100 : index
    %c64 = arith.constant 64 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1, 2], [3]] : memref<1x1x100x16xbf16> into memref<100x16xbf16>
    scf.forall (%arg4) in (2) {
      %0 = arith.muli %arg4, %c64 : index
      %1 = arith.subi %c100, %0 : index
      %2 = arith.minsi %1, %c64 : index
      %alloc = memref.alloc(%2) {alignment = 64 : i64} : memref<?xindex, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%alloc : memref<?xindex, #gpu.address_space<workgroup>>) {
      ^bb0(%out: index):
        %3 = linalg.index 0 : index
        %4 = arith.addi %3, %0 : index
        linalg.yield %4 : index
      }
      %subview = memref.subview %collapse_shape[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      %alloc_5 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
      %alloc_8 = memref.alloc(%2) : memref<?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_6 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_12 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_12 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_19: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_19 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_14 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map4, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_13 : memref<?xindex, #gpu.address_space<workgroup>>, memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: index, %in_19: f32, %out: f32):
          %6 = linalg.index 1 : index
          %7 = arith.mulf %in_19, %cst_0 : f32
          %8 = arith.addi %6, %3 : index
          %9 = arith.cmpi sle, %8, %in : index
          %10 = arith.select %9, %7, %cst : f32
          linalg.yield %10 : f32
        }
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map5, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_14 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %out, %in : f32
          linalg.yield %6 : f32
        }
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map5, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%alloc_14, %alloc_15 : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_16 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_19, %cst_1 : f32
          %7 = arith.select %6, %cst, %in_19 : f32
          %8 = arith.subf %in, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.addf %out, %9 : f32
          linalg.yield %10 : f32
        }
        %alloc_17 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%alloc_7, %alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %out: f32):
          %6 = arith.maximumf %in, %in_19 : f32
          linalg.yield %6 : f32
        }
        %alloc_18 = memref.alloc(%2) {alignment = 64 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map], iterator_types = ["parallel"]} ins(%alloc_8, %alloc_7, %alloc_17, %alloc_16, %alloc_15 : memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_18 : memref<?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_19: f32, %in_20: f32, %in_21: f32, %in_22: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_20, %cst_1 : f32
          %7 = arith.select %6, %cst, %in_20 : f32
          %8 = arith.subf %in_22, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.mulf %in_21, %9 : f32
          %11 = arith.subf %in_19, %7 : f32
          %12 = math.exp %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.addf %13, %10 : f32
          linalg.yield %14 : f32
        }
        linalg.copy ins(%alloc_17 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<?xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_18 : memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<?xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_9 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %3 = arith.muli %arg5, %c64 : index
        %4 = arith.subi %c100, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_12 = memref.subview %collapse_shape_2[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_12 : memref<?x16xbf16, strided<[16, 1], offset: ?>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_13 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_17: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_17 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_14 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map4, #map5, #map4, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_13, %alloc_7, %alloc_8 : memref<?xindex, #gpu.address_space<workgroup>>, memref<?x?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>, memref<?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<?x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: index, %in_17: f32, %in_18: f32, %in_19: f32, %out: bf16):
          %6 = linalg.index 1 : index
          %7 = arith.mulf %in_17, %cst_0 : f32
          %8 = arith.addi %6, %3 : index
          %9 = arith.cmpi sle, %8, %in : index
          %10 = arith.select %9, %7, %cst : f32
          %11 = arith.subf %10, %in_18 : f32
          %12 = math.exp %11 : f32
          %13 = arith.divf %12, %in_19 : f32
          %14 = arith.truncf %13 : f32 to bf16
          linalg.yield %14 : bf16
        }
        %subview_15 = memref.subview %collapse_shape_3[%3, 0] [%5, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map1, #map6, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_14, %subview_15 : memref<?x?xbf16, #gpu.address_space<workgroup>>, memref<?x16xbf16, strided<[16, 1], offset: ?>>) outs(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_17: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_17 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_16 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %out, %in : f32
          linalg.yield %6 : f32
        }
      }
      %alloc_10 = memref.alloc(%2) {alignment = 64 : i64} : memref<?x16xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_9 : memref<?x16xf32, #gpu.address_space<workgroup>>) outs(%alloc_10 : memref<?x16xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %3 = arith.truncf %in : f32 to bf16
        linalg.yield %3 : bf16
      }
      %subview_11 = memref.subview %collapse_shape_4[%0, 0] [%2, 16] [1, 1] : memref<100x16xbf16> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
      memref.copy %alloc_10, %subview_11 : memref<?x16xbf16, #gpu.address_space<workgroup>> to memref<?x16xbf16, strided<[16, 1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    return
  }
}
