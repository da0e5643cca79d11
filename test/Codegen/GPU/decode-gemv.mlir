// RUN: bb-opt %s --gpu-decode-gemv=activations-ahead=false | FileCheck %s
// RUN: bb-opt %s --gpu-decode-gemv=print-refusals 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: bb-opt %s --gpu-decode-gemv=weights-ahead-max-blocks=0 | FileCheck %s --check-prefix=PLAIN
// RUN: bb-opt %s --gpu-decode-gemv=prefetch-bytes=65536 | FileCheck %s --check-prefix=PREFETCH
// RUN: bb-opt %s --gpu-decode-gemv | FileCheck %s --check-prefix=AHEADA
// RUN: bb-opt %s --gpu-decode-gemv=activation-vectors=false | FileCheck %s --check-prefix=AHEADP
// RUN: bb-opt %s --gpu-decode-gemv="activation-vectors=false activations-ahead=false" | FileCheck %s --check-prefix=PAIRS
// RUN: bb-opt %s --gpu-decode-gemv=weights-before-statistics | FileCheck %s --check-prefix=WBS
// RUN: bb-opt %s --gpu-decode-gemv=weights-ahead-iterations=2 | FileCheck %s --check-prefix=AHEAD2
// RUN: bb-opt %s --gpu-decode-gemv=weights-ahead-bytes=65536 | FileCheck %s --check-prefix=AHEAD2
// RUN: bb-opt %s --gpu-decode-gemv="weights-ahead-bytes=65536 weights-ahead-iterations=1" | FileCheck %s --check-prefix=AHEADA

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
#v0 = affine_map<(d0) -> ()>
#scalar = affine_map<() -> ()>
#vk = affine_map<(d0, d1) -> (d1)>
#wk = affine_map<(d0, d1) -> (d1, d0)>
#vn = affine_map<(d0, d1) -> (d0)>

