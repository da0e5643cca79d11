// RUN: bb-opt %s --block-select=wgmma-attention=true | FileCheck %s --check-prefix=WGMMA128
// RUN: bb-opt %s --block-select | FileCheck %s --check-prefix=SYNC128
// RUN: sed 's/x128x/x64x/g; s/= 128 whole/= 64 whole/g' %s | bb-opt --block-select=wgmma-attention=true | FileCheck %s --check-prefix=WGMMA64
// RUN: sed 's/x128x/x64x/g; s/= 128 whole/= 64 whole/g' %s | bb-opt --block-select | FileCheck %s --check-prefix=SYNC64

// F.scaled_dot_product_attention on bf16 [1, 32, 2048, 128] exported by
// torch-mlir as is, fused (rule 9's online combine), its axes open: P V is
// a dot of the f32 P and V widened from bf16, which gpu-flash-attention
// splits into three bf16 parts (AttentionInRegisters::splitP). Such a
// kernel runs in registers: one (batch, head) and 64 query rows a block,
// and the most keys whose O, the combine's O_j, Q and P's three parts fit.
// On wgmma at D 128, 128 keys within 256 registers (ptxas: 238, two blocks
// per SM); at D 64, 64 keys within the 128 state registers. On mma.sync at
// D 64, 32 keys (64 spill); at D 128 no key count fits, and the kernel is
// sized as any other (the cost model's 128 keys), not left at the last
// count tried (16).
// WGMMA128: axes(a0 = 32 tiled block 1, a1 = 2048 tiled block 64, a2 = 128 whole, a3 = 2048 tiled block 128, a4 = 128 whole)
// SYNC128: axes(a0 = 32 tiled block 1, a1 = 2048 tiled block 64, a2 = 128 whole, a3 = 2048 tiled block 128, a4 = 128 whole)
// WGMMA64: axes(a0 = 32 tiled block 1, a1 = 2048 tiled block 64, a2 = 64 whole, a3 = 2048 tiled block 64, a4 = 64 whole)
// SYNC64: axes(a0 = 32 tiled block 1, a1 = 2048 tiled block 64, a2 = 64 whole, a3 = 2048 tiled block 32, a4 = 64 whole)

