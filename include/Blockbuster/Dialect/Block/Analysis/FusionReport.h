//===- FusionReport.h - Kernels, traffic, FLOPs, local footprint -*- C++ -*-===//
//
// The fusion report of a block program under a block-size table: kernel
// count, buffered edges, bytes moved through global memory, FLOPs and the
// peak local footprint of every kernel body. Tests, the block-report pass and
// the cost model all read these figures; docs/FusionReport.md defines them.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_FUSIONREPORT_H
#define BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_FUSIONREPORT_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <string>
#include <vector>

namespace blockbuster::block {

/// Resolves the block size of every axis of a program: an explicit override,
/// else the block size in the axis table, else a default. Whole axes span
/// their extent; a block never exceeds its axis' extent.
class BlockSizes {
public:
  BlockSizes(ProgramOp program, const llvm::StringMap<int64_t> &overrides,
             int64_t defaultBlockSize);

  int64_t getExtent(mlir::StringAttr axis) const;
  int64_t getBlockSize(mlir::StringAttr axis) const;
  /// Number of blocks along `axis`: ceil(extent / block size).
  int64_t getNumBlocks(mlir::StringAttr axis) const;
  /// The resolved table, in declaration order.
  const llvm::MapVector<mlir::StringAttr, int64_t> &getTable() const {
    return blockSizes;
  }

private:
  llvm::MapVector<mlir::StringAttr, int64_t> blockSizes;
  llvm::DenseMap<mlir::StringAttr, int64_t> extents;
};

/// One array that a kernel writes and other kernels read back.
struct IntermediateArray {
  std::vector<int64_t> shape;
  std::string elementType;
  int64_t bytes = 0;
  /// Number of kernels that load it: one buffered edge each.
  int64_t readers = 0;
};

/// Figures of one top-level map (one kernel).
struct KernelReport {
  std::vector<std::string> grid;   // The map's axes.
  std::vector<int64_t> gridExtents; // Their extents.
  int64_t instances = 0;           // Blocks in the grid (thread blocks).
  int64_t globalBytesRead = 0;     // Loads, times their trip counts.
  int64_t globalBytesWritten = 0;  // Yielded result arrays.
  /// The part of globalBytesRead that reads an array for the first time:
  /// per array loaded, at most its size (the rest reads it again).
  int64_t globalBytesFirstRead = 0;
  int64_t flops = 0;
  /// The part of `flops` in dots on 16-bit float operands (matrix units).
  int64_t matrixFlops = 0;
  /// `matrixFlops` as the matrix units run them: each instance's dot
  /// padded to whole m16 x n8 x k16 tiles (a block of 8 rows runs 16).
  int64_t matrixTileFlops = 0;
  /// The part of `flops` that computes the 16-bit operand of a dot inside
  /// the dot's own reduce from loaded tiles by elementwise ops (a
  /// normalisation run on each A tile of a GEMM: its prologue), and the
  /// operand elements so computed, both over all runs: an element is
  /// computed again for every block of the axes the operand lacks (the
  /// GEMM's output columns). docs/FusionReport.md, "Prologues".
  int64_t prologueFlops = 0;
  int64_t prologueElements = 0;
  int64_t localBytesPeak = 0;      // Peak bytes of live tiles in one instance.
  /// The same peak split by where values live: reduce states (loop-carried
  /// accumulators and the results they become) in registers, every other
  /// tile in shared memory. Each is its own maximum over program points.
  int64_t registerBytesPeak = 0;
  int64_t sharedBytesPeak = 0;
  /// What gpu-split-reductions would split (docs/FusionReport.md,
  /// "Estimates", the splits S): the blocks of the axis that the body's top-level sums
  /// holding a dot iterate (0: no such sum, sums of different counts, or a
  /// sum whose tile has a partial edge block along a grid axis),
  /// and the blocks its other top-level reduces iterate (every split runs
  /// them whole).
  int64_t splitTripCount = 0;
  int64_t splitOtherIterations = 0;
  /// The serial work of one instance (docs/FusionReport.md, "Serial
  /// work"): the iterations of the body's top-level reduces, and the
  /// elements one thread computes over them, each iteration's tiles laid
  /// over the threads of the generic GPU lowering (4 x 32: one loop nest per
  /// tile shape), and the fused multiply-adds one thread runs for the dots
  /// of two matrices that are not on the matrix units (f32: gpu-contractions-
  /// to-fma's register tiles, the block's products over its 128 threads).
  /// `splitIteration...`: the part of one iteration of the split candidate's
  /// sums (0 without a candidate).
  int64_t serialIterations = 0;
  int64_t serialThreadElements = 0;
  int64_t serialThreadFmas = 0;
  int64_t splitIterationThreadElements = 0;
  int64_t splitIterationThreadFmas = 0;
  /// Left out of the two element counts above where decodeGemv: the
  /// generic lowering's column walk of a decode GEMV dot at M1 (x[k] *
  /// W[k, n]: one thread per column walks Tk elements of W), which the
  /// decode schedule puts on mma.sync. The cost model adds them back for a
  /// target without gpu-decode-gemv (bb-compile --decode-gemv=false).
  int64_t serialColumnWalkElements = 0;
  int64_t splitIterationColumnWalkElements = 0;
  /// gpu-decode-gemv's schedule runs the kernel (runsDecodeGemv): its serial
  /// work costs the target's decodeGemv... rates, not the generic lowering's.
  bool decodeGemv = false;
};

/// Figures of a whole program.
struct FusionReport {
  std::string program;
  llvm::MapVector<mlir::StringAttr, int64_t> blockSizes;
  int64_t kernels = 0;
  int64_t bufferedEdges = 0;
  int64_t globalBytes = 0;
  int64_t flops = 0;
  int64_t localBytesPeak = 0;
  int64_t registerBytesPeak = 0; // Largest over kernels.
  int64_t sharedBytesPeak = 0;   // Largest over kernels.
  std::vector<IntermediateArray> intermediates;
  std::vector<KernelReport> perKernel;

  /// Raises the three peaks to `kernel`'s where they are larger.
  void takePeaks(const KernelReport &kernel) {
    localBytesPeak = std::max(localBytesPeak, kernel.localBytesPeak);
    registerBytesPeak = std::max(registerBytesPeak, kernel.registerBytesPeak);
    sharedBytesPeak = std::max(sharedBytesPeak, kernel.sharedBytesPeak);
  }
};

/// Computes the report of `program` with the given block sizes.
FusionReport computeFusionReport(ProgramOp program, const BlockSizes &sizes);

struct TargetDescription;

/// Writes `report` as one JSON object; with a `target`, each kernel's
/// estimate on it too (CostModel.h), with the serial work of blocks when
/// `serialBound` (isSerialBound of the report's program).
void writeFusionReport(llvm::json::OStream &json, const FusionReport &report,
                       const TargetDescription *target = nullptr,
                       bool serialBound = false);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_FUSIONREPORT_H
