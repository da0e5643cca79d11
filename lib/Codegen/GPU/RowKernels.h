//===- RowKernels.h - The row schedule for part of a block ------*- C++ -*-===//
//
// gpu-row-kernels lowers whole blocks; gpu-decode-gemv lowers the row
// statistics at the start of a decode block (a norm's sums of squares, its
// mean) with the same schedule, then its dot loop with its own.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_ROWKERNELS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_ROWKERNELS_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace blockbuster {

/// A memref of global memory a kernel may index directly: an argument of
/// the enclosing function or an intermediate array the function allocates
/// (the row statistics of a norm + matmul, say), or a subview of either.
bool isGlobalView(mlir::Value v);

/// Lowers `ops`, top-level ops of a block grid in order (linalg.fill and
/// linalg.generic over [R, N] rows, row scalars and columns, and loops that
/// reduce rows tile by tile, which are flattened first), with the row
/// schedule of gpu-row-kernels on `warps` warps: a lane keeps at most
/// `maxPerLane` elements of a row (a wide row over several warps only where
/// the rows take all `warps`: their totals meet at a block barrier), and
/// lane 0 of a row stores the row's
/// value of each workgroup row-scalar buffer in `liveOut` (read by the rest
/// of the block after the barrier that ends the warps' forall). On failure
/// `reason` says why; the loops may then have been flattened already, so
/// callers work on a copy of the block.
mlir::LogicalResult lowerRowPrefix(mlir::RewriterBase &rewriter,
                                   llvm::ArrayRef<mlir::Operation *> ops,
                                   int64_t warps, int64_t maxPerLane,
                                   const llvm::DenseSet<mlir::Value> &liveOut,
                                   std::string &reason);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_ROWKERNELS_H