module {
  block.program @sdpa_bf16_long_b1 axes(a0 = 32 tiled, a1 = 2048 tiled, a2 = 128 whole, a3 = 2048 tiled, a4 = 128 whole) (%arg0: !block.array<1x32x2048x128xbf16>, %arg1: !block.array<1x32x2048x128xbf16>, %arg2: !block.array<1x32x2048x128xbf16>) -> !block.array<1x32x2048x128xbf16> {
    %0 = block.view %arg0 : !block.array<1x32x2048x128xbf16> to !block.array<32x2048x128xbf16>
    %1 = block.view %arg1 : !block.array<1x32x2048x128xbf16> to !block.array<32x2048x128xbf16>
    %2 = block.view %arg2 : !block.array<1x32x2048x128xbf16> to !block.array<32x2048x128xbf16>
    %3 = block.map [a0, a1] -> !block.array<32x2048x128xbf16> {
      %5 = block.load %0 [a0, a1, a2] : !block.array<32x2048x128xbf16> -> !block.tile<[a0, a1, a2], bf16>
      %6 = block.constant [] 0.297301769 : f32
      %7 = block.constant [a0, a1] 0xFF800000 : f32
      %8 = block.constant [a0, a1] 0.000000e+00 : f32
      %9 = block.constant [] 0xFF800000 : f32
      %10 = block.constant [] 0.000000e+00 : f32
      %11 = block.constant [a0, a1, a4] 0.000000e+00 : f32
      %12:3 = block.reduce a3 init(%7, %8, %11 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>, !block.tile<[a0, a1, a4], f32>) -> !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>, !block.tile<[a0, a1, a4], f32> {
        %17 = block.load %1 [a0, a3, a2] : !block.array<32x2048x128xbf16> -> !block.tile<[a0, a3, a2], bf16>
        %18 = block.dot %5, %17 contract [a2] : !block.tile<[a0, a1, a2], bf16>, !block.tile<[a0, a3, a2], bf16>
        %19 = block.mul %18, %6 : !block.tile<[a0, a1, a3], f32>, !block.tile<[], f32>
        %20 = block.mul %19, %6 : !block.tile<[a0, a1, a3], f32>, !block.tile<[], f32>
        %21 = block.tile_reduce max %20 over [a3] : !block.tile<[a0, a1, a3], f32>
        %22 = block.compare eq %21, %9 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
        %23 = block.select %22, %10, %21 : !block.tile<[a0, a1], i1>, !block.tile<[], f32>, !block.tile<[a0, a1], f32>
        %24 = block.sub %20, %23 : !block.tile<[a0, a1, a3], f32>, !block.tile<[a0, a1], f32>
        %25 = block.exp %24 : !block.tile<[a0, a1, a3], f32>
        %26 = block.tile_reduce add %25 over [a3] : !block.tile<[a0, a1, a3], f32>
        %27 = block.load %2 [a0, a3, a4] : !block.array<32x2048x128xbf16> -> !block.tile<[a0, a3, a4], bf16>
        %28 = block.cast %27 : !block.tile<[a0, a3, a4], bf16> to !block.tile<[a0, a3, a4], f32>
        %29 = block.dot %25, %28 contract [a3] : !block.tile<[a0, a1, a3], f32>, !block.tile<[a0, a3, a4], f32>
        block.yield %21, %26, %29 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>, !block.tile<[a0, a1, a4], f32>
      } combine {
      ^bb0(%arg3: !block.tile<[a0, a1], f32>, %arg4: !block.tile<[a0, a1], f32>, %arg5: !block.tile<[a0, a1, a4], f32>, %arg6: !block.tile<[a0, a1], f32>, %arg7: !block.tile<[a0, a1], f32>, %arg8: !block.tile<[a0, a1, a4], f32>):
        %17 = block.max %arg3, %arg6 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %18 = block.compare eq %17, %9 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
        %19 = block.select %18, %10, %17 : !block.tile<[a0, a1], i1>, !block.tile<[], f32>, !block.tile<[a0, a1], f32>
        %20 = block.sub %arg3, %19 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %21 = block.exp %20 : !block.tile<[a0, a1], f32>
        %22 = block.sub %arg6, %19 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %23 = block.exp %22 : !block.tile<[a0, a1], f32>
        %24 = block.mul %arg4, %21 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %25 = block.mul %arg7, %23 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %26 = block.add %24, %25 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        %27 = block.mul %arg5, %21 : !block.tile<[a0, a1, a4], f32>, !block.tile<[a0, a1], f32>
        %28 = block.mul %arg8, %23 : !block.tile<[a0, a1, a4], f32>, !block.tile<[a0, a1], f32>
        %29 = block.add %27, %28 : !block.tile<[a0, a1, a4], f32>, !block.tile<[a0, a1, a4], f32>
        block.yield %17, %26, %29 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>, !block.tile<[a0, a1, a4], f32>
      }
      %13 = block.div %12#2, %12#1 : !block.tile<[a0, a1, a4], f32>, !block.tile<[a0, a1], f32>
      %14 = block.compare eq %12#0, %9 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
      %15 = block.select %14, %10, %13 : !block.tile<[a0, a1], i1>, !block.tile<[], f32>, !block.tile<[a0, a1, a4], f32>
      %16 = block.cast %15 : !block.tile<[a0, a1, a4], f32> to !block.tile<[a0, a1, a4], bf16>
      block.yield %16 : !block.tile<[a0, a1, a4], bf16>
    }
    %4 = block.view %3 : !block.array<32x2048x128xbf16> to !block.array<1x32x2048x128xbf16>
    block.return %4 : !block.array<1x32x2048x128xbf16>
  }
}