// (The prefix CHECK runs with activations-ahead=false; the default, the
// activations an iteration ahead too, is AHEADA below.)
// A plain decode GEMV: 4 rows of x against 64 columns of W per block, k
// tiles of 256 (16 k16 steps: 4 per warp). Each warp keeps 8 n8
// accumulators (32 f32) and one iteration of weights (4 steps x 4 rows of
// 16 bytes) ahead in the loop's iter_args, loaded by inline
// `ld.global.nc.L1::no_allocate` (a grid of 4 blocks: at most
// weights-ahead-max-blocks), which LLVM cannot fold into one load at the
// top of each iteration as it folds vector.load (the PLAIN form, with
// weights-ahead-max-blocks=0); the k order of each warp's 4 steps is
// permuted (alike for x and W) so that lane q's x elements are 16
// contiguous ones, two 16-byte loads per row (rows g and g + 8, the latter
// past 4 and zeroed), its weight rows k = 16 q + 4 s + r; with
// activation-vectors=false (PAIRS) the A fragment comes from 4-byte loads
// of x; after the loop the 4 warps store their sums into a workgroup slot
// each, at once, and after one barrier the block's threads add the 4 slots
// into the accumulator tile in warp order (deterministic).
// CHECK-LABEL: func.func @gemv
// CHECK: scf.forall (%{{.*}}, %[[BX:.*]]) in (1, 4)
// CHECK:   %[[ACC:.*]] = memref.alloc() {{.*}} : memref<4x64xf32, #gpu.address_space<workgroup>>
// CHECK:   linalg.fill {{.*}} outs(%[[ACC]]
// CHECK:   %[[SLOTS:.*]] = memref.alloc() : memref<4x4x64xf32, #gpu.address_space<workgroup>>
// CHECK:   scf.forall (%[[WARP:.*]]) in (4)
// CHECK:     %[[LANE:.*]] = gpu.lane_id
// CHECK:     %[[Q:.*]] = arith.remui %[[LANE]], %{{.*}}
// CHECK:     %[[QK:.*]] = arith.muli %[[Q]], %c16
// CHECK:     %[[LANEK:.*]] = arith.addi %{{.*}}, %[[QK]]
// The first iteration's weights, before the loop.
// CHECK-NOT: nvvm.prefetch
// CHECK-COUNT-16: llvm.inline_asm asm_dialect = att "ld.global.nc.L1::no_allocate.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %{{.*}} : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:     %[[LOOP:.*]]:48 = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(
// The next iteration's weights (clamped to the last), then the mma.
// CHECK:       arith.minui
// CHECK-COUNT-16: llvm.inline_asm {{.*}}"ld.global.nc.L1::no_allocate.v4.b32
// CHECK:       vector.load %{{.*}}[%{{.*}}, %[[LANEK]]] {alignment = 16 : i64} : memref<4x256xbf16, strided<[1024, 1], offset: ?>>, vector<8xbf16>
// CHECK-COUNT-3: vector.load %{{.*}} {alignment = 16 : i64} : memref<4x256xbf16, strided<[1024, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT:   vector<2xbf16>
// CHECK:       vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [2], strides = [1]} : vector<8xbf16> to vector<2xbf16>
// CHECK:       arith.select
// CHECK:       nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-COUNT-31: nvvm.mma.sync
// CHECK-NOT:   nvvm.mma.sync
// CHECK:       scf.yield
// CHECK:     }
// Each warp's sums into its slot (no turns), one barrier, then the slots
// added into the tile in warp order: tile + warp 0's + ... + warp 3's.
// CHECK-NOT: vector.load %[[ACC]]
// CHECK:     vector.store {{.*}}, %[[SLOTS]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x4x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK:     gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK:     scf.if
// CHECK:       %[[OLD:.*]] = vector.load %[[ACC]]{{.*}} : memref<4x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK:       %[[S0:.*]] = vector.load %[[SLOTS]][%c0
// CHECK:       %[[T0:.*]] = arith.addf %[[OLD]], %[[S0]] : vector<8xf32>
// CHECK:       %[[S1:.*]] = vector.load %[[SLOTS]][%c1
// CHECK:       %[[T1:.*]] = arith.addf %[[T0]], %[[S1]] : vector<8xf32>
// CHECK:       %[[S2:.*]] = vector.load %[[SLOTS]][%c2
// CHECK:       %[[T2:.*]] = arith.addf %[[T1]], %[[S2]] : vector<8xf32>
// CHECK:       %[[S3:.*]] = vector.load %[[SLOTS]][%c3
// CHECK:       %[[T3:.*]] = arith.addf %[[T2]], %[[S3]] : vector<8xf32>
// CHECK:       vector.store %[[T3]], %[[ACC]]
// CHECK-NOT: gpu.barrier
// CHECK:   } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK:   linalg.generic
// CHECK:   memref.copy
// PAIRS-LABEL: func.func @gemv
// PAIRS:       scf.for
// PAIRS-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// PAIRS:       vector.load %{{.*}} {alignment = 4 : i64} : memref<4x256xbf16, strided<[1024, 1], offset: ?>>, vector<2xbf16>
// PAIRS:       nvvm.mma.sync
// PLAIN-LABEL: func.func @gemv
// PLAIN-NOT: llvm.inline_asm
// PLAIN-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x64xbf16, strided<[256, 1], offset: ?>>, vector<8xbf16>
// PLAIN:     scf.for
// PLAIN:       arith.minui
// PLAIN-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x64xbf16, strided<[256, 1], offset: ?>>, vector<8xbf16>
// PLAIN-LABEL: func.func @rmsnorm_gemv
// By default (activations-ahead), the lane's x and gamma vectors of the next
// iteration (rows g and g + 8 of x and gamma, two 16-byte vectors each)
// are loaded by inline ld.global.nc.v4.b32 an iteration ahead too, carried
// in the loop beside the weights; the loop computes x * rstd * gamma from
// the carried vectors. With activation-vectors=false (AHEADP, session 10's
// form) they are the A fragment's pairs (4 k16 steps x 4 registers x 2
// operands), 32 inline ld.global.nc.b32 carried as vector<2xbf16>.
// AHEADA-LABEL: func.func @rmsnorm_gemv
// AHEADA: math.rsqrt
// AHEADA-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// AHEADA-COUNT-6: "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];"
// AHEADA: scf.for {{.*}} -> (f32, {{.*}}, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>) {
// The next iteration's loads, where it does not exist (the last
// iteration), at lane-uniform indices (one sector a warp).
// AHEADA: %[[NEXT:.*]] = arith.cmpi ult, %{{.*}}, %c2 : index
// AHEADA: arith.select %[[NEXT]], %{{.*}}, %c0{{.*}} : index
// AHEADA: arith.select %[[NEXT]], %{{.*}}, %c0{{.*}} : index
// AHEADA-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// AHEADA-COUNT-6: "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];"
// AHEADA-NOT: vector.load {{.*}} vector<2xbf16>
// AHEADA: arith.truncf
// AHEADA: nvvm.mma.sync
// AHEADA: scf.yield
// The block's weights are 32 KB an iteration (256 k x 64 n bf16), so the
// default weights-ahead-bytes (32 KB) keeps them one iteration ahead
// (AHEADA). With weights-ahead-iterations=2, or weights-ahead-bytes=65536
// (two whole iterations), two iterations' weights before the loop (32
// loads), 32 weight vectors carried, 16 loads in the loop; an explicit
// weights-ahead-iterations overrides the bytes.
// AHEAD2-LABEL: func.func @rmsnorm_gemv
// AHEAD2-COUNT-32: "ld.global.nc.L1::no_allocate.v4.b32
// AHEAD2-NOT: nvvm.mma.sync
// AHEAD2: scf.for {{.*}} -> (f32, {{.*}}) {
// AHEAD2-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// AHEAD2-NOT: "ld.global.nc.L1::no_allocate.v4.b32
// AHEAD2: nvvm.mma.sync
// AHEAD2: scf.yield
// AHEADP-LABEL: func.func @rmsnorm_gemv
// AHEADP: math.rsqrt
// AHEADP-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// AHEADP-COUNT-32: "ld.global.nc.b32 $0, [$1];", "=r,l"
// AHEADP: scf.for {{.*}} -> (f32, {{.*}}, vector<8xbf16>, {{.*}}, vector<2xbf16>, {{.*}}vector<2xbf16>) {
// AHEADP-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// AHEADP-COUNT-32: "ld.global.nc.b32 $0, [$1];", "=r,l"
// AHEADP-NOT: vector.load {{.*}} vector<2xbf16>
// AHEADP: arith.truncf
// AHEADP: nvvm.mma.sync
// AHEADP: scf.yield
// With prefetch-bytes, a warp forall of its own first: each thread
// prefetches lines t and t + 128 of the first iterations' [256, 64] weight
// views (128 bytes a row: one line) into L2; in the loop, a guarded
// prefetch of the iteration that many ahead (64 KB: two 32 KB iterations).
// PREFETCH-LABEL: func.func @gemv
// PREFETCH: scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// PREFETCH:   scf.forall (%{{.*}}) in (4)
// PREFETCH:     %[[END:.*]] = arith.minui %{{.*}}, %c4
// PREFETCH:     scf.for %{{.*}} = %c0 to %[[END]]
// PREFETCH:       memref.extract_strided_metadata
// PREFETCH:       nvvm.prefetch level = L2, %{{.*}} : !llvm.ptr<1>
// PREFETCH:       nvvm.prefetch level = L2, %{{.*}} : !llvm.ptr<1>
// PREFETCH-NOT:   nvvm.prefetch
// PREFETCH:   } {mapping = [#gpu.warp<linear_dim_0>]}
// PREFETCH:   scf.forall (%{{.*}}) in (4)
// PREFETCH:     scf.for
// PREFETCH:       %[[AHEAD:.*]] = arith.addi %{{.*}}, %c2
// PREFETCH:       %[[IN:.*]] = arith.cmpi ult, %[[AHEAD]], %c4
// PREFETCH:       scf.if %[[IN]] {
// PREFETCH-COUNT-2: nvvm.prefetch level = L2
// PREFETCH:       nvvm.mma.sync
func.func @gemv(%x: memref<4x1024xbf16>, %w: memref<1024x256xbf16>, %out: memref<4x256xbf16>) {
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  scf.forall (%by, %bx) in (1, 4) {
    %n0 = arith.muli %bx, %c64 : index
    %acc = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c4 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %x[0, %k0] [4, 256] [1, 1] : memref<4x1024xbf16> to memref<4x256xbf16, strided<[1024, 1], offset: ?>>
      %ws = memref.subview %w[%k0, %n0] [256, 64] [1, 1] : memref<1024x256xbf16> to memref<256x64xbf16, strided<[256, 1], offset: ?>>
      %t = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<4x64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xs, %ws : memref<4x256xbf16, strided<[1024, 1], offset: ?>>, memref<256x64xbf16, strided<[256, 1], offset: ?>>) outs(%t : memref<4x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<4x64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %r = memref.alloc() {alignment = 64 : i64} : memref<4x64xbf16, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>) outs(%r : memref<4x64xbf16, #gpu.address_space<workgroup>>) {
    ^bb0(%in: f32, %o: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    }
    %os = memref.subview %out[0, %n0] [4, 64] [1, 1] : memref<4x256xbf16> to memref<4x64xbf16, strided<[256, 1], offset: ?>>
    memref.copy %r, %os : memref<4x64xbf16, #gpu.address_space<workgroup>> to memref<4x64xbf16, strided<[256, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// RMSNorm + matmul: the sum of squares, tiled along k, becomes a row
// kernel in a warp forall of its own (one warp per row of 512: 16 elements
// per lane, two 16-byte loads), lane 0 storing each row's sum into the
// workgroup buffer; then (after the barrier that ends that forall, placed
// by gpu-map-grid-to-launch) the GEMV warps: rsqrt once per lane and row
// (hoisted out of the prologue), and in the loop x * rstd * gamma rounded
// to bf16 per element.
// CHECK-LABEL: func.func @rmsnorm_gemv
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK:   vector.load %{{.*}} : memref<4x512xbf16, strided<[512, 1]>>, vector<8xbf16>
// CHECK:   gpu.shuffle xor
// CHECK:   scf.if
// CHECK:     memref.store %{{.*}}, %[[SS:.*]][%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK: linalg.fill
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK:   memref.load %[[SS]]
// CHECK:   math.rsqrt
// CHECK:   memref.load %[[SS]]
// CHECK:   math.rsqrt
// CHECK-NOT: math.rsqrt
// CHECK:   scf.for
// CHECK:     vector.load %{{.*}} {alignment = 16 : i64} : memref<256xbf16, strided<[1], offset: ?>>, vector<8xbf16>
// CHECK:     arith.truncf
// CHECK:     nvvm.mma.sync
// With weights-before-statistics the first iteration's weights are issued
// first, then the statistics run in the GEMV's warps, a barrier after them,
// then the row part of the prologue and the loop: one warp forall.
// WBS-LABEL: func.func @rmsnorm_gemv
// WBS:       scf.forall (%{{.*}}) in (4)
// WBS-COUNT-16: "ld.global.nc.L1::no_allocate.v4.b32
// WBS:         vector.load %{{.*}} : memref<4x512xbf16, strided<[512, 1]>>, vector<8xbf16>
// WBS:         gpu.shuffle xor
// WBS:         memref.store %{{.*}}, %[[SS:.*]][%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// WBS:         gpu.barrier
// WBS-NEXT:    memref.load %[[SS]]
// WBS:         math.rsqrt
// WBS:         scf.for
// WBS:       } {mapping = [#gpu.warp<linear_dim_0>]}
// WBS-NOT:   scf.forall (%{{.*}}) in (4)
// WBS-LABEL: func.func @rmsnorm_vector_gemv
func.func @rmsnorm_gemv(%x: memref<4x512xbf16>, %g: memref<512xbf16>, %w: memref<512x64xbf16>, %out: memref<4x64xbf16>) {
  %eps = arith.constant 9.99999997E-7 : f32
  %n = arith.constant 5.120000e+02 : f32
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.000000e+00 : f32
  scf.forall (%bx) in (1) {
    %ss = memref.alloc() {alignment = 64 : i64} : memref<4xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%ss : memref<4xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c2 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %x[0, %k0] [4, 256] [1, 1] : memref<4x512xbf16> to memref<4x256xbf16, strided<[512, 1], offset: ?>>
      %t = memref.alloc() {alignment = 64 : i64} : memref<4xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<4xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xs : memref<4x256xbf16, strided<[512, 1], offset: ?>>) outs(%t : memref<4xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %o: f32):
        %e = arith.extf %in : bf16 to f32
        %sq = arith.mulf %e, %e : f32
        %s = arith.addf %o, %sq : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%t : memref<4xf32, #gpu.address_space<workgroup>>) outs(%ss : memref<4xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %acc = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c2 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %x[0, %k0] [4, 256] [1, 1] : memref<4x512xbf16> to memref<4x256xbf16, strided<[512, 1], offset: ?>>
      %gs = memref.subview %g[%k0] [256] [1] : memref<512xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %a = memref.alloc() {alignment = 64 : i64} : memref<4x256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%xs, %ss, %gs : memref<4x256xbf16, strided<[512, 1], offset: ?>>, memref<4xf32, #gpu.address_space<workgroup>>, memref<256xbf16, strided<[1], offset: ?>>) outs(%a : memref<4x256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %s: f32, %gg: bf16, %o: bf16):
        %ge = arith.extf %gg : bf16 to f32
        %ms = arith.divf %s, %n : f32
        %me = arith.addf %ms, %eps : f32
        %rs = math.rsqrt %me : f32
        %xe = arith.extf %in : bf16 to f32
        %xn = arith.mulf %xe, %rs : f32
        %xg = arith.mulf %xn, %ge : f32
        %r = arith.truncf %xg : f32 to bf16
        linalg.yield %r : bf16
      }
      %ws = memref.subview %w[%k0, 0] [256, 64] [1, 1] : memref<512x64xbf16> to memref<256x64xbf16, strided<[64, 1], offset: ?>>
      %t = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<4x64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %ws : memref<4x256xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, strided<[64, 1], offset: ?>>) outs(%t : memref<4x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<4x64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %r = memref.alloc() {alignment = 64 : i64} : memref<4x64xbf16, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>) outs(%r : memref<4x64xbf16, #gpu.address_space<workgroup>>) {
    ^bb0(%in: f32, %o: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    }
    memref.copy %r, %out : memref<4x64xbf16, #gpu.address_space<workgroup>> to memref<4x64xbf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// RMSNorm + matmul at M1 (batch-1 decode), as the converter leaves it: the
// rows dimension dropped, x a rank-1 view of the [1, 512] argument (a
// collapse_shape in the host function), the statistic a 0-d tile, the dot
// a vector-matrix product x[k] * W[k, n] into a [64] accumulator. The block
// gets its unit rows dimension back (UnitRows.h) and is lowered as a decode
// block of R = 1: the statistic a [1] buffer written by one warp's row
// (x viewed as [1, 512] of the argument itself), the accumulator a
// [1, 64] expand_shape of the block's [64] tile (the epilogue after the
// loop keeps reading the [64] tile), x's 16-byte vectors at row 0 (lanes
// of other rows read it too and are zeroed), gamma's as columns.
// CHECK-LABEL: func.func @rmsnorm_vector_gemv
// CHECK: scf.forall (%{{.*}}) in (1) {
// CHECK:   vector.load %{{.*}} : memref<1x512xbf16, strided<[512, 1]>>, vector<8xbf16>
// CHECK:   gpu.shuffle xor
// CHECK:   scf.if
// CHECK:     memref.store %{{.*}}, %[[SS:.*]][%{{.*}}] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK: %[[TILE:.*]] = memref.alloc() {{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ACC:.*]] = memref.expand_shape %[[TILE]] {{\[\[}}0, 1]] output_shape [1, 64] : memref<64xf32, #gpu.address_space<workgroup>> into memref<1x64xf32, #gpu.address_space<workgroup>>
// CHECK: linalg.fill {{.*}} outs(%[[ACC]]
// CHECK: %[[SLOTS:.*]] = memref.alloc() : memref<4x1x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK:   %[[LANE:.*]] = gpu.lane_id
// CHECK:   %[[G:.*]] = arith.divui %[[LANE]], %c4{{.*}} : index
// CHECK:   %[[REAL:.*]] = arith.cmpi ult, %[[G]], %c1{{.*}} : index
// CHECK:   %[[ROW:.*]] = arith.select %[[REAL]], %[[G]], %c0{{.*}} : index
// CHECK:   memref.load %[[SS]][%[[ROW]]]
// CHECK:   math.rsqrt
// CHECK:   scf.for
// CHECK:     vector.load %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<1x256xbf16, strided<[512, 1], offset: ?>>, vector<8xbf16>
// CHECK:     vector.load %{{.*}} {alignment = 16 : i64} : memref<256xbf16, strided<[1], offset: ?>>, vector<8xbf16>
// CHECK:     arith.truncf
// CHECK:     nvvm.mma.sync
// CHECK:   scf.if %[[REAL]]
// CHECK:     vector.store %{{.*}}, %[[SLOTS]][%{{.*}}, %[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<4x1x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK:   gpu.barrier
// CHECK:   scf.if
// CHECK:     vector.load %[[ACC]]
// CHECK-COUNT-4: vector.load %[[SLOTS]]
// CHECK:     vector.store %{{.*}}, %[[ACC]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK: linalg.generic {{.*}} ins(%[[TILE]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.copy
func.func @rmsnorm_vector_gemv(%x: memref<1x512xbf16>, %g: memref<512xbf16>, %w: memref<512x64xbf16>, %out: memref<1x64xbf16>) {
  %eps = arith.constant 9.99999997E-7 : f32
  %n = arith.constant 5.120000e+02 : f32
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.000000e+00 : f32
  %xv = memref.collapse_shape %x [[0, 1]] : memref<1x512xbf16> into memref<512xbf16>
  %ov = memref.collapse_shape %out [[0, 1]] : memref<1x64xbf16> into memref<64xbf16>
  scf.forall (%bx) in (1) {
    %ss = memref.alloc() {alignment = 64 : i64} : memref<f32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%ss : memref<f32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c2 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %xv[%k0] [256] [1] : memref<512xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %t = memref.alloc() {alignment = 64 : i64} : memref<f32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<f32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#v, #v0], iterator_types = ["reduction"]} ins(%xs : memref<256xbf16, strided<[1], offset: ?>>) outs(%t : memref<f32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %o: f32):
        %e = arith.extf %in : bf16 to f32
        %sq = arith.mulf %e, %e : f32
        %s = arith.addf %o, %sq : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []} ins(%t : memref<f32, #gpu.address_space<workgroup>>) outs(%ss : memref<f32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %acc = memref.alloc() {alignment = 64 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<64xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c2 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %xv[%k0] [256] [1] : memref<512xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %gs = memref.subview %g[%k0] [256] [1] : memref<512xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %a = memref.alloc() {alignment = 64 : i64} : memref<256xbf16, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [#v, #v0, #v, #v], iterator_types = ["parallel"]} ins(%xs, %ss, %gs : memref<256xbf16, strided<[1], offset: ?>>, memref<f32, #gpu.address_space<workgroup>>, memref<256xbf16, strided<[1], offset: ?>>) outs(%a : memref<256xbf16, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %s: f32, %gg: bf16, %o: bf16):
        %ge = arith.extf %gg : bf16 to f32
        %ms = arith.divf %s, %n : f32
        %me = arith.addf %ms, %eps : f32
        %rs = math.rsqrt %me : f32
        %xe = arith.extf %in : bf16 to f32
        %xn = arith.mulf %xe, %rs : f32
        %xg = arith.mulf %xn, %ge : f32
        %r = arith.truncf %xg : f32 to bf16
        linalg.yield %r : bf16
      }
      %ws = memref.subview %w[%k0, 0] [256, 64] [1, 1] : memref<512x64xbf16> to memref<256x64xbf16, strided<[64, 1], offset: ?>>
      %t = memref.alloc() {alignment = 64 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#vk, #wk, #vn], iterator_types = ["parallel", "reduction"]} ins(%a, %ws : memref<256xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, strided<[64, 1], offset: ?>>) outs(%t : memref<64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%t : memref<64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %r = memref.alloc() {alignment = 64 : i64} : memref<64xbf16, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%acc : memref<64xf32, #gpu.address_space<workgroup>>) outs(%r : memref<64xbf16, #gpu.address_space<workgroup>>) {
    ^bb0(%in: f32, %o: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    }
    memref.copy %r, %ov : memref<64xbf16, #gpu.address_space<workgroup>> to memref<64xbf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// A vector-matrix product whose vector is an argument of rank 1 (no [1, K]
// array to view it as a row of): refused, the generic path keeps it.
// REFUSED: remark: gpu-decode-gemv: not a decode GEMV block: a vector-matrix product whose vector is neither a tile of the block nor a view of a [1, K] activation
// CHECK-LABEL: func.func @vector_argument
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic {{.*}}"reduction"
func.func @vector_argument(%x: memref<512xbf16>, %w: memref<512x64xbf16>, %out: memref<64xf32>) {
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.000000e+00 : f32
  scf.forall (%bx) in (1) {
    %acc = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<64xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c2 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%k0] [256] [1] : memref<512xbf16> to memref<256xbf16, strided<[1], offset: ?>>
      %ws = memref.subview %w[%k0, 0] [256, 64] [1, 1] : memref<512x64xbf16> to memref<256x64xbf16, strided<[64, 1], offset: ?>>
      %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#vk, #wk, #vn], iterator_types = ["parallel", "reduction"]} ins(%xs, %ws : memref<256xbf16, strided<[1], offset: ?>>, memref<256x64xbf16, strided<[64, 1], offset: ?>>) outs(%t : memref<64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%t : memref<64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    memref.copy %acc, %out : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// 32 rows: more than one mma tile of rows; the generic path keeps it.
// REFUSED: remark: gpu-decode-gemv: not a decode GEMV block: more than 16 rows
// CHECK-LABEL: func.func @too_many_rows
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic {{.*}}"reduction"
func.func @too_many_rows(%x: memref<32x1024xbf16>, %w: memref<1024x64xbf16>, %out: memref<32x64xf32>) {
  %c256 = arith.constant 256 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.000000e+00 : f32
  scf.forall (%bx) in (1) {
    %acc = memref.alloc() : memref<32x64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x64xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c4 step %c1 {
      %k0 = arith.muli %i, %c256 : index
      %xs = memref.subview %x[0, %k0] [32, 256] [1, 1] : memref<32x1024xbf16> to memref<32x256xbf16, strided<[1024, 1], offset: ?>>
      %ws = memref.subview %w[%k0, 0] [256, 64] [1, 1] : memref<1024x64xbf16> to memref<256x64xbf16, strided<[64, 1], offset: ?>>
      %t = memref.alloc() : memref<32x64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<32x64xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xs, %ws : memref<32x256xbf16, strided<[1024, 1], offset: ?>>, memref<256x64xbf16, strided<[64, 1], offset: ?>>) outs(%t : memref<32x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<32x64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<32x64xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    memref.copy %acc, %out : memref<32x64xf32, #gpu.address_space<workgroup>> to memref<32x64xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// A partial edge tile (the last block's columns are dynamic): refused.
// REFUSED: remark: gpu-decode-gemv: not a decode GEMV block: a partial edge tile (dynamic shape)
// CHECK-LABEL: func.func @partial_columns
// CHECK-NOT: nvvm.mma.sync
func.func @partial_columns(%x: memref<4x256xbf16>, %w: memref<256x100xbf16>, %out: memref<4x100xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.000000e+00 : f32
  scf.forall (%bx) in (2) {
    %n0 = arith.muli %bx, %c64 : index
    %left = arith.subi %c100, %n0 : index
    %cols = arith.minsi %left, %c64 : index
    %acc = memref.alloc(%cols) : memref<4x?xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%zero : f32) outs(%acc : memref<4x?xf32, #gpu.address_space<workgroup>>)
    scf.for %i = %c0 to %c1 step %c1 {
      %ws = memref.subview %w[0, %n0] [256, %cols] [1, 1] : memref<256x100xbf16> to memref<256x?xbf16, strided<[100, 1], offset: ?>>
      %t = memref.alloc(%cols) : memref<4x?xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%t : memref<4x?xf32, #gpu.address_space<workgroup>>)
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %ws : memref<4x256xbf16>, memref<256x?xbf16, strided<[100, 1], offset: ?>>) outs(%t : memref<4x?xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: bf16, %in_1: bf16, %o: f32):
        %e0 = arith.extf %in : bf16 to f32
        %e1 = arith.extf %in_1 : bf16 to f32
        %p = arith.mulf %e0, %e1 : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<4x?xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<4x?xf32, #gpu.address_space<workgroup>>) {
      ^bb0(%in: f32, %o: f32):
        %s = arith.addf %o, %in : f32
        linalg.yield %s : f32
      }
    }
    %os = memref.subview %out[0, %n0] [4, %cols] [1, 1] : memref<4x100xf32> to memref<4x?xf32, strided<[100, 1], offset: ?>>
    memref.copy %acc, %os : memref<4x?xf32, #gpu.address_space<workgroup>> to memref<4x?xf32, strided<[100, 1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  return
}
