// RUN: bb-opt %s --gpu-flash-attention=mma=wgmma | FileCheck %s
// RUN: bb-opt %s --gpu-flash-attention=mma=wgmma | FileCheck %s --check-prefix=DESC
// RUN: bb-opt %s --gpu-flash-attention=mma=wgmma-qk | FileCheck %s --check-prefix=QK
// RUN: bb-opt %s --gpu-flash-attention=mma=wgmma-overlap | FileCheck %s --check-prefix=OVERLAP
// RUN: bb-opt %s --gpu-flash-attention="mma=wgmma v-wait-early=true" | FileCheck %s --check-prefix=EARLYV
// RUN: not bb-opt %s --gpu-flash-attention=mma=tensor 2>&1 | FileCheck %s --check-prefix=BAD

// The two-pass attention of scripts/build-anchors.py over 1 x 3 heads x 333
// queries and keys, D = 128, in blocks of 64 x 64, as bufferization leaves
// it (the arrays [1, 3, 333, 128] collapsed to [3, 333, 128]). The wgmma
// schedule: one TMA descriptor per array before the grid (4-D boxes
// [1, 1, 64, 64] of the function's arguments: the runtime encodes tensor
// maps of its buffers), Q's mbarrier and one per slot of each loop's TMA
// ring (a slot per TMA operand and one more: 2 for K in the first loop, 3
// for K and V in the second) initialised by thread 0 before one barrier; Q
// copied once (two boxes of 64 columns, the collapsed head index split
// into batch and head); before each dot the wait for this use's tile, the
// dots as wgmma (S: 8 k16 steps from shared memory; P V: 4 with P's
// registers as A), and once they are issued, before their wait, the copy
// of the same operand's next tile into the slot the previous use freed (no
// block barrier: the block is one warpgroup, whose previous wgmma, one
// operation, its thread 0 has waited for). P = exp(S - m) / l multiplies by
// the row's reciprocal, computed once per row.

