//===- ShiftHoisting.h - Helpers of the rule-5 PDLL patterns ----*- C++ -*-===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster::block {
/// True when the shift `u` of `x - u` may leave a contraction against `w`
/// over `contract`: u is f32, has no axis in `contract`, every axis of it is
/// an axis of `x`, `w` is not the same difference `x - u` (a square, left
/// to the variance pattern), and `u` is not x's pivot (isShiftPivotOf).
bool isShiftOutsideContraction(mlir::Value u, mlir::Value x, mlir::Value w,
                               mlir::ArrayAttr contract);
/// True when a contraction of `a (+|-) b` against `w` over `contract` may be
/// distributed over the two terms, and doing so adds a smaller contraction
/// only: a and b are f32 and have every axis of `contract`, and one of them
/// lacks an axis of the other that `w` lacks too.
bool isCheaperDistribution(mlir::Value a, mlir::Value b, mlir::Value w,
                           mlir::ArrayAttr contract);
/// Pivots (the shifted-data algorithm): a shift p of x that does not vary
/// along the contracted axis and is close to x's values, so that sums of
/// x - p do not cancel. p is x's own computation at the first index of the
/// axis (its loads of program arguments read index 0 of it; elementwise ops
/// and constants only), built outside the loop over the axis.
///
/// True when a pivot of x for a contraction over `contract`, at op `at`,
/// exists: one contracted axis, which x has; x computed elementwise from
/// loads of program arguments, constants and values available before the
/// loop; and `at` either directly in the body of the reduce over the axis
/// or in no reduce over it.
bool hasShiftPivot(mlir::Value x, mlir::ArrayAttr contract,
                   mlir::Operation *at);
/// Creates that pivot, right before the reduce over the axis (or before
/// `at` when there is none). Requires hasShiftPivot.
mlir::Value createShiftPivot(mlir::RewriterBase &rewriter, mlir::Value x,
                             mlir::ArrayAttr contract, mlir::Operation *at);
/// True when `u` is x's pivot for `contract` (the same computation with the
/// contracted axis' loads at a fixed index).
bool isShiftPivotOf(mlir::Value u, mlir::Value x, mlir::ArrayAttr contract);
/// `block.tile_reduce add w over contract`, at `at`'s location.
mlir::Value createColumnSum(mlir::RewriterBase &rewriter, mlir::Value w,
                            mlir::ArrayAttr contract, mlir::Operation *at);
} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SHIFTHOISTING_H
