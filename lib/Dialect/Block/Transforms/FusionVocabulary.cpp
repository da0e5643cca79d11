//===- FusionVocabulary.cpp - The vocabulary as PDL natives ---------------===//
//
// Registers the fusion vocabulary (FusionVocabulary.h) as PDL native
// constraints and rewrites, under the names Rules/Common.pdll declares. A
// constraint passes its precondition's reasons on as notifyMatchFailure
// (block-fuse{explain}); a rewrite says what it did (block-fuse{trace}).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "FusionRewriter.h"
#include "FusionUtils.h"
#include "Rules/ScaleHoisting.h"

using namespace mlir;
using namespace blockbuster::block;

/// A RefusalFn that reports each reason of constraint `constraint` at `op`
/// through `rewriter`.
static auto refuseThrough(PatternRewriter &rewriter, StringRef constraint,
                          Operation *op) {
  return [&rewriter, constraint, op](const Twine &reason) {
    (void)rewriter.notifyMatchFailure(
        op, [&](Diagnostic &diag) { diag << constraint << ": " << reason; });
  };
}

static LogicalResult hasProducerToFuse(PatternRewriter &rewriter,
                                       Operation *op) {
  auto consumer = dyn_cast<MapOp>(op);
  if (!consumer)
    return rewriter.notifyMatchFailure(op, "HasProducerToFuse: not a map");
  return success(
      findProducerToFuse(
                     consumer, refuseThrough(rewriter, "HasProducerToFuse", op)) != nullptr);
}

static void fuseProducer(PatternRewriter &rewriter, Operation *op) {
  auto consumer = cast<MapOp>(op);
  MapOp producer = findProducerToFuse(consumer);
  bool kept = llvm::any_of(producer->getUsers(), [&](Operation *user) {
    return !consumer->isAncestor(user);
  });
  describeRewrite(rewriter, "fused map at " +
                                describeLocation(producer.getLoc()) +
                                " into its consumer map" +
                                (kept ? " (kept as a second output)" : ""));
  fuseProducerIntoConsumer(rewriter, producer, consumer);
}

static LogicalResult hasSiblingToFuse(PatternRewriter &rewriter,
                                      Operation *op) {
  auto second = dyn_cast<MapOp>(op);
  if (!second)
    return rewriter.notifyMatchFailure(op, "HasSiblingToFuse: not a map");
  return success(findSiblingToFuse(
                     second, refuseThrough(rewriter, "HasSiblingToFuse", op)) !=
                 nullptr);
}

static void fuseWithSibling(PatternRewriter &rewriter, Operation *op) {
  auto second = cast<MapOp>(op);
  MapOp first = findSiblingToFuse(second);
  describeRewrite(rewriter, "fused sibling map at " +
                                describeLocation(first.getLoc()) +
                                ", which reads a common array");
  fuseSiblingMaps(rewriter, first, second);
}

static LogicalResult isSingleIteration(PatternRewriter &rewriter,
                                       Operation *op) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce)
    return rewriter.notifyMatchFailure(op,
                                       "IsSingleIterationReduce: not a reduce");
  if (isSingleIterationReduce(reduce))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "IsSingleIterationReduce: axis " << reduce.getAxis()
         << " is not whole";
  });
}

static void inlineSingleIteration(PatternRewriter &rewriter, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  describeRewrite(rewriter,
                  "inlined the single iteration of a reduce over whole axis " +
                      reduce.getAxis());
  inlineSingleIterationReduce(rewriter, reduce);
}

void blockbuster::block::registerFusionVocabulary(PDLPatternModule &module) {
  module.registerConstraintFunction("HasProducerToFuse", hasProducerToFuse);
  module.registerRewriteFunction("FuseProducer", fuseProducer);
  module.registerConstraintFunction("HasSiblingToFuse", hasSiblingToFuse);
  module.registerRewriteFunction("FuseWithSibling", fuseWithSibling);
  module.registerConstraintFunction("IsSingleIterationReduce",
                                    isSingleIteration);
  module.registerRewriteFunction("InlineSingleIteration",
                                 inlineSingleIteration);
  module.registerRewriteFunction(
      "RelayoutLike", [](PatternRewriter &rewriter, Value value,
                         Operation *like) {
        return relayoutLike(rewriter, value, like);
      });
  module.registerRewriteFunction(
      "Describe", [](PatternRewriter &rewriter, Attribute what) {
        describeRewrite(rewriter, cast<StringAttr>(what).getValue());
      });
}
