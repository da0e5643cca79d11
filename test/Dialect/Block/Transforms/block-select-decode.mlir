// block-select on a decode program (docs/FusionReport.md, "Serial work"):
// RMSNorm + projection at M16 K4096 N4096 as block-fuse leaves it, the
// statistics loop and the weight loop in one kernel. Its grid cannot fill
// the 132 SMs at blocks of 128, so a block's serial work decides: the
// statistics loop, T / S of the split weight loop and the combine, each
// iteration costing more with more rows per block. block-select takes 4
// rows, 128 columns and K blocks of 256 (K only loops: in a decode program
// it may take twice the largest size). Measured on the H100: 0.0541 ms;
// 0.0698 with K blocks of 128; 0.142 ms with the 16 x 32 blocks the
// bytes-and-waves estimate alone took.
//
// RUN: bb-opt %s --block-select | FileCheck %s
// RUN: bb-opt %s --block-select --block-report=target=h100 -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: bb-opt %s --block-select=target=cpu | FileCheck %s --check-prefix=CPU

// CHECK: block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled block 4, a1 = 4096 tiled block 256, a2 = 4096 tiled block 128)
// The CPU has no serial term: the old choice.
// CPU: block.program @rmsnorm_matmul_m16 axes(a0 = 16 tiled block 16,

// 128 instances (4 row blocks x 32 column blocks) of 32 iterations (two
// loops of 16), 2 splits: 16 + 8 + 1 iterations per block, one wave.
// Elements per thread and iteration: 4 x 256 over 4 x 32 threads (1 x 8) in
// the statistics; the same shape and the gamma tile [256] (2) in the weight
// loop: 16 x 8 + 16 x 10 = 288.
// REPORT:      "instances": 128,
// REPORT:      "serial_iterations": 32,
// REPORT-NEXT: "serial_thread_elements": 288,
// REPORT:      "splits": 2,
// REPORT-NEXT: "waves": 1,
// REPORT:      "latency_ns": 64120,
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
