// RUN: bb-opt %s --gpu-row-kernels=threads=128 --canonicalize --cse | FileCheck %s
// RUN: bb-opt %s --gpu-row-kernels="threads=128 max-row-elements-per-lane=8" \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=SPLIT
// RUN: bb-opt %s --gpu-row-kernels="threads=128 async-row-copies=false" \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=DIRECT

#wg = #gpu.address_space<workgroup>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
#col = affine_map<(m, n) -> (n)>
#r = affine_map<(m) -> (m)>

// The softmax of 2 rows of 512 bf16 per block, as bufferization leaves it:
// tiles in shared memory. It becomes one warp per row (2 warps, 64
// threads; warp w takes row w, no loop); lane l owns columns l * 8 + v and 256 + l * 8 + v of its row,
// loaded as two 16-byte vectors before any use; the max and the sum are
// folded in registers (4 partials) and then over the warp by five xor
// shuffles; the division by the row's sum is one reciprocal per row and a
// multiplication per element; the quotients leave as two 16-byte stores. No tile is left in
// shared memory.
// CHECK-LABEL: func.func @softmax
// CHECK: scf.forall (%[[B:.*]]) in (64) {
// CHECK-NOT: memref.alloc
// CHECK:   %[[X:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [2, 512]
// CHECK:   %[[Y:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [2, 512]
// CHECK:   scf.forall (%[[W:.*]]) in (2) {
// CHECK:     %[[LANE:.*]] = gpu.lane_id
// CHECK-NOT:   scf.for
// CHECK:       %[[C0:.*]] = arith.muli %[[LANE]], %c8
// CHECK:       %[[V0:.*]] = vector.load %[[X]][%[[W]], %[[C0]]] {alignment = 16 : i64} : {{.*}}, vector<8xbf16>
// CHECK:       %[[C1:.*]] = arith.addi %[[C0]], %c256
// CHECK:       %[[V1:.*]] = vector.load %[[X]][%[[W]], %[[C1]]] {alignment = 16 : i64} : {{.*}}, vector<8xbf16>
// CHECK-NOT:   vector.load
// CHECK:       arith.maximumf
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK:       math.exp
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK:       %[[RCP:.*]] = arith.divf %cst{{.*}}, %{{.*}} : f32
// CHECK-NOT:   arith.divf
// CHECK:       arith.mulf %{{.*}}, %[[RCP]] : f32
// CHECK:       vector.store %{{.*}}, %[[Y]][%[[W]], %[[C0]]] {alignment = 16 : i64} : {{.*}}, vector<8xbf16>
// CHECK:       vector.store %{{.*}}, %[[Y]][%[[W]], %[[C1]]] {alignment = 16 : i64} : {{.*}}, vector<8xbf16>
// CHECK:   } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK-NOT: linalg.
// CHECK: } {blockbuster.block_threads = 64 : i64, mapping = [#gpu.block<x>]}
// With at most 8 elements per lane, a row of 512 is split over 2 warps
// (4 warps, 128 threads, for the 2 rows): lane l of warp p of a row owns
// columns (32 p + l) * 8 + v; each reduction combines the two warps'
// totals through shared memory after a barrier, in warp order.
// SPLIT-LABEL: func.func @softmax
// SPLIT:   %[[MAX:.*]] = memref.alloc() : memref<2x2xf32, #gpu.address_space<workgroup>>
// SPLIT:   %[[SUM:.*]] = memref.alloc() : memref<2x2xf32, #gpu.address_space<workgroup>>
// SPLIT:   scf.forall (%[[W:.*]]) in (4) {
// SPLIT:     %[[LANE:.*]] = gpu.lane_id
// SPLIT:     %[[ROW:.*]] = arith.divui %[[W]], %c2
// SPLIT:     %[[P:.*]] = arith.remui %[[W]], %c2
// SPLIT:     %[[P32:.*]] = arith.muli %[[P]], %c32
// SPLIT:     %[[L:.*]] = arith.addi %[[P32]], %[[LANE]]
// SPLIT:     %[[C:.*]] = arith.muli %[[L]], %c8
// SPLIT:     vector.load %{{.*}}[%[[ROW]], %[[C]]] {alignment = 16 : i64} : {{.*}}, vector<8xbf16>
// SPLIT-NOT: vector.load
// SPLIT-COUNT-5: gpu.shuffle  xor
// SPLIT:     scf.if
// SPLIT-NEXT:  memref.store %{{.*}}, %[[MAX]][%[[ROW]], %[[P]]]
// SPLIT:     gpu.barrier
// SPLIT:     %[[M0:.*]] = memref.load %[[MAX]][%[[ROW]], %c0]
// SPLIT:     %[[M1:.*]] = memref.load %[[MAX]][%[[ROW]], %c1]
// SPLIT:     arith.maximumf %[[M0]], %[[M1]]
// SPLIT-COUNT-5: gpu.shuffle  xor
// SPLIT:     memref.store %{{.*}}, %[[SUM]][%[[ROW]], %[[P]]]
// SPLIT:     gpu.barrier
// SPLIT:     vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[C]]]
// SPLIT: } {blockbuster.block_threads = 128 : i64, mapping = [#gpu.block<x>]}
func.func @softmax(%x: memref<128x512xbf16>, %y: memref<128x512xbf16>) {
  %c2 = arith.constant 2 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  scf.forall (%b) in (64) {
    %r0 = arith.muli %b, %c2 : index
    %xs = memref.subview %x[%r0, 0] [2, 512] [1, 1] : memref<128x512xbf16> to memref<2x512xbf16, strided<[512, 1], offset: ?>>
    %mx = memref.alloc() : memref<2xf32, #wg>
    linalg.fill ins(%ninf : f32) outs(%mx : memref<2xf32, #wg>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xs : memref<2x512xbf16, strided<[512, 1], offset: ?>>) outs(%mx : memref<2xf32, #wg>) {
    ^bb0(%a: bf16, %acc: f32):
      %af = arith.extf %a : bf16 to f32
      %m = arith.maximumf %acc, %af : f32
      linalg.yield %m : f32
    }
    %e = memref.alloc() : memref<2x512xf32, #wg>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs, %mx : memref<2x512xbf16, strided<[512, 1], offset: ?>>, memref<2xf32, #wg>) outs(%e : memref<2x512xf32, #wg>) {
    ^bb0(%a: bf16, %m: f32, %o: f32):
      %af = arith.extf %a : bf16 to f32
      %d = arith.subf %af, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    }
    %l = memref.alloc() : memref<2xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%l : memref<2xf32, #wg>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%e : memref<2x512xf32, #wg>) outs(%l : memref<2xf32, #wg>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %acc, %a : f32
      linalg.yield %s : f32
    }
    %p = memref.alloc() : memref<2x512xbf16, #wg>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%e, %l : memref<2x512xf32, #wg>, memref<2xf32, #wg>) outs(%p : memref<2x512xbf16, #wg>) {
    ^bb0(%a: f32, %s: f32, %o: bf16):
      %q = arith.divf %a, %s : f32
      %t = arith.truncf %q : f32 to bf16
      linalg.yield %t : bf16
    }
    %ys = memref.subview %y[%r0, 0] [2, 512] [1, 1] : memref<128x512xbf16> to memref<2x512xbf16, strided<[512, 1], offset: ?>>
    memref.copy %p, %ys : memref<2x512xbf16, #wg> to memref<2x512xbf16, strided<[512, 1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}

