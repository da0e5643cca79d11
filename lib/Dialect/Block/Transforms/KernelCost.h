//===- KernelCost.h - Roofline estimate of one kernel ------------*- C++ -*-===//
//
// block-fuse's extend step compares the roofline estimate of the whole
// program before and after each replication it tries. The estimate is a sum
// over kernels of terms that depend on the kernel alone, so the driver keeps
// each kernel's term and recomputes only the kernels a try changed.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

namespace blockbuster::block {

struct TargetDescription;

/// The term `estimateSeconds` adds for top-level map `map` of `program` on
/// `target`, block sizes from the axis table (else `defaultBlockSize`): the
/// same figures from the same code (computeFusionReport on a program holding
/// a copy of `map` alone), so sums of these terms in program order equal the
/// whole program's estimate to the last bit.
double estimateKernelSeconds(ProgramOp program, MapOp map,
                             int64_t defaultBlockSize,
                             const TargetDescription &target);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_KERNELCOST_H
