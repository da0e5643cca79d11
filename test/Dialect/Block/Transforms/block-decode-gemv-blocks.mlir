// Tests of --block-decode-gemv-blocks (bb-compile runs it before
// block-select unless --decode-gemv=false): a dot A[m, k] * B[k, n] of
// 16-bit tiles, B loaded from a rank-2 array, m and n grid axes of its
// kernel, gets blocks of all rows (up to 16; multiples of 16 up to 128 rows
// get 16) and 64 columns, gpu-decode-gemv's tile (a vector-matrix product
// x[k] * B[k, n], M1 without a rows axis, the 64 columns alone); k is left to
// block-select. Anything the codegen would not take whole is left to
// block-select.
//
// RUN: bb-opt %s --split-input-file --block-decode-gemv-blocks | FileCheck %s

// RMSNorm + matmul at M16: the statistics reduce over k, then the dot of
// the normalised rows.
// CHECK-LABEL: block.program @rmsnorm axes(m = 16 tiled block 16, k = 4096 tiled, n = 4096 tiled block 64)
block.program @rmsnorm axes(m = 16 tiled, k = 4096 tiled, n = 4096 tiled) (%x: !block.array<16x4096xbf16>, %w: !block.array<4096x4096xbf16>) -> !block.array<16x4096xf32> {
  %0 = block.map [m, n] -> !block.array<16x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m], f32> {
      %3 = block.load %x [m, k] : !block.array<16x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.dot %3, %3 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[m, k], bf16>
      block.yield %4 : !block.tile<[m], f32>
    }
    %2 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %x [m, k] : !block.array<16x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.cast %3 : !block.tile<[m, k], bf16> to !block.tile<[m, k], f32>
      %5 = block.mul %4, %1 : !block.tile<[m, k], f32>, !block.tile<[m], f32>
      %6 = block.cast %5 : !block.tile<[m, k], f32> to !block.tile<[m, k], bf16>
      %7 = block.load %w [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %8 = block.dot %6, %7 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %8 : !block.tile<[m, n], f32>
    }
    block.yield %2 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<16x4096xf32>
}

// -----

// 128 rows: blocks of 16 rows (one mma tile each).
// CHECK-LABEL: block.program @m128 axes(m = 128 tiled block 16, n = 4096 tiled block 64, k = 4096 tiled)
block.program @m128 axes(m = 128 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<128x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<128x4096xf32> {
  %0 = block.map [m, n] -> !block.array<128x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<128x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<128x4096xf32>
}

// -----

// Left to block-select: 20 rows (a partial row tile), 4000 columns (a
// partial column block), k 4000 (partial k tiles),
// f32 operands (no mma.sync on them).
// CHECK-LABEL: block.program @m20 axes(m = 20 tiled, n = 4096 tiled, k = 4096 tiled)
block.program @m20 axes(m = 20 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<20x4096xbf16>, %b: !block.array<4096x4096xbf16>) -> !block.array<20x4096xf32> {
  %0 = block.map [m, n] -> !block.array<20x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<20x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<20x4096xf32>
}

// -----

// CHECK-LABEL: block.program @n4000 axes(m = 16 tiled, n = 4000 tiled, k = 4096 tiled)
block.program @n4000 axes(m = 16 tiled, n = 4000 tiled, k = 4096 tiled) (%a: !block.array<16x4096xbf16>, %b: !block.array<4096x4000xbf16>) -> !block.array<16x4000xf32> {
  %0 = block.map [m, n] -> !block.array<16x4000xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<16x4096xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4096x4000xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<16x4000xf32>
}

// -----

// CHECK-LABEL: block.program @k4000 axes(m = 16 tiled, n = 4096 tiled, k = 4000 tiled)
block.program @k4000 axes(m = 16 tiled, n = 4096 tiled, k = 4000 tiled) (%a: !block.array<16x4000xbf16>, %b: !block.array<4000x4096xbf16>) -> !block.array<16x4096xf32> {
  %0 = block.map [m, n] -> !block.array<16x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<16x4000xbf16> -> !block.tile<[m, k], bf16>
      %4 = block.load %b [k, n] : !block.array<4000x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<16x4096xf32>
}

// -----

// CHECK-LABEL: block.program @f32 axes(m = 16 tiled, n = 4096 tiled, k = 4096 tiled)
block.program @f32 axes(m = 16 tiled, n = 4096 tiled, k = 4096 tiled) (%a: !block.array<16x4096xf32>, %b: !block.array<4096x4096xf32>) -> !block.array<16x4096xf32> {
  %0 = block.map [m, n] -> !block.array<16x4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[m, n], f32> {
      %3 = block.load %a [m, k] : !block.array<16x4096xf32> -> !block.tile<[m, k], f32>
      %4 = block.load %b [k, n] : !block.array<4096x4096xf32> -> !block.tile<[k, n], f32>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[m, k], f32>, !block.tile<[k, n], f32>
      block.yield %5 : !block.tile<[m, n], f32>
    }
    block.yield %1 : !block.tile<[m, n], f32>
  }
  block.return %0 : !block.array<16x4096xf32>
}

