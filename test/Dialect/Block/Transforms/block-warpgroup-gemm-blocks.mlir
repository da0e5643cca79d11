// Tests of --block-warpgroup-gemm-blocks (bb-compile runs it before
// block-select for sm_90a): a program that is one plain GEMM kernel of
// 16-bit arguments, or a GEMM kernel whose A tile its reduce computes from
// one argument tile after kernels over m alone (norm + matmul), gets blocks
// of 128 x 256 x 64 in its axis table, the tile of gpu-warpgroup-matmul's
// two-warpgroup schedule; an RMSNorm + SwiGLU FFN gets 128 x 128 x 64
// blocks for its up projections (two accumulators per warpgroup) and its
// down projection's; a chain of plain GEMMs over the same rows (an MLP,
// the second reading the first's result) gets 128 x 256 blocks of every
// kernel, its hidden axis a k block of 256. Programs of at least 128 rows whose grids would not
// fill the SMs get 128 x 128 x 64 blocks where gpu-warpgroup-matmul's split
// of the k steps (SplitFactor.h, at most 4 splits) fills them, and the
// `block.warpgroup_split` mark by which block-select prefers them (the
// cost model prices neither the wgmma schedule nor its split); with
// split-max-blocks=0 they are left open. Every other program is left to
// block-select.
//
// RUN: bb-opt %s --split-input-file --block-warpgroup-gemm-blocks | FileCheck %s
// RUN: bb-opt %s --split-input-file --block-warpgroup-gemm-blocks=split-max-blocks=0 | FileCheck %s --check-prefix=OFF

// The GEMM with its bf16 cast, 4096^3: 32 x 16 blocks.
// CHECK-LABEL: block.program @gemm axes(m = 4096 tiled block 128, n = 4096 tiled block 256, k = 4096 tiled block 64)
block.program @gemm axes(m = 4096 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<4096x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<4096x4096xbf16> {
  %0 = block.map [m, n] -> !block.array<4096x4096xbf16> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<4096x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    %2 = block.cast %1 : !block.tile<[m, n], f32> to !block.tile<[m, n], bf16>
    block.yield %2 : !block.tile<[m, n], bf16>
  }
  block.return %0 : !block.array<4096x4096xbf16>
}

// -----

// Partial tiles along every axis are fine (TMA fills zeros): 4000 x 4040 x
// 4056 has rows of 8080 and 8112 bytes, 16-byte aligned.
// CHECK-LABEL: block.program @partial axes(m = 4000 tiled block 128, n = 4056 tiled block 256, k = 4040 tiled block 64)
block.program @partial axes(m = 4000 tiled, n = 4056 tiled, k = 4040 tiled) (%a: !block.array<4000x4040xbf16>, %b: !block.array<4040x4056xbf16>) -> !block.array<4000x4056xf32> {
  %0 = block.map [m, n] -> !block.array<4000x4056xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<4000x4040xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4040x4056xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<4000x4056xf32>
}

// -----

// Fewer 128 x 256 blocks (8 x 4) than the H100's 132 SMs: 8 x 8 blocks of
// 128 x 128, whose 64 k steps split to fill them; without the split, left
// open. At K = 1024 (16 k steps) the split would leave fewer than 16 steps
// a split (kMinWarpgroupStepsPerSplit): left open, as @short_k below.
// CHECK-LABEL: block.program @small axes(m = 1024 tiled block 128, n = 1024 tiled block 128, k = 4096 tiled block 64)
// CHECK-SAME: attributes {block.warpgroup_split}
// OFF-LABEL: block.program @small axes(m = 1024 tiled, n = 1024 tiled, k = 4096 tiled)
// OFF-NOT: block.warpgroup_split
block.program @small axes(m = 1024 tiled, n = 1024 tiled, k = 4096 tiled) (%a: !block.array<1024x4096xbf16>, %b: !block.array<4096x1024xbf16>) -> !block.array<1024x1024xf32> {
  %0 = block.map [m, n] -> !block.array<1024x1024xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<1024x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x1024xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<1024x1024xf32>
}

// -----

// Refusals of the split's blocks, left open: 4 k steps (K = 256) are too
// few to split (4 at least per split), and m shorter than a block of 128
// rows (block-select keeps blocks within their axis; decode blocks of 16
// rows take M16, the generic path M100).
// CHECK-LABEL: block.program @short_k axes(m = 1024 tiled, n = 1024 tiled, k = 256 tiled)
// CHECK-NOT: block.warpgroup_split
block.program @short_k axes(m = 1024 tiled, n = 1024 tiled, k = 256 tiled) (%a: !block.array<1024x256xbf16>, %b: !block.array<256x1024xbf16>) -> !block.array<1024x1024xf32> {
  %0 = block.map [m, n] -> !block.array<1024x1024xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<1024x256xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<256x1024xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<1024x1024xf32>
}

