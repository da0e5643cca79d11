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

#include "llvm/ADT/StringSwitch.h"

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

/// What a tier constraint accepts.
struct Tier {
  StringRef constraint;
  bool (*accepts)(Type);
  StringRef other; // What a value of the other tier is.
};
static constexpr Tier kBuffered = {
    "Buffered", [](Type type) { return isa<ArrayType>(type); },
    "an unbuffered tile"};
static constexpr Tier kUnbuffered = {
    "Unbuffered", [](Type type) { return isa<TileType>(type); },
    "a buffered array"};

/// Whether `values` are all of `tier`; refuses with the first that is not.
static LogicalResult hasTier(PatternRewriter &rewriter, const Tier &tier,
                             ValueRange values) {
  for (Value value : values) {
    if (tier.accepts(value.getType()))
      continue;
    return rewriter.notifyMatchFailure(value.getLoc(), [&](Diagnostic &diag) {
      diag << tier.constraint << ": ";
      if (auto result = dyn_cast<OpResult>(value))
        diag << "result #" << result.getResultNumber() << " of "
             << result.getOwner()->getName() << " at ";
      else
        diag << "block argument #"
             << cast<BlockArgument>(value).getArgNumber() << " at ";
      diag << describeLocation(value.getLoc()) << " is " << tier.other;
    });
  }
  return success();
}

/// The PDL constraint `name` over a root of type `RootOp`: `find` (a
/// precondition of the vocabulary, given where to send its reasons) names
/// the op the root links to through a region, and the pattern gets that
/// op's results. The op has some: the root loads one, or they are the state
/// the root's loop fuses.
template <typename RootOp, typename FindFn>
static PDLConstraintFunction linkConstraint(StringRef name, FindFn find) {
  return [name, find](PatternRewriter &rewriter, PDLResultList &results,
                      ArrayRef<PDLValue> args) -> LogicalResult {
    Operation *op = args[0].cast<Operation *>();
    auto root = dyn_cast<RootOp>(op);
    if (!root)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << name << ": not a " << RootOp::getOperationName();
      });
    Operation *linked = find(root, Refusals{rewriter, name, op}.get());
    if (!linked)
      return failure();
    assert(linked->getNumResults() && "a linked op without results");
    results.push_back(linked->getResults());
    return success();
  };
}

/// The op whose results a link constraint gave.
template <typename OpTy>
static OpTy getLinked(ValueRange results) {
  return cast<OpTy>(results.front().getDefiningOp());
}

static void fuseProducer(PatternRewriter &rewriter, ValueRange producerResults,
                         Operation *op) {
  auto consumer = cast<MapOp>(op);
  auto producer = getLinked<MapOp>(producerResults);
  bool kept = llvm::any_of(producer->getUsers(), [&](Operation *user) {
    return !consumer->isAncestor(user);
  });
  describeRewrite(rewriter, "fused map at " +
                                describeLocation(producer.getLoc()) +
                                " into its consumer map" +
                                (kept ? " (kept as a second output)" : ""));
  fuseProducerIntoConsumer(rewriter, producer, consumer);
}

