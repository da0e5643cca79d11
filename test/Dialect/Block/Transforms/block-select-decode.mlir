// block-select on a decode program (docs/FusionReport.md, "Serial work"):
// RMSNorm + projection at M16 K4096 N4096 as block-fuse leaves it, the
// statistics loop and the weight loop in one kernel. Its grid cannot fill
// the 132 SMs at blocks of 128, so a block's serial work decides: the
// statistics loop, T / S of the split weight loop and the combine. With
// whole tiles of at most 16 rows and columns in multiples of 64
// gpu-decode-gemv runs the kernel (`decode_gemv`), whose iterations and
// elements cost a fifth of the generic lowering's (docs/performance.md,
// "Session 11: the cost model's serial work of decode GEMV kernels"). Alone,
// block-select takes 8 rows, 128 columns and K blocks of 256 (K only loops:
// in a decode program it may take twice the largest size), estimated 21.8
// us: the element term halves with the rows, more than the second read of
// the weights costs in the roofline. bb-compile binds 16 rows x 64 columns
// first (block-decode-gemv-blocks: one read of the weights, measured faster
// than fewer rows in session 9); with those the estimate is 28.0 us,
// against 0.0286-0.0289 ms measured on the H100.
//
// RUN: bb-opt %s --block-select | FileCheck %s
// RUN: bb-opt %s --block-select=block-sizes=a0=16,a2=64 --block-report=target=h100 -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: bb-opt %s --block-select=block-sizes=a0=4,a2=128 --block-report=target=h100 -o /dev/null | FileCheck %s --check-prefix=GENERIC
// RUN: bb-opt %s --block-select=decode-gemv=false | FileCheck %s --check-prefix=NODECODE
// RUN: bb-opt %s --block-select=target=cpu | FileCheck %s --check-prefix=CPU

// CHECK: block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled block 8, a1 = 4096 tiled block 256, a2 = 4096 tiled block 128)
// Without gpu-decode-gemv (bb-compile --decode-gemv=false) the generic
// rates: the session-8 choice, 4 rows x 128 columns.
// NODECODE: block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled block 4, a1 = 4096 tiled block 256, a2 = 4096 tiled block 128)
// The CPU has no serial term: the old choice.
// CPU: block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled block 16,

// At bb-compile's 16 x 64 blocks: 64 instances (64 column blocks) of 32
// iterations, 4 splits: 16 + 4 + 1
// iterations per block at 2.8e-7 s, and the elements at 2.8e-8 s.
// REPORT:      "instances": 64,
// REPORT:      "serial_iterations": 32,
// REPORT:      "decode_gemv": true,
// REPORT:      "splits": 4,
// REPORT-NEXT: "waves": 1,
// REPORT:      "latency_ns": 24024,

// The blocks of the session-8 fit (4 rows, 128 columns; 0.0541 ms on the
// generic lowering then, a decode GEMV block now): 128 instances (4 row
// blocks x 32 column blocks) of 32 iterations (two loops of 16), 2 splits:
// 16 + 8 + 1 iterations per block, one wave. Elements per thread and
// iteration: 4 x 256 over 4 x 32 threads (1 x 8) in the statistics; the
// same shape and the gamma tile [256] (2) in the weight loop: 16 x 8 + 16 x
// 10 = 288. At the generic rates 25 x 1.4 us + 288 x 0.14 us = 64.1 us; at
// the decode GEMV's a fifth of that. Its roofline term is larger: the
// weights are read once per row block.
// GENERIC:      "instances": 128,
// GENERIC:      "serial_iterations": 32,
// GENERIC-NEXT: "serial_thread_elements": 288,
// GENERIC:      "decode_gemv": true,
// GENERIC:      "splits": 2,
// GENERIC-NEXT: "waves": 1,
// GENERIC:      "latency_ns": 12824,
// GENERIC-NEXT: "prologue_ns": 0,
// GENERIC-NEXT: "ns": 37700{{$}}
block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled, a1 = 4096 tiled, a2 = 4096 tiled) (%arg0: !block.array<16x4096xbf16>, %arg1: !block.array<4096xbf16>, %arg2: !block.array<4096x4096xbf16>) -> !block.array<16x4096xbf16> {
  %0 = block.map [a0, a2] -> !block.array<16x4096xbf16> {
    %1 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
      %9 = block.load %arg0 [a0, a1] : !block.array<16x4096xbf16> -> !block.tile<[a0, a1], bf16>
      %10 = block.dot %9, %9 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a0, a1], bf16>
      block.yield %10 : !block.tile<[a0], f32>
    }
    %2 = block.constant [] 4.096000e+03 : f32
    %3 = block.constant [] 9.99999997E-7 : f32
    %4 = block.div %1, %2 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %5 = block.add %4, %3 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %6 = block.rsqrt %5 : !block.tile<[a0], f32>
    %7 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
      %9 = block.load %arg0 [a0, a1] : !block.array<16x4096xbf16> -> !block.tile<[a0, a1], bf16>
      %10 = block.cast %9 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %11 = block.mul %10, %6 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %12 = block.load %arg1 [a1] : !block.array<4096xbf16> -> !block.tile<[a1], bf16>
      %13 = block.cast %12 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
      %14 = block.mul %11, %13 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %15 = block.cast %14 : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
      %16 = block.load %arg2 [a1, a2] : !block.array<4096x4096xbf16> -> !block.tile<[a1, a2], bf16>
      %17 = block.dot %15, %16 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
      block.yield %17 : !block.tile<[a0, a2], f32>
    }
    %8 = block.cast %7 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
    block.yield %8 : !block.tile<[a0, a2], bf16>
  }
  block.return %0 : !block.array<16x4096xbf16>
}