// -----

// CHECK-LABEL: block.program @m100 axes(m = 100 tiled, n = 4096 tiled, k = 4096 tiled)
// CHECK-NOT: block.warpgroup_split
block.program @m100 axes(m = 100 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<100x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<100x4096xf32> {
  %0 = block.map [m, n] -> !block.array<100x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<100x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<100x4096xf32>
}

// -----

// One k step (K = 64): left open.
// CHECK-LABEL: block.program @onestep axes(m = 8192 tiled, n = 8192 tiled, k = 64 tiled)
block.program @onestep axes(m = 8192 tiled, n = 8192 tiled, k = 64 tiled) (%a: !block.array<8192x64xbf16>, %b: !block.array<64x8192xbf16>) -> !block.array<8192x8192xf32> {
  %0 = block.map [m, n] -> !block.array<8192x8192xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<8192x64xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<64x8192xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<8192x8192xf32>
}

// -----

// Rows of B of 4100 bf16 (8200 bytes) are not 16-byte aligned: no TMA, so
// mma.sync, whose blocks block-select chooses.
// CHECK-LABEL: block.program @unaligned axes(m = 4096 tiled, n = 4100 tiled, k = 4096 tiled)
block.program @unaligned axes(m = 4096 tiled, n = 4100 tiled, k = 4096 tiled) (%a: !block.array<4096x4096xbf16>, %b: !block.array<4096x4100xbf16>) -> !block.array<4096x4100xf32> {
  %0 = block.map [m, n] -> !block.array<4096x4100xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<4096x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4100xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<4096x4100xf32>
}

// -----

// f32 operands: no wgmma schedule for them.
// CHECK-LABEL: block.program @f32 axes(m = 4096 tiled, n = 4096 tiled, k = 4096 tiled)
block.program @f32 axes(m = 4096 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<4096x4096xf32>, %b: !block.array<4096x4096xf32>) -> !block.array<4096x4096xf32> {
  %0 = block.map [m, n] -> !block.array<4096x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<4096x4096xf32> -> !block.tile<[m, k], f32>
      %4 = block.load %b [k, n] : !block.array<4096x4096xf32> -> !block.tile<[k, n], f32>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], f32>, !block.tile<[k, n], f32>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<4096x4096xf32>
}

// -----

