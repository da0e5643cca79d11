// Tests of --block-select: explicit sizes win, then the axis table, then the
// cost model (one power of two <= 128 for every open axis: among those that
// fit the target on chip, the lowest roofline estimate). On h100 that means
// shared_bytes_peak (tiles) within 228 KB and register_bytes_peak (reduce
// states) within 128 KB (256 threads x 128 registers x 4 bytes); on the CPU,
// which has no register file to respect, local_bytes_peak within 2 MB.
//
// RUN: split-file %s %t
// RUN: bb-opt %t/programs.mlir --block-select | FileCheck %s --check-prefix=H100
// RUN: bb-opt %t/programs.mlir --block-select=target=cpu | FileCheck %s --check-prefix=CPU
// RUN: bb-opt %t/programs.mlir --block-select='block-sizes=M=48,N=5000' | FileCheck %s --check-prefix=EXPLICIT
//
// The FlashAttention example fits at 128 x 128 (local_bytes_peak 230912
// bytes, within the 233472 bytes (228 KB) of an H100 SM), but 1024 queries
// in blocks of 128 are 8 instances for 132 SMs. The cost model takes M = 8:
// 128 instances, each reading K and V (more bytes, about a quarter of the
// time). The block of the keys changes neither bytes nor FLOPs: ties go to
// the larger block, N = 128.
// RUN: bb-opt %examples/block/attention.fused.mlir --block-select | FileCheck %s --check-prefix=ATTN
// ATTN: block.program @attention axes(M = 1024 tiled block 8, N = 1024 tiled block 128, D = 64 whole)
// RUN: bb-opt %examples/block/attention.fused.mlir --block-report='block-sizes=M=128,N=128' -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=ATTN-128
// ATTN-128: "local_bytes_peak": 230912,

// Errors fail the pass with a message that names the culprit.
// RUN: not bb-opt %t/programs.mlir --block-select=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: block-select: unknown target 'tpu'; known targets: h100 h200 cpu
// RUN: not bb-opt %t/programs.mlir --block-select='block-sizes=M' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: block-select: block size 'M' is not of the form AXIS=SIZE with a positive SIZE
// RUN: not bb-opt %t/programs.mlir --block-select='block-sizes=Q=64' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: block-select: block-sizes names axis 'Q', which no block.program declares
// RUN: not bb-opt %t/programs.mlir --block-select='block-sizes=D=64' 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: programs.mlir:{{[0-9]+}}:1: error: block-select: block-sizes names axis 'D', which @wide declares whole; whole axes are one block
// RUN: not bb-opt %t/huge.mlir --block-select 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: huge.mlir:{{[0-9]+}}:1: error: block-select: no block size fits @huge on target 'h100': with block size 1 on every open axis its shared_bytes_peak 8000000 bytes > 232448

