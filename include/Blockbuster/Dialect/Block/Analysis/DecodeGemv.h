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

/// Whether gpu-decode-gemv's row schedule holds the statistics of the
/// kernel of decode GEMV dot `dot` (`map`'s): each other top-level reduce
/// of the map (a norm's sums, which the schedule flattens to whole rows)
/// reduces rows of its axis' extent (`extent`), each of which must fit one
/// row layout of at most kDecodeStatisticsPerLane elements a lane
/// (Blockbuster/Support/RowSchedule.h). Rows the schedule cannot hold
/// (RMSNorm at K4160, K4352, K11008: 130 to 344 elements a lane that the
/// warps cannot share in whole chunks) make gpu-decode-gemv refuse the
/// block; the blocks and the cost model must not assume the schedule then.
bool decodeStatisticsFit(MapOp map, DotOp dot,
                         llvm::function_ref<int64_t(mlir::StringAttr)> extent);

/// True if a dot of `map` is a decode GEMV dot with blocks gpu-decode-gemv
/// takes: whole tiles (every block size divides its extent: a partial edge
/// tile keeps the generic path) of at most 16 rows (one without a rows
/// axis), of columns in multiples of 64 (a warp's column group) and of k in
/// multiples of 64 (the k16 steps of the warps of a column group), whose
/// statistics fit (decodeStatisticsFit).
bool runsDecodeGemv(MapOp map, const BlockSizes &sizes);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_DECODEGEMV_H
