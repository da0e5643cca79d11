//===- NormaliseLinalg.cpp - Linalg in the form the builder reads ---------===//
//
// Frontends write the same computation in many shapes: torch-mlir keeps row
// statistics with keepdim ([B, M, 1]), collapses [B, S, D] to [B*S, D]
// around every nn.Linear and expands it back, and splits and merges heads
// with expand_shape/collapse_shape. Converted as they are, these become
// views and distinct unit axes that stop fusion. Here they are removed with
// upstream Linalg rewrites, in two phases that must not share a pattern set
// (dropping unit dimensions inserts the very reshapes that expansion would
// fold back in):
//
//  1. reshape propagation by expansion: a collapse_shape feeding an
//     operator, or an expand_shape of its result, is folded into the
//     operator by expanding its iteration space, so every operator works in
//     the most expanded shape and reshapes end up at the program's
//     arguments and results;
//  2. unit-extent dimensions dropped from every operator; the reshapes this
//     leaves between two operators cancel out;
//     Concatenations become stacking operators first (ConcatToStack.cpp),
//     and reshapes cross static slices (SliceReshapeFolding.cpp), so that
//     neither stops the propagation;
//  3. operators that read no tensor (torch's `arange`: `linalg.index` cast
//     to an integer) recomputed in each of their consumers: a consumer that
//     reads one over two of its loops (a causal mask's `i - j`) would
//     otherwise read one array along two axes and cut the program there.
//
// Both rewrite `linalg.index` of a changed dimension as an `affine.apply` of
// the new indices; what canonicalization does not fold away is expanded into
// index arithmetic, which the converter reads.
//
//===----------------------------------------------------------------------===//

#include "NormaliseLinalg.h"

#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace blockbuster {
#define GEN_PASS_DEF_NORMALISELINALGFORBLOCK
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

/// Decomposes softmax and generalises named Linalg ops, in place.
LogicalResult generalise(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::SoftmaxOp> softmaxes;
  func.walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
  for (linalg::SoftmaxOp op : softmaxes) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results))
      return op.emitOpError("could not be decomposed into max, exp, sum and "
                            "divide");
    rewriter.replaceOp(op, *results);
  }

  SmallVector<linalg::LinalgOp> named;
  func.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    if (isa<linalg::ConvolutionOpInterface>(op.getOperation()))
      return op->emitOpError() << "cannot be converted to a block program: "
                                  "convolutions are outside the operator "
                                  "table";
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitOpError("cannot be converted to a block program: it "
                             "has no generic form");
  }
  return success();
}

/// Patterns that clean up after both phases: reshapes of reshapes, of
/// empty tensors and of fills fold away.
void populateReshapeCleanupPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
  linalg::FillOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  tensor::populateFoldTensorEmptyPatterns(patterns);
}

/// Phase 1: every operator in the most expanded shape.
LogicalResult propagateReshapes(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *) { return true; });
  blockbuster::populateConcatToStackPatterns(patterns);
  blockbuster::populateSliceReshapeFoldingPatterns(patterns);
  populateReshapeCleanupPatterns(patterns);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// Phase 2: no operator has a dimension of extent 1.
LogicalResult dropUnitDims(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  linalg::ControlDropUnitDims options;
  linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
  blockbuster::populateSliceUnitDimFoldingPatterns(patterns);
  populateReshapeCleanupPatterns(patterns);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// Recomputes an operator that reads no tensor (only its indices and
/// constants) inside a consumer, with upstream's elementwise fusion of that
/// one operand; the generator goes once no consumer reads it.
struct FuseIndexGeneratorIntoConsumer
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  static bool isIndexGenerator(Value value) {
    auto producer = value.getDefiningOp<linalg::GenericOp>();
    return producer && producer.getNumDpsInputs() == 0 &&
           producer->getNumResults() == 1;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      if (!isIndexGenerator(operand->get()) ||
          !linalg::areElementwiseOpsFusable(operand))
        continue;
      Operation *producer = operand->get().getDefiningOp();
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(consumer);
      return success();
    }
    return rewriter.notifyMatchFailure(consumer,
                                       "no operand is an index generator");
  }
};

/// Phase 3: index generators recomputed where they are read.
LogicalResult fuseIndexGenerators(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  patterns.add<FuseIndexGeneratorIntoConsumer>(func.getContext());
  return applyPatternsGreedily(func, std::move(patterns));
}

/// Index arithmetic for the affine.apply ops left in operator bodies.
LogicalResult expandAffineApplies(func::FuncOp func) {
  SmallVector<affine::AffineApplyOp> applies;
  func.walk([&](affine::AffineApplyOp op) { applies.push_back(op); });
  IRRewriter rewriter(func.getContext());
  for (affine::AffineApplyOp op : applies) {
    rewriter.setInsertionPoint(op);
    std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
        rewriter, op.getLoc(), op.getAffineMap(), op.getOperands());
    if (!expanded)
      return op.emitOpError("cannot be expanded into index arithmetic");
    rewriter.replaceOp(op, *expanded);
  }
  return success();
}

} // namespace

LogicalResult blockbuster::normaliseLinalg(func::FuncOp func) {
  if (failed(generalise(func)))
    return failure();
  if (failed(propagateReshapes(func)) || failed(dropUnitDims(func)) ||
      failed(fuseIndexGenerators(func)))
    return func.emitError("the rewrites that normalise shapes (reshape "
                          "propagation, unit-dimension folding, index "
                          "generators) did not "
                          "converge");
  return expandAffineApplies(func);
}

namespace {
struct NormaliseLinalgForBlockPass
    : public blockbuster::impl::NormaliseLinalgForBlockBase<
          NormaliseLinalgForBlockPass> {
  void runOnOperation() override {
    if (failed(blockbuster::normaliseLinalg(getOperation())))
      signalPassFailure();
  }
};
} // namespace
