//===- ScaleHoisting.cpp - Rule 4 -----------------------------------------===//
//
// Rule 4, scale hoisting: a factor that does not vary along a contraction's
// axes moves out of the contraction (PDLL patterns in ScaleHoisting.pdll),
// and a factor that does not vary along a reduce's axis moves out of the
// reduce: sum_j (u_j * s) = (sum_j u_j) * s when s is defined outside the
// loop. A factor that varies along the contraction moves onto the weight
// operand instead (dot(x * g, w) = dot(x, w * g), PDLL). All use only
// linearity and associativity; all move work one way, never back.
//
//===----------------------------------------------------------------------===//

#include "ScaleHoisting.h"

#include "../FusionRewriter.h"
#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

bool blockbuster::block::isScaleOutsideContraction(Value scale, Value x,
                                                   ArrayAttr contract) {
  auto scaleType = dyn_cast<TileType>(scale.getType());
  auto xType = dyn_cast<TileType>(x.getType());
  if (!scaleType || !xType || !scaleType.getElementType().isF32())
    return false;
  for (StringAttr axis : scaleType.getAxes())
    if (llvm::is_contained(contract, axis) || !xType.hasAxis(axis))
      return false;
  return true;
}

bool blockbuster::block::isWeightOperand(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<LoadOp>(def))
    return true;
  if (auto broadcast = dyn_cast<BroadcastOp>(def))
    return isWeightOperand(broadcast.getOperand());
  if (auto mul = dyn_cast<MulOp>(def)) {
    // A weight scaled by a factor over some of its own axes.
    for (Value operand : {mul.getLhs(), mul.getRhs()})
      if (operand.getType() == mul.getType() && isWeightOperand(operand))
        return true;
  }
  return false;
}

bool blockbuster::block::isFactorAlongContraction(Value factor, Value x,
                                                  Value w,
                                                  ArrayAttr contract) {
  auto factorType = dyn_cast<TileType>(factor.getType());
  auto xType = dyn_cast<TileType>(x.getType());
  auto wType = dyn_cast<TileType>(w.getType());
  if (!factorType || !xType || !wType ||
      !factorType.getElementType().isF32())
    return false;
  // A factor with no contracted axis is isScaleOutsideContraction's: it
  // leaves the contraction instead.
  if (!llvm::any_of(factorType.getAxes(), [&](StringAttr axis) {
        return llvm::is_contained(contract, axis);
      }))
    return false;
  for (StringAttr axis : factorType.getAxes())
    if (!xType.hasAxis(axis) || !wType.hasAxis(axis))
      return false;
  return isWeightOperand(w) && !isWeightOperand(x);
}

Value blockbuster::block::relayoutLike(PatternRewriter &rewriter, Value value,
                                       Operation *like) {
  Type wanted = like->getResult(0).getType();
  if (value.getType() == wanted)
    return value;
  return BroadcastOp::create(rewriter, like->getLoc(), wanted, value);
}

#include "Rules/ScaleHoisting.h.inc"

namespace {
/// sum_j (u_j op s) = (sum_j u_j) op s for op in {*, /} when s is defined
/// outside the reduce (it does not vary with j). The state is u_j's type,
/// which may have fewer axes than the term (sum_j mu * c_j = mu * sum_j c_j
/// with mu[M] and c_j[N]); the product after the loop keeps the term's
/// operand order, hence its type.
struct HoistScaleOutOfReduce : public OpRewritePattern<ReduceOp> {
  explicit HoistScaleOutOfReduce(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("hoist-scale-out-of-reduce");
  }

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return rewriter.notifyMatchFailure(reduce, "has a combine region");
    Region &body = reduce.getBody();
    YieldOp yield = reduce.getYield();
    auto isOutside = [&](Value value) {
      return !body.isAncestor(value.getParentRegion());
    };
    for (auto [index, term] : llvm::enumerate(yield.getOperands())) {
      if (cast<CombinerKindAttr>((*combiners)[index]).getValue() !=
          CombinerKind::Add)
        continue;
      Operation *def = term.getDefiningOp();
      if (!def || !isa<MulOp, DivOp>(def))
        continue;
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      // Which operand stays in the loop: the scale is the other one.
      bool keepLhs;
      if (isOutside(rhs))
        keepLhs = true;
      else if (isa<MulOp>(def) && isOutside(lhs))
        keepLhs = false;
      else
        continue;
      Value kept = keepLhs ? lhs : rhs;
      Value scale = keepLhs ? rhs : lhs;
      Type stateType = kept.getType();
      rewriter.setInsertionPoint(reduce);
      SmallVector<Type> types(reduce->getResultTypes());
      types[index] = stateType;
      auto newReduce =
          ReduceOp::create(rewriter, reduce.getLoc(), types,
                           reduce.getAxisAttr(), *combiners, ValueRange{});
      rewriter.inlineRegionBefore(body, newReduce.getBody(),
                                  newReduce.getBody().end());
      rewriter.modifyOpInPlace(yield,
                               [&] { yield->setOperand(index, kept); });
      Value result = newReduce.getResult(index);
      rewriter.setInsertionPointAfter(newReduce);
      Value lhsAfter = keepLhs ? result : scale;
      Value rhsAfter = keepLhs ? scale : result;
      Value scaled =
          isa<MulOp>(def)
              ? MulOp::create(rewriter, def->getLoc(), lhsAfter, rhsAfter)
                    .getResult()
              : DivOp::create(rewriter, def->getLoc(), lhsAfter, rhsAfter)
                    .getResult();
      SmallVector<Value> replacements(newReduce.getResults());
      replacements[index] = scaled;
      rewriter.replaceOp(reduce, replacements);
      describeRewrite(rewriter, std::string("moved a loop-invariant ") +
                                    (isa<MulOp>(def) ? "factor" : "divisor") +
                                    " out of the reduce over " +
                                    newReduce.getAxis().str());
      return success();
    }
    return rewriter.notifyMatchFailure(
        reduce, "no add-combined term is a product (or quotient) by a value "
                "defined outside the loop");
  }
};
} // namespace

void blockbuster::block::populateScaleHoistingPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
  patterns.add<HoistScaleOutOfReduce>(patterns.getContext());
}
