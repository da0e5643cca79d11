// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul="fragment-epilogue=false prologue-registers=false prologue-ahead=false" | FileCheck %s
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul=group-rows=0 | FileCheck %s --check-prefix=ROWS
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul=threads=256 | FileCheck %s --check-prefix=THREADS
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul | FileCheck %s --check-prefixes=FRAG,REGA
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul="fragment-epilogue=false prologue-registers=false" | FileCheck %s --check-prefix=AHEAD
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul=prologue-row-scale=false | FileCheck %s --check-prefix=EXACT
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul="fragment-epilogue=false prologue-registers=false prologue-ahead=false prologue-contract-fma=false" | FileCheck %s --check-prefix=WRITTEN
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul=producer=true | FileCheck %s --check-prefix=PRODUCER
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul="producer=true persistent=true sms=3" | FileCheck %s --check-prefix=PERSIST
// RUN: bb-opt %s --split-input-file --gpu-warpgroup-matmul="producer=true persistent=true stream-k=true stream-k-min-waves=1 sms=3" | FileCheck %s --check-prefix=STREAMK

// A block of one 128 x 128 tile of A[256, 256] * B[256, 384] (k loop of 4
// steps of 64) as bufferization leaves it: the loop becomes the TMA ring and
// wgmma mainloop, the accumulator a fresh tile that the epilogue reads.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @g(%arg0: memref<256x256xbf16>, %arg1: memref<256x384xbf16>, %arg2: memref<256x384xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 3) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<64x128xbf16, strided<[384, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
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
      %subview = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<256x384xbf16> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @g
// CHECK:      %[[A:.*]] = memref.cast %arg0 : memref<256x256xbf16> to memref<*xbf16>
// CHECK:      %[[DA:.*]] = nvgpu.tma.create.descriptor %[[A]] box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK:      %[[B:.*]] = memref.cast %arg1 : memref<256x384xbf16> to memref<*xbf16>
// CHECK:      %[[DB:.*]] = nvgpu.tma.create.descriptor %[[B]] box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:      scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 3) {
// Grouped launch order: linear id i * 3 + j, groups of 8 rows of tiles.
// CHECK:        %[[ROW0:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:        %[[LIN:.*]] = arith.addi %[[ROW0]], %[[J]] : index
// CHECK:        arith.minui
// CHECK:        %[[M0:.*]] = arith.muli %{{.*}}, %c128 : index
// CHECK:        %[[N0:.*]] = arith.muli %{{.*}}, %c128 : index
// CHECK-NOT:    linalg.fill
// CHECK:        %[[RING:.*]] = memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
// CHECK:        %[[TID:.*]] = gpu.thread_id  x
// CHECK:        %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK:        %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %{{.*}}, predicate = %[[LEADER]]
// CHECK:        nvgpu.tma.prefetch.descriptor %[[DA]], predicate = %[[LEADER]]
// CHECK:        nvgpu.tma.prefetch.descriptor %[[DB]], predicate = %[[LEADER]]
// CHECK:        gpu.barrier
// Prologue: steps 0 and 1 in flight (A box at [k, m0], B boxes at [n0, k]
// and [n0 + 64, k]: coordinates innermost first).
// CHECK:        nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %{{.*}}, predicate = %[[LEADER]]
// CHECK:        nvgpu.tma.async.load %[[DA]][%{{.*}}, %[[M0]]], %[[BARS]][%{{.*}}] to %{{.*}}, predicate = %[[LEADER]]
// CHECK:        nvgpu.tma.async.load %[[DB]][%[[N0]], %{{.*}}], %[[BARS]]
// CHECK:        nvgpu.tma.async.load %[[DB]][%{{.*}}, %{{.*}}], %[[BARS]]
// CHECK:        nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-3: nvgpu.tma.async.load
// CHECK:        %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK:        %[[ACC:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C:.*]] = %[[INIT]])
// CHECK:          nvgpu.mbarrier.try_wait.parity %[[BARS]][%{{.*}}], %{{.*}}, %{{.*}}
// CHECK:          %[[WA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DA]]
// CHECK:          %[[WB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DB]]
// CHECK:          %[[D:.*]] = nvgpu.warpgroup.mma %[[WA]], %[[WB]], %[[C]] {transposeB}
// CHECK:          scf.if
// CHECK:            nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-3:    nvgpu.tma.async.load
// CHECK:          scf.yield %[[D]]
// CHECK:        nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:   gpu.barrier
// CHECK-NEXT:   %[[RESULT:.*]] = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   %[[REGS:.*]] = builtin.unrealized_conversion_cast %[[ACC]]
// Each register pair (rows 16 (t / 32) + (t % 32) / 4 + 8 i (+ 64), columns
// 2 (t % 4) + 8 j and + 1) stored as 8 bytes.
// CHECK-COUNT-64: vector.store %{{.*}}, %[[RESULT]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT:    vector.store
// CHECK:        gpu.barrier
// The epilogue reads the new tile.
// CHECK:        linalg.generic {{.*}} ins(%[[RESULT]] : memref<128x128xf32, #gpu.address_space<workgroup>>)
// CHECK:          arith.truncf
// CHECK:        memref.copy