// A size already in the table (here the user's): the program is left alone.
// CHECK-LABEL: block.program @bound axes(m = 4096 tiled block 64, n = 4096 tiled, k = 4096 tiled)
block.program @bound axes(m = 4096 tiled block 64, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<4096x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<4096x4096xf32> {
  %0 = block.map [m, n] -> !block.array<4096x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<4096x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<4096x4096xf32>
}

// -----

// RMSNorm + matmul: its reduce also squares and sums the rows of A (the
// prologue in the block): not a plain GEMM.
// CHECK-LABEL: block.program @rmsnorm_matmul axes(m = 4096 tiled, n = 4096 tiled, k = 4096 tiled)
block.program @rmsnorm_matmul axes(m = 4096 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<4096x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<4096x4096xf32> {
  %0 = block.map [m, n] -> !block.array<4096x4096xf32> {
    %1, %2 = block.reduce k combiners [add, add] -> !block.tile<[m, n], f32>, !block.tile<[m], f32> {
      %3 = block.load %a [m, k] : !block.array<4096x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      %6 = block.cast %3 : !block.tile<[m, k], bf16> to !block.tile<[m, k], f32>
      %7 = block.mul %6, %6 : !block.tile<[m, k], f32>, !block.tile<[m, k], f32>
      %8 = block.tile_reduce add %7 over [k] : !block.tile<[m, k], f32>
      block.yield %5, %8 : !block.tile<[m, n], f32>, !block.tile<[m], f32>
    }
    %9 = block.rsqrt %2 : !block.tile<[m], f32>
    %10 = block.mul %1, %9 : !block.tile<[m, n], f32>, !block.tile<[m], f32>
    block.yield %10 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<4096x4096xf32>
}

// -----

// LayerNorm + matmul as block-fuse leaves it (scripts/build-anchors.py, M2048
// K256 N4096): a kernel of row statistics over a0 alone, then the GEMM
// kernel whose reduce computes the normalised A tile from one tile of X,
// the statistics (along a0, before the reduce) and gamma, beta (along a1):
// 128 x 256 x 64, the statistics kernel sharing a0's and a1's blocks.
// CHECK-LABEL: block.program @layernorm_matmul axes(a0 = 2048 tiled block 128, a1 = 256 tiled block 64, a2 = 4096 tiled block 256)
block.program @layernorm_matmul axes(a0 = 2048 tiled, a1 = 256 tiled, a2 = 4096 tiled) (%arg0: !block.array<2048x256xbf16>, %arg1: !block.array<256xbf16>, %arg2: !block.array<256xbf16>, %arg3: !block.array<256x4096xbf16>) -> !block.array<2048x4096xbf16> {
  %0:2 = block.map [a0] -> !block.array<2048xf32>, !block.array<2048xf32> {
    %2 = block.constant [] 2.560000e+02 : f32
    %3 = block.load %arg0 [a0, 0] : !block.array<2048x256xbf16> -> !block.tile<[a0], bf16>
    %4 = block.cast %3 : !block.tile<[a0], bf16> to !block.tile<[a0], f32>
    %5:3 = block.reduce a1 combiners [add, add, add] -> !block.tile<[a0], f32>, !block.tile<[a0], f32>, !block.tile<[a0], f32> {
      %14 = block.load %arg0 [a0, a1] : !block.array<2048x256xbf16> -> !block.tile<[a0, a1], bf16>
      %15 = block.cast %14 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %16 = block.tile_reduce add %15 over [a1] : !block.tile<[a0, a1], f32>
      %17 = block.sub %15, %4 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %18 = block.dot %17, %17 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
      %19 = block.tile_reduce add %17 over [a1] : !block.tile<[a0, a1], f32>
      block.yield %16, %18, %19 : !block.tile<[a0], f32>, !block.tile<[a0], f32>, !block.tile<[a0], f32>
    }
    %6 = block.constant [] 2.000000e+00 : f32
    %7 = block.mul %5#2, %6 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %8 = block.div %5#0, %2 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %9 = block.sub %8, %4 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %10 = block.mul %9, %2 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %11 = block.sub %7, %10 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %12 = block.mul %11, %9 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %13 = block.sub %5#1, %12 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    block.yield %13, %8 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
  }
  %1 = block.map [a0, a2] -> !block.array<2048x4096xbf16> {
    %2 = block.load %0#1 [a0] : !block.array<2048xf32> -> !block.tile<[a0], f32>
    %3 = block.load %0#0 [a0] : !block.array<2048xf32> -> !block.tile<[a0], f32>
    %4 = block.constant [] 2.560000e+02 : f32
    %5 = block.constant [] 9.99999974E-6 : f32
    %6 = block.div %3, %4 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %7 = block.add %6, %5 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %8 = block.rsqrt %7 : !block.tile<[a0], f32>
    %9 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
      %11 = block.load %arg0 [a0, a1] : !block.array<2048x256xbf16> -> !block.tile<[a0, a1], bf16>
      %12 = block.cast %11 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %13 = block.sub %12, %2 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %14 = block.mul %13, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %15 = block.load %arg1 [a1] : !block.array<256xbf16> -> !block.tile<[a1], bf16>
      %16 = block.cast %15 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
      %17 = block.mul %14, %16 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %18 = block.load %arg2 [a1] : !block.array<256xbf16> -> !block.tile<[a1], bf16>
      %19 = block.cast %18 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
      %20 = block.add %17, %19 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %21 = block.cast %20 : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
      %22 = block.load %arg3 [a1, a2] : !block.array<256x4096xbf16> -> !block.tile<[a1, a2], bf16>
      %23 = block.dot %21, %22 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
      block.yield %23 : !block.tile<[a0, a2], f32>
    }
    %10 = block.cast %9 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
    block.yield %10 : !block.tile<[a0, a2], bf16>
  }
  block.return %1 : !block.array<2048x4096xbf16>
}

// -----

// The same with a residual added to the normalised rows: A is computed from
// two tiles of arguments, which the ring's in-place rewrite cannot take.
// CHECK-LABEL: block.program @residual_norm_matmul axes(a0 = 2048 tiled, a1 = 256 tiled, a2 = 4096 tiled)
block.program @residual_norm_matmul axes(a0 = 2048 tiled, a1 = 256 tiled, a2 = 4096 tiled) (%arg0: !block.array<2048x256xbf16>, %res: !block.array<2048x256xbf16>, %arg1: !block.array<256xbf16>, %arg2: !block.array<256xbf16>, %arg3: !block.array<256x4096xbf16>) -> !block.array<2048x4096xbf16> {
  %0:2 = block.map [a0] -> !block.array<2048xf32>, !block.array<2048xf32> {
    %2 = block.constant [] 2.560000e+02 : f32
    %3 = block.load %arg0 [a0, 0] : !block.array<2048x256xbf16> -> !block.tile<[a0], bf16>
    %4 = block.cast %3 : !block.tile<[a0], bf16> to !block.tile<[a0], f32>
    %5:3 = block.reduce a1 combiners [add, add, add] -> !block.tile<[a0], f32>, !block.tile<[a0], f32>, !block.tile<[a0], f32> {
      %14 = block.load %arg0 [a0, a1] : !block.array<2048x256xbf16> -> !block.tile<[a0, a1], bf16>
      %15 = block.cast %14 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %16 = block.tile_reduce add %15 over [a1] : !block.tile<[a0, a1], f32>
      %17 = block.sub %15, %4 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %18 = block.dot %17, %17 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
      %19 = block.tile_reduce add %17 over [a1] : !block.tile<[a0, a1], f32>
      block.yield %16, %18, %19 : !block.tile<[a0], f32>, !block.tile<[a0], f32>, !block.tile<[a0], f32>
    }
    %6 = block.constant [] 2.000000e+00 : f32
    %7 = block.mul %5#2, %6 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %8 = block.div %5#0, %2 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %9 = block.sub %8, %4 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %10 = block.mul %9, %2 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %11 = block.sub %7, %10 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %12 = block.mul %11, %9 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    %13 = block.sub %5#1, %12 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
    block.yield %13, %8 : !block.tile<[a0], f32>, !block.tile<[a0], f32>
  }
  %1 = block.map [a0, a2] -> !block.array<2048x4096xbf16> {
    %2 = block.load %0#1 [a0] : !block.array<2048xf32> -> !block.tile<[a0], f32>
    %3 = block.load %0#0 [a0] : !block.array<2048xf32> -> !block.tile<[a0], f32>
    %4 = block.constant [] 2.560000e+02 : f32
    %5 = block.constant [] 9.99999974E-6 : f32
    %6 = block.div %3, %4 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %7 = block.add %6, %5 : !block.tile<[a0], f32>, !block.tile<[], f32>
    %8 = block.rsqrt %7 : !block.tile<[a0], f32>
    %9 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
      %11 = block.load %arg0 [a0, a1] : !block.array<2048x256xbf16> -> !block.tile<[a0, a1], bf16>
      %12 = block.cast %11 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %13 = block.sub %12, %2 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %14 = block.mul %13, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %15 = block.load %arg1 [a1] : !block.array<256xbf16> -> !block.tile<[a1], bf16>
      %16 = block.cast %15 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
      %17 = block.mul %14, %16 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %18 = block.load %arg2 [a1] : !block.array<256xbf16> -> !block.tile<[a1], bf16>
      %19 = block.cast %18 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
      %20 = block.add %17, %19 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %r = block.load %res [a0, a1] : !block.array<2048x256xbf16> -> !block.tile<[a0, a1], bf16>
      %rf = block.cast %r : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
      %s = block.add %20, %rf : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
      %21 = block.cast %s : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
      %22 = block.load %arg3 [a1, a2] : !block.array<256x4096xbf16> -> !block.tile<[a1, a2], bf16>
      %23 = block.dot %21, %22 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
      block.yield %23 : !block.tile<[a0, a2], f32>
    }
    %10 = block.cast %9 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
    block.yield %10 : !block.tile<[a0, a2], bf16>
  }
  block.return %1 : !block.array<2048x4096xbf16>
}

// -----

// The RMSNorm + SwiGLU FFN (the anchors' program after fusion): the row
// statistics, the up projections (two dots of one normalised A tile, the
// gating epilogue), the down projection of their result. 128 x 128 blocks
// of h (each computing 128 columns of both products) over k steps of 64;
// the down projection's k blocks are the same 128 columns of h, its own
// blocks 128 x 256 where those fill the SMs (64 x 16 here).
// CHECK-LABEL: block.program @ffn axes(a0 = 8192 tiled block 128, a1 = 4096 tiled block 64, a2 = 11008 tiled block 128, a3 = 4096 tiled block 256)
  block.program @ffn axes(a0 = 8192 tiled, a1 = 4096 tiled, a2 = 11008 tiled, a3 = 4096 tiled) (%arg0: !block.array<8192x4096xbf16>, %arg1: !block.array<4096xbf16>, %arg2: !block.array<4096x11008xbf16>, %arg3: !block.array<4096x11008xbf16>, %arg4: !block.array<11008x4096xbf16>) -> !block.array<8192x4096xbf16> {
    %0 = block.map [a0] -> !block.array<8192xf32> {
      %3 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %4 = block.load %arg0 [a0, a1] : !block.array<8192x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %5 = block.dot %4, %4 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a0, a1], bf16>
        block.yield %5 : !block.tile<[a0], f32>
      }
      block.yield %3 : !block.tile<[a0], f32>
    }
    %1 = block.map [a0, a2] -> !block.array<8192x11008xbf16> {
      %3 = block.load %0 [a0] : !block.array<8192xf32> -> !block.tile<[a0], f32>
      %4 = block.constant [] 4.096000e+03 : f32
      %5 = block.constant [] 9.99999997E-7 : f32
      %6 = block.div %3, %4 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %7 = block.add %6, %5 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %8 = block.rsqrt %7 : !block.tile<[a0], f32>
      %9:2 = block.reduce a1 combiners [add, add] -> !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32> {
        %17 = block.load %arg0 [a0, a1] : !block.array<8192x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %18 = block.cast %17 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
        %19 = block.mul %18, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
        %20 = block.load %arg1 [a1] : !block.array<4096xbf16> -> !block.tile<[a1], bf16>
        %21 = block.cast %20 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
        %22 = block.mul %19, %21 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
        %23 = block.cast %22 : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
        %24 = block.load %arg3 [a1, a2] : !block.array<4096x11008xbf16> -> !block.tile<[a1, a2], bf16>
        %25 = block.dot %23, %24 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        %26 = block.load %arg2 [a1, a2] : !block.array<4096x11008xbf16> -> !block.tile<[a1, a2], bf16>
        %27 = block.dot %23, %26 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        block.yield %25, %27 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      }
      %10 = block.neg %9#1 : !block.tile<[a0, a2], f32>
      %11 = block.exp %10 : !block.tile<[a0, a2], f32>
      %12 = block.constant [] 1.000000e+00 : f32
      %13 = block.add %11, %12 : !block.tile<[a0, a2], f32>, !block.tile<[], f32>
      %14 = block.div %9#1, %13 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %15 = block.mul %14, %9#0 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %16 = block.cast %15 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
      block.yield %16 : !block.tile<[a0, a2], bf16>
    }
    %2 = block.map [a0, a3] -> !block.array<8192x4096xbf16> {
      %3 = block.reduce a2 combiners [add] -> !block.tile<[a0, a3], f32> {
        %5 = block.load %1 [a0, a2] : !block.array<8192x11008xbf16> -> !block.tile<[a0, a2], bf16>
        %6 = block.load %arg4 [a2, a3] : !block.array<11008x4096xbf16> -> !block.tile<[a2, a3], bf16>
        %7 = block.dot %5, %6 contract [a2] : !block.tile<[a0, a2], bf16>, !block.tile<[a2, a3], bf16>
        block.yield %7 : !block.tile<[a0, a3], f32>
      }
      %4 = block.cast %3 : !block.tile<[a0, a3], f32> to !block.tile<[a0, a3], bf16>
      block.yield %4 : !block.tile<[a0, a3], bf16>
    }
    block.return %2 : !block.array<8192x4096xbf16>
  }

