// RUN: bb-opt %s --gpu-decode-row-factor | FileCheck %s
// RUN: bb-opt %s --gpu-decode-row-factor --gpu-split-reductions | FileCheck %s --check-prefix=SPLIT
// RUN: bb-opt %s --gpu-decode-row-factor --gpu-decode-gemv | FileCheck %s --check-prefix=GEMV

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// RMSNorm + projection at M16 as a decode block: the sum of squares of x's
// rows in a loop before the dot loop, read by the prologue only through
// rstd, a factor of the rounded product. The row factor moves to the
// accumulator (after the dot loop), the prologue rounds x * gamma, and the
// statistics' work moves into the dot loop, reading the prologue's view of
// x: gpu-split-reductions then combines the sums with the accumulator.
// CHECK-LABEL: func.func @rmsnorm_decode
// CHECK:       %[[SUMS:.*]] = memref.alloc() {{.*}} : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[SUMS]]
// CHECK:       %[[ACC:.*]] = memref.alloc() {{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK:       scf.for
// CHECK-NOT:   scf.for
// CHECK:         %[[X:.*]] = memref.subview %arg0
// CHECK:         %[[GAMMA:.*]] = memref.subview %arg1
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[GAMMA]] : {{.*}}) outs(%[[A:.*]] : memref<16x256xbf16
// CHECK-NEXT:    ^bb0(%[[XE:[^:]+]]: bf16, %[[GE:[^:]+]]: bf16, %{{.*}}: bf16):
// CHECK-DAG:       %[[XF:.*]] = arith.extf %[[XE]] :
// CHECK-DAG:       %[[GF:.*]] = arith.extf %[[GE]] :
// CHECK:           %[[P:.*]] = arith.mulf %[[XF]], %[[GF]]
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[R]]
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[PARTIAL:.*]] : memref<16xf32
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : {{.*}}) outs(%[[PARTIAL]]
// CHECK:         linalg.generic {{.*}} ins(%[[PARTIAL]] : {{.*}}) outs(%[[SUMS]]
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %{{.*}} : {{.*}}) outs(%[[DOT:.*]] :
// CHECK:         linalg.generic {{.*}} ins(%[[DOT]] : {{.*}}) outs(%[[ACC]]
// CHECK:       linalg.generic {{.*}} ins(%[[SUMS]] : {{.*}}) outs(%[[ACC]] :
// CHECK-NEXT:  ^bb0(%[[S:[^:]+]]: f32, %[[O:[^:]+]]: f32):
// CHECK-NEXT:    %[[MEAN:.*]] = arith.divf %[[S]]
// CHECK-NEXT:    %[[VAR:.*]] = arith.addf %[[MEAN]]
// CHECK-NEXT:    %[[RSTD:.*]] = math.rsqrt %[[VAR]]
// CHECK-NEXT:    %[[SCALED:.*]] = arith.mulf %[[O]], %[[RSTD]]
// CHECK-NEXT:    linalg.yield %[[SCALED]]
// CHECK:       linalg.generic {{.*}} ins(%[[ACC]] : {{.*}})
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.truncf

// The split combines both accumulators: the sums' partials (4 splits x 2
// blocks x 16) beside the accumulator's, and the row factor after the
// combine, in the last block's epilogue.
// SPLIT-LABEL: func.func @rmsnorm_decode
// SPLIT-DAG:   memref.alloc() : memref<4x2x16xf32>
// SPLIT-DAG:   memref.alloc() : memref<4x2x16x64xf32>
// SPLIT:       scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// SPLIT:         memref.atomic_rmw addi
// SPLIT:         scf.if
// SPLIT:           math.rsqrt
// gpu-decode-gemv takes the loop with its sum of squares: each lane adds
// the squares of the x elements of its A fragments (rows g and g + 8) into
// two f32 carried by the loop; after it, two xor shuffles per row sum a
// row's four lanes, lane q = 0 stores the sums into its warp's slot, and
// after the barrier the block's first 16 threads add the 4 slots of their
// row into the block's tile in warp order.
// GEMV-LABEL: func.func @rmsnorm_decode
// GEMV:       %[[SUMS:.*]] = memref.alloc() {{.*}} : memref<16xf32, #gpu.address_space<workgroup>>
// GEMV:       %[[SQSLOTS:.*]] = memref.alloc() : memref<4x16xf32, #gpu.address_space<workgroup>>
// GEMV:       %[[LOOP:.*]]:56 = scf.for
// GEMV:         arith.mulf %[[E:.*]], %[[E]] fastmath<contract> : f32
// GEMV:         nvvm.mma.sync
// GEMV:       gpu.shuffle  xor %[[LOOP]]#54, %c1_i32
// GEMV:       gpu.shuffle  xor
// GEMV:       gpu.shuffle  xor %[[LOOP]]#55, %c1_i32
// GEMV:       gpu.shuffle  xor
// GEMV:       scf.if
// GEMV-NEXT:    memref.store %{{.*}}, %[[SQSLOTS]][%{{.*}}, %{{.*}}]
// GEMV:       gpu.barrier
// GEMV:       scf.if
// GEMV:         %[[OLD:.*]] = memref.load %[[SUMS]]
// GEMV:         %[[SQ0:.*]] = memref.load %[[SQSLOTS]][%c0
// GEMV-NEXT:    arith.addf %[[OLD]], %[[SQ0]] : f32
// GEMV-COUNT-3: memref.load %[[SQSLOTS]]
// GEMV:         memref.store %{{.*}}, %[[SUMS]]
func.func @rmsnorm_decode(%arg0: memref<16x4096xbf16>, %arg1: memref<4096xbf16>, %arg2: memref<4096x128xbf16>, %arg3: memref<16x128xbf16>) {
  %cst = arith.constant 9.99999997E-7 : f32
  %cst_0 = arith.constant 4.096000e+03 : f32
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.forall (%arg5) in (2) {
    %0 = arith.muli %arg5, %c64 : index
    %sums = memref.alloc() {alignment = 64 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%sums : memref<16xf32, #gpu.address_space<workgroup>>)
    scf.for %arg6 = %c0 to %c16 step %c1 {
      %1 = arith.muli %arg6, %c256 : index
      %x = memref.subview %arg0[0, %1] [16, 256] [1, 1] : memref<16x4096xbf16> to memref<16x256xbf16, strided<[4096, 1], offset: ?>>
      %partial = memref.alloc() {alignment = 64 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%partial : memref<16xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x256xbf16, strided<[4096, 1], offset: ?>>) outs(%partial : memref<16xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.mulf %2, %2 : f32
        %4 = arith.addf %out, %3 : f32
        linalg.yield %4 : f32
      }
      linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%partial : memref<16xf32, #gpu.address_space<workgroup>>) outs(%sums : memref<16xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: f32):
        %2 = arith.addf %out, %in : f32
        linalg.yield %2 : f32
      }
    }
    %acc = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>)
    scf.for %arg6 = %c0 to %c16 step %c1 {
      %1 = arith.muli %arg6, %c256 : index
      %x = memref.subview %arg0[0, %1] [16, 256] [1, 1] : memref<16x4096xbf16> to memref<16x256xbf16, strided<[4096, 1], offset: ?>>
      %g = memref.subview %arg1[%1] [256] [1] : memref<4096xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %a = memref.alloc() {alignment = 64 : i64} : memref<16x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sums, %g : memref<16x256xbf16, strided<[4096, 1], offset: ?>>, memref<16xf32, #gpu.address_space<workgroup>>, memref<256xbf16, strided<[1], offset: ?>>) outs(%a : memref<16x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %s: f32, %gg: bf16, %out: bf16):
        %2 = arith.extf %gg : bf16 to f32
        %3 = arith.divf %s, %cst_0 : f32
        %4 = arith.addf %3, %cst : f32
        %5 = math.rsqrt %4 : f32
        %6 = arith.extf %in : bf16 to f32
        %7 = arith.mulf %6, %5 : f32
        %8 = arith.mulf %7, %2 : f32
        %9 = arith.truncf %8 : f32 to bf16
        linalg.yield %9 : bf16
      }
      %w = memref.subview %arg2[%1, %0] [256, 64] [1, 1] : memref<4096x128xbf16> to memref<256x64xbf16, strided<[128, 1], offset: ?>>
      %dot = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<16x256xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, strided<[128, 1], offset: ?>>) outs(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_9: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.extf %in_9 : bf16 to f32
        %4 = arith.mulf %2, %3 : f32
        %5 = arith.addf %out, %4 : f32
        linalg.yield %5 : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: f32):
        %2 = arith.addf %out, %in : f32
        linalg.yield %2 : f32
      }
    }
    %o = memref.alloc() {alignment = 64 : i64} : memref<16x64xbf16, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>) outs(%o : memref<16x64xbf16, #gpu.address_space<workgroup>>) {
    ^bb0(%in: f32, %out: bf16):
      %1 = arith.truncf %in : f32 to bf16
      linalg.yield %1 : bf16
    }
    %out = memref.subview %arg3[0, %0] [16, 64] [1, 1] : memref<16x128xbf16> to memref<16x64xbf16, strided<[128, 1], offset: ?>>
    memref.copy %o, %out : memref<16x64xbf16, #gpu.address_space<workgroup>> to memref<16x64xbf16, strided<[128, 1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}

