//===- NormaliseLinalg.h - Linalg in the form the builder reads -*- C++ -*-===//
//
// Step 1 of convert-linalg-to-block, also run alone by the pass
// normalise-linalg-for-block.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H
#define BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {

/// Rewrites the Linalg program of `func` in place into the form the block
/// program is built from: `linalg.softmax` decomposed, named Linalg ops
/// generalised (fills stay fills), reshapes moved out of the program to its
/// arguments and results (each operator works in the expanded shape), and
/// dimensions of extent 1 dropped. Emits an error and fails on ops it cannot
/// rewrite (convolutions, softmax without a decomposition).
mlir::LogicalResult normaliseLinalg(mlir::func::FuncOp func);

/// Most groups a concatenation or insert may be cut into: each is one load
/// and one select in the operator that stacks them.
constexpr int64_t kMaxStackedGroups = 16;

/// `tensor.concat` of static pieces as a `linalg.generic` that stacks them
/// over the result's shape with the cut dimension split into (groups,
/// group), followed by a `tensor.collapse_shape` (ConcatToStack.cpp).
void populateConcatToStackPatterns(mlir::RewritePatternSet &patterns);

/// Reshapes moved across static slices: a collapse_shape that drops unit
/// dimensions of a slice becomes a rank-reducing slice; an expand_shape of a
/// slice that takes the split dimensions whole moves above it
/// (SliceReshapeFolding.cpp).
void populateSliceReshapeFoldingPatterns(mlir::RewritePatternSet &patterns);

/// The part of those that only removes dimensions of extent 1: a
/// collapse_shape dropping them from a slice, a slice of an expand_shape
/// inserting them. Unit-dimension folding runs with these; the rewrites
/// that move a collapse_shape would undo its work.
void populateSliceUnitDimFoldingPatterns(mlir::RewritePatternSet &patterns);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_NORMALISELINALG_H