// The wgmma descriptors of the second loop (DESC): Q's (its first box) and
// the slot's K (its first box) built once per dot from the address (mask,
// shift, the fields' constant: swizzle 128 bytes, stride 1024 bytes, leading
// 16), each k step's a constant added to them (units of 16 bytes: +32 bytes
// per k16 step, +8 KB for the next 64 columns); V's slot likewise, +2048
// bytes (128) per k16 step of P V. Without the addition each step rebuilt
// its descriptor from its address.
// DESC-LABEL: func.func @attention_b1_h3_s333_d128
// DESC: scf.for
// DESC: scf.for
// DESC: memref.extract_aligned_pointer_as_index
// DESC: %[[Q:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// DESC: memref.extract_aligned_pointer_as_index
// DESC: %[[K:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64{{.*}} : i64
// DESC: wgmma.mma_async.sync.aligned.m64n64k16{{.*}}" %[[Q]], %[[K]], %c0_i32
// DESC-NOT: memref.extract_aligned_pointer_as_index
// DESC: %[[Q1:.*]] = arith.addi %[[Q]], %c2_i64{{.*}} : i64
// DESC: %[[K1:.*]] = arith.addi %[[K]], %c2_i64{{.*}} : i64
// DESC: wgmma.mma_async.sync.aligned.m64n64k16{{.*}}" %[[Q1]], %[[K1]],
// DESC-NOT: memref.extract_aligned_pointer_as_index
// DESC: arith.addi %[[Q]], %c518_i64{{.*}} : i64
// DESC: arith.addi %[[K]], %c518_i64{{.*}} : i64
// DESC: memref.extract_aligned_pointer_as_index
// DESC: %[[V:.*]] = arith.ori %{{.*}}, %c4611686293338849280_i64{{.*}} : i64
// DESC: wgmma.mma_async.sync.aligned.m64n128k16{{.*}}%[[V]], %c0_i32
// DESC-NOT: memref.extract_aligned_pointer_as_index
// DESC: %[[V1:.*]] = arith.addi %[[V]], %c128_i64{{.*}} : i64
// DESC: wgmma.mma_async.sync.aligned.m64n128k16{{.*}}%[[V1]], %c1_i32
// DESC-NOT: memref.extract_aligned_pointer_as_index
// DESC: arith.addi %[[V]], %c384_i64{{.*}} : i64
// v-wait-early (opt-in): in the loop of K and V, V's tile is waited for
// once S's wgmmas are issued (after K's refill, before S's wait), and not
// again before P V, so that no try_wait loop splits the softmax; the first
// loop (K alone) is unchanged.
// EARLYV-LABEL: func.func @attention_b1_h3_s333_d128
// EARLYV: %[[RING:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// EARLYV: scf.for
// EARLYV: scf.for
// EARLYV: nvgpu.mbarrier.try_wait.parity %[[RING]]
// EARLYV-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// EARLYV: nvvm.wgmma.commit.group.sync.aligned
// EARLYV: nvgpu.tma.async.load %{{.*}}, %[[RING]][
// EARLYV: nvgpu.mbarrier.try_wait.parity %[[RING]]
// EARLYV-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// EARLYV-NOT: nvgpu.mbarrier.try_wait.parity
// EARLYV-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16
// EARLYV-NOT: nvgpu.mbarrier.try_wait.parity
// EARLYV: scf.yield
// CHECK-LABEL: func.func @attention_b1_h3_s333_d128
// CHECK-COUNT-3: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: scf.forall (%[[BH:.*]], %{{.*}}) in (3, 6)
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x
// CHECK: %[[QBAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.init %[[QBAR]][%{{.*}}], %{{.*}}, predicate = %[[LEADER]]
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: gpu.barrier
// CHECK: scf.if %[[LEADER]]
// CHECK: %[[H:.*]] = arith.remui %[[BH]], %c3
// CHECK: %[[B:.*]] = arith.divui %[[BH]], %c3
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[QBAR]][%{{.*}}], %c16384
// CHECK: nvgpu.tma.async.load %{{.*}}[%c0{{.*}}, %{{.*}}, %[[H]], %[[B]]], %[[QBAR]]
// CHECK: nvgpu.tma.async.load %{{.*}}[%c64{{.*}}, %{{.*}}, %[[H]], %[[B]]], %[[QBAR]]
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.try_wait.parity %[[QBAR]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// CHECK-NOT: gpu.barrier
// CHECK: %[[RCP:.*]] = arith.divf %cst{{.*}}, %{{.*}} : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NEXT: arith.mulf %{{.*}}, %[[RCP]] : f32
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: linalg.
// CHECK: return

// Step 1 alone: P V stays on mma.sync with V by cp.async.
// QK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// QK: nvgpu.device_async_copy
// QK: nvvm.mma.sync

// wgmma-overlap: the first loop's only dot is S = Q K^T. Its ring has 3
// slots (K two iterations ahead); S of the first iteration is issued
// before the loop (8 k16 steps, the first not reading the zero
// accumulator: scale-d from a register holding 0), and each iteration
// issues the next iteration's S (after waiting for its K tile, if there is
// a next iteration; then the refill) before the softmax reads this one's,
// and waits for it at the end, before the yield. The second loop (S, then P V) is
// pipelined too: its first S issued before it, each iteration's S issued
// (no block barrier: one warpgroup) and left in flight, then the
// iteration's refills (no barrier and no wait before P V), P V's wait (0)
// covering it (test/Codegen/GPU/
// flash-attention-combine.mlir checks the ring's order). Both loops make
// the blocks per SM leave 128 + 32 registers for the S in flight.
// OVERLAP: gpu.thread_id  x {blockbuster.occupancy_by_shared_memory = 160 : i64}
// OVERLAP: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// OVERLAP: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// OVERLAP: nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP: nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP: scf.for {{.*}} iter_args(
// OVERLAP-NOT: gpu.barrier
// OVERLAP: scf.if
// OVERLAP: nvgpu.mbarrier.try_wait.parity
// OVERLAP: nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP: nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT: scf.if
// OVERLAP: nvgpu.tma.async.load
// OVERLAP-NOT: nvvm.wgmma.wait
// OVERLAP: gpu.shuffle
// OVERLAP: nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP-NEXT: scf.yield
// OVERLAP: nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP: nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP-NEXT: scf.for {{.*}} iter_args(
// OVERLAP-NOT: gpu.barrier
// OVERLAP: nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP: nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT: scf.if
// OVERLAP-NOT: nvvm.wgmma.wait
// OVERLAP-NOT: gpu.barrier
// OVERLAP: nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16
// OVERLAP: nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP-NOT: nvvm.wgmma
// OVERLAP: scf.yield

// BAD: error: gpu-flash-attention: mma must be sync, wgmma-qk, wgmma, wgmma-overlap or wgmma-pingpong, not 'tensor'

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
module {
  func.func @attention_b1_h3_s333_d128(%arg0: memref<1x3x333x128xbf16>, %arg1: memref<1x3x333x128xbf16>, %arg2: memref<1x3x333x128xbf16>, %arg3: memref<1x3x333x128xbf16>) attributes {blockbuster.num_inputs = 3 : i64} {
    %c6 = arith.constant 6 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.0883883461 : f32
    %c333 = arith.constant 333 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2], [3]] : memref<1x3x333x128xbf16> into memref<3x333x128xbf16>
    %collapse_shape_2 = memref.collapse_shape %arg1 [[0, 1], [2], [3]] : memref<1x3x333x128xbf16> into memref<3x333x128xbf16>
    %collapse_shape_3 = memref.collapse_shape %arg2 [[0, 1], [2], [3]] : memref<1x3x333x128xbf16> into memref<3x333x128xbf16>
    %collapse_shape_4 = memref.collapse_shape %arg3 [[0, 1], [2], [3]] : memref<1x3x333x128xbf16> into memref<3x333x128xbf16>
    scf.forall (%arg4, %arg5) in (3, 6) {
      %0 = arith.muli %arg5, %c64 : index
      %1 = arith.subi %c333, %0 : index
      %2 = arith.minsi %1, %c64 : index
      %subview = memref.subview %collapse_shape[%arg4, %0, 0] [1, %2, 128] [1, 1, 1] : memref<3x333x128xbf16> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
      %alloc = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<1x?xf32, #gpu.address_space<workgroup>>)
      %alloc_5 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<1x?xf32, #gpu.address_space<workgroup>>)
      %alloc_6 = memref.alloc(%2) : memref<1x?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc : memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<1x?xf32, #gpu.address_space<workgroup>>)
      %alloc_7 = memref.alloc(%2) : memref<1x?xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%alloc_5 : memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<1x?xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c6 step %c1 {
        %3 = arith.muli %arg6, %c64 : index
        %4 = arith.subi %c333, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%arg4, %3, 0] [1, %5, 128] [1, 1, 1] : memref<3x333x128xbf16> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<1x?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<1x?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>, memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>) outs(%alloc_12 : memref<1x?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_18: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_18 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<1x?x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_12 : memref<1x?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<1x?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.mulf %in, %cst_1 : f32
          linalg.yield %6 : f32
        }
        %alloc_14 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst_0 : f32) outs(%alloc_14 : memref<1x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_13 : memref<1x?x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_14 : memref<1x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %out, %in : f32
          linalg.yield %6 : f32
        }
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<1x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_13, %alloc_14 : memref<1x?x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_15 : memref<1x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.cmpf oeq, %in_18, %cst_0 : f32
          %7 = arith.select %6, %cst, %in_18 : f32
          %8 = arith.subf %in, %7 : f32
          %9 = math.exp %8 : f32
          %10 = arith.addf %out, %9 : f32
          linalg.yield %10 : f32
        }
        %alloc_16 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_6, %alloc_14 : memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_16 : memref<1x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_18: f32, %out: f32):
          %6 = arith.maximumf %in, %in_18 : f32
          linalg.yield %6 : f32
        }
        %alloc_17 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?xf32, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%alloc_7, %alloc_6, %alloc_16, %alloc_15, %alloc_14 : memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_17 : memref<1x?xf32, #gpu.address_space<workgroup>>) {
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
        linalg.copy ins(%alloc_16 : memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_6 : memref<1x?xf32, #gpu.address_space<workgroup>>)
        linalg.copy ins(%alloc_17 : memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_7 : memref<1x?xf32, #gpu.address_space<workgroup>>)
      }
      %alloc_8 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?x128xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%cst : f32) outs(%alloc_8 : memref<1x?x128xf32, #gpu.address_space<workgroup>>)
      scf.for %arg6 = %c0 to %c6 step %c1 {
        %3 = arith.muli %arg6, %c64 : index
        %4 = arith.subi %c333, %3 : index
        %5 = arith.minsi %4, %c64 : index
        %subview_11 = memref.subview %collapse_shape_2[%arg4, %3, 0] [1, %5, 128] [1, 1, 1] : memref<3x333x128xbf16> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
        %alloc_12 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<1x?x?xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<1x?x?xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%subview, %subview_11 : memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>, memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>) outs(%alloc_12 : memref<1x?x?xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        %alloc_13 = memref.alloc(%2, %5) {alignment = 64 : i64} : memref<1x?x?xbf16, #gpu.address_space<workgroup>>
        linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_12, %alloc_6, %alloc_7 : memref<1x?x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>, memref<1x?xf32, #gpu.address_space<workgroup>>) outs(%alloc_13 : memref<1x?x?xbf16, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: bf16):
          %6 = arith.mulf %in, %cst_1 : f32
          %7 = arith.subf %6, %in_16 : f32
          %8 = math.exp %7 : f32
          %9 = arith.divf %8, %in_17 : f32
          %10 = arith.truncf %9 : f32 to bf16
          linalg.yield %10 : bf16
        }
        %subview_14 = memref.subview %collapse_shape_3[%arg4, %3, 0] [1, %5, 128] [1, 1, 1] : memref<3x333x128xbf16> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
        %alloc_15 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?x128xf32, #gpu.address_space<workgroup>>
        linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<1x?x128xf32, #gpu.address_space<workgroup>>)
        linalg.generic {indexing_maps = [#map, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_13, %subview_14 : memref<1x?x?xbf16, #gpu.address_space<workgroup>>, memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>) outs(%alloc_15 : memref<1x?x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: bf16, %in_16: bf16, %out: f32):
          %6 = arith.extf %in : bf16 to f32
          %7 = arith.extf %in_16 : bf16 to f32
          %8 = arith.mulf %6, %7 : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        }
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_15 : memref<1x?x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_8 : memref<1x?x128xf32, #gpu.address_space<workgroup>>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %out, %in : f32
          linalg.yield %6 : f32
        }
      }
      %alloc_9 = memref.alloc(%2) {alignment = 64 : i64} : memref<1x?x128xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_8 : memref<1x?x128xf32, #gpu.address_space<workgroup>>) outs(%alloc_9 : memref<1x?x128xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %out: bf16):
        %3 = arith.truncf %in : f32 to bf16
        linalg.yield %3 : bf16
      }
      %subview_10 = memref.subview %collapse_shape_4[%arg4, %0, 0] [1, %2, 128] [1, 1, 1] : memref<3x333x128xbf16> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
      memref.copy %alloc_9, %subview_10 : memref<1x?x128xbf16, #gpu.address_space<workgroup>> to memref<1x?x128xbf16, strided<[42624, 128, 1], offset: ?>>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}


