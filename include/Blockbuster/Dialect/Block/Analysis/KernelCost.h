//===- KernelCost.h - Costs block-fuse judges rewrites by -------*- C++ -*-===//
//
// block-fuse's extend step compares the estimated time of the whole program
// (CostModel.h) before and after each replication it tries. It is a sum over
// kernels of terms that depend on the kernel alone, so the driver keeps each
// kernel's term and recomputes only the kernels a try changed. Rule 3 weighs
// the loads a recomputation adds against those it removes, counted as the
// fusion report counts them (docs/FusionReport.md).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_KERNELCOST_H
#define BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_KERNELCOST_H

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

namespace blockbuster::block {

struct TargetDescription;

/// The block size of tiled axes without one in the axis table when
/// block-fuse judges a rewrite (the report's default).
constexpr int64_t kJudgedBlockSize = 128;

/// The term `estimateSeconds` adds for top-level map `map` of `program` on
/// `target`, block sizes from the axis table (else `defaultBlockSize`): the
/// same figures from the same code (computeFusionReport on a program holding
/// a copy of `map` alone), so sums of these terms in program order equal the
/// whole program's estimate without serial work to the last bit.
double estimateKernelSeconds(ProgramOp program, MapOp map,
                             int64_t defaultBlockSize,
                             const TargetDescription &target);

/// Global bytes `load` moves over all its runs when the axes iterated
/// around it are `iterated` (not necessarily where it stands now).
int64_t countLoadBytes(LoadOp load, llvm::ArrayRef<mlir::StringAttr> iterated,
                       const BlockSizes &sizes);

/// Global bytes top-level map `map` reads and writes.
int64_t countKernelBytes(MapOp map, const BlockSizes &sizes);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_KERNELCOST_H