// RMS statistics of 8 rows of 256 f32 per block with a column weight and
// a row-scalar op: 16-byte vectors are 4 f32, so a lane owns columns
// l * 4 + v; the weight (a column operand) is loaded at the same columns.
// A block has at most 4 warps: each block of 8 rows becomes 2 blocks of 4
// (grid 8 -> 16 along x, the old block id the new one / 2, the half its
// remainder), warp w taking row half * 4 + w. The per-row result, a row
// scalar in global memory, is stored by lane 0.
// CHECK-LABEL: func.func @rms_scale
// CHECK: scf.forall (%[[B:.*]]) in (16) {
// CHECK:   %[[HALF:.*]] = arith.remui %[[B]], %c2
// CHECK:   %[[OLD:.*]] = arith.divui %[[B]], %c2
// CHECK:   %[[R0:.*]] = arith.muli %[[OLD]], %c8
// CHECK:   memref.subview %{{.*}}[%[[R0]], 0] [8, 256]
// CHECK:   scf.forall (%[[W:.*]]) in (4) {
// CHECK:     %[[LANE:.*]] = gpu.lane_id
// CHECK:     %[[H4:.*]] = arith.muli %[[HALF]], %c4
// CHECK:     %[[R:.*]] = arith.addi %[[H4]], %[[W]]
// CHECK-NOT: scf.for
// CHECK:     %[[C0:.*]] = arith.muli %[[LANE]], %c4
// CHECK:     vector.load %{{.*}}[%[[R]], %[[C0]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK:     vector.load %{{.*}}[%[[R]], %{{.*}}] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK:     %[[MS:.*]] = arith.divf
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:     scf.if %[[FIRST]] {
// CHECK:       memref.store %[[MS]], %{{.*}}[%[[R]]]
// CHECK:     vector.load %{{.*}}[%[[C0]]] {alignment = 16 : i64} : memref<256xf32>, vector<4xf32>
// CHECK:     vector.store
// CHECK:     vector.store
// CHECK: } {blockbuster.block_threads = 128 : i64, mapping = [#gpu.block<x>]}
func.func @rms_scale(%x: memref<64x256xf32>, %w: memref<256xf32>, %ms: memref<64xf32>, %y: memref<64x256xf32>) {
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %xs = memref.subview %x[%r0, 0] [8, 256] [1, 1] : memref<64x256xf32> to memref<8x256xf32, strided<[256, 1], offset: ?>>
    %ss = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%ss : memref<8xf32, #wg>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xs : memref<8x256xf32, strided<[256, 1], offset: ?>>) outs(%ss : memref<8xf32, #wg>) {
    ^bb0(%a: f32, %acc: f32):
      %sq = arith.mulf %a, %a : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    }
    %mss = memref.subview %ms[%r0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
        ins(%ss : memref<8xf32, #wg>) outs(%mss : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%s: f32, %o: f32):
      %q = arith.divf %s, %n : f32
      linalg.yield %q : f32
    }
    %ys = memref.subview %y[%r0, 0] [8, 256] [1, 1] : memref<64x256xf32> to memref<8x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs, %mss, %w : memref<8x256xf32, strided<[256, 1], offset: ?>>, memref<8xf32, strided<[1], offset: ?>>, memref<256xf32>)
        outs(%ys : memref<8x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%a: f32, %q: f32, %g: f32, %o: f32):
      %rs = math.rsqrt %q : f32
      %nn = arith.mulf %a, %rs : f32
      %r = arith.mulf %nn, %g : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Rows of 100 elements do not split into 16-byte vectors over 32 lanes, and
// a block with a loop in it is not a row kernel: both keep the generic path.
// CHECK-LABEL: func.func @narrow_rows
// CHECK-NOT: gpu.lane_id
// CHECK: linalg.generic
// CHECK-NOT: blockbuster.block_threads
func.func @narrow_rows(%x: memref<64x100xf32>, %y: memref<64x100xf32>) {
  %c8 = arith.constant 8 : index
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %xs = memref.subview %x[%r0, 0] [8, 100] [1, 1] : memref<64x100xf32> to memref<8x100xf32, strided<[100, 1], offset: ?>>
    %ys = memref.subview %y[%r0, 0] [8, 100] [1, 1] : memref<64x100xf32> to memref<8x100xf32, strided<[100, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs : memref<8x100xf32, strided<[100, 1], offset: ?>>) outs(%ys : memref<8x100xf32, strided<[100, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// Rows of 2560 bf16 at most 32 elements a lane: 16-byte vectors leave 80
// a lane on one warp and 40 on two, and 2560 columns are not whole chunks
// of 4 warps x 8 elements, so the row takes vectors of 4 elements (8
// bytes) on 4 warps, 20 a lane (5 loads), its 4 warps' totals combined
// through shared memory after a barrier (RMSNorm's statistics at D2560,
// which before fell to the generic path). Each block of 2 rows becomes 2
// blocks of one row on 128 threads.
// CHECK-LABEL: func.func @rows_of_2560
// CHECK: scf.forall (%[[B:.*]]) in (8) {
// CHECK:   scf.forall (%[[W:.*]]) in (4) {
// CHECK-COUNT-5: vector.load %{{.*}} {alignment = 8 : i64} : memref<2x2560xbf16, strided<[2560, 1], offset: ?>>, vector<4xbf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK:     gpu.barrier
// CHECK: } {blockbuster.block_threads = 128 : i64, mapping = [#gpu.block<x>]}
func.func @rows_of_2560(%x: memref<8x2560xbf16>, %ss: memref<8xf32>) {
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%b) in (4) {
    %r0 = arith.muli %b, %c2 : index
    %xs = memref.subview %x[%r0, 0] [2, 2560] [1, 1] : memref<8x2560xbf16> to memref<2x2560xbf16, strided<[2560, 1], offset: ?>>
    %t = memref.alloc() : memref<2xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%t : memref<2xf32, #wg>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xs : memref<2x2560xbf16, strided<[2560, 1], offset: ?>>) outs(%t : memref<2xf32, #wg>) {
    ^bb0(%a: bf16, %acc: f32):
      %e = arith.extf %a : bf16 to f32
      %sq = arith.mulf %e, %e : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    }
    %out = memref.subview %ss[%r0] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    memref.copy %t, %out : memref<2xf32, #wg> to memref<2xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @loop_in_block
// CHECK-NOT: gpu.lane_id
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK-NOT: blockbuster.block_threads
func.func @loop_in_block(%x: memref<64x256xf32>, %y: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %xs = memref.subview %x[%r0, 0] [8, 256] [1, 1] : memref<64x256xf32> to memref<8x256xf32, strided<[256, 1], offset: ?>>
    %ys = memref.subview %y[%r0, 0] [8, 256] [1, 1] : memref<64x256xf32> to memref<8x256xf32, strided<[256, 1], offset: ?>>
    scf.for %i = %c0 to %c8 step %c1 {
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%xs : memref<8x256xf32, strided<[256, 1], offset: ?>>) outs(%ys : memref<8x256xf32, strided<[256, 1], offset: ?>>) {
      ^bb0(%a: f32, %o: f32):
        %e = math.exp %a : f32
        linalg.yield %e : f32
      }
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// The statistics kernel of a norm + matmul: its reduce axis is tiled for
// the GEMM kernel that shares the program's axis table, so each block of 8
// rows reduces 4 column tiles of 64 in a loop (a sum of squares, and the
// sum of the row minus a shift read from column 0, as LayerNorm's shifted
// statistics), each tile into a temporary added into the accumulator. The
// loop covers the whole row: it is flattened into reductions over rows of
// 256, which the row kernel takes (one warp per row, 16-byte loads, the
// partials in registers), writing an intermediate array of the function.
// CHECK-LABEL: func.func @tiled_row_loop
// CHECK: scf.forall (%[[B:.*]]) in (16) {
// CHECK-NOT: scf.for
// CHECK:   memref.subview %{{.*}}[%{{.*}}, 0] [8, 256]
// CHECK:   scf.forall (%[[W:.*]]) in (4) {
// CHECK:     memref.load %{{.*}} : memref<8xbf16, strided<[256], offset: ?>>
// CHECK:     vector.load %{{.*}} {alignment = 16 : i64} : memref<8x256xbf16, strided<[256, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: gpu.barrier
// CHECK:     scf.if
// CHECK:       memref.store %{{.*}}, %{{.*}} : memref<8xf32, strided<[1], offset: ?>>
// CHECK-NOT: scf.for
// CHECK: } {blockbuster.block_threads = 128 : i64, mapping = [#gpu.block<x>]}
func.func @tiled_row_loop(%x: memref<64x256xbf16>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %stats = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %first = memref.subview %x[%r0, 0] [8, 1] [1, 1] : memref<64x256xbf16> to memref<8xbf16, strided<[256], offset: ?>>
    %shift = memref.alloc() : memref<8xf32, #wg>
    linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
        ins(%first : memref<8xbf16, strided<[256], offset: ?>>) outs(%shift : memref<8xf32, #wg>) {
    ^bb0(%a: bf16, %o: f32):
      %e = arith.extf %a : bf16 to f32
      linalg.yield %e : f32
    }
    %ss = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%ss : memref<8xf32, #wg>)
    %sd = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%sd : memref<8xf32, #wg>)
    scf.for %k = %c0 to %c4 step %c1 {
      %c = arith.muli %k, %c64 : index
      %xs = memref.subview %x[%r0, %c] [8, 64] [1, 1] : memref<64x256xbf16> to memref<8x64xbf16, strided<[256, 1], offset: ?>>
      %t = memref.alloc() : memref<8xf32, #wg>
      linalg.fill ins(%zero : f32) outs(%t : memref<8xf32, #wg>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%xs : memref<8x64xbf16, strided<[256, 1], offset: ?>>) outs(%t : memref<8xf32, #wg>) {
      ^bb0(%a: bf16, %acc: f32):
        %e = arith.extf %a : bf16 to f32
        %sq = arith.mulf %e, %e : f32
        %s = arith.addf %acc, %sq : f32
        linalg.yield %s : f32
      }
      %d = memref.alloc() : memref<8x64xf32, #wg>
      linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%xs, %shift : memref<8x64xbf16, strided<[256, 1], offset: ?>>, memref<8xf32, #wg>) outs(%d : memref<8x64xf32, #wg>) {
      ^bb0(%a: bf16, %s: f32, %o: f32):
        %e = arith.extf %a : bf16 to f32
        %m = arith.subf %e, %s : f32
        linalg.yield %m : f32
      }
      %u = memref.alloc() : memref<8xf32, #wg>
      linalg.fill ins(%zero : f32) outs(%u : memref<8xf32, #wg>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%d : memref<8x64xf32, #wg>) outs(%u : memref<8xf32, #wg>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %acc, %a : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
          ins(%t : memref<8xf32, #wg>) outs(%ss : memref<8xf32, #wg>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.addf %o, %a : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
          ins(%u : memref<8xf32, #wg>) outs(%sd : memref<8xf32, #wg>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.addf %o, %a : f32
        linalg.yield %s : f32
      }
    }
    %both = memref.alloc() : memref<8xf32, #wg>
    linalg.generic {indexing_maps = [#r, #r, #r], iterator_types = ["parallel"]}
        ins(%ss, %sd : memref<8xf32, #wg>, memref<8xf32, #wg>) outs(%both : memref<8xf32, #wg>) {
    ^bb0(%a: f32, %b2: f32, %o: f32):
      %s = arith.addf %a, %b2 : f32
      linalg.yield %s : f32
    }
    %out = memref.subview %stats[%r0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.copy %both, %out : memref<8xf32, #wg> to memref<8xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return %stats : memref<64xf32>
}

// Not flattened, so not a row kernel: a loop whose temporary is not reset
// to the combiner's identity in every step (its accumulation would count
// the earlier steps again), and a loop whose tiles are read at the same
// columns in every step.
// CHECK-LABEL: func.func @tiled_loop_not_a_row_sum
// CHECK-NOT: gpu.lane_id
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: blockbuster.block_threads
func.func @tiled_loop_not_a_row_sum(%x: memref<64x256xbf16>, %s1: memref<64xf32>, %s2: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %ss = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%ss : memref<8xf32, #wg>)
    scf.for %k = %c0 to %c4 step %c1 {
      %c = arith.muli %k, %c64 : index
      %xs = memref.subview %x[%r0, %c] [8, 64] [1, 1] : memref<64x256xbf16> to memref<8x64xbf16, strided<[256, 1], offset: ?>>
      %t = memref.alloc() : memref<8xf32, #wg>
      linalg.fill ins(%one : f32) outs(%t : memref<8xf32, #wg>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%xs : memref<8x64xbf16, strided<[256, 1], offset: ?>>) outs(%t : memref<8xf32, #wg>) {
      ^bb0(%a: bf16, %acc: f32):
        %e = arith.extf %a : bf16 to f32
        %s = arith.addf %acc, %e : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
          ins(%t : memref<8xf32, #wg>) outs(%ss : memref<8xf32, #wg>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.addf %o, %a : f32
        linalg.yield %s : f32
      }
    }
    %out = memref.subview %s1[%r0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.copy %ss, %out : memref<8xf32, #wg> to memref<8xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  scf.forall (%b) in (8) {
    %r0 = arith.muli %b, %c8 : index
    %xs = memref.subview %x[%r0, 0] [8, 64] [1, 1] : memref<64x256xbf16> to memref<8x64xbf16, strided<[256, 1], offset: ?>>
    %ss = memref.alloc() : memref<8xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%ss : memref<8xf32, #wg>)
    scf.for %k = %c0 to %c4 step %c1 {
      %t = memref.alloc() : memref<8xf32, #wg>
      linalg.fill ins(%zero : f32) outs(%t : memref<8xf32, #wg>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%xs : memref<8x64xbf16, strided<[256, 1], offset: ?>>) outs(%t : memref<8xf32, #wg>) {
      ^bb0(%a: bf16, %acc: f32):
        %e = arith.extf %a : bf16 to f32
        %s = arith.addf %acc, %e : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel"]}
          ins(%t : memref<8xf32, #wg>) outs(%ss : memref<8xf32, #wg>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.addf %o, %a : f32
        linalg.yield %s : f32
      }
    }
    %out = memref.subview %s2[%r0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.copy %ss, %out : memref<8xf32, #wg> to memref<8xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}

// Two rows read from global memory, 1024 bf16 each: one warp a row (32
// elements a lane), 8 16-byte pieces a lane, more than ptxas issues
// together (it loads them in groups before their uses). Every piece of
// both rows is copied into a shared-memory row of its own by cp.async
// before one wait, then read back from there by the lane that copied it
// (no barrier); the column operand (the bias, the same for every row) is
// still loaded from global memory. A row of 4 pieces a lane (the softmax
// above) keeps its loads. With async-row-copies=false every row is loaded
// from global memory.
// CHECK-LABEL: func.func @two_rows_in
// CHECK:   %[[X:.*]] = memref.subview %arg0
// CHECK:   %[[R:.*]] = memref.subview %arg1
// CHECK:   %[[SX:.*]] = memref.alloc() {alignment = 16 : i64} : memref<4x1024xbf16, #gpu.address_space<workgroup>>
// CHECK:   %[[SR:.*]] = memref.alloc() {alignment = 16 : i64} : memref<4x1024xbf16, #gpu.address_space<workgroup>>
// CHECK:   scf.forall (%[[W:.*]]) in (4) {
// CHECK:     %[[LANE:.*]] = gpu.lane_id
// CHECK:     %[[C0:.*]] = arith.muli %[[LANE]], %c8
// CHECK:     nvgpu.device_async_copy %[[X]][%[[W]], %[[C0]]], %[[SX]][%[[W]], %[[C0]]], 8 {bypassL1}
// CHECK-COUNT-3: nvgpu.device_async_copy %[[X]]
// CHECK-COUNT-4: nvgpu.device_async_copy %[[R]]
// CHECK-NOT: vector.load
// CHECK:     %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CHECK-NEXT: vector.load %[[SX]][%[[W]], %[[C0]]] {alignment = 16 : i64} : memref<4x1024xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-COUNT-3: vector.load %[[SX]]
// CHECK-COUNT-4: vector.load %arg2
// CHECK-COUNT-4: vector.load %[[SR]]
// CHECK-NOT: vector.load
// CHECK-COUNT-4: vector.store
// DIRECT-LABEL: func.func @two_rows_in
// DIRECT-NOT: memref.alloc
// DIRECT-NOT: nvgpu.device_async_copy
// DIRECT-COUNT-12: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{4x1024xbf16, strided<\[1024, 1\], offset: \?>|1024xbf16}}>, vector<8xbf16>
// DIRECT-NOT: vector.load
func.func @two_rows_in(%x: memref<8x1024xbf16>, %r: memref<8x1024xbf16>, %b: memref<1024xbf16>, %y: memref<8x1024xbf16>) {
  %c4 = arith.constant 4 : index
  scf.forall (%blk) in (2) {
    %r0 = arith.muli %blk, %c4 : index
    %xs = memref.subview %x[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xbf16> to memref<4x1024xbf16, strided<[1024, 1], offset: ?>>
    %rs = memref.subview %r[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xbf16> to memref<4x1024xbf16, strided<[1024, 1], offset: ?>>
    %ys = memref.subview %y[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xbf16> to memref<4x1024xbf16, strided<[1024, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs, %b, %rs : memref<4x1024xbf16, strided<[1024, 1], offset: ?>>, memref<1024xbf16>, memref<4x1024xbf16, strided<[1024, 1], offset: ?>>)
        outs(%ys : memref<4x1024xbf16, strided<[1024, 1], offset: ?>>) {
    ^bb0(%a: bf16, %bb: bf16, %c: bf16, %o: bf16):
      %af = arith.extf %a : bf16 to f32
      %bf = arith.extf %bb : bf16 to f32
      %cf = arith.extf %c : bf16 to f32
      %s = arith.addf %af, %bf : f32
      %t = arith.addf %s, %cf : f32
      %u = arith.truncf %t : f32 to bf16
      linalg.yield %u : bf16
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// The same over f32: 16 KB a row input for the block's 4 rows of 1024, and
// the copied rows of a block take at most 24 KB of shared memory (8 blocks
// a SM): x is copied, the residual keeps its 8 loads.
// CHECK-LABEL: func.func @two_f32_rows_in
// DIRECT-LABEL: func.func @two_f32_rows_in
// DIRECT-NOT: nvgpu.device_async_copy
// CHECK:   %[[X:.*]] = memref.subview %arg0
// CHECK:   %[[R:.*]] = memref.subview %arg1
// CHECK:   %[[SX:.*]] = memref.alloc() {alignment = 16 : i64} : memref<4x1024xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK:   scf.forall
// CHECK-COUNT-8: nvgpu.device_async_copy %[[X]]
// CHECK-NOT: nvgpu.device_async_copy
// CHECK:     nvgpu.device_async_wait
// CHECK-COUNT-8: vector.load %[[SX]]
// CHECK-COUNT-8: vector.load %arg2
// CHECK-COUNT-8: vector.load %[[R]]
// CHECK-NOT: vector.load
func.func @two_f32_rows_in(%x: memref<8x1024xf32>, %r: memref<8x1024xf32>, %b: memref<1024xf32>, %y: memref<8x1024xf32>) {
  %c4 = arith.constant 4 : index
  scf.forall (%blk) in (2) {
    %r0 = arith.muli %blk, %c4 : index
    %xs = memref.subview %x[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
    %rs = memref.subview %r[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
    %ys = memref.subview %y[%r0, 0] [4, 1024] [1, 1] : memref<8x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs, %b, %rs : memref<4x1024xf32, strided<[1024, 1], offset: ?>>, memref<1024xf32>, memref<4x1024xf32, strided<[1024, 1], offset: ?>>)
        outs(%ys : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) {
    ^bb0(%a: f32, %bb: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %bb : f32
      %t = arith.addf %s, %c : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}
