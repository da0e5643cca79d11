//===- SplitGrid.h - A block grid's third dimension of splits ---*- C++ -*-===//
//
// A grid too small for the chip runs its reduce loop in S splits along a
// third grid dimension (#gpu.block<z>): gpu-split-reductions for the loops
// of the generic and decode paths, gpu-warpgroup-matmul for its TMA + wgmma
// mainloop (docs/GPUPipeline.md, "Split reductions").
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_SPLITGRID_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_SPLITGRID_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {

/// `grid` (a block grid of at most two dimensions, erased) as a new grid
/// with a last dimension of `splits` blocks mapped to #gpu.block<z>, the
/// body moved over (its uses of the old induction variables now use the
/// new grid's first ones) and the grid's discardable attributes kept.
mlir::scf::ForallOp addSplitDimension(mlir::RewriterBase &rewriter,
                                      mlir::scf::ForallOp grid,
                                      int64_t splits);

/// An acquire-release fence at GPU scope (`fence.acq_rel.gpu`), the one
/// thread's fence on either side of a split block's count on its tile's
/// counter: cumulative, so after the block's barrier it releases the
/// partials every thread of the block stored, and in the block that counted
/// last it acquires every split's (CUTLASS's split-K semaphore).
void createCountFence(mlir::OpBuilder &b, mlir::Location loc);

/// One thread's count of its block on `counters[block]` (i32, a workspace
/// left zeroed): the release fence (createCountFence), the atomic add of
/// 1, and whether the block was the last of `splits` to count (an i1).
/// The caller adds the acquire fence and tells the block's threads.
mlir::Value countBlockIn(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value counters, mlir::Value block,
                         int64_t splits);

/// The index of a block of `grid` in the grid without its split dimension
/// (the last one), row-major: the slot of its tile among the counters and
/// partials of the combine.
mlir::Value unsplitBlockIndex(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::scf::ForallOp grid);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_SPLITGRID_H