// -----

// RMSNorm + matmul at M1 as the converter leaves it: no rows axis (x a
// rank-1 view of the [1, K] argument, the statistic a 0-d tile), the dot
// x[k] * W[k, n]. One row: only the columns get blocks of 64 (gpu-decode-gemv
// gives the block its unit rows dimension back).
// CHECK-LABEL: block.program @rmsnorm_m1 axes(k = 4096 tiled, n = 4096 tiled block 64)
block.program @rmsnorm_m1 axes(k = 4096 tiled, n = 4096 tiled) (%x: !block.array<1x4096xbf16>, %w: !block.array<4096x4096xbf16>) -> !block.array<4096xf32> {
  %v = block.view %x : !block.array<1x4096xbf16> to !block.array<4096xbf16>
  %0 = block.map [n] -> !block.array<4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[], f32> {
      %3 = block.load %v [k] : !block.array<4096xbf16> -> !block.tile<[k], bf16>
      %4 = block.dot %3, %3 contract [k] : !block.tile<[k], bf16>, !block.tile<[k], bf16>
      block.yield %4 : !block.tile<[], f32>
    }
    %2 = block.reduce k combiners [add] -> !block.tile<[n], f32> {
      %3 = block.load %v [k] : !block.array<4096xbf16> -> !block.tile<[k], bf16>
      %4 = block.cast %3 : !block.tile<[k], bf16> to !block.tile<[k], f32>
      %5 = block.mul %4, %1 : !block.tile<[k], f32>, !block.tile<[], f32>
      %6 = block.cast %5 : !block.tile<[k], f32> to !block.tile<[k], bf16>
      %7 = block.load %w [k, n] : !block.array<4096x4096xbf16> -> !block.tile<[k, n], bf16>
      %8 = block.dot %6, %7 contract [k] : !block.tile<[k], bf16>, !block.tile<[k, n], bf16>
      block.yield %8 : !block.tile<[n], f32>
    }
    block.yield %2 : !block.tile<[n], f32>
  }
  block.return %0 : !block.array<4096xf32>
}

// -----

// At M1, 4000 columns (a partial column block) or k 4000: left to
// block-select.
// CHECK-LABEL: block.program @gemv_m1_n4000 axes(k = 4096 tiled, n = 4000 tiled)
block.program @gemv_m1_n4000 axes(k = 4096 tiled, n = 4000 tiled) (%x: !block.array<4096xbf16>, %w: !block.array<4096x4000xbf16>) -> !block.array<4000xf32> {
  %0 = block.map [n] -> !block.array<4000xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[n], f32> {
      %3 = block.load %x [k] : !block.array<4096xbf16> -> !block.tile<[k], bf16>
      %4 = block.load %w [k, n] : !block.array<4096x4000xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[n], f32>
    }
    block.yield %1 : !block.tile<[n], f32>
  }
  block.return %0 : !block.array<4000xf32>
}

// -----

// CHECK-LABEL: block.program @gemv_m1_k4000 axes(k = 4000 tiled, n = 4096 tiled)
block.program @gemv_m1_k4000 axes(k = 4000 tiled, n = 4096 tiled) (%x: !block.array<4000xbf16>, %w: !block.array<4000x4096xbf16>) -> !block.array<4096xf32> {
  %0 = block.map [n] -> !block.array<4096xf32> {
    %1 = block.reduce k combiners [add] -> !block.tile<[n], f32> {
      %3 = block.load %x [k] : !block.array<4000xbf16> -> !block.tile<[k], bf16>
      %4 = block.load %w [k, n] : !block.array<4000x4096xbf16> -> !block.tile<[k, n], bf16>
      %5 = block.dot %3, %4 contract [k] : !block.tile<[k], bf16>, !block.tile<[k, n], bf16>
      block.yield %5 : !block.tile<[n], f32>
    }
    block.yield %1 : !block.tile<[n], f32>
  }
  block.return %0 : !block.array<4096xf32>
}