// -----

// M1000 F3000: partial blocks along m and the columns of h; 8 x 24 blocks of
// h fill the SMs, 8 x 16 blocks of 128 x 256 of the down projection would
// not: it gets 128 x 128 (one warpgroup, two blocks per SM).
// CHECK-LABEL: block.program @ffn_edge axes(a0 = 1000 tiled block 128, a1 = 4096 tiled block 64, a2 = 3000 tiled block 128, a3 = 4096 tiled block 128)
  block.program @ffn_edge axes(a0 = 1000 tiled, a1 = 4096 tiled, a2 = 3000 tiled, a3 = 4096 tiled) (%arg0: !block.array<1000x4096xbf16>, %arg1: !block.array<4096xbf16>, %arg2: !block.array<4096x3000xbf16>, %arg3: !block.array<4096x3000xbf16>, %arg4: !block.array<3000x4096xbf16>) -> !block.array<1000x4096xbf16> {
    %0 = block.map [a0] -> !block.array<1000xf32> {
      %3 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %4 = block.load %arg0 [a0, a1] : !block.array<1000x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %5 = block.dot %4, %4 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a0, a1], bf16>
        block.yield %5 : !block.tile<[a0], f32>
      }
      block.yield %3 : !block.tile<[a0], f32>
    }
    %1 = block.map [a0, a2] -> !block.array<1000x3000xbf16> {
      %3 = block.load %0 [a0] : !block.array<1000xf32> -> !block.tile<[a0], f32>
      %4 = block.constant [] 4.096000e+03 : f32
      %5 = block.constant [] 9.99999997E-7 : f32
      %6 = block.div %3, %4 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %7 = block.add %6, %5 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %8 = block.rsqrt %7 : !block.tile<[a0], f32>
      %9:2 = block.reduce a1 combiners [add, add] -> !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32> {
        %17 = block.load %arg0 [a0, a1] : !block.array<1000x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %18 = block.cast %17 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
        %19 = block.mul %18, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
        %20 = block.load %arg1 [a1] : !block.array<4096xbf16> -> !block.tile<[a1], bf16>
        %21 = block.cast %20 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
        %22 = block.mul %19, %21 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
        %23 = block.cast %22 : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
        %24 = block.load %arg3 [a1, a2] : !block.array<4096x3000xbf16> -> !block.tile<[a1, a2], bf16>
        %25 = block.dot %23, %24 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        %26 = block.load %arg2 [a1, a2] : !block.array<4096x3000xbf16> -> !block.tile<[a1, a2], bf16>
        %27 = block.dot %23, %26 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        block.yield %25, %27 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      }
      %10 = block.neg %9#1 : !block.tile<[a0, a2], f32>
      %11 = block.exp %10 : !block.tile<[a0, a2], f32>
      %12 = block.constant [] 1.000000e+00 : f32
      %13 = block.add %11, %12 : !block.tile<[a0, a2], f32>, !block.tile<[], f32>
      %14 = block.div %9#1, %13 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %15 = block.mul %14, %9#0 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %16 = block.cast %15 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
      block.yield %16 : !block.tile<[a0, a2], bf16>
    }
    %2 = block.map [a0, a3] -> !block.array<1000x4096xbf16> {
      %3 = block.reduce a2 combiners [add] -> !block.tile<[a0, a3], f32> {
        %5 = block.load %1 [a0, a2] : !block.array<1000x3000xbf16> -> !block.tile<[a0, a2], bf16>
        %6 = block.load %arg4 [a2, a3] : !block.array<3000x4096xbf16> -> !block.tile<[a2, a3], bf16>
        %7 = block.dot %5, %6 contract [a2] : !block.tile<[a0, a2], bf16>, !block.tile<[a2, a3], bf16>
        block.yield %7 : !block.tile<[a0, a3], f32>
      }
      %4 = block.cast %3 : !block.tile<[a0, a3], f32> to !block.tile<[a0, a3], bf16>
      block.yield %4 : !block.tile<[a0, a3], bf16>
    }
    block.return %2 : !block.array<1000x4096xbf16>
  }

