//===- ScaleHoisting.cpp - Rule 4 -----------------------------------------===//
//
// Rule 4, scale hoisting: a factor that does not vary along a contraction's
// axes moves out of the contraction (PDLL patterns in ScaleHoisting.pdll),
// and a factor that does not vary along a reduce's axis moves out of the
// reduce: sum_j (u_j * s) = (sum_j u_j) * s when s is defined outside the
// loop. Both use only linearity; both move work outward, never back.
//
//===----------------------------------------------------------------------===//

#include "ScaleHoisting.h"

#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

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
/// outside the reduce (it does not vary with j) and u_j has the term's type.
struct HoistScaleOutOfReduce : public OpRewritePattern<ReduceOp> {
  HoistScaleOutOfReduce(MLIRContext *context, FusionTrace &trace)
      : OpRewritePattern(context), trace(trace) {
    setDebugName("hoist-scale-out-of-reduce");
  }

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return failure();
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
      Value kept, scale;
      if (isOutside(rhs) && lhs.getType() == term.getType()) {
        kept = lhs;
        scale = rhs;
      } else if (isa<MulOp>(def) && isOutside(lhs) &&
                 rhs.getType() == term.getType()) {
        kept = rhs;
        scale = lhs;
      } else {
        continue;
      }
      rewriter.modifyOpInPlace(yield,
                               [&] { yield->setOperand(index, kept); });
      Value result = reduce.getResult(index);
      rewriter.setInsertionPointAfter(reduce);
      Value scaled =
          isa<MulOp>(def)
              ? MulOp::create(rewriter, def->getLoc(), result, scale)
                    .getResult()
              : DivOp::create(rewriter, def->getLoc(), result, scale)
                    .getResult();
      rewriter.replaceAllUsesExcept(result, scaled, scaled.getDefiningOp());
      trace.message = std::string("moved a loop-invariant ") +
                      (isa<MulOp>(def) ? "factor" : "divisor") +
                      " out of the reduce over " + reduce.getAxis().str();
      return success();
    }
    return failure();
  }
  FusionTrace &trace;
};
} // namespace

void blockbuster::block::populateScaleHoistingPatterns(
    RewritePatternSet &patterns, FusionTrace &trace) {
  populateGeneratedPDLLPatterns(patterns);
  patterns.add<HoistScaleOutOfReduce>(patterns.getContext(), trace);
}
