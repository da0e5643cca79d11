//===- ShiftHoisting.h - Helpers of the rule-5 PDLL patterns ----*- C++ -*-===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster::block {
/// True when the shift `u` of `x - u` may leave a contraction against `w`
/// over `contract`: u is f32, has no axis in `contract`, every axis of it is
/// an axis of `x`, and `w` is not the same difference `x - u` (a square,
/// left to the variance pattern).
bool isShiftOutsideContraction(mlir::Value u, mlir::Value x, mlir::Value w,
                               mlir::ArrayAttr contract);
/// True when a contraction of `a (+|-) b` against `w` over `contract` may be
/// distributed over the two terms, and doing so adds a smaller contraction
/// only: a and b are f32 and have every axis of `contract`, and one of them
/// lacks an axis of the other that `w` lacks too.
bool isCheaperDistribution(mlir::Value a, mlir::Value b, mlir::Value w,
                           mlir::ArrayAttr contract);
/// `block.tile_reduce add w over contract`, at `at`'s location.
mlir::Value createColumnSum(mlir::PatternRewriter &rewriter, mlir::Value w,
                            mlir::ArrayAttr contract, mlir::Operation *at);
} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H