// With fragment-epilogue (the default), the bf16 cast runs on the
// accumulator registers: thread t holds rows 16 (t / 32) + (t % 32) / 4 (+ 8,
// + 64, + 72) and columns 2 (t % 4) + 8 j (+ 1) of the tile; each pair of
// columns is packed into an i32, the four lanes of a quad exchange them
// (xor 1, 2, 3) so that lane q holds columns 8 q to 8 q + 7 of each group of
// 32, stored with one 16-byte store straight into the global result,
// without a bounds check (a full tile).
// FRAG-LABEL: func.func @g
// FRAG:        %[[ACC:.*]] = scf.for
// FRAG:        nvvm.wgmma.wait.group.sync.aligned 0
// FRAG-NEXT:   gpu.barrier
// FRAG-NOT:    memref.alloc
// FRAG:        %[[OUT:.*]] = memref.subview %arg2
// FRAG:        %[[REGS:.*]] = builtin.unrealized_conversion_cast %[[ACC]] : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>
// FRAG:        %[[TID:.*]] = gpu.thread_id  x
// FRAG:        %[[WARP:.*]] = arith.divui %[[TID]], %c32{{[_0-9]*}}
// FRAG:        %[[LANE:.*]] = arith.remui %[[TID]], %c32{{[_0-9]*}}
// FRAG:        %[[W16:.*]] = arith.muli %[[WARP]], %c16{{[_0-9]*}}
// FRAG:        %[[QUAD:.*]] = arith.divui %[[LANE]], %c4{{[_0-9]*}}
// FRAG:        %[[ROW:.*]] = arith.addi %[[W16]], %[[QUAD]]
// FRAG:        %[[LANE4:.*]] = arith.remui %[[LANE]], %c4{{[_0-9]*}}
// FRAG:        arith.muli %[[LANE4]], %c2{{[_0-9]*}}
// FRAG:        %[[Q:.*]] = arith.index_castui %[[LANE4]] : index to i32
// FRAG:        %[[TOP:.*]] = llvm.extractvalue %[[REGS]][0]
// FRAG:        %[[R0:.*]] = arith.addi %[[ROW]], %c0{{[_0-9]*}}
// FRAG:        %[[D0:.*]] = llvm.extractvalue %[[TOP]][0]
// FRAG:        %[[T0:.*]] = arith.truncf %[[D0]] : f32 to bf16
// FRAG:        %[[D1:.*]] = llvm.extractvalue %[[TOP]][1]
// FRAG:        %[[T1:.*]] = arith.truncf %[[D1]] : f32 to bf16
// FRAG:        %[[PAIR:.*]] = vector.from_elements %[[T0]], %[[T1]] : vector<2xbf16>
// FRAG:        %[[WORD:.*]] = vector.bitcast %[[PAIR]] : vector<2xbf16> to vector<1xi32>
// FRAG:        %[[P0:.*]] = vector.extract %[[WORD]][0] : i32 from vector<1xi32>
// The next groups of 8 columns: registers 4 and 5, 8 and 9, 12 and 13.
// FRAG:        llvm.extractvalue %[[TOP]][4]
// FRAG:        llvm.extractvalue %[[TOP]][5]
// FRAG:        %[[P1:.*]] = vector.extract
// FRAG:        llvm.extractvalue %[[TOP]][8]
// FRAG:        %[[P2:.*]] = vector.extract
// FRAG:        llvm.extractvalue %[[TOP]][13]
// FRAG:        %[[P3:.*]] = vector.extract
// FRAG:        %[[IS0:.*]] = arith.cmpi eq, %[[Q]], %c0_i32
// FRAG:        %[[IS1:.*]] = arith.cmpi eq, %[[Q]], %c1_i32
// FRAG:        %[[IS2:.*]] = arith.cmpi eq, %[[Q]], %c2_i32
// Lane q keeps pairs[q] (round 0), then sends pairs[q ^ r] in round r.
// FRAG:        %[[K2:.*]] = arith.select %[[IS2]], %[[P2]], %[[P3]]
// FRAG:        %[[K1:.*]] = arith.select %[[IS1]], %[[P1]], %[[K2]]
// FRAG:        %[[KEEP:.*]] = arith.select %[[IS0]], %[[P0]], %[[K1]]
// FRAG:        %[[S2:.*]] = arith.select %[[IS2]], %[[P3]], %[[P2]]
// FRAG:        %[[S1:.*]] = arith.select %[[IS1]], %[[P0]], %[[S2]]
// FRAG:        %[[SEND1:.*]] = arith.select %[[IS0]], %[[P1]], %[[S1]]
// FRAG:        %[[X1:.*]], %{{.*}} = gpu.shuffle  xor %[[SEND1]], %c1_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// FRAG:        %[[X2:.*]], %{{.*}} = gpu.shuffle  xor %{{.*}}, %c2_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// FRAG:        %[[X3:.*]], %{{.*}} = gpu.shuffle  xor %{{.*}}, %c3_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// Lane p's pair arrived in round p ^ q: word 0 for lane 0 is kept (q = 0),
// x1 (q = 1), x2, x3.
// FRAG:        %[[W02:.*]] = arith.select %[[IS2]], %[[X2]], %[[X3]]
// FRAG:        %[[W01:.*]] = arith.select %[[IS1]], %[[X1]], %[[W02]]
// FRAG:        %[[W0:.*]] = arith.select %[[IS0]], %[[KEEP]], %[[W01]]
// FRAG:        %[[C8Q:.*]] = arith.muli %[[LANE4]], %c8{{[_0-9]*}}
// FRAG:        %[[COL:.*]] = arith.addi %[[C8Q]], %c0{{[_0-9]*}}
// FRAG:        %[[WORDS:.*]] = vector.from_elements %[[W0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// FRAG:        %[[EIGHT:.*]] = vector.bitcast %[[WORDS]] : vector<4xi32> to vector<8xbf16>
// FRAG:        vector.store %[[EIGHT]], %[[OUT]][%[[R0]], %[[COL]]] {alignment = 16 : i64} : memref<128x128xbf16, strided<[384, 1], offset: ?>>, vector<8xbf16>
// 4 groups of 32 columns x 2 row halves x 2 m64 blocks.
// FRAG-COUNT-15: vector.store %{{.*}} : memref<128x128xbf16, strided<[384, 1], offset: ?>>, vector<8xbf16>
// FRAG-NOT:    vector.store
// FRAG-NOT:    scf.if
// FRAG-NOT:    memref.copy
// FRAG-NOT:    linalg.generic
// FRAG:        } {mapping

// One warpgroup (128 x 128): no producer form.
// PRODUCER-LABEL: func.func @g
// PRODUCER-NOT:     nvvm.setmaxregister
// PRODUCER-LABEL: func.func @rows64

// ROWS-LABEL: func.func @g
// ROWS:      scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 3) {
// ROWS-NEXT:   arith.muli %[[I]], %c128
// ROWS-NEXT:   arith.muli %[[J]], %c128
// ROWS:        nvgpu.warpgroup.mma

// One warpgroup is the whole block: other thread counts keep mma.sync.
// THREADS-LABEL: func.func @g
// THREADS-NOT: nvgpu
// THREADS:     linalg.generic

// -----

