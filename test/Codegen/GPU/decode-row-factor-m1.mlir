// RUN: bb-opt %s --gpu-decode-row-factor | FileCheck %s
// RUN: bb-opt %s --gpu-decode-row-factor --gpu-split-reductions | FileCheck %s --check-prefix=SPLIT

// RMSNorm + projection at M1 (the IR of bb-compile before the pass): the
// converter dropped the unit rows dimension, so the dot is a vector-matrix
// product with a 0-d statistic. The pass gives the block its unit row
// back (UnitRows.h) and leaves rstd to the accumulator, which the code
// after the loop still reads as [64]: the loop writes it through a
// memref.expand_shape.
// CHECK-LABEL: func.func @rmsnorm_matmul_m1_k4096_n4096
// CHECK:       %[[SUMS:.*]] = memref.alloc() {{.*}} : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[ACC:.*]] = memref.alloc() {{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[ROW:.*]] = memref.expand_shape %[[ACC]]
// CHECK:       scf.for
// CHECK:         linalg.generic {{.*}} outs(%[[SUMS]]
// CHECK:         linalg.generic {{.*}} outs(%[[ROW]]
// CHECK:       }
// CHECK:       linalg.generic {{.*}} ins(%[[SUMS]] : {{.*}}) outs(%[[ROW]] :
// CHECK:         math.rsqrt

// gpu-split-reductions combines both accumulators, the one written through
// the expand_shape too (it took that view for a temporary before, and the
// last block's epilogue summed its own split alone: 0.94 relative error on
// the H200).
// SPLIT-LABEL: func.func @rmsnorm_matmul_m1_k4096_n4096
// SPLIT-DAG:   memref.alloc() : memref<8x64x1xf32>
// SPLIT-DAG:   memref.alloc() : memref<8x64x64xf32>
// SPLIT:       scf.forall (%{{.*}}, %{{.*}}) in (64, 8)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
#map2 = affine_map<() -> ()>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1) -> (d1, d0)>
#map5 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @rmsnorm_matmul_m1_k4096_n4096(%arg0: memref<1x4096xbf16>, %arg1: memref<4096xbf16>, %arg2: memref<4096x4096xbf16>, %arg3: memref<1x4096xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 4.096000e+03 : f32
    %c128 = arith.constant 128 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c64 = arith.constant 64 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1]] : memref<1x4096xbf16> into memref<4096xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg3 [[0, 1]] : memref<1x4096xbf16> into memref<4096xbf16>
    scf.forall (%arg4) in (64) {
      %0 = arith.muli %arg4, %c64 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<f32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<f32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c32 step %c1 {
        %1 = arith.muli %arg5, %c128 : index
        %subview_5 = memref.subview %collapse_shape[%1] [128] [1] : memref<4096xbf16> to memref<128xbf16, strided<[1], offset: ?>>
        %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<f32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<f32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%subview_5 : memref<128xbf16, strided<[1], offset: ?>>) outs(%alloc_6 : memref<f32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %3 = arith.mulf %2, %2 : f32
          %4 = arith.addf %out, %3 : f32
          linalg.yield %4 : f32
        }
        linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%alloc_6 : memref<f32, #gpu.address_space<workgroup>>) outs(%alloc : memref<f32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<64xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c32 step %c1 {
        %1 = arith.muli %arg5, %c128 : index
        %subview_5 = memref.subview %collapse_shape[%1] [128] [1] : memref<4096xbf16> to memref<128xbf16, strided<[1], offset: ?>>
        %subview_6 = memref.subview %arg1[%1] [128] [1] : memref<4096xbf16> to memref<128xbf16, strided<[1], offset: ?>>
        %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<128xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map, #map1, #map, #map], iterator_types = ["parallel"]} ins(%subview_5, %alloc, %subview_6 : memref<128xbf16, strided<[1], offset: ?>>, memref<f32, #gpu.address_space<workgroup>>, memref<128xbf16, strided<[1], offset: ?>>) outs(%alloc_7 : memref<128xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: f32, %in_11: bf16, %out: bf16):
          %2 = arith.extf %in_11 : bf16 to f32
          %3 = arith.divf %in_10, %cst_0 : f32
          %4 = arith.addf %3, %cst : f32
          %5 = math.rsqrt %4 : f32
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.mulf %6, %5 : f32
          %8 = arith.mulf %7, %2 : f32
          %9 = arith.truncf %8 : f32 to bf16
          linalg.yield %9 : bf16
        }
        %subview_8 = memref.subview %arg2[%1, %0] [128, 64] [1, 1] : memref<4096x4096xbf16> to memref<128x64xbf16, strided<[4096, 1], offset: ?>>
        %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_1 : f32) outs(%alloc_9 : memref<64xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "reduction"]} ins(%alloc_7, %subview_8 : memref<128xbf16, #gpu.address_space<workgroup>>, memref<128x64xbf16, strided<[4096, 1], offset: ?>>) outs(%alloc_9 : memref<64xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_10: bf16, %out: f32):
          %2 = arith.extf %in : bf16 to f32
          %3 = arith.extf %in_10 : bf16 to f32
          %4 = arith.mulf %2, %3 : f32
          %5 = arith.addf %out, %4 : f32
          linalg.yield %5 : f32
        }
        linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%alloc_9 : memref<64xf32, #gpu.address_space<workgroup>>) outs(%alloc_3 : memref<64xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %2 = arith.addf %out, %in : f32
          linalg.yield %2 : f32
        }
      }
      %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<64xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%alloc_3 : memref<64xf32, #gpu.address_space<workgroup>>) outs(%alloc_4 : memref<64xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %1 = arith.truncf %in : f32 to bf16
        linalg.yield %1 : bf16
      }
      %subview = memref.subview %collapse_shape_2[%0] [64] [1] : memref<4096xbf16> to memref<64xbf16, strided<[1], offset: ?>>
      memref.copy %alloc_4, %subview : memref<64xbf16, #gpu.address_space<workgroup>> to memref<64xbf16, strided<[1], offset: ?>>
    } {mapping = [#gpu.block<x>]}
    return
  }
}


