//===- NormaliseLinalg.h - Linalg in the form the builder reads -*- C++ -*-===//
//
// Step 1 of convert-linalg-to-block, also run alone by the pass
// normalise-linalg-for-block.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H
#define BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blockbuster {

/// Rewrites the Linalg program of `func` in place into the form the block
/// program is built from: `linalg.softmax` decomposed, named Linalg ops
/// generalised (fills stay fills), reshapes moved out of the program to its
/// arguments and results (each operator works in the expanded shape), and
/// dimensions of extent 1 dropped. Emits an error and fails on ops it cannot
/// rewrite (convolutions, softmax without a decomposition).
mlir::LogicalResult normaliseLinalg(mlir::func::FuncOp func);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H