// Blocks of 64 rows are not the wgmma tile: left to mma.sync.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @rows64(%arg0: memref<256x256xbf16>, %arg1: memref<256x384xbf16>, %arg2: memref<256x384xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (4, 3) {
      %0 = arith.muli %arg3, %c64 : index
      %1 = arith.muli %arg4, %c128 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<64x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [64, 64] [1, 1] : memref<256x256xbf16> to memref<64x64xbf16, strided<[256, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<64x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<64x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<64x64xbf16, strided<[256, 1], offset: ?>>, memref<64x128xbf16, strided<[384, 1], offset: ?>>) outs(%alloc_3 : memref<64x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %out: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %out, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<64x128xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<64x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %3 = arith.addf %out, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<64x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<64x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<64x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %arg2[%0, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @rows64
// CHECK-NOT:   nvgpu
// CHECK:       linalg.generic

// -----

// An A tile staged in workgroup memory (a normalised A, written by the
// block) is not read by TMA: left to mma.sync.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @staged_a(%arg0: memref<256x256xbf16>, %arg1: memref<256x384xbf16>, %arg2: memref<256x384xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 3) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
        %staged = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        memref.copy %subview_1, %staged : memref<128x64xbf16, strided<[256, 1], offset: ?>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%staged, %subview_2 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[384, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
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
      %subview = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<256x384xbf16> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @staged_a
// CHECK-NOT:   nvgpu
// CHECK:       linalg.generic

// -----

// The reduced axis whole (K = 64): one dot straight into the zero-filled
// accumulator becomes the same mainloop of one step.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @whole_k(%arg0: memref<256x64xbf16>, %arg1: memref<64x256xbf16>, %arg2: memref<256x256xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 2) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %subview = memref.subview %arg0[%0, 0] [128, 64] [1, 1] : memref<256x64xbf16> to memref<128x64xbf16, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %1] [64, 128] [1, 1] : memref<64x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_0 : memref<128x64xbf16, strided<[64, 1], offset: ?>>, memref<64x128xbf16, strided<[256, 1], offset: ?>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_3: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.extf %in_3 : bf16 to f32
        %4 = arith.mulf %2, %3 : f32
        %5 = arith.addf %out, %4 : f32
        linalg.yield %5 : f32
      }
      %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_1 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview_2 = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<256x256xbf16> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      memref.copy %alloc_1, %subview_2 : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @whole_k
// CHECK-NOT:   linalg.fill
// CHECK:       nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c1{{.*}} step
// CHECK:         nvgpu.warpgroup.mma
// CHECK:       %[[RESULT:.*]] = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:       vector.store %{{.*}}, %[[RESULT]]
// CHECK-NOT:   linalg.generic {{.*}}"reduction"
// CHECK:       linalg.generic {{.*}} ins(%[[RESULT]] :
// CHECK:         arith.truncf

// -----

// Partial edge blocks (200 x 72 x 136 in blocks of 128 x 128 x 64): tile
// extents min(rest, 128); the loads zero-fill out of bounds, and the
// epilogue reads the valid corner of the full 128 x 128 result tile.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @edge(%arg0: memref<200x72xbf16>, %arg1: memref<72x136xbf16>, %arg2: memref<200x136xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c72 = arith.constant 72 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c136 = arith.constant 136 : index
    %c200 = arith.constant 200 : index
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 2) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.subi %c200, %0 : index
      %2 = arith.minsi %1, %c128 : index
      %3 = arith.muli %arg4, %c128 : index
      %4 = arith.subi %c136, %3 : index
      %5 = arith.minsi %4, %c128 : index
      %alloc = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<?x?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c2 step %c1 {
        %6 = arith.muli %arg5, %c64 : index
        %7 = arith.subi %c72, %6 : index
        %8 = arith.minsi %7, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %6] [%2, %8] [1, 1] : memref<200x72xbf16> to memref<?x?xbf16, strided<[72, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%6, %3] [%8, %5] [1, 1] : memref<72x136xbf16> to memref<?x?xbf16, strided<[136, 1], offset: ?>>
        %alloc_3 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<?x?xbf16, strided<[72, 1], offset: ?>>, memref<?x?xbf16, strided<[136, 1], offset: ?>>) outs(%alloc_3 : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %out: f32):
          %9 = arith.extf %in : bf16 to f32
          %10 = arith.extf %in_4 : bf16 to f32
          %11 = arith.mulf %9, %10 : f32
          %12 = arith.addf %out, %11 : f32
          linalg.yield %12 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %9 = arith.addf %out, %in : f32
          linalg.yield %9 : f32
        }
      }
      %alloc_0 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<?x?xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<?x?xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %6 = arith.truncf %in : f32 to bf16
        linalg.yield %6 : bf16
      }
      %subview = memref.subview %arg2[%0, %3] [%2, %5] [1, 1] : memref<200x136xbf16> to memref<?x?xbf16, strided<[136, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<?x?xbf16, strided<[136, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @edge
// CHECK:       scf.forall
// CHECK:         %[[EDGE_M:.*]] = arith.minsi %{{.*}}, %c128
// CHECK:         %[[EDGE_N:.*]] = arith.minsi %{{.*}}, %c128
// CHECK:         nvgpu.warpgroup.mma
// CHECK:         %[[RESULT:.*]] = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:         vector.store %{{.*}}, %[[RESULT]]
// CHECK:         %[[CORNER:.*]] = memref.subview %[[RESULT]][0, 0] [%[[EDGE_M]], %[[EDGE_N]]] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[CORNER]] :

// FRAG-LABEL: func.func @edge
// Partial edge blocks with fragment-epilogue: every lane computes and
// exchanges its pairs, and each 16-byte vector of 8 columns is stored only
// inside the valid corner (rows and columns of the result's view; its
// columns are a multiple of 8, as TMA's 16-byte rows make them), by a
// predicated store in straight-line code (inline PTX, its address from the
// view's strided metadata), not a branch: ptxas then schedules the
// epilogue as one block (the split grids' combine spilled ~1 KB with
// branches).
// FRAG:         %[[OUT:.*]] = memref.subview %arg2
// FRAG:         %[[VALID_M:.*]] = memref.dim %[[OUT]], %c0
// FRAG:         %[[VALID_N:.*]] = memref.dim %[[OUT]], %c1
// FRAG:         %[[ROW:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// FRAG:         gpu.shuffle  xor
// FRAG:         %[[COL:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// FRAG:         %[[ROW_IN:.*]] = arith.cmpi ult, %[[ROW]], %[[VALID_M]]
// FRAG:         %[[COL_IN:.*]] = arith.cmpi ult, %[[COL]], %[[VALID_N]]
// FRAG:         %[[IN:.*]] = arith.andi %[[ROW_IN]], %[[COL_IN]]
// FRAG-NOT:     scf.if
// FRAG:         memref.extract_strided_metadata %[[OUT]]
// FRAG:         %[[P:.*]] = arith.extui %[[IN]] : i1 to i32
// FRAG-NEXT:    llvm.inline_asm has_side_effects {{.*}}"{\0A .reg .pred p;\0A setp.ne.b32 p, $0, 0;\0A @p st.global.v4.b32 [$1], {$2, $3, $4, $5};\0A}", "r,l,r,r,r,r" %[[P]], %{{.*}} : (i32, !llvm.ptr<1>, i32, i32, i32, i32) -> ()
// FRAG-COUNT-15: llvm.inline_asm has_side_effects
// FRAG-NOT:     vector.store
// FRAG-NOT:     scf.if
// FRAG:         } {mapping

// -----

// A bias along n and ReLU with fragment-epilogue: the bias is loaded at each
// register's column, and the body of the epilogue op runs on the registers.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
  func.func @bias_relu(%arg0: memref<256x64xbf16>, %arg1: memref<64x256xbf16>, %arg2: memref<256xbf16>, %arg3: memref<256x256xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg4, %arg5) in (2, 2) {
      %0 = arith.muli %arg4, %c128 : index
      %1 = arith.muli %arg5, %c128 : index
      %subview = memref.subview %arg0[%0, 0] [128, 64] [1, 1] : memref<256x64xbf16> to memref<128x64xbf16, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %1] [64, 128] [1, 1] : memref<64x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_0 : memref<128x64xbf16, strided<[64, 1], offset: ?>>, memref<64x128xbf16, strided<[256, 1], offset: ?>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_3: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.extf %in_3 : bf16 to f32
        %4 = arith.mulf %2, %3 : f32
        %5 = arith.addf %out, %4 : f32
        linalg.yield %5 : f32
      }
      %bias = memref.subview %arg2[%1] [128] [1] : memref<256xbf16> to memref<128xbf16, strided<[1], offset: ?>>
      %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc, %bias : memref<128x128xf32, #gpu.address_space<workgroup>>, memref<128xbf16, strided<[1], offset: ?>>) outs(%alloc_1 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %b: bf16, %out: bf16):
        %2 = arith.extf %b : bf16 to f32
        %3 = arith.addf %in, %2 : f32
        %4 = arith.maximumf %3, %cst : f32
        %5 = arith.truncf %4 : f32 to bf16
        linalg.yield %5 : bf16
      }
      %subview_2 = memref.subview %arg3[%0, %1] [128, 128] [1, 1] : memref<256x256xbf16> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      memref.copy %alloc_1, %subview_2 : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// FRAG-LABEL: func.func @bias_relu
// FRAG:         %[[BIAS:.*]] = memref.subview %arg2
// FRAG:         %[[OUT:.*]] = memref.subview %arg3
// FRAG:         %[[ROW:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// FRAG:         %[[COL:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// FRAG:         %[[NEXT:.*]] = arith.addi %[[COL]], %c1{{.*}} : index
// FRAG:         %[[D0:.*]] = llvm.extractvalue %{{.*}}[0]
// FRAG:         %[[B0:.*]] = memref.load %[[BIAS]][%[[COL]]]
// FRAG:         %[[E0:.*]] = arith.extf %[[B0]]
// FRAG:         %[[S0:.*]] = arith.addf %[[D0]], %[[E0]]
// FRAG:         %[[M0:.*]] = arith.maximumf %[[S0]], %{{.*}}
// FRAG:         arith.truncf %[[M0]]
// FRAG:         %[[D1:.*]] = llvm.extractvalue %{{.*}}[1]
// FRAG:         memref.load %[[BIAS]][%[[NEXT]]]
// FRAG:         gpu.shuffle  xor
// FRAG:         vector.store %{{.*}}, %[[OUT]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<128x128xbf16, strided<[256, 1], offset: ?>>, vector<8xbf16>
// FRAG-COUNT-15: vector.store
// FRAG-NOT:     vector.store
// FRAG-NOT:     linalg.generic
// FRAG:         } {mapping

// CHECK-LABEL: func.func @bias_relu
// CHECK:         vector.store %{{.*}} : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK:         linalg.generic

// -----

// The accumulator is also a result (copied out in f32 beside its bf16
// cast): the epilogue is not one op on the accumulator, so even with
// fragment-epilogue the fragments go through the f32 tile.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @two_results(%arg0: memref<256x64xbf16>, %arg1: memref<64x256xbf16>, %arg2: memref<256x256xbf16>, %arg3: memref<256x256xf32>) attributes {blockbuster.num_inputs = 2 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg4, %arg5) in (2, 2) {
      %0 = arith.muli %arg4, %c128 : index
      %1 = arith.muli %arg5, %c128 : index
      %subview = memref.subview %arg0[%0, 0] [128, 64] [1, 1] : memref<256x64xbf16> to memref<128x64xbf16, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %1] [64, 128] [1, 1] : memref<64x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_0 : memref<128x64xbf16, strided<[64, 1], offset: ?>>, memref<64x128xbf16, strided<[256, 1], offset: ?>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_3: bf16, %out: f32):
        %2 = arith.extf %in : bf16 to f32
        %3 = arith.extf %in_3 : bf16 to f32
        %4 = arith.mulf %2, %3 : f32
        %5 = arith.addf %out, %4 : f32
        linalg.yield %5 : f32
      }
      %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_1 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview_2 = memref.subview %arg2[%0, %1] [128, 128] [1, 1] : memref<256x256xbf16> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      memref.copy %alloc_1, %subview_2 : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      %subview_3 = memref.subview %arg3[%0, %1] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      memref.copy %alloc, %subview_3 : memref<128x128xf32, #gpu.address_space<workgroup>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// FRAG-LABEL: func.func @two_results
// FRAG:         %[[RESULT:.*]] = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
// FRAG:         vector.store %{{.*}}, %[[RESULT]]
// FRAG:         linalg.generic {{.*}} ins(%[[RESULT]] :
// FRAG:         memref.copy %[[RESULT]]
// FRAG-NOT:     vector.store