static void fuseWithSibling(PatternRewriter &rewriter, ValueRange siblingResults,
                            Operation *op) {
  auto first = getLinked<MapOp>(siblingResults);
  describeRewrite(rewriter, "fused sibling map at " +
                                describeLocation(first.getLoc()) +
                                ", which reads a common array");
  fuseSiblingMaps(rewriter, first, cast<MapOp>(op));
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

/// Runs the producer of `producerResults` in `op`, a reduce (rules 3 and
/// 6), and says so: "`verb` map at ... into the reduce over ...".
static void cloneIntoReduce(PatternRewriter &rewriter,
                            ValueRange producerResults, Operation *op,
                            StringRef verb) {
  auto reduce = cast<ReduceOp>(op);
  auto producer = getLinked<MapOp>(producerResults);
  cloneProducerIntoReduce(rewriter, producer, reduce);
  describeRewrite(rewriter, verb + " map at " +
                                describeLocation(producer.getLoc()) +
                                " into the reduce over " + reduce.getAxis());
}

static void replicateIntoMap(PatternRewriter &rewriter,
                             ValueRange producerResults, Operation *op) {
  auto producer = getLinked<MapOp>(producerResults);
  replicateProducer(rewriter, producer, cast<MapOp>(op));
  describeRewrite(rewriter, "replicated map at " +
                                describeLocation(producer.getLoc()) +
                                " into a map over more axes");
}

static void fuseWithReduce(PatternRewriter &rewriter, ValueRange firstResults,
                           Operation *op) {
  auto second = cast<ReduceOp>(op);
  auto first = getLinked<ReduceOp>(firstResults);
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

static LogicalResult hasRegionToUntie(PatternRewriter &rewriter,
                                      Operation *op) {
  auto map = dyn_cast<MapOp>(op);
  if (!map)
    return rewriter.notifyMatchFailure(op, "HasRegionToUntie: not a map");
  return success(
      findRegionToUntie(map, Refusals{rewriter, "HasRegionToUntie", op}.get())
          .has_value());
}

static void untieRegionAt(PatternRewriter &rewriter, Operation *op) {
  UntyingRegion region = *findRegionToUntie(cast<MapOp>(op));
  describeRewrite(rewriter, "gave the " + Twine(region.maps.size()) +
                                " kernels of a materialised operand axes of "
                                "their own, " +
                                region.rowAxis.getValue() + "'s copy whole");
  untieRegion(rewriter, region);
}

StringRef blockbuster::block::getLinkConstraint(StringRef rewrite) {
  return llvm::StringSwitch<StringRef>(rewrite)
      .Case("FuseProducer", "ProducerToFuse")
      .Case("FuseWithSibling", "SiblingToFuse")
      .Case("MoveProducerIntoReduce", "ProducerToMoveIntoReduce")
      .Case("ReplicateIntoMap", "ProducerToReplicate")
      .Case("ReplicateIntoReduce", "ProducerToReplicateIntoReduce")
      .Case("FuseWithReduce", "ReduceToFuse")
      .Default("");
}

void blockbuster::block::registerFusionVocabulary(
    PDLPatternModule &module, ReplicationOptions replication) {
  module.registerConstraintFunction(
      "Buffered", [](PatternRewriter &rewriter, ValueRange values) {
        return hasTier(rewriter, kBuffered, values);
      });
  module.registerConstraintFunction(
      "Unbuffered", [](PatternRewriter &rewriter, ValueRange values) {
        return hasTier(rewriter, kUnbuffered, values);
      });
  module.registerConstraintFunction(
      "ProducerToFuse",
      linkConstraint<MapOp>("ProducerToFuse", [](MapOp consumer,
                                                 RefusalFn refuse) {
        return findProducerToFuse(consumer, refuse);
      }));
  module.registerRewriteFunction("FuseProducer", fuseProducer);
  module.registerConstraintFunction(
      "SiblingToFuse",
      linkConstraint<MapOp>("SiblingToFuse", [](MapOp second,
                                                RefusalFn refuse) {
        return findSiblingToFuse(second, refuse);
      }));
  module.registerRewriteFunction("FuseWithSibling", fuseWithSibling);
  module.registerConstraintFunction(
      "ProducerToMoveIntoReduce",
      linkConstraint<ReduceOp>(
          "ProducerToMoveIntoReduce", [](ReduceOp reduce, RefusalFn refuse) {
            return findProducerToCloneIntoReduce(
                reduce, isProfitableToFuseIntoReduce, refuse);
          }));
  module.registerRewriteFunction(
      "MoveProducerIntoReduce",
      [](PatternRewriter &rewriter, ValueRange producer, Operation *reduce) {
        cloneIntoReduce(rewriter, producer, reduce, "moved");
      });
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
      "ProducerToReplicate",
      linkConstraint<MapOp>("ProducerToReplicate", [replication](
                                                       MapOp consumer,
                                                       RefusalFn refuse) {
        return findProducerToReplicate(consumer, refuse, replication);
      }));
  module.registerRewriteFunction("ReplicateIntoMap", replicateIntoMap);
  module.registerConstraintFunction(
      "ProducerToReplicateIntoReduce",
      linkConstraint<ReduceOp>(
          "ProducerToReplicateIntoReduce",
          [replication](ReduceOp reduce, RefusalFn refuse) -> MapOp {
            if (replication.renameReducedAxes) {
              if (refuse)
                refuse("renaming replications are into maps only");
              return {};
            }
            return findProducerToCloneIntoReduce(reduce, isLeftToReplication,
                                                 refuse);
          }));
  module.registerRewriteFunction(
      "ReplicateIntoReduce",
      [](PatternRewriter &rewriter, ValueRange producer, Operation *reduce) {
        cloneIntoReduce(rewriter, producer, reduce, "replicated");
      });
  module.registerConstraintFunction(
      "ReduceToFuse",
      linkConstraint<ReduceOp>("ReduceToFuse", [](ReduceOp second,
                                                  RefusalFn refuse) {
        return findReduceToFuse(second, refuse);
      }));
  module.registerRewriteFunction("FuseWithReduce", fuseWithReduce);
  module.registerConstraintFunction("HasRegionToUntie", hasRegionToUntie);
  module.registerRewriteFunction("UntieRegion", untieRegionAt);
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