// Multi-head attention, fused (two reduces over the keys a3, bf16 dots):
// [a0 batch, a1 heads, a2 queries, a3 keys, a4 = a5 = 64 whole]. From the
// best common size (4 on every axis) each axis alone only loses: a block of
// 128 queries fits only with few batches and heads, so one start stopped at
// 8 x 8 x 4 x 4, a dot of 4 rows on tensor cores that compute 16. Every
// common size that fits is a start now; the lowest end wins: 128 queries,
// one batch, one head and 32 keys when block-sizes names the queries (64
// keys and two batches before the serial work of blocks was in the
// estimate: at blocks of 128 on every axis, batch and heads included, the
// grid is 8 blocks, and the P V sum is a split candidate, so the program
// counts as decode-shaped; docs/FusionReport.md, "Serial work").
// RUN: bb-opt %t/heads.mlir --block-select=block-sizes=a2=128 | FileCheck %s --check-prefix=HEADS-MODEL
// HEADS-MODEL: axes(a0 = 8 tiled block 1, a1 = 16 tiled block 1, a2 = 1024 tiled block 128, a3 = 1024 tiled block 32, a4 = 64 whole, a5 = 64 whole)
// By default the kernel is one gpu-flash-attention runs with every tile in
// registers (bf16 S = Q K^T of two loads, P V of a computed P): one batch
// and head per block, 16 query rows per warp (64 at the default 128
// threads, 128 at 256), 64 keys. The f32 example above keeps the model's
// choice.
// RUN: bb-opt %t/heads.mlir --block-select | FileCheck %s --check-prefix=HEADS
// HEADS: axes(a0 = 8 tiled block 1, a1 = 16 tiled block 1, a2 = 1024 tiled block 64, a3 = 1024 tiled block 64, a4 = 64 whole, a5 = 64 whole)
// RUN: bb-opt %t/heads.mlir --block-select=threads=256 | FileCheck %s --check-prefix=HEADS256
// HEADS256: axes(a0 = 8 tiled block 1, a1 = 16 tiled block 1, a2 = 1024 tiled block 128, a3 = 1024 tiled block 64, a4 = 64 whole, a5 = 64 whole)
// The CPU has no such schedule.
// RUN: bb-opt %t/heads.mlir --block-select=target=cpu | FileCheck %s --check-prefix=HEADS-CPU
// HEADS-CPU: axes(a0 = 8 tiled block 8, a1 = 16 tiled block 16, a2 = 1024 tiled block 16, a3 = 1024 tiled block 32, a4 = 64 whole, a5 = 64 whole)
// The matrix units pad a block's dot to whole m16 x n8 x k16 tiles: 8
// queries cost the FLOPs of 16.
// RUN: bb-opt %t/heads.mlir --block-report='block-sizes=a0=1,a1=1,a2=8,a3=64' -o /dev/null | FileCheck %s --check-prefix=PAD8
// PAD8: "matrix_flops": 51539607552,
// PAD8-NEXT: "matrix_tile_flops": 103079215104,
// RUN: bb-opt %t/heads.mlir --block-report='block-sizes=a0=1,a1=1,a2=128,a3=64' -o /dev/null | FileCheck %s --check-prefix=PAD128
// PAD128: "matrix_flops": 51539607552,
// PAD128-NEXT: "matrix_tile_flops": 51539607552,
// local-memory-bytes lowers the target's on-chip budget (bb-compile's retry
// when the lowering packs more than the estimate): smaller blocks of the
// same program; a budget above the target's is an error.
// RUN: bb-opt %t/heads.mlir --block-select='local-memory-bytes=100000 block-sizes=a2=128' | FileCheck %s --check-prefix=BUDGET
// BUDGET: axes(a0 = 8 tiled block 1, a1 = 16 tiled block 1, a2 = 1024 tiled block 128, a3 = 1024 tiled block 32,
// RUN: not bb-opt %t/heads.mlir --block-select=local-memory-bytes=999999 2>&1 | FileCheck %s --check-prefix=BUDGET-ERROR
// BUDGET-ERROR: error: block-select: local-memory-bytes 999999 is not between 0 and 232448, the h100's

// Registers. Eight accumulators [M, D] (D = 640 whole, f32) are 20480 bytes
// per row of M in registers; the tiles in shared memory are a quarter of
// that. At M = 8 the registers need 163840 bytes (> 131072) while everything
// together (204800) would fit the 228 KB of shared memory: the register
// budget, not the shared memory, makes h100 take M = 4. The CPU counts both
// against its 2 MB: 64 rows (1638400 bytes).
// RUN: bb-opt %t/accumulators.mlir --block-select | FileCheck %s --check-prefix=REG-H100
// REG-H100: block.program @accumulators axes(M = 1024 tiled block 4, K = 512 tiled block 1, D = 640 whole)
// RUN: bb-opt %t/accumulators.mlir --block-select=target=cpu | FileCheck %s --check-prefix=REG-CPU
// REG-CPU: block.program @accumulators axes(M = 1024 tiled block 64, K = 512 tiled block 1, D = 640 whole)
// RUN: bb-opt %t/accumulators.mlir --block-report='block-sizes=M=8' -o /dev/null | FileCheck %s --check-prefix=REG-REPORT
// REG-REPORT: "local_bytes_peak": 204800,
// REG-REPORT-NEXT: "register_bytes_peak": 163840,
// REG-REPORT-NEXT: "shared_bytes_peak": 40960,
// With D = 4096 one row of the accumulators alone is 131072 bytes: at M = 1
// the registers are full, at D = 8192 nothing fits, and the error says
// which budget.
// RUN: sed 's/640/8192/g' %t/accumulators.mlir | not bb-opt --block-select 2>&1 | FileCheck %s --check-prefix=REG-ERROR
// REG-ERROR: error: block-select: no block size fits @accumulators on target 'h100': with block size 1 on every open axis its register_bytes_peak 262144 bytes > 131072

//--- programs.mlir

// One [M, D] f32 tile with D = 4096 whole is 16 KB per row of M; the load
// and the exp are live together: 32768 bytes per row. H100 (233472 bytes):
// 8 rows need 262144, so 4 (131072). CPU (2 MB = 2097152 bytes): 64 rows.
// An explicit size wins, even past the budget.

