//===- ScaleHoisting.h - Helpers of the rule-4 PDLL patterns ----*- C++ -*-===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SCALEHOISTING_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SCALEHOISTING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster::block {
/// True when `scale` is f32, has no axis in `contract`, and every axis of it
/// is an axis of `x`.
bool isScaleOutsideContraction(mlir::Value scale, mlir::Value x,
                               mlir::ArrayAttr contract);
/// True when `factor` is f32, has an axis in `contract`, every axis of it is
/// an axis of both `x` and `w`, `w` is a weight and `x` is not (see
/// isWeightOperand).
bool isFactorAlongContraction(mlir::Value factor, mlir::Value x, mlir::Value w,
                              mlir::ArrayAttr contract);
/// True when `value` is a weight: a block.load, a relayout of a weight, or a
/// product of a weight with a factor over some of its axes (the weight has
/// every axis of the product).
bool isWeightOperand(mlir::Value value);
/// `value`, relaid out (block.broadcast) to the type of `like`'s result.
mlir::Value relayoutLike(mlir::RewriterBase &rewriter, mlir::Value value,
                         mlir::Operation *like);
} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_RULES_SCALEHOISTING_H