// -----

// M256 F4096: 2 x 32 blocks of h, fewer than the SMs: the FFN's blocks all
// the same (each block of the up projections streams its two B tiles once;
// gpu-warpgroup-matmul splits the grids the split fills), the down
// projection's n2 blocks 128, and the mark; without the split, left to
// block-select.
// CHECK-LABEL: block.program @ffn_small axes(a0 = 256 tiled block 128, a1 = 4096 tiled block 64, a2 = 4096 tiled block 128, a3 = 4096 tiled block 128)
// CHECK-SAME: attributes {block.warpgroup_split}
// OFF-LABEL: block.program @ffn_small axes(a0 = 256 tiled, a1 = 4096 tiled, a2 = 4096 tiled, a3 = 4096 tiled)
// OFF-NOT: block.warpgroup_split
  block.program @ffn_small axes(a0 = 256 tiled, a1 = 4096 tiled, a2 = 4096 tiled, a3 = 4096 tiled) (%arg0: !block.array<256x4096xbf16>, %arg1: !block.array<4096xbf16>, %arg2: !block.array<4096x4096xbf16>, %arg3: !block.array<4096x4096xbf16>, %arg4: !block.array<4096x4096xbf16>) -> !block.array<256x4096xbf16> {
    %0 = block.map [a0] -> !block.array<256xf32> {
      %3 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %4 = block.load %arg0 [a0, a1] : !block.array<256x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %5 = block.dot %4, %4 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a0, a1], bf16>
        block.yield %5 : !block.tile<[a0], f32>
      }
      block.yield %3 : !block.tile<[a0], f32>
    }
    %1 = block.map [a0, a2] -> !block.array<256x4096xbf16> {
      %3 = block.load %0 [a0] : !block.array<256xf32> -> !block.tile<[a0], f32>
      %4 = block.constant [] 4.096000e+03 : f32
      %5 = block.constant [] 9.99999997E-7 : f32
      %6 = block.div %3, %4 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %7 = block.add %6, %5 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %8 = block.rsqrt %7 : !block.tile<[a0], f32>
      %9:2 = block.reduce a1 combiners [add, add] -> !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32> {
        %17 = block.load %arg0 [a0, a1] : !block.array<256x4096xbf16> -> !block.tile<[a0, a1], bf16>
        %18 = block.cast %17 : !block.tile<[a0, a1], bf16> to !block.tile<[a0, a1], f32>
        %19 = block.mul %18, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
        %20 = block.load %arg1 [a1] : !block.array<4096xbf16> -> !block.tile<[a1], bf16>
        %21 = block.cast %20 : !block.tile<[a1], bf16> to !block.tile<[a1], f32>
        %22 = block.mul %19, %21 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
        %23 = block.cast %22 : !block.tile<[a0, a1], f32> to !block.tile<[a0, a1], bf16>
        %24 = block.load %arg3 [a1, a2] : !block.array<4096x4096xbf16> -> !block.tile<[a1, a2], bf16>
        %25 = block.dot %23, %24 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        %26 = block.load %arg2 [a1, a2] : !block.array<4096x4096xbf16> -> !block.tile<[a1, a2], bf16>
        %27 = block.dot %23, %26 contract [a1] : !block.tile<[a0, a1], bf16>, !block.tile<[a1, a2], bf16>
        block.yield %25, %27 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      }
      %10 = block.neg %9#1 : !block.tile<[a0, a2], f32>
      %11 = block.exp %10 : !block.tile<[a0, a2], f32>
      %12 = block.constant [] 1.000000e+00 : f32
      %13 = block.add %11, %12 : !block.tile<[a0, a2], f32>, !block.tile<[], f32>
      %14 = block.div %9#1, %13 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %15 = block.mul %14, %9#0 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      %16 = block.cast %15 : !block.tile<[a0, a2], f32> to !block.tile<[a0, a2], bf16>
      block.yield %16 : !block.tile<[a0, a2], bf16>
    }
    %2 = block.map [a0, a3] -> !block.array<256x4096xbf16> {
      %3 = block.reduce a2 combiners [add] -> !block.tile<[a0, a3], f32> {
        %5 = block.load %1 [a0, a2] : !block.array<256x4096xbf16> -> !block.tile<[a0, a2], bf16>
        %6 = block.load %arg4 [a2, a3] : !block.array<4096x4096xbf16> -> !block.tile<[a2, a3], bf16>
        %7 = block.dot %5, %6 contract [a2] : !block.tile<[a0, a2], bf16>, !block.tile<[a2, a3], bf16>
        block.yield %7 : !block.tile<[a0, a3], f32>
      }
      %4 = block.cast %3 : !block.tile<[a0, a3], f32> to !block.tile<[a0, a3], bf16>
      block.yield %4 : !block.tile<[a0, a3], bf16>
    }
    block.return %2 : !block.array<256x4096xbf16>
  }