// H100-LABEL: block.program @wide axes(M = 1000 tiled block 4, D = 4096 whole)
// CPU-LABEL: block.program @wide axes(M = 1000 tiled block 64, D = 4096 whole)
// EXPLICIT-LABEL: block.program @wide axes(M = 1000 tiled block 48, D = 4096 whole)
block.program @wide axes(M = 1000 tiled, D = 4096 whole)
    (%x: !block.array<1000x4096xf32>) -> !block.array<1000x4096xf32> {
  %y = block.map [M] -> !block.array<1000x4096xf32> {
    %t = block.load %x[M, D] : !block.array<1000x4096xf32> -> !block.tile<[M, D], f32>
    %e = block.exp %t : !block.tile<[M, D], f32>
    block.yield %e : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<1000x4096xf32>
}

// The table's K = 16 stays unless block-sizes names K; sizes never exceed
// the extent (N = 100 with 128, or the explicit 5000, becomes 100); M = 24
// is clamped to its extent too. On the CPU (one core) one block of 24 x 100
// is fastest. On the H100 the program is a decode program (CostModel.h,
// isSerialBound: its grid cannot fill the 132 SMs), so the serial work of a
// block decides, and with an f32 dot that is its FMAs a thread: blocks of
// 24 x 1 (100 of them, 16 iterations of 24 x 16 products over 128 threads)
// against 4 x 8 (78 blocks) or one block of 24 x 100 whose every thread
// runs 300 FMAs an iteration. (Before the judgement was made once per
// program, blocks of 8 columns left the sum a partial edge, the program
// stopped counting as decode there, and the bytes-and-waves estimate alone
// took them.)

// H100-LABEL: block.program @table axes(M = 24 tiled block 24, N = 100 tiled block 1, K = 256 tiled block 16)
// CPU-LABEL: block.program @table axes(M = 24 tiled block 24, N = 100 tiled block 100, K = 256 tiled block 16)
// EXPLICIT-LABEL: block.program @table axes(M = 24 tiled block 24, N = 100 tiled block 100, K = 256 tiled block 16)
block.program @table axes(M = 24 tiled, N = 100 tiled, K = 256 tiled block 16)
    (%a: !block.array<24x256xf32>, %b: !block.array<256x100xf32>) -> !block.array<24x100xf32> {
  %c = block.map [M, N] -> !block.array<24x100xf32> {
    %r = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %at = block.load %a[M, K] : !block.array<24x256xf32> -> !block.tile<[M, K], f32>
      %bt = block.load %b[K, N] : !block.array<256x100xf32> -> !block.tile<[K, N], f32>
      %p = block.dot %at, %bt contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %c : !block.array<24x100xf32>
}

//--- accumulators.mlir
block.program @accumulators axes(M = 1024 tiled, K = 512 tiled block 1, D = 640 whole)
    (%a: !block.array<1024x512x640xf32>) -> !block.array<1024x640xf32> {
  %y = block.map [M] -> !block.array<1024x640xf32> {
    %s:8 = block.reduce K combiners [add, add, add, add, add, add, add, add] -> !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32> {
      %t = block.load %a[M, K, D] : !block.array<1024x512x640xf32> -> !block.tile<[M, K, D], f32>
      %r = block.tile_reduce add %t over [K] : !block.tile<[M, K, D], f32>
      block.yield %r, %r, %r, %r, %r, %r, %r, %r : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
    }
    block.yield %s#0 : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<1024x640xf32>
}

//--- huge.mlir
// A whole axis of a million f32: one row of the tile is 4 MB, two live.
block.program @huge axes(R = 8 tiled, E = 1000000 whole)
    (%x: !block.array<8x1000000xf32>) -> !block.array<8x1000000xf32> {
  %y = block.map [R] -> !block.array<8x1000000xf32> {
    %t = block.load %x[R, E] : !block.array<8x1000000xf32> -> !block.tile<[R, E], f32>
    %e = block.exp %t : !block.tile<[R, E], f32>
    block.yield %e : !block.tile<[R, E], f32>
  }
  block.return %y : !block.array<8x1000000xf32>
}

// Snapshots from block-fuse{keep-snapshots} compete with their program: the
// replicated form re-reads X (1024 x 4096 f32) once per block of N, the
// snapshot reads it once and passes a row vector through global memory; the
// roofline picks the snapshot, which takes the program's name.
// RUN: bb-opt %t/snapshots.mlir --block-select | FileCheck %s --check-prefix=SNAP
// SNAP:      block.program @f axes(
// SNAP-NOT:  block.snapshot_of
// SNAP:      block.map [M]
// SNAP:      block.map [M, N]
// SNAP-NOT:  block.program

//--- snapshots.mlir
block.program @f axes(M = 1024 tiled, N = 4096 tiled, K = 4096 tiled)
    (%x: !block.array<1024x4096xf32>) -> !block.array<1024x4096xf32> {
  %y = block.map [M, N] -> !block.array<1024x4096xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, K] : !block.array<1024x4096xf32> -> !block.tile<[M, K], f32>
      %r = block.tile_reduce add %t over [K] : !block.tile<[M, K], f32>
      block.yield %r : !block.tile<[M], f32>
    }
    %c = block.constant [M, N] 1.0 : f32
    %o = block.mul %c, %s : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<1024x4096xf32>
}
block.program @f_snapshot1 axes(M = 1024 tiled, N = 4096 tiled, K = 4096 tiled)
    (%x: !block.array<1024x4096xf32>) -> !block.array<1024x4096xf32> attributes {block.snapshot_of = "f"} {
  %s = block.map [M] -> !block.array<1024xf32> {
    %r = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, K] : !block.array<1024x4096xf32> -> !block.tile<[M, K], f32>
      %q = block.tile_reduce add %t over [K] : !block.tile<[M, K], f32>
      block.yield %q : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  %y = block.map [M, N] -> !block.array<1024x4096xf32> {
    %v = block.load %s[M] : !block.array<1024xf32> -> !block.tile<[M], f32>
    %c = block.constant [M, N] 1.0 : f32
    %o = block.mul %c, %v : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<1024x4096xf32>
}

// A candidate that fits the local memory at no block size drops out when a
// snapshot does fit; only when none fits is it an error (the CPU's 2 MB
// would hold the whole row, so this is checked on h100).
// RUN: bb-opt %t/fallback.mlir --block-select | FileCheck %s --check-prefix=FALLBACK
// FALLBACK:     block.program @g axes(M = 64 tiled block {{[0-9]+}}, N = 100000 tiled block {{[0-9]+}})
// FALLBACK-NOT: block.program
// RUN: not bb-opt %t/toobig.mlir --block-select 2>&1 | FileCheck %s --check-prefix=TOOBIG
// TOOBIG: error: block-select: no block size fits @g on target 'h100'

//--- fallback.mlir
block.program @g axes(M = 64 tiled, N = 100000 whole)
    (%x: !block.array<64x100000xf32>) -> !block.array<64x100000xf32> {
  %y = block.map [M] -> !block.array<64x100000xf32> {
    %t = block.load %x[M, N] : !block.array<64x100000xf32> -> !block.tile<[M, N], f32>
    %e = block.exp %t : !block.tile<[M, N], f32>
    block.yield %e : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<64x100000xf32>
}
block.program @g_snapshot1 axes(M = 64 tiled, N = 100000 tiled)
    (%x: !block.array<64x100000xf32>) -> !block.array<64x100000xf32> attributes {block.snapshot_of = "g"} {
  %y = block.map [M, N] -> !block.array<64x100000xf32> {
    %t = block.load %x[M, N] : !block.array<64x100000xf32> -> !block.tile<[M, N], f32>
    %e = block.exp %t : !block.tile<[M, N], f32>
    block.yield %e : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<64x100000xf32>
}

//--- toobig.mlir
block.program @g axes(M = 64 tiled, N = 100000 whole)
    (%x: !block.array<64x100000xf32>) -> !block.array<64x100000xf32> {
  %y = block.map [M] -> !block.array<64x100000xf32> {
    %t = block.load %x[M, N] : !block.array<64x100000xf32> -> !block.tile<[M, N], f32>
    %e = block.exp %t : !block.tile<[M, N], f32>
    block.yield %e : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<64x100000xf32>
}

//--- heads.mlir
block.program @attention_b8_h16_s1024_d64 axes(a0 = 8 tiled, a1 = 16 tiled, a2 = 1024 tiled, a3 = 1024 tiled, a4 = 64 whole, a5 = 64 whole) (%arg0: !block.array<8x16x1024x64xbf16>, %arg1: !block.array<8x16x1024x64xbf16>, %arg2: !block.array<8x16x1024x64xbf16>) -> !block.array<8x16x1024x64xbf16> {
  %0 = block.map [a0, a1, a2] -> !block.array<8x16x1024x64xbf16> {
    %1 = block.constant [] 1.250000e-01 : f32
    %2 = block.load %arg0 [a0, a1, a2, a4] : !block.array<8x16x1024x64xbf16> -> !block.tile<[a0, a1, a2, a4], bf16>
    %3 = block.constant [a0, a1, a2] 0xFF800000 : f32
    %4 = block.constant [a0, a1, a2] 0.000000e+00 : f32
    %5 = block.constant [] 0xFF800000 : f32
    %6 = block.constant [] 0.000000e+00 : f32
    %7:2 = block.reduce a3 init(%3, %4 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>) -> !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32> {
      %10 = block.load %arg1 [a0, a1, a3, a4] : !block.array<8x16x1024x64xbf16> -> !block.tile<[a0, a1, a3, a4], bf16>
      %11 = block.dot %2, %10 contract [a4] : !block.tile<[a0, a1, a2, a4], bf16>, !block.tile<[a0, a1, a3, a4], bf16>
      %12 = block.mul %11, %1 : !block.tile<[a0, a1, a2, a3], f32>, !block.tile<[], f32>
      %13 = block.tile_reduce max %12 over [a3] : !block.tile<[a0, a1, a2, a3], f32>
      %14 = block.compare eq %13, %5 : !block.tile<[a0, a1, a2], f32>, !block.tile<[], f32>
      %15 = block.select %14, %6, %13 : !block.tile<[a0, a1, a2], i1>, !block.tile<[], f32>, !block.tile<[a0, a1, a2], f32>
      %16 = block.sub %12, %15 : !block.tile<[a0, a1, a2, a3], f32>, !block.tile<[a0, a1, a2], f32>
      %17 = block.exp %16 : !block.tile<[a0, a1, a2, a3], f32>
      %18 = block.tile_reduce add %17 over [a3] : !block.tile<[a0, a1, a2, a3], f32>
      block.yield %13, %18 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
    } combine {
    ^bb0(%arg3: !block.tile<[a0, a1, a2], f32>, %arg4: !block.tile<[a0, a1, a2], f32>, %arg5: !block.tile<[a0, a1, a2], f32>, %arg6: !block.tile<[a0, a1, a2], f32>):
      %10 = block.max %arg3, %arg5 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      %11 = block.compare eq %10, %5 : !block.tile<[a0, a1, a2], f32>, !block.tile<[], f32>
      %12 = block.select %11, %6, %10 : !block.tile<[a0, a1, a2], i1>, !block.tile<[], f32>, !block.tile<[a0, a1, a2], f32>
      %13 = block.sub %arg3, %12 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      %14 = block.exp %13 : !block.tile<[a0, a1, a2], f32>
      %15 = block.sub %arg5, %12 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      %16 = block.exp %15 : !block.tile<[a0, a1, a2], f32>
      %17 = block.mul %arg4, %14 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      %18 = block.mul %arg6, %16 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      %19 = block.add %17, %18 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
      block.yield %10, %19 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1, a2], f32>
    }
    %8 = block.reduce a3 combiners [add] -> !block.tile<[a0, a1, a2, a5], f32> {
      %10 = block.load %arg1 [a0, a1, a3, a4] : !block.array<8x16x1024x64xbf16> -> !block.tile<[a0, a1, a3, a4], bf16>
      %11 = block.dot %2, %10 contract [a4] : !block.tile<[a0, a1, a2, a4], bf16>, !block.tile<[a0, a1, a3, a4], bf16>
      %12 = block.mul %11, %1 : !block.tile<[a0, a1, a2, a3], f32>, !block.tile<[], f32>
      %13 = block.sub %12, %7#0 : !block.tile<[a0, a1, a2, a3], f32>, !block.tile<[a0, a1, a2], f32>
      %14 = block.exp %13 : !block.tile<[a0, a1, a2, a3], f32>
      %15 = block.div %14, %7#1 : !block.tile<[a0, a1, a2, a3], f32>, !block.tile<[a0, a1, a2], f32>
      %16 = block.cast %15 : !block.tile<[a0, a1, a2, a3], f32> to !block.tile<[a0, a1, a2, a3], bf16>
      %17 = block.load %arg2 [a0, a1, a3, a5] : !block.array<8x16x1024x64xbf16> -> !block.tile<[a0, a1, a3, a5], bf16>
      %18 = block.dot %16, %17 contract [a3] : !block.tile<[a0, a1, a2, a3], bf16>, !block.tile<[a0, a1, a3, a5], bf16>
      block.yield %18 : !block.tile<[a0, a1, a2, a5], f32>
    }
    %9 = block.cast %8 : !block.tile<[a0, a1, a2, a5], f32> to !block.tile<[a0, a1, a2, a5], bf16>
    block.yield %9 : !block.tile<[a0, a1, a2, a5], bf16>
  }
  block.return %0 : !block.array<8x16x1024x64xbf16>
}
