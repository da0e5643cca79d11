//===- DecodeGemv.h - Which dots gpu-decode-gemv takes -----------*- C++ -*-===//
//
// gpu-decode-gemv streams the weights of a decode kernel (at most 16
// activation rows against a weight matrix) into registers, 64 columns per
// warp and k16 step, every row of the block in one mma.sync m16 tile. Two
// places must agree on which kernels run that schedule: the pass that binds
// its blocks before block-select (block-decode-gemv-blocks), and the cost
// model, whose serial work per iteration differs from the generic
// lowering's (TargetDescription's decodeGemv... terms).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_DECODEGEMV_H
#define BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_DECODEGEMV_H

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace blockbuster::block {

/// The rows of one mma.sync tile, the most rows a decode kernel has (beyond,
/// block-select's blocks and the GEMM schedules apply), and the columns one
/// warp streams per k16 step (8 lanes x 16 bytes).
constexpr int64_t kDecodeGemvTileRows = 16;
constexpr int64_t kDecodeGemvMaxRows = 128;
constexpr int64_t kDecodeGemvBlockColumns = 64;
/// A k block the schedule takes is a multiple of 16 (an mma k step) times
/// the warps of a column group: 64 covers 4 warps on one group.
constexpr int64_t kDecodeGemvDepthMultiple = 64;

/// The axes of a decode GEMV dot: A [rows, depth] of 16-bit elements, B a
/// load of a rank-2 array of the same type along [depth, columns], rows and
/// columns grid axes of the map. A vector-matrix product x[depth] *
/// W[depth, columns] (decode at M1: the converter drops the unit rows
/// dimension, and the norm's statistics are 0-d tiles) has no rows axis
/// (null): one row, which gpu-decode-gemv gives a unit rows dimension back
/// (docs/GPUPipeline.md, "Decode GEMV blocks").
struct GemvDotAxes {
  mlir::StringAttr rows, columns, depth;
};

/// The axes of `dot` (in `map`) if it is a decode GEMV dot.
std::optional<GemvDotAxes> matchGemvDot(MapOp map, DotOp dot);

/// Whether gpu-decode-gemv lowers the kernel of decode GEMV dot `dot`
/// (`map`'s), given blocks of `rows` rows (1 without a rows axis), as far
/// as the kernel's form rather than its block sizes decides:
///  - the statistics: every top-level reduce of the map before the dot's (a
///    norm's sums, which the codegen flattens to whole rows of their axis'
///    `extent`) is held by the row schedule on the block's 4 warps
///    (choosePrefixLayout, Blockbuster/Support/RowSchedule.h, the rule
///    lowerRowPrefix applies: at most kDecodeStatisticsPerLane elements a
///    lane, a row over several warps only where the rows take every warp),
///    unless gpu-decode-row-factor moves it into the dot loop (RMSNorm's
///    sum of squares, used in the prologue's row factor alone). Rows the
///    schedule cannot hold (LayerNorm at K4160, K4352, K11008: 130 to 344
///    elements a lane in chunks the warps cannot share) make
///    gpu-decode-gemv refuse the block;
///  - at M1 (a vector-matrix product), the unit rows dimension the block
///    gets back: the vector a tile of the block or a view of a [1, .., 1,
///    K] array, no 0-d statistic read from global memory in the loop.
/// block-decode-gemv-blocks and the cost model (runsDecodeGemv) must not
/// assume the decode schedule elsewhere.
bool decodeGemvLowers(MapOp map, DotOp dot, int64_t rows,
                      llvm::function_ref<int64_t(mlir::StringAttr)> extent);

/// True if a dot of `map` is a decode GEMV dot with blocks gpu-decode-gemv
/// takes: whole tiles (every block size divides its extent: a partial edge
/// tile keeps the generic path) of at most 16 rows (one without a rows
/// axis), of columns in multiples of 64 (a warp's column group) and of k in
/// multiples of 64 (the k16 steps of the warps of a column group), in a
/// kernel the schedule lowers (decodeGemvLowers).
bool runsDecodeGemv(MapOp map, const BlockSizes &sizes);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_DECODEGEMV_H
