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
#include "../Rules/ScaleHoisting.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
/// The reasons constraint `constraint` refuses `op` with, reported through
/// `rewriter`.
struct Refusals {
  PatternRewriter &rewriter;
  StringRef constraint;
  Operation *op;

  void operator()(const Twine &reason) const {
    (void)rewriter.notifyMatchFailure(
        op, [&](Diagnostic &diag) { diag << constraint << ": " << reason; });
  }
  /// This as a RefusalFn, or none when nobody reads the reasons now (the
  /// preconditions then build no strings). Valid for the full expression.
  RefusalFn get() const {
    return wantsFailureReasons(rewriter) ? RefusalFn(*this) : RefusalFn();
  }
};
} // namespace

static LogicalResult hasProducerToFuse(PatternRewriter &rewriter,
                                       Operation *op) {
  auto consumer = dyn_cast<MapOp>(op);
  if (!consumer)
    return rewriter.notifyMatchFailure(op, "HasProducerToFuse: not a map");
  return success(
      findProducerToFuse(consumer,
                         Refusals{rewriter, "HasProducerToFuse", op}.get()) !=
      nullptr);
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
  return success(
      findSiblingToFuse(
          second, Refusals{rewriter, "HasSiblingToFuse", op}.get()) != nullptr);
}

static void fuseWithSibling(PatternRewriter &rewriter, Operation *op) {
  auto second = cast<MapOp>(op);
  MapOp first = findSiblingToFuse(second);
  describeRewrite(rewriter, "fused sibling map at " +
                                describeLocation(first.getLoc()) +
                                ", which reads a common array");
  fuseSiblingMaps(rewriter, first, second);
}

/// Rule 6's control: the producers rule 3's profitability refuses.
static bool isLeftToReplication(LoadOp load, MapOp producer, ReduceOp reduce,
                                RefusalFn refuse) {
  if (!isProfitableToFuseIntoReduce(load, producer, reduce))
    return true;
  if (refuse)
    refuse("rule 3 fuses it (cheap, or a contraction read only here)");
  return false;
}

static LogicalResult hasProducerToMoveIntoReduce(PatternRewriter &rewriter,
                                                 Operation *op) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce)
    return rewriter.notifyMatchFailure(
        op, "HasProducerToMoveIntoReduce: not a reduce");
  return success(
      findProducerToCloneIntoReduce(
          reduce, isProfitableToFuseIntoReduce,
          Refusals{rewriter, "HasProducerToMoveIntoReduce", op}.get()) !=
      nullptr);
}

static void moveProducerIntoReduce(PatternRewriter &rewriter, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  MapOp producer =
      findProducerToCloneIntoReduce(reduce, isProfitableToFuseIntoReduce);
  cloneProducerIntoReduce(rewriter, producer, reduce);
  describeRewrite(rewriter, "moved map at " +
                                describeLocation(producer.getLoc()) +
                                " into the reduce over " + reduce.getAxis());
}

static LogicalResult hasProducerToReplicate(PatternRewriter &rewriter,
                                            Operation *op,
                                            ReplicationOptions options) {
  auto consumer = dyn_cast<MapOp>(op);
  if (!consumer)
    return rewriter.notifyMatchFailure(op, "HasProducerToReplicate: not a map");
  return success(findProducerToReplicate(
                     consumer,
                     Refusals{rewriter, "HasProducerToReplicate", op}.get(),
                     options) != nullptr);
}

static void replicateIntoMap(PatternRewriter &rewriter, Operation *op,
                             ReplicationOptions options) {
  auto consumer = cast<MapOp>(op);
  MapOp producer = findProducerToReplicate(consumer, {}, options);
  replicateProducer(rewriter, producer, consumer);
  describeRewrite(rewriter, "replicated map at " +
                                describeLocation(producer.getLoc()) +
                                " into a map over more axes");
}

static LogicalResult
hasProducerToReplicateIntoReduce(PatternRewriter &rewriter, Operation *op,
                                 ReplicationOptions options) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce)
    return rewriter.notifyMatchFailure(
        op, "HasProducerToReplicateIntoReduce: not a reduce");
  if (options.renameReducedAxes)
    return rewriter.notifyMatchFailure(
        op, "HasProducerToReplicateIntoReduce: renaming replications are "
            "into maps only");
  return success(
      findProducerToCloneIntoReduce(
          reduce, isLeftToReplication,
          Refusals{rewriter, "HasProducerToReplicateIntoReduce", op}.get()) !=
      nullptr);
}

static void replicateIntoReduce(PatternRewriter &rewriter, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  MapOp producer = findProducerToCloneIntoReduce(reduce, isLeftToReplication);
  cloneProducerIntoReduce(rewriter, producer, reduce);
  describeRewrite(rewriter, "replicated map at " +
                                describeLocation(producer.getLoc()) +
                                " into the reduce over " + reduce.getAxis());
}

static LogicalResult hasReduceToFuse(PatternRewriter &rewriter, Operation *op) {
  auto second = dyn_cast<ReduceOp>(op);
  if (!second)
    return rewriter.notifyMatchFailure(op, "HasReduceToFuse: not a reduce");
  return success(findReduceToFuse(
                     second, Refusals{rewriter, "HasReduceToFuse", op}.get()) !=
                 nullptr);
}