// -----

// A block of one 128 x 256 tile (A[256, 256] * B[256, 512]): two consumer
// warpgroups of 64 rows (block_threads = 256), one m64n256k16 per warpgroup
// and k16, a ring of 4 slots of 48 KB, and a second mbarrier per slot that
// both warpgroups arrive on before thread 0 refills it.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @wide(%arg0: memref<256x256xbf16>, %arg1: memref<256x512xbf16>, %arg2: memref<256x512xbf16>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.forall (%arg3, %arg4) in (2, 2) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c256 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %subview_1 = memref.subview %arg0[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %subview_2 = memref.subview %arg1[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview_1, %subview_2 : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
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
      %subview = memref.subview %arg2[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// FRAG-LABEL: func.func @wide
// FRAG:         %[[DA:.*]] = nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// FRAG:         %[[DB:.*]] = nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// FRAG:         scf.forall
// FRAG:           %[[RING:.*]] = memref.alloc() {alignment = 1024 : i64} : memref<196608xi8, #gpu.address_space<workgroup>>
// FRAG:           %[[TID:.*]] = gpu.thread_id  x
// FRAG:           %[[LEADER:.*]] = arith.cmpi eq, %[[TID]]
// FRAG:           %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// FRAG-COUNT-4:   nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1{{[_0-9]*}}, predicate = %[[LEADER]]
// FRAG:           %[[RELEASED:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// FRAG-COUNT-4:   nvgpu.mbarrier.init %[[RELEASED]][%{{.*}}], %c2{{[_0-9]*}}, predicate = %[[LEADER]]
// Prologue: steps 0, 1 and 2, each the A box and four B boxes (48 KB).
// FRAG:           nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c49152{{[_0-9]*}}, predicate = %[[LEADER]]
// FRAG-COUNT-5:   nvgpu.tma.async.load
// FRAG:           nvgpu.mbarrier.arrive.expect_tx
// FRAG-COUNT-5:   nvgpu.tma.async.load
// FRAG:           nvgpu.mbarrier.arrive.expect_tx
// FRAG-COUNT-5:   nvgpu.tma.async.load
// Warpgroup w reads A from byte 64 x 64 x 2 w of the slot.
// FRAG:           %[[WG:.*]] = arith.divui %[[TID]], %c128{{[_0-9]*}}
// FRAG:           %[[AOFF:.*]] = arith.muli %[[WG]], %c8192{{[_0-9]*}}
// FRAG:           nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// FRAG:           scf.for %[[STEP:.*]] = {{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>) {
// FRAG:             nvgpu.mbarrier.try_wait.parity %[[FULL]]
// FRAG:             arith.addi %{{.*}}, %[[AOFF]]
// FRAG:             %[[WA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DA]] : memref<64x64xbf16, #gpu.address_space<workgroup>>
// FRAG:             %[[WB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DB]] : memref<64x256xbf16, #gpu.address_space<workgroup>>
// FRAG:             nvgpu.warpgroup.mma %[[WA]], %[[WB]], %{{.*}} {transposeB} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xbf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x256xf32>>
// The first thread of each warpgroup releases the slot of step - 1...
// FRAG:             arith.remui %[[TID]], %c128
// FRAG:             scf.if
// FRAG:               nvgpu.mbarrier.arrive %[[RELEASED]]
// ...and thread 0 waits for both releases before it refills that slot.
// FRAG:             scf.if
// FRAG:               arith.andi %[[LEADER]]
// FRAG:               scf.if
// FRAG:                 nvgpu.mbarrier.try_wait.parity %[[RELEASED]]
// FRAG:               nvgpu.mbarrier.arrive.expect_tx %[[FULL]]
// FRAG-COUNT-5:       nvgpu.tma.async.load
// 256 columns: 8 groups of 32 x 2 row halves of 16-byte stores.
// FRAG:           nvvm.wgmma.wait.group.sync.aligned 0
// FRAG:           builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !llvm.struct<(struct<(f32, {{.*}})>)>
// FRAG-COUNT-16:  vector.store %{{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// FRAG-NOT:       vector.store
// FRAG:         } {blockbuster.block_threads = 256 : i64, mapping = [#gpu.block<y>, #gpu.block<x>]}

// The producer form: a third warpgroup (threads 256 to 383) lowers its
// registers to 40 and its first thread fills every slot in turn, waiting for
// both consumer warpgroups' releases of the slot's previous use (steps past
// the ring's 4); the consumers raise theirs to 232, wait for each slot,
// multiply, release it, and run the epilogue in their branch, after a named
// barrier of their 256 threads.
// PRODUCER-LABEL: func.func @wide
// PRODUCER:         %[[TID:.*]] = gpu.thread_id  x
// PRODUCER:         %[[LEADER:.*]] = arith.cmpi eq, %[[TID]]
// PRODUCER:         %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// PRODUCER-COUNT-4: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1{{[_0-9]*}}, predicate = %[[LEADER]]
// PRODUCER:         %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// PRODUCER-COUNT-4: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c2{{[_0-9]*}}, predicate = %[[LEADER]]
// PRODUCER:         gpu.barrier
// PRODUCER-NOT:     nvgpu.tma.async.load
// PRODUCER:         %[[ISPRODUCER:.*]] = arith.cmpi uge, %[[TID]], %c256
// PRODUCER:         scf.if %[[ISPRODUCER]] {
// PRODUCER-NEXT:      nvvm.setmaxregister  decrease 40
// PRODUCER:           %[[ELECTED:.*]] = arith.cmpi eq, %[[TID]], %c256
// PRODUCER:           scf.if %[[ELECTED]] {
// PRODUCER:             scf.for %[[S:.*]] = %{{.*}} to %c4{{[_0-9]*}} step
// PRODUCER:               %[[REUSED:.*]] = arith.cmpi uge, %[[S]], %c4
// PRODUCER:               scf.if %[[REUSED]] {
// PRODUCER:                 nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// PRODUCER:               }
// PRODUCER:               nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c49152
// PRODUCER-COUNT-5:       nvgpu.tma.async.load {{.*}}, %[[FULL]]
// PRODUCER:         } else {
// PRODUCER-NEXT:      nvvm.setmaxregister  increase 232
// PRODUCER:           scf.for
// PRODUCER:             nvgpu.mbarrier.try_wait.parity %[[FULL]]
// PRODUCER:             nvgpu.warpgroup.mma
// PRODUCER:             scf.if
// PRODUCER:               arith.subi
// PRODUCER:               arith.remui
// PRODUCER-NEXT:          nvgpu.mbarrier.arrive %[[EMPTY]]
// PRODUCER-NOT:         nvgpu.tma.async.load
// PRODUCER:           nvvm.wgmma.wait.group.sync.aligned 0
// PRODUCER-NEXT:      %[[ID:.*]] = arith.constant 1 : i32
// PRODUCER-NEXT:      %[[COUNT:.*]] = arith.constant 256 : i32
// PRODUCER-NEXT:      nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
// PRODUCER-COUNT-16:  vector.store %{{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// PRODUCER-NEXT:    }
// PRODUCER-NEXT:  } {blockbuster.block_threads = 384 : i64, mapping = [#gpu.block<y>, #gpu.block<x>]}

// On a persistent grid (3 SMs for the 4 tiles): 3 blocks, the ring and its
// barriers set up once; the producer's tile loop (block, block + 3, ...)
// recomputes each tile's grouped row and column and counts the ring's uses
// on from the tiles before (4 steps each); the consumers' loop runs the old
// body per tile, its uses counted the same way, and releases the tile's
// last slot after wgmma.wait_group 0 so that the producer can refill it
// with the next tile's step.
// PERSIST-LABEL: func.func @wide
// PERSIST:         scf.forall (%[[BLOCK:.*]]) in (3) {
// PERSIST:           memref.alloc() {alignment = 1024 : i64} : memref<196608xi8
// PERSIST:           %[[FULL:.*]] = nvgpu.mbarrier.create
// PERSIST:           %[[EMPTY:.*]] = nvgpu.mbarrier.create
// PERSIST:           gpu.barrier
// PERSIST:           scf.if
// PERSIST-NEXT:        nvvm.setmaxregister  decrease 56
// PERSIST:             scf.if
// PERSIST-NEXT:          scf.for %[[PT:.*]] = %[[BLOCK]] to %c4{{[_0-9]*}} step %c3{{[_0-9]*}} {
// PERSIST:                 %[[PD:.*]] = arith.subi %[[PT]], %[[BLOCK]]
// PERSIST:                 %[[PI:.*]] = arith.divui %[[PD]], %c3
// PERSIST:                 %[[PBASE:.*]] = arith.muli %[[PI]], %c4
// PERSIST:                 scf.for %[[S:.*]] = %c0{{[_0-9]*}} to %c4{{[_0-9]*}} step
// PERSIST:                   %[[USE:.*]] = arith.addi %[[PBASE]], %[[S]]
// PERSIST:                   arith.cmpi uge, %[[USE]], %c4
// PERSIST:                   nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// PERSIST:                 nvgpu.mbarrier.arrive.expect_tx %[[FULL]]
// PERSIST-COUNT-5:         nvgpu.tma.async.load
// PERSIST:           } else {
// PERSIST-NEXT:        nvvm.setmaxregister  increase 224
// PERSIST-NEXT:        scf.for %[[CT:.*]] = %[[BLOCK]] to %c4{{[_0-9]*}} step %c3{{[_0-9]*}} {
// PERSIST:               %[[CD:.*]] = arith.subi %[[CT]], %[[BLOCK]]
// PERSIST:               %[[CI:.*]] = arith.divui %[[CD]], %c3
// PERSIST:               %[[CBASE:.*]] = arith.muli %[[CI]], %c4
// PERSIST:               scf.for
// PERSIST:                 arith.addi %[[CBASE]]
// PERSIST:                 nvgpu.mbarrier.try_wait.parity %[[FULL]]
// PERSIST:                 nvgpu.warpgroup.mma
// PERSIST:                 nvgpu.mbarrier.arrive %[[EMPTY]]
// PERSIST:               nvvm.wgmma.wait.group.sync.aligned 0
// PERSIST:               scf.if
// PERSIST:                 %[[LAST:.*]] = arith.addi %[[CBASE]], %c4
// PERSIST:                 arith.subi %[[LAST]], %c1
// PERSIST:                 nvgpu.mbarrier.arrive %[[EMPTY]]
// PERSIST:               nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// PERSIST-COUNT-16:      vector.store %{{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// PERSIST:           } {blockbuster.block_threads = 384 : i64, mapping = [#gpu.block<x>]}

// Stream-K (the same 4 tiles of 4 k steps on 3 blocks): no whole wave
// before the shared ones, so the blocks share the 16 k steps as [0, 5),
// [5, 10), [10, 16) (b 16 / 3 onwards), one work item per tile they touch;
// producer and consumers run the item's steps from its first, and a tile
// of two items is summed from two f32 partials by the item that counts in
// second on the tile's counter (a zeroed workspace) before its epilogue.
// STREAMK-LABEL: func.func @wide
// STREAMK:         %[[PARTIALS:.*]] = memref.alloc() : memref<262144xf32>
// STREAMK:         %[[COUNTERS:.*]] = memref.alloc() {blockbuster.workspace} : memref<4xi32>
// STREAMK:         scf.forall (%[[BLOCK:.*]]) in (3) {
// STREAMK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// STREAMK-NEXT:      %[[FIRST16:.*]] = arith.muli %[[BLOCK]], %[[C16]]
// STREAMK-NEXT:      %[[C3:.*]] = arith.constant 3 : index
// STREAMK-NEXT:      %[[FIRST:.*]] = arith.divui %[[FIRST16]], %[[C3]]
// STREAMK:           nvvm.setmaxregister  decrease 56
// STREAMK:             scf.for %{{.*}} = %c0{{[_0-9]*}} to %[[ITEMS:.*]] step
// STREAMK:               arith.maxui %[[FIRST]]
// STREAMK:               arith.minui
// STREAMK:               %[[PSTEPS:.*]] = arith.select
// STREAMK-NEXT:          %{{.*}} = arith.constant 1 : index
// STREAMK-NEXT:          %{{.*}} = arith.constant 0 : index
// STREAMK-NEXT:          scf.for %{{.*}} = %{{.*}} to %[[PSTEPS]] step
// STREAMK:                 nvgpu.mbarrier.try_wait.parity
// STREAMK:               nvgpu.mbarrier.arrive.expect_tx
// STREAMK-COUNT-5:       nvgpu.tma.async.load
// STREAMK:           nvvm.setmaxregister  increase 224
// STREAMK-NEXT:      scf.for %{{.*}} = %c0{{[_0-9]*}} to %[[ITEMS]] step
// STREAMK:             arith.maxui %[[FIRST]]
// STREAMK:             scf.for %{{.*}} = %{{.*}} to %[[CSTEPS:[^ ]*]] step %{{.*}} iter_args
// STREAMK:             nvvm.wgmma.wait.group.sync.aligned 0
// STREAMK:             nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// STREAMK:             %[[SHARED:.*]] = arith.cmpi ne, %[[CSTEPS]], %c4
// STREAMK-NEXT:        %[[FIXED:.*]]:2 = scf.if %[[SHARED]] -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>, i1) {
// STREAMK-COUNT-32:      vector.store %{{.*}}, %[[PARTIALS]][%{{.*}}] {alignment = 16 : i64} : memref<262144xf32>, vector<4xf32>
// STREAMK:               nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// STREAMK:               llvm.fence syncscope("device") acq_rel
// STREAMK-NEXT:          %{{.*}} = arith.constant 1 : i32
// STREAMK-NEXT:          memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]]
// STREAMK:               nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// STREAMK:               scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>) {
// STREAMK:                 %[[P0:.*]] = vector.load %[[PARTIALS]]
// STREAMK:                 %[[P1:.*]] = vector.load %[[PARTIALS]]
// STREAMK-NEXT:            arith.addf %[[P0]], %[[P1]] : vector<4xf32>
// STREAMK:             scf.if %[[FIXED]]#1 {
// STREAMK-COUNT-16:      vector.store %{{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// STREAMK:         } {blockbuster.block_threads = 384 : i64, mapping = [#gpu.block<x>]}

// Through shared memory: the two warpgroups' fragments land in one 128 x
// 256 f32 tile (warp w's rows 16 w onwards), 64 stores of 8 bytes per thread.
// CHECK-LABEL: func.func @wide
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         %[[RESULT:.*]] = memref.alloc() : memref<128x256xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-64: vector.store %{{.*}}, %[[RESULT]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT:     vector.store
// CHECK:         gpu.barrier
// CHECK:         linalg.generic {{.*}} ins(%[[RESULT]] :

// -----

// LayerNorm + matmul: the block computes its A tile in every k step from the
// raw X tile, the row statistics (global arrays of the statistics kernel,
// read at the block's rows) and gamma, beta (read at the step's columns),
// rounded to bf16. TMA stages the raw X tile; before the slot's wgmma the
// warpgroup rewrites it in place: thread t owns the 16-byte chunk t % 8 of
// rows t / 8 + 16 j (swizzled to chunk (t % 8) ^ ((t / 8) % 8)), the row
// part of the body (rsqrt of the variance) runs once per row before the
// loop, gamma and beta are one 16-byte load each per step, the element part
// runs on registers; then fence.proxy.async, the previous wgmma group
// waited for, a barrier, and only then the refill of the previous slot.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d1)>
  func.func @norm(%x: memref<256x256xbf16>, %gamma: memref<256xbf16>, %beta: memref<256xbf16>, %w: memref<256x384xbf16>, %out: memref<256x384xbf16>, %mean: memref<256xf32>, %var: memref<256xf32>) attributes {blockbuster.num_inputs = 4 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 3) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %mu = memref.subview %mean[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %ss = memref.subview %var[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %xt = memref.subview %x[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %gt = memref.subview %gamma[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %bt = memref.subview %beta[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %xn = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map5, #map5, #map3], iterator_types = ["parallel", "parallel"]} ins(%xt, %mu, %ss, %gt, %bt : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%xn : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %m: f32, %s: f32, %g: bf16, %b: bf16, %o: bf16):
          %3 = arith.extf %b : bf16 to f32
          %4 = arith.extf %g : bf16 to f32
          %5 = arith.divf %s, %n : f32
          %6 = arith.addf %5, %eps : f32
          %7 = math.rsqrt %6 : f32
          %8 = arith.extf %in : bf16 to f32
          %9 = arith.subf %8, %m : f32
          %10 = arith.mulf %9, %7 : f32
          %11 = arith.mulf %10, %4 : f32
          %12 = arith.addf %11, %3 : f32
          %13 = arith.truncf %12 : f32 to bf16
          linalg.yield %13 : bf16
        }
        %wt = memref.subview %w[%2, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xn, %wt : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[384, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %o: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %o, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %o: f32):
          %3 = arith.addf %o, %in : f32
          linalg.yield %3 : f32
        }
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_0 : memref<128x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: bf16):
        %2 = arith.truncf %in : f32 to bf16
        linalg.yield %2 : bf16
      }
      %subview = memref.subview %out[%0, %1] [128, 128] [1, 1] : memref<256x384xbf16> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x128xbf16, #gpu.address_space<workgroup>> to memref<128x128xbf16, strided<[384, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @norm
// The raw X is the TMA source of A.
// CHECK:      %[[X:.*]] = memref.cast %arg0 : memref<256x256xbf16> to memref<*xbf16>
// CHECK:      %[[DA:.*]] = nvgpu.tma.create.descriptor %[[X]] box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:      scf.forall
// CHECK:        %[[MU:.*]] = memref.subview %arg5
// CHECK:        %[[SS:.*]] = memref.subview %arg6
// CHECK-NOT:    linalg.fill
// CHECK:        %[[RING:.*]] = memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
// CHECK:        gpu.barrier
// CHECK-COUNT-6: nvgpu.tma.async.load
// The thread's chunk, first row and swizzled chunk; its 8 rows' statistics.
// CHECK:        %[[TID:.*]] = gpu.thread_id  x
// CHECK:        %[[CHUNK:.*]] = arith.remui %[[TID]], %c8{{[_0-9]*}}
// CHECK:        %[[ROW:.*]] = arith.divui %[[TID]], %c8{{[_0-9]*}}
// CHECK:        %[[PHASE:.*]] = arith.remui %[[ROW]], %c8{{[_0-9]*}}
// CHECK:        %[[SWZ:.*]] = arith.xori %[[CHUNK]], %[[PHASE]]
// CHECK:        %[[R0:.*]] = arith.addi %[[ROW]], %c0{{[_0-9]*}}
// CHECK:        %[[M0:.*]] = memref.load %[[MU]][%[[R0]]]
// CHECK:        %[[S0:.*]] = memref.load %[[SS]][%[[R0]]]
// CHECK:        arith.divf %[[S0]]
// CHECK:        arith.addf
// CHECK:        %[[RSTD0:.*]] = math.rsqrt
// The shift of the contracted body, once per row (prologue-contract-fma).
// CHECK-NEXT:   %[[MR0:.*]] = arith.mulf %[[M0]], %[[RSTD0]]
// CHECK-NEXT:   %[[NMR0:.*]] = arith.negf %[[MR0]]
// CHECK-COUNT-7: math.rsqrt
// CHECK-NOT:    math.rsqrt
// CHECK:        scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:          nvgpu.mbarrier.try_wait.parity
// CHECK:          %[[SLOTA:.*]] = memref.view %[[RING]][%{{.*}}][] : memref<98304xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
// Gamma and beta: one vector of the thread's 8 columns each, widened once.
// CHECK:          %[[K0:.*]] = arith.muli %[[STEP]], %c64
// CHECK:          %[[C0:.*]] = arith.muli %[[CHUNK]], %c8
// CHECK:          %[[COL:.*]] = arith.addi %[[K0]], %[[C0]]
// CHECK:          %[[G:.*]] = vector.load %arg1[%[[COL]]] {alignment = 16 : i64} : memref<256xbf16>, vector<8xbf16>
// CHECK:          %[[B:.*]] = vector.load %arg2[%[[COL]]] {alignment = 16 : i64} : memref<256xbf16>, vector<8xbf16>
// CHECK-COUNT-16: arith.extf {{.*}} : bf16 to f32
// Row 0 of the thread: its swizzled chunk loaded, normalised, stored back.
// CHECK:          %[[SC:.*]] = arith.muli %[[SWZ]], %c8
// CHECK:          %[[RAW:.*]] = vector.load %[[SLOTA]][%{{.*}}, %[[SC]]] {alignment = 16 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:          %[[E0:.*]] = vector.extract %[[RAW]][0]
// CHECK:          %[[XF:.*]] = arith.extf %[[E0]] : bf16 to f32
// (x - mean) * rstd * gamma + beta as two fmas per element.
// CHECK-NEXT:     %[[N:.*]] = math.fma %[[XF]], %[[RSTD0]], %[[NMR0]] : f32
// CHECK-NEXT:     %[[Y:.*]] = math.fma %[[N]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:     arith.truncf %[[Y]]
// Without the contraction, the body as written.
// WRITTEN:        %[[WRAW:.*]] = vector.load {{.*}} : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// WRITTEN-NEXT:   %[[WE:.*]] = vector.extract %[[WRAW]][0]
// WRITTEN-NEXT:   %[[WX:.*]] = arith.extf %[[WE]] : bf16 to f32
// WRITTEN-NEXT:   %[[WD:.*]] = arith.subf %[[WX]], %{{.*}}
// WRITTEN-NEXT:   arith.mulf %[[WD]], %{{.*}}
// WRITTEN-NOT:    math.fma
// CHECK-NOT:      math.rsqrt
// CHECK:          vector.from_elements {{.*}} : vector<8xbf16>
// CHECK:          vector.store %{{.*}}, %[[SLOTA]][%{{.*}}, %[[SC]]] {alignment = 16 : i64}
// CHECK-COUNT-7:  vector.store %{{.*}}, %[[SLOTA]]
// CHECK:          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:     nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:     gpu.barrier
// CHECK:          scf.if
// CHECK-COUNT-3:    nvgpu.tma.async.load
// CHECK:          nvgpu.warpgroup.generate.descriptor %[[SLOTA]], %[[DA]]
// CHECK:          nvgpu.warpgroup.mma
// CHECK-NOT:      nvgpu.tma.async.load
// CHECK:          scf.yield
// CHECK-NOT:    linalg.generic {{.*}} ins(%{{.*}}, %[[MU]]
// CHECK:        nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:        builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>

// Ahead with one warpgroup: the same order, the block's barrier in place
// of the warpgroup's.
// AHEAD-LABEL: func.func @norm(
// AHEAD:        nvvm.fence.proxy
// AHEAD-NEXT:   gpu.barrier
// AHEAD:        scf.for
// AHEAD:          nvgpu.warpgroup.mma
// AHEAD:          scf.if
// AHEAD:            nvgpu.mbarrier.try_wait.parity
// AHEAD:            nvvm.fence.proxy {{.*}}<cta>}
// AHEAD-NEXT:     }
// AHEAD-NEXT:     gpu.barrier
// AHEAD-NEXT:     scf.yield

// The prologue and the register epilogue together.
// FRAG-LABEL: func.func @norm
// FRAG:         nvvm.fence.proxy
// FRAG:         nvgpu.warpgroup.mma
// FRAG-NOT:     nvgpu.warpgroup.mma.store
// FRAG:         vector.store {{.*}} : memref<128x128xbf16, strided<[384, 1], offset: ?>>, vector<8xbf16>

// -----

// The A tile computed from an f32 X: TMA cannot stage the raw tile in the
// 16-bit slot, so the block stays with mma.sync.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
  func.func @negative_norm_f32(%x: memref<256x256xf32>, %w: memref<256x384xbf16>, %out: memref<256x384xf32>, %rstd: memref<256xf32>) attributes {blockbuster.num_inputs = 2 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c128 = arith.constant 128 : index
    scf.forall (%arg3, %arg4) in (2, 3) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c128 : index
      %r = memref.subview %rstd[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %xt = memref.subview %x[%0, %2] [128, 64] [1, 1] : memref<256x256xf32> to memref<128x64xf32, strided<[256, 1], offset: ?>>
        %xn = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%xt, %r : memref<128x64xf32, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>) outs(%xn : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %s: f32, %o: bf16):
          %3 = arith.mulf %in, %s : f32
          %4 = arith.truncf %3 : f32 to bf16
          linalg.yield %4 : bf16
        }
        %wt = memref.subview %w[%2, %1] [64, 128] [1, 1] : memref<256x384xbf16> to memref<64x128xbf16, strided<[384, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xn, %wt : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, strided<[384, 1], offset: ?>>) outs(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_4: bf16, %o: f32):
          %3 = arith.extf %in : bf16 to f32
          %4 = arith.extf %in_4 : bf16 to f32
          %5 = arith.mulf %3, %4 : f32
          %6 = arith.addf %o, %5 : f32
          linalg.yield %6 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_3 : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%alloc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %o: f32):
          %3 = arith.addf %o, %in : f32
          linalg.yield %3 : f32
        }
      }
      %subview = memref.subview %out[%0, %1] [128, 128] [1, 1] : memref<256x384xf32> to memref<128x128xf32, strided<[384, 1], offset: ?>>
      memref.copy %alloc, %subview : memref<128x128xf32, #gpu.address_space<workgroup>> to memref<128x128xf32, strided<[384, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @negative_norm_f32
// CHECK-NOT:   nvgpu
// CHECK:       linalg.generic
// FRAG-LABEL:  func.func @negative_norm_f32
// FRAG-NOT:    nvgpu

// -----

// The same LayerNorm + matmul in a block of 128 x 256 (two consumer
// warpgroups, a ring of 4 slots of 48 KB): each warpgroup rewrites the 64
// rows of the slot's A part that its own wgmma reads; thread t of
// warpgroup w = t / 128 owns chunk (t % 128) % 8 of rows (t % 128) / 8 + 16 j,
// j < 4, whose statistics it reads at rows 64 w onwards. The block's barrier
// after wgmma.wait_group 0 stands for the slots' release barriers: one
// mbarrier group (the copies').

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d1)>
  func.func @norm_wide(%x: memref<256x256xbf16>, %gamma: memref<256xbf16>, %beta: memref<256xbf16>, %w: memref<256x512xbf16>, %out: memref<256x512xbf16>, %mean: memref<256xf32>, %var: memref<256xf32>) attributes {blockbuster.num_inputs = 4 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.forall (%arg3, %arg4) in (2, 2) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c256 : index
      %mu = memref.subview %mean[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %ss = memref.subview %var[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %xt = memref.subview %x[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
        %gt = memref.subview %gamma[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %bt = memref.subview %beta[%2] [64] [1] : memref<256xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %xn = memref.alloc() {alignment = 64 : i64} : memref<128x64xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map5, #map5, #map3], iterator_types = ["parallel", "parallel"]} ins(%xt, %mu, %ss, %gt, %bt : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<128xf32, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>) outs(%xn : memref<128x64xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %m: f32, %s: f32, %g: bf16, %b: bf16, %o: bf16):
          %3 = arith.extf %b : bf16 to f32
          %4 = arith.extf %g : bf16 to f32
          %5 = arith.divf %s, %n : f32
          %6 = arith.addf %5, %eps : f32
          %7 = math.rsqrt %6 : f32
          %8 = arith.extf %in : bf16 to f32
          %9 = arith.subf %8, %m : f32
          %10 = arith.mulf %9, %7 : f32
          %11 = arith.mulf %10, %4 : f32
          %12 = arith.addf %11, %3 : f32
          %13 = arith.truncf %12 : f32 to bf16
          linalg.yield %13 : bf16
        }
        %wt = memref.subview %w[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xn, %wt : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
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
      %subview = memref.subview %out[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// CHECK-LABEL: func.func @norm_wide
// CHECK:        scf.forall
// CHECK:        %[[RING:.*]] = memref.alloc() {alignment = 1024 : i64} : memref<196608xi8, #gpu.address_space<workgroup>>
// CHECK:        nvgpu.mbarrier.create
// CHECK-NOT:    nvgpu.mbarrier.create
// CHECK:        gpu.barrier
// CHECK:        %[[TID:.*]] = gpu.thread_id  x
// CHECK:        %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK:        %[[WGROW:.*]] = arith.muli %[[WG]], %c64
// CHECK:        %[[LOCAL:.*]] = arith.remui %[[TID]], %c128
// CHECK:        %[[CHUNK:.*]] = arith.remui %[[LOCAL]], %c8
// CHECK:        %[[ROW:.*]] = arith.divui %[[LOCAL]], %c8
// CHECK:        %[[R0:.*]] = arith.addi %[[ROW]], %c0
// CHECK:        %[[G0:.*]] = arith.addi %[[WGROW]], %[[R0]]
// CHECK:        memref.load %{{.*}}[%[[G0]]]
// CHECK-COUNT-4: math.rsqrt
// CHECK-NOT:    math.rsqrt
// CHECK:        scf.for {{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>)
// CHECK:          nvgpu.mbarrier.try_wait.parity
// CHECK:          %[[SLOTA:.*]] = memref.view %[[RING]][%{{.*}}][] : memref<196608xi8, #gpu.address_space<workgroup>> to memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:  vector.store %{{.*}}, %[[SLOTA]]
// CHECK-NOT:      vector.store %{{.*}}, %[[SLOTA]]
// CHECK:          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:     nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:     gpu.barrier
// CHECK-NOT:      nvgpu.mbarrier.arrive
// CHECK:          scf.if
// CHECK-COUNT-5:    nvgpu.tma.async.load
// CHECK:          nvgpu.warpgroup.generate.descriptor %[[SLOTA]]
// CHECK:          nvgpu.warpgroup.mma
// CHECK:          scf.yield
// CHECK:      } {blockbuster.block_threads = 256 : i64, mapping = [#gpu.block<y>, #gpu.block<x>]}
// Ahead (the default): step 0's rows rewritten before the mainloop; in
// step i the wgmma of step i (whose wait leaves it in flight), the release
// and refill of step i - 1's slot as in a plain GEMM (so the release
// mbarriers are back), then step i + 1's slot awaited and rewritten while
// step i's wgmma runs, and a named barrier of the warpgroup's 128 threads
// before the next wgmma reads its rows.
// AHEAD-LABEL:  func.func @norm_wide
// AHEAD:        nvgpu.mbarrier.create
// AHEAD:        nvgpu.mbarrier.create
// AHEAD:        nvgpu.mbarrier.try_wait.parity
// AHEAD-COUNT-4: vector.store {{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// AHEAD:        nvvm.fence.proxy
// AHEAD:        nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// AHEAD:        scf.for
// AHEAD-NOT:      nvgpu.mbarrier.try_wait.parity
// AHEAD:          nvgpu.warpgroup.mma
// AHEAD:          nvgpu.mbarrier.arrive %
// AHEAD:          nvgpu.tma.async.load
// AHEAD:          scf.if
// AHEAD:            nvgpu.mbarrier.try_wait.parity
// AHEAD-COUNT-4:    vector.store {{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// AHEAD:            nvvm.fence.proxy {{.*}}<cta>}
// AHEAD-NEXT:     }
// AHEAD:          nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// AHEAD-NEXT:     scf.yield
// The default on two warpgroups: A in registers. Before the mainloop each
// thread's two rows (r = 16 (t % 128 / 32) + t % 32 / 4 and r + 8) and
// their rstd, then step 0's fragments: gamma and beta as 8 pairs of
// columns each (c + 16 kk + 8 h, c = 2 (t % 4)), loaded before the slot's
// wait; per k16 one ldmatrix.x4 of the raw slot at the swizzled chunk
// (2 kk + l / 16) ^ (l % 8), the body on its 8 elements, 4 i32 registers.
// REGA-LABEL:  func.func @norm_wide
// REGA:          %[[LOCAL:.*]] = arith.remui %{{.*}}, %c128
// REGA:          %[[WARP:.*]] = arith.divui %[[LOCAL]], %c32
// REGA:          %[[LANE:.*]] = arith.remui %[[LOCAL]], %c32
// REGA:          %[[WROW:.*]] = arith.muli %[[WARP]], %c16
// REGA:          %[[LROW:.*]] = arith.divui %[[LANE]], %c4
// REGA:          %[[ROW:.*]] = arith.addi %[[WROW]], %[[LROW]]
// REGA-COUNT-2:  math.rsqrt
// REGA-NOT:      math.rsqrt
// REGA-COUNT-16: vector.load %arg{{[12]}}[%{{.*}}] {alignment = 4 : i64} : memref<256xbf16>, vector<2xbf16>
// REGA:          nvgpu.mbarrier.try_wait.parity
// REGA-COUNT-4:  nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// K 256: 4 steps, two per iteration; the accumulator and set X (16 i32)
// carried.
// REGA:          scf.for %{{.*}} = %{{.*}} to %c2{{[_0-9]*}} step %{{.*}} iter_args({{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// REGA:            nvgpu.warpgroup.generate.descriptor
// REGA:            nvvm.wgmma.fence.aligned
// REGA:            llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $133, 0;\0Awgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {$0, {{.*}}, $127}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;\0A}", "=f,{{.*}},=f,r,r,r,r,l,r,0,{{.*}},127"
// REGA-COUNT-3:    llvm.inline_asm
// REGA:            llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(struct<
// REGA-NEXT:       nvvm.wgmma.commit.group.sync.aligned
// REGA-NEXT:       nvvm.wgmma.wait.group.sync.aligned 1
// Release, then the refill: one branch of thread 128 (the second
// warpgroup's first), its copies unpredicated.
// REGA:            nvgpu.mbarrier.arrive %
// REGA:            scf.if
// REGA:              nvgpu.mbarrier.try_wait.parity
// REGA:              nvgpu.mbarrier.arrive.expect_tx %{{[^,]*}}, %{{[^ ]*}} :
// REGA:              nvgpu.tma.async.load %{{.*}} to %{{[^,]*}} :
// Then set Y (step 2 p + 1), with no store to the slot, no proxy fence and
// no barrier.
// REGA-NOT:        vector.store
// REGA-NOT:        nvvm.fence.proxy
// REGA-NOT:        nvvm.barrier
// REGA-COUNT-4:    nvgpu.ldmatrix
// REGA:            nvvm.wgmma.fence.aligned
// REGA-COUNT-4:    llvm.inline_asm
// REGA:            nvvm.wgmma.wait.group.sync.aligned 1
// Set X of step 2 p + 2 where there is one.
// REGA:            scf.if %{{.*}} -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// REGA-COUNT-4:      nvgpu.ldmatrix
// REGA:            } else {
// REGA:            scf.yield %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>, i32
// REGA-NOT:      nvvm.fence.proxy
// REGA:          nvvm.wgmma.wait.group.sync.aligned 0
// The register epilogue after it, as for a plain GEMM.
// REGA-NOT:      nvgpu.warpgroup.mma.store
// REGA:          vector.store {{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>

// -----

// The same LayerNorm + matmul in a block of 128 x 256 (two consumer
// warpgroups, a ring of 4 slots of 48 KB): each warpgroup rewrites the 64
// rows of the slot's A part that its own wgmma reads; thread t of
// warpgroup w = t / 128 owns chunk (t % 128) % 8 of rows (t % 128) / 8 + 16 j,
// j < 4, whose statistics it reads at rows 64 w onwards. The block's barrier
// after wgmma.wait_group 0 stands for the slots' release barriers: one
// mbarrier group (the copies').

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d1)>
  func.func @rms_wide(%x: memref<256x256xbf16>, %gamma: memref<256xbf16>, %w: memref<256x512xbf16>, %out: memref<256x512xbf16>, %var: memref<256xf32>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.forall (%arg3, %arg4) in (2, 2) {
      %0 = arith.muli %arg3, %c128 : index
      %1 = arith.muli %arg4, %c256 : index
      %ss = memref.subview %var[%0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<128x256xf32, #gpu.address_space<workgroup>>)
      scf.for %arg5 = %c0 to %c4 step %c1 {
        %2 = arith.muli %arg5, %c64 : index
        %xt = memref.subview %x[%0, %2] [128, 64] [1, 1] : memref<256x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
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
        %wt = memref.subview %w[%2, %1] [64, 256] [1, 1] : memref<256x512xbf16> to memref<64x256xbf16, strided<[512, 1], offset: ?>>
        %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xn, %wt : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, strided<[512, 1], offset: ?>>) outs(%alloc_3 : memref<128x256xf32, #gpu.address_space<workgroup>>) {
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
      %subview = memref.subview %out[%0, %1] [128, 256] [1, 1] : memref<256x512xbf16> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
      memref.copy %alloc_0, %subview : memref<128x256xbf16, #gpu.address_space<workgroup>> to memref<128x256xbf16, strided<[512, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }

// The producer form with the register prologue: the producer warpgroup
// only copies; the consumers' branch has the rows' rstd, the ldmatrix of
// the raw slots and the register-A wgmmas, and releases each slot.
// PRODUCER-LABEL: func.func @rms_wide
// PRODUCER:         scf.if
// PRODUCER-NEXT:      nvvm.setmaxregister  decrease 40
// PRODUCER-NOT:       nvgpu.ldmatrix
// PRODUCER-COUNT-3:   nvgpu.tma.async.load
// PRODUCER-NOT:       nvgpu.ldmatrix
// PRODUCER:         } else {
// PRODUCER-NEXT:      nvvm.setmaxregister  increase 232
// PRODUCER:           math.rsqrt
// PRODUCER:           nvgpu.ldmatrix
// PRODUCER:           wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PRODUCER:           nvgpu.mbarrier.arrive
// PRODUCER-NOT:       nvgpu.tma.async.load
// PRODUCER:         } {blockbuster.block_threads = 384 : i64

// RMSNorm: rstd, a factor of the row inputs alone in the rounded product,
// is left to the accumulator rows; the A registers are x * gamma rounded,
// one bf16x2 multiply of the raw pair (ldmatrix) and gamma's pair per
// register, no f32 arithmetic per element.
// REGA-LABEL:  func.func @rms_wide
// REGA-COUNT-2:  math.rsqrt
// REGA-NOT:      math.rsqrt
// REGA-COUNT-8:  vector.load %arg1[%{{.*}}] {alignment = 4 : i64} : memref<256xbf16>, vector<2xbf16>
// REGA:          nvgpu.mbarrier.try_wait.parity
// REGA:          nvgpu.ldmatrix
// REGA-NOT:      arith.truncf
// REGA-NOT:      arith.extf
// REGA-COUNT-16: arith.mulf %{{.*}}, %{{.*}} : vector<2xbf16>
// REGA:          scf.for
// REGA-NOT:      arith.truncf
// REGA:          nvvm.wgmma.wait.group.sync.aligned 0
// REGA-NEXT:     gpu.barrier
// The rows' factors: accumulator register 4 j + 2 i + e in row r + 8 i.
// REGA:          %[[STRUCT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !llvm.struct
// REGA:          %[[FRAG:.*]] = llvm.extractvalue %[[STRUCT]][0]
// REGA-NEXT:     %[[V0:.*]] = llvm.extractvalue %[[FRAG]][0]
// REGA-NEXT:     arith.mulf %[[R0:[0-9a-z_]+]], %[[V0]] : f32
// REGA:          %[[V2:.*]] = llvm.extractvalue %{{.*}}[2]
// REGA-NEXT:     arith.mulf %[[R8:[0-9a-z_]+]], %[[V2]] : f32
// REGA:          %[[V4:.*]] = llvm.extractvalue %{{.*}}[4]
// REGA-NEXT:     arith.mulf %[[R0]], %[[V4]] : f32
// REGA-COUNT-123: arith.mulf %{{.*}}, %{{.*}} : f32
// REGA-NOT:      arith.mulf
// REGA:          vector.store {{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>

// With prologue-row-scale=false the body as written per element: widened
// (the lower bf16 of the ldmatrix pair shifted up, the upper one masked:
// one integer op each), times rstd, times gamma, rounded; no scaling after
// the mainloop.
// EXACT-LABEL:  func.func @rms_wide
// EXACT:          nvgpu.ldmatrix
// EXACT-NOT:      arith.mulf {{.*}} : vector<2xbf16>
// EXACT:          %[[LO:.*]] = arith.shli %{{.*}}, %c16_i32{{.*}} : i32
// EXACT-NEXT:     %[[F:.*]] = arith.bitcast %[[LO]] : i32 to f32
// EXACT-NEXT:     %[[N:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// EXACT-NEXT:     arith.mulf %[[N]], %{{.*}} : f32
// EXACT-NEXT:     arith.truncf
// EXACT:          %[[HI:.*]] = arith.andi %{{.*}}, %c-65536_i32{{.*}} : i32
// EXACT-NEXT:     arith.bitcast %[[HI]] : i32 to f32
// EXACT-NOT:      arith.mulf {{.*}} : vector<2xbf16>
// EXACT:          nvvm.wgmma.wait.group.sync.aligned 0
// EXACT-NEXT:     gpu.barrier
// EXACT-NOT:      arith.mulf
// EXACT:          vector.store {{.*}} : memref<128x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
