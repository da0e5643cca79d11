//===- KernelCost.h - Costs block-fuse judges rewrites by -------*- C++ -*-===//
//
// block-fuse's extend step compares the global bytes and the roofline
// estimate of the whole program before and after each replication it tries.
// Both are sums over kernels of terms that depend on the kernel alone, so the
// driver keeps each kernel's terms and recomputes only the kernels a try
// changed. Rule 3 weighs the loads a recomputation adds against those it
// removes, counted as the fusion report counts them (docs/FusionReport.md).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

namespace blockbuster::block {

struct TargetDescription;

/// The block size of tiled axes without one in the axis table when
/// block-fuse judges a rewrite (the report's default).
constexpr int64_t kJudgedBlockSize = 128;

/// One kernel's terms of the whole program's figures.
struct KernelCost {
  /// What `estimateSeconds` adds for the kernel.
  double seconds = 0;
  /// Its global bytes read and written.
  int64_t globalBytes = 0;
};

/// The terms of top-level map `map` of `program` on `target`, block sizes
/// from the axis table (else `defaultBlockSize`): the same figures from the
/// same code (computeFusionReport on a program holding a copy of `map`
/// alone), so sums of these terms in program order equal the whole
/// program's estimate and global bytes to the last bit.
KernelCost estimateKernelCost(ProgramOp program, MapOp map,
                              int64_t defaultBlockSize,
                              const TargetDescription &target);

/// Global bytes `load` moves over all its runs when the axes iterated
/// around it are `iterated` (not necessarily where it stands now).
int64_t countLoadBytes(LoadOp load, llvm::ArrayRef<mlir::StringAttr> iterated,
                       const BlockSizes &sizes);

/// Global bytes top-level map `map` reads and writes.
int64_t countKernelBytes(MapOp map, const BlockSizes &sizes);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H