// -----

// A GELU MLP, y = x + gelu(x W1 + b1) W2 + b2, at M2048 D4096 F16384 (the
// block program bb-compile fuses it into): two plain GEMM kernels over m,
// the second reading the first's bf16 result. Every kernel gets 128 x 256
// blocks: f is the first kernel's n and the second's k (a k block of 256,
// four ring steps of 64), d the first's k and the second's n. 16 x 64 and
// 16 x 16 blocks fill the 132 SMs.
// CHECK-LABEL: block.program @gelu_mlp axes(m = 2048 tiled block 128, f = 16384 tiled block 256, d = 4096 tiled block 256)
block.program @gelu_mlp axes(m = 2048 tiled, f = 16384 tiled, d = 4096 tiled) (%x: !block.array<2048x4096xbf16>, %w1: !block.array<4096x16384xbf16>, %b1: !block.array<16384xbf16>, %w2: !block.array<16384x4096xbf16>, %b2: !block.array<4096xbf16>) -> !block.array<2048x4096xbf16> {
  %h = block.map [m, f] -> !block.array<2048x16384xbf16> {
    %1 = block.reduce d combiners [add] -> !block.tile<[m, f], f32> {
      %10 = block.load %x [m, d] : !block.array<2048x4096xbf16> -> !block.tile<[m, d], bf16>
      %11 = block.load %w1 [d, f] : !block.array<4096x16384xbf16> -> !block.tile<[d, f], bf16>
      %12 = block.dot %10, %11 contract [d] : !block.tile<[m, d], bf16>, !block.tile<[d, f], bf16>
      block.yield %12 : !block.tile<[m, f], f32>
    }
    %2 = block.load %b1 [f] : !block.array<16384xbf16> -> !block.tile<[f], bf16>
    %3 = block.cast %2 : !block.tile<[f], bf16> to !block.tile<[f], f32>
    %4 = block.add %1, %3 : !block.tile<[m, f], f32>, !block.tile<[f], f32>
    %5 = block.erf %4 : !block.tile<[m, f], f32>
    %6 = block.mul %4, %5 : !block.tile<[m, f], f32>, !block.tile<[m, f], f32>
    %7 = block.cast %6 : !block.tile<[m, f], f32> to !block.tile<[m, f], bf16>
    block.yield %7 : !block.tile<[m, f], bf16>
  }
  %y = block.map [m, d] -> !block.array<2048x4096xbf16> {
    %1 = block.reduce f combiners [add] -> !block.tile<[m, d], f32> {
      %10 = block.load %h [m, f] : !block.array<2048x16384xbf16> -> !block.tile<[m, f], bf16>
      %11 = block.load %w2 [f, d] : !block.array<16384x4096xbf16> -> !block.tile<[f, d], bf16>
      %12 = block.dot %10, %11 contract [f] : !block.tile<[m, f], bf16>, !block.tile<[f, d], bf16>
      block.yield %12 : !block.tile<[m, d], f32>
    }
    %2 = block.load %b2 [d] : !block.array<4096xbf16> -> !block.tile<[d], bf16>
    %3 = block.cast %2 : !block.tile<[d], bf16> to !block.tile<[d], f32>
    %4 = block.add %1, %3 : !block.tile<[m, d], f32>, !block.tile<[d], f32>
    %5 = block.load %x [m, d] : !block.array<2048x4096xbf16> -> !block.tile<[m, d], bf16>
    %6 = block.cast %5 : !block.tile<[m, d], bf16> to !block.tile<[m, d], f32>
    %7 = block.add %4, %6 : !block.tile<[m, d], f32>, !block.tile<[m, d], f32>
    %8 = block.cast %7 : !block.tile<[m, d], f32> to !block.tile<[m, d], bf16>
    block.yield %8 : !block.tile<[m, d], bf16>
  }
  block.return %y : !block.array<2048x4096xbf16>
}