// A prologue that reads the row input outside the row factor (x - s / K,
// a mean as LayerNorm's) keeps its statistics loop and its body.
// CHECK-LABEL: func.func @row_input_outside_the_factor
// CHECK:       scf.for
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:       scf.for
// CHECK:         math.rsqrt
// CHECK:         arith.subf
// CHECK:         arith.truncf
// CHECK-NOT:   math.rsqrt
// CHECK:       return
func.func @row_input_outside_the_factor(%arg0: memref<16x4096xbf16>, %arg1: memref<4096xbf16>, %arg2: memref<4096x128xbf16>, %arg3: memref<16x128xbf16>) {
  %cst = arith.constant 9.99999997E-7 : f32
  %cst_0 = arith.constant 4.096000e+03 : f32
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.forall (%arg5) in (2) {
    %0 = arith.muli %arg5, %c64 : index
    %sums = memref.alloc() {alignment = 64 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%sums : memref<16xf32, #gpu.address_space<workgroup>>)
    scf.for %arg6 = %c0 to %c16 step %c1 {
      %1 = arith.muli %arg6, %c256 : index
      %x = memref.subview %arg0[0, %1] [16, 256] [1, 1] : memref<16x4096xbf16> to memref<16x256xbf16, strided<[4096, 1], offset: ?>>
      %partial = memref.alloc() {alignment = 64 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%partial : memref<16xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x256xbf16, strided<[4096, 1], offset: ?>>) outs(%partial : memref<16xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.mulf %2, %2 : f32
        %4 = arith.addf %out, %3 : f32
        linalg.yield %4 : f32
      }
      linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%partial : memref<16xf32, #gpu.address_space<workgroup>>) outs(%sums : memref<16xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: f32):
        %2 = arith.addf %out, %in : f32
        linalg.yield %2 : f32
      }
    }
    %acc = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>)
    scf.for %arg6 = %c0 to %c16 step %c1 {
      %1 = arith.muli %arg6, %c256 : index
      %x = memref.subview %arg0[0, %1] [16, 256] [1, 1] : memref<16x4096xbf16> to memref<16x256xbf16, strided<[4096, 1], offset: ?>>
      %g = memref.subview %arg1[%1] [256] [1] : memref<4096xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %a = memref.alloc() {alignment = 64 : i64} : memref<16x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sums, %g : memref<16x256xbf16, strided<[4096, 1], offset: ?>>, memref<16xf32, #gpu.address_space<workgroup>>, memref<256xbf16, strided<[1], offset: ?>>) outs(%a : memref<16x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %s: f32, %gg: bf16, %out: bf16):
        %2 = arith.extf %gg : bf16 to f32
        %3 = arith.divf %s, %cst_0 : f32
        %4 = arith.addf %3, %cst : f32
        %5 = math.rsqrt %4 : f32
        %6 = arith.extf %in : bf16 to f32
        %m = arith.subf %6, %3 : f32
        %7 = arith.mulf %m, %5 : f32
        %8 = arith.mulf %7, %2 : f32
        %9 = arith.truncf %8 : f32 to bf16
        linalg.yield %9 : bf16
      }
      %w = memref.subview %arg2[%1, %0] [256, 64] [1, 1] : memref<4096x128xbf16> to memref<256x64xbf16, strided<[128, 1], offset: ?>>
      %dot = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<16x256xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, strided<[128, 1], offset: ?>>) outs(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_9: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.extf %in_9 : bf16 to f32
        %4 = arith.mulf %2, %3 : f32
        %5 = arith.addf %out, %4 : f32
        linalg.yield %5 : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%dot : memref<16x64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: f32):
        %2 = arith.addf %out, %in : f32
        linalg.yield %2 : f32
      }
    }
    %o = memref.alloc() {alignment = 64 : i64} : memref<16x64xbf16, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<16x64xf32, #gpu.address_space<workgroup>>) outs(%o : memref<16x64xbf16, #gpu.address_space<workgroup>>) {
    ^bb0(%in: f32, %out: bf16):
      %1 = arith.truncf %in : f32 to bf16
      linalg.yield %1 : bf16
    }
    %out = memref.subview %arg3[0, %0] [16, 64] [1, 1] : memref<16x128xbf16> to memref<16x64xbf16, strided<[128, 1], offset: ?>>
    memref.copy %o, %out : memref<16x64xbf16, #gpu.address_space<workgroup>> to memref<16x64xbf16, strided<[128, 1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}
