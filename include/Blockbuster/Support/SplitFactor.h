//===- SplitFactor.h - Splits of a small grid's reduce loop -----*- C++ -*-===//
//
// The one rule by which a grid too small for the chip splits its reduce loop
// across blocks (kernel shape 4, docs/GPUPipeline.md "Split reductions"):
// gpu-split-reductions applies it to the loops it finds in a kernel, and the
// block-level cost model (CostModel.h) applies it to the kernel's reduces, so
// block-select chooses block sizes for the grid the kernel will really run.
// Header-only: the GPU code generator and the block analysis library do not
// depend on each other.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_SUPPORT_SPLITFACTOR_H
#define BLOCKBUSTER_SUPPORT_SPLITFACTOR_H

#include <cstdint>

namespace blockbuster {

/// The compiler's limits on splits besides the chip's: the most splits of
/// one loop, and the fewest loop iterations one split runs (the defaults of
/// gpu-split-reductions' `max-splits` and `min-iterations`).
constexpr int64_t kMaxSplitsPerLoop = 16;
constexpr int64_t kMinIterationsPerSplit = 4;
/// The most splits of a wgmma GEMM block's k steps (gpu-warpgroup-matmul):
/// the block that counts last reads every split's 64 KB of partials before
/// its epilogue, so more splits lengthen the kernel's tail (M128 K4096
/// N4096 on the H200: 8 splits of 256 blocks 29.1 us, 4 of 128 blocks 25.1
/// us; docs/performance.md, session 13).
constexpr int64_t kMaxWarpgroupSplits = 4;
/// The fewest k steps (of 64) a split wgmma GEMM block runs: with fewer,
/// the combine's partials cost more than the split's blocks buy (GEMM
/// 1024^3 on the H200: 2 splits of 8 steps on 128 blocks 0.0180 ms, the
/// unsplit 128 x 256 blocks of 16 steps 0.0141 ms; M128 K4096 N4096 runs
/// 16 steps a split; docs/performance.md, session 13).
constexpr int64_t kMinWarpgroupStepsPerSplit = 16;

/// Where a split is allowed.
struct SplitLimits {
  /// Grids of this many blocks or more are not split (the SMs).
  int64_t minBlocks;
  /// The most blocks of a split grid; 0 turns splitting off.
  int64_t maxBlocks;
  int64_t maxSplits = kMaxSplitsPerLoop;
  int64_t minIterations = kMinIterationsPerSplit;
};

/// A grid whose loops of `tripCount` iterations (the same in each) may be
/// split.
struct SplitCandidate {
  int64_t blocks;
  int64_t tripCount;
  /// Iterations of the body's other loops (a norm's statistics): every
  /// split runs them whole.
  int64_t otherIterations;
  /// Blocks the chip runs at once: SMs x blocks per SM.
  int64_t blocksPerWave;
};

/// The split factor S of `grid`: 1 (no split), or a power of two up to
/// `maxSplits` that divides T, leaves at least `minIterations` iterations
/// per split and keeps the grid within `maxBlocks`, the one of least
/// estimated time in loop iterations of one block times waves:
///   ceil(blocks S / blocksPerWave) x (P + T / S + 1)
/// (the 1: the combine). Ties keep the smaller S.
inline int64_t chooseSplitFactor(const SplitCandidate &grid,
                                 const SplitLimits &limits) {
  if (grid.blocks < 1 || grid.blocks >= limits.minBlocks ||
      grid.tripCount < 1 || grid.blocksPerWave < 1)
    return 1;
  auto estimate = [&](int64_t splits) {
    int64_t waves =
        (grid.blocks * splits + grid.blocksPerWave - 1) / grid.blocksPerWave;
    return waves * (grid.otherIterations + grid.tripCount / splits +
                    (splits > 1 ? 1 : 0));
  };
  int64_t best = estimate(1), bestSplits = 1;
  for (int64_t splits = 2; splits <= limits.maxSplits; splits *= 2) {
    if (grid.tripCount % splits ||
        grid.tripCount / splits < limits.minIterations ||
        grid.blocks * splits > limits.maxBlocks)
      break;
    if (int64_t cost = estimate(splits); cost < best) {
      best = cost;
      bestSplits = splits;
    }
  }
  return bestSplits;
}

} // namespace blockbuster

#endif // BLOCKBUSTER_SUPPORT_SPLITFACTOR_H