// -----

// The same chain at M256 D1024: the second kernel's 2 x 4 blocks of 128 x
// 256 do not fill the SMs, so block-select chooses for the whole program.
// CHECK-LABEL: block.program @small_mlp axes(m = 256 tiled, f = 4096 tiled, d = 1024 tiled)
block.program @small_mlp axes(m = 256 tiled, f = 4096 tiled, d = 1024 tiled) (%x: !block.array<256x1024xbf16>, %w1: !block.array<1024x4096xbf16>, %w2: !block.array<4096x1024xbf16>) -> !block.array<256x1024xf32> {
  %h = block.map [m, f] -> !block.array<256x4096xbf16> {
    %1 = block.reduce d combiners [add] -> !block.tile<[m, f], f32> {
      %10 = block.load %x [m, d] : !block.array<256x1024xbf16> -> !block.tile<[m, d], bf16>
      %11 = block.load %w1 [d, f] : !block.array<1024x4096xbf16> -> !block.tile<[d, f], bf16>
      %12 = block.dot %10, %11 contract [d] : !block.tile<[m, d], bf16>, !block.tile<[d, f], bf16>
      block.yield %12 : !block.tile<[m, f], f32>
    }
    %2 = block.cast %1 : !block.tile<[m, f], f32> to !block.tile<[m, f], bf16>
    block.yield %2 : !block.tile<[m, f], bf16>
  }
  %y = block.map [m, d] -> !block.array<256x1024xf32> {
    %1 = block.reduce f combiners [add] -> !block.tile<[m, d], f32> {
      %10 = block.load %h [m, f] : !block.array<256x4096xbf16> -> !block.tile<[m, f], bf16>
      %11 = block.load %w2 [f, d] : !block.array<4096x1024xbf16> -> !block.tile<[f, d], bf16>
      %12 = block.dot %10, %11 contract [f] : !block.tile<[m, f], bf16>, !block.tile<[f, d], bf16>
      block.yield %12 : !block.tile<[m, d], f32>
    }
    block.yield %1 : !block.tile<[m, d], f32>
  }
  block.return %y : !block.array<256x1024xf32>
}