static void fuseWithReduce(PatternRewriter &rewriter, Operation *op) {
  auto second = cast<ReduceOp>(op);
  ReduceOp first = findReduceToFuse(second);
  describeRewrite(rewriter, std::string(readsRunningMaximum(first, second)
                                            ? "online-softmax fusion of"
                                            : "fused") +
                                " the reduce over " + second.getAxis().str() +
                                " at " + describeLocation(first.getLoc()) +
                                " with the one at " +
                                describeLocation(second.getLoc()));
  fuseReduces(rewriter, first, second);
}

/// The reduce `op` is, or a refusal by constraint `constraint`.
static ReduceOp asReduce(PatternRewriter &rewriter, StringRef constraint,
                         Operation *op) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce)
    (void)rewriter.notifyMatchFailure(
        op, [&](Diagnostic &diag) { diag << constraint << ": not a reduce"; });
  return reduce;
}

static LogicalResult hasScaleToHoistOutOfReduce(PatternRewriter &rewriter,
                                                Operation *op) {
  ReduceOp reduce = asReduce(rewriter, "HasScaleToHoistOutOfReduce", op);
  return success(
      reduce &&
      findScaleToHoistOutOfReduce(
          reduce, Refusals{rewriter, "HasScaleToHoistOutOfReduce", op}.get()));
}

static void hoistScaleOutOfReduceLoop(PatternRewriter &rewriter,
                                      Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  unsigned index = *findScaleToHoistOutOfReduce(reduce);
  bool isFactor =
      isa<MulOp>(reduce.getYield().getOperand(index).getDefiningOp());
  describeRewrite(rewriter, Twine("moved a loop-invariant ") +
                                (isFactor ? "factor" : "divisor") +
                                " out of the reduce over " + reduce.getAxis());
  hoistScaleOutOfReduce(rewriter, reduce, index);
}

static LogicalResult hasLinearTermToSplit(PatternRewriter &rewriter,
                                          Operation *op) {
  ReduceOp reduce = asReduce(rewriter, "HasLinearTermToSplit", op);
  return success(
      reduce &&
      findLinearTermToSplit(
          reduce, Refusals{rewriter, "HasLinearTermToSplit", op}.get()));
}

static void splitLinearTermInLoop(PatternRewriter &rewriter, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  unsigned index = *findLinearTermToSplit(reduce);
  bool isSum = isa<AddOp>(reduce.getYield().getOperand(index).getDefiningOp());
  describeRewrite(rewriter, Twine("split a ") + (isSum ? "sum" : "difference") +
                                " into two accumulators of the reduce over " +
                                reduce.getAxis());
  splitLinearTerm(rewriter, reduce, index);
}

static LogicalResult hasShiftedSquare(PatternRewriter &rewriter,
                                      Operation *op) {
  ReduceOp reduce = asReduce(rewriter, "HasShiftedSquare", op);
  return success(reduce &&
                 findShiftedSquare(
                     reduce, Refusals{rewriter, "HasShiftedSquare", op}.get()));
}

static void expandShiftedSquareInLoop(PatternRewriter &rewriter,
                                      Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  unsigned index = *findShiftedSquare(reduce);
  StringRef axis = reduce.getAxis();
  describeRewrite(rewriter, "expanded a shifted square about the pivot p = x[" +
                                axis +
                                " = first]: sum (x - u)^2 = sum (x - p)^2 - "
                                "(u - p) (2 sum (x - p) - n (u - p)) out of "
                                "the reduce over " +
                                axis);
  expandShiftedSquare(rewriter, reduce, index);
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

void blockbuster::block::registerFusionVocabulary(
    PDLPatternModule &module, ReplicationOptions replication) {
  module.registerConstraintFunction("HasProducerToFuse", hasProducerToFuse);
  module.registerRewriteFunction("FuseProducer", fuseProducer);
  module.registerConstraintFunction("HasSiblingToFuse", hasSiblingToFuse);
  module.registerRewriteFunction("FuseWithSibling", fuseWithSibling);
  module.registerConstraintFunction("HasProducerToMoveIntoReduce",
                                    hasProducerToMoveIntoReduce);
  module.registerRewriteFunction("MoveProducerIntoReduce",
                                 moveProducerIntoReduce);
  module.registerConstraintFunction("HasScaleToHoistOutOfReduce",
                                    hasScaleToHoistOutOfReduce);
  module.registerRewriteFunction("HoistScaleOutOfReduce",
                                 hoistScaleOutOfReduceLoop);
  module.registerConstraintFunction("HasLinearTermToSplit",
                                    hasLinearTermToSplit);
  module.registerRewriteFunction("SplitLinearTerm", splitLinearTermInLoop);
  module.registerConstraintFunction("HasShiftedSquare", hasShiftedSquare);
  module.registerRewriteFunction("ExpandShiftedSquare",
                                 expandShiftedSquareInLoop);
  module.registerConstraintFunction(
      "HasProducerToReplicate", [replication](PatternRewriter &rewriter,
                                              Operation *op) {
        return hasProducerToReplicate(rewriter, op, replication);
      });
  module.registerRewriteFunction(
      "ReplicateIntoMap",
      [replication](PatternRewriter &rewriter, Operation *op) {
        replicateIntoMap(rewriter, op, replication);
      });
  module.registerConstraintFunction(
      "HasProducerToReplicateIntoReduce",
      [replication](PatternRewriter &rewriter, Operation *op) {
        return hasProducerToReplicateIntoReduce(rewriter, op, replication);
      });
  module.registerRewriteFunction("ReplicateIntoReduce", replicateIntoReduce);
  module.registerConstraintFunction("HasReduceToFuse", hasReduceToFuse);
  module.registerRewriteFunction("FuseWithReduce", fuseWithReduce);
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
