// The serial work of a block (docs/FusionReport.md, "Serial work") counts
// the fused multiply-adds each thread runs for an f32 dot: the f32
// projection of a batch-1 sequence of 256 tokens (M256 K512 N512, the size
// of the real-size torch exports of docs/RealInputs.md) has a grid below
// the 132 SMs at blocks of 128, so it is judged as a decode program, but its
// dots are not on the matrix units: gpu-contractions-to-fma runs a block's
// 64 x 256 x 8 products (one K block) over its 128 threads, 1024 a thread,
// at 2 ns each on the H100. Without that count a K block of 256 looked as
// cheap as one of 32 (one iteration's barriers instead of eight), and the
// blocks chosen for the real-size exports ran up to 2.2x slower on the H100
// (docs/RealInputs.md, "Serial work of f32 dots").
//
// RUN: bb-opt %s --block-select --block-report=target=h100 | FileCheck %s

// Two iterations (K blocks of 256) of 64 x 8 x 256 / 128 = 1024 FMAs a
// thread; 256 blocks of 64 x 8 fill the chip's 132 SMs in one wave.
// CHECK:      "instances": 256,
// CHECK:      "serial_iterations": 2,
// CHECK-NEXT: "serial_thread_elements": 0,
// CHECK-NEXT: "serial_thread_fmas": 2048,
// CHECK:      "latency_ns": 6896,
// CHECK: block.program @f32_projection_m256 axes(a0 = 256 tiled block 64, a1 = 512 tiled block 256, a2 = 512 tiled block 8)
block.program @f32_projection_m256 axes(a0 = 256 tiled, a1 = 512 tiled, a2 = 512 tiled) (%arg0: !block.array<256x512xf32>, %arg1: !block.array<512x512xf32>) -> !block.array<256x512xf32> {
  %0 = block.map [a0, a2] -> !block.array<256x512xf32> {
    %1 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
      %2 = block.load %arg0 [a0, a1] : !block.array<256x512xf32> -> !block.tile<[a0, a1], f32>
      %3 = block.load %arg1 [a1, a2] : !block.array<512x512xf32> -> !block.tile<[a1, a2], f32>
      %4 = block.dot %2, %3 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a1, a2], f32>
      block.yield %4 : !block.tile<[a0, a2], f32>
    }
    block.yield %1 : !block.tile<[a0, a2], f32>
  }
  block.return %0 : !block.array<256x512xf32>
}
