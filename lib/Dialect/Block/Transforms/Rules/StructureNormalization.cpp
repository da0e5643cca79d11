//===- StructureNormalization.cpp - Rule 8 --------------------------------===//
//
// Rule 8, structure normalisation: canonical forms the other rules match.
// A reduce over a whole axis runs once, so it is inlined; a broadcast to its
// operand's own type, or of a broadcast, is folded. Each pattern removes an
// op, so the rule terminates.
//
//===----------------------------------------------------------------------===//

#include "../FusionRewriter.h"
#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
/// A reduce over a whole axis has one iteration: its results are its terms
/// folded once into the initial state.
struct InlineSingleIterationReduce : public OpRewritePattern<ReduceOp> {
  explicit InlineSingleIterationReduce(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("inline-single-iteration-reduce");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    auto program = reduce->getParentOfType<ProgramOp>();
    AxisAttr axis = program.lookupAxis(reduce.getAxisAttr());
    if (!axis || !axis.isWhole())
      return rewriter.notifyMatchFailure(reduce, [&](Diagnostic &diag) {
        diag << "axis " << reduce.getAxis() << " is not whole";
      });
    Block &body = reduce.getBody().front();
    SmallVector<Value> terms(reduce.getYield().getOperands());
    rewriter.eraseOp(reduce.getYield());
    rewriter.inlineBlockBefore(&body, reduce);
    SmallVector<Value> results = terms;
    if (reduce.hasRegionCombiner()) {
      // Fold the single term into the initial state.
      Block &combine = reduce.getCombiner().front();
      SmallVector<Value> arguments(reduce.getInits());
      llvm::append_range(arguments, terms);
      auto combineYield = cast<YieldOp>(combine.getTerminator());
      SmallVector<Value> combined(combineYield.getOperands());
      rewriter.eraseOp(combineYield);
      // Values yielded straight from the arguments are remapped below.
      for (Value &value : combined)
        if (auto arg = dyn_cast<BlockArgument>(value);
            arg && arg.getOwner() == &combine)
          value = arguments[arg.getArgNumber()];
      rewriter.inlineBlockBefore(&combine, reduce, arguments);
      results = combined;
    }
    describeRewrite(rewriter,
                    "inlined the single iteration of a reduce over whole "
                    "axis " +
                        reduce.getAxis());
    rewriter.replaceOp(reduce, results);
    return success();
  }
};

/// broadcast(x) : T -> T is x; broadcast(broadcast(x)) is one broadcast.
struct FoldBroadcast : public OpRewritePattern<BroadcastOp> {
  explicit FoldBroadcast(MLIRContext *context) : OpRewritePattern(context) {
    setDebugName("fold-broadcast");
  }
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getOperand().getType() == op.getType()) {
      describeRewrite(rewriter, "folded a broadcast to its operand's own type");
      rewriter.replaceOp(op, op.getOperand());
      return success();
    }
    if (auto inner = op.getOperand().getDefiningOp<BroadcastOp>()) {
      describeRewrite(rewriter, "folded a broadcast of a broadcast");
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                               inner.getOperand());
      return success();
    }
    return rewriter.notifyMatchFailure(
        op, "relays out a tile that is not a broadcast");
  }
};
} // namespace

void blockbuster::block::populateStructureNormalizationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<InlineSingleIterationReduce, FoldBroadcast>(
      patterns.getContext());
}
