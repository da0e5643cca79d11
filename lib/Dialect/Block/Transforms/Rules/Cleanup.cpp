//===- Cleanup.cpp - Rule 7 -----------------------------------------------===//
//
// Rule 7, cleanup: merge duplicate loads and computations (reduces with
// identical bodies and combine regions included), hoist loop-invariant work
// out of reduces, drop results nobody reads (a combine region's state too)
// and ops nobody uses. Every pattern removes or moves pure ops, so the program's
// meaning is unchanged and each application shrinks or hoists something.
//
//===----------------------------------------------------------------------===//

#include "../FusionDriver/FusionRewriter.h"
#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
/// The axes iterated by the maps and reduces around `duplicate` that are
/// not around `kept`.
SmallVector<StringAttr> getAxesIteratedBetween(Operation *kept,
                                               Operation *duplicate) {
  SmallVector<StringAttr> axes;
  for (Operation *parent = duplicate->getParentOp();
       parent && !parent->isAncestor(kept); parent = parent->getParentOp()) {
    if (auto reduce = dyn_cast<ReduceOp>(parent))
      axes.push_back(reduce.getAxisAttr());
    else if (auto map = dyn_cast<MapOp>(parent))
      for (Attribute axis : map.getAxes())
        axes.push_back(cast<StringAttr>(axis));
  }
  return axes;
}

/// True when `op` (or an op nested in it) has a tile type naming one of
/// `axes`.
bool namesAnyAxis(Operation *op, ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return false;
  auto names = [&](Type type) {
    auto tile = dyn_cast<TileType>(type);
    return tile && llvm::any_of(axes, [&](StringAttr a) {
             return tile.hasAxis(a);
           });
  };
  WalkResult result = op->walk([&](Operation *nested) {
    if (llvm::any_of(nested->getResultTypes(), names))
      return WalkResult::interrupt();
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), names))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Merges identical pure ops (duplicate loads after fusion, recomputed
/// tiles) across the whole program: an op is replaced by an equal op that
/// dominates it.
///
/// Fix: this used upstream CSE, which also merged an op inside a reduce or
/// map with an equal-looking op outside it. But a tile axis that an
/// enclosing map or reduce iterates is one block there and the whole extent
/// outside: `block.load %X[M, K]` in a map over [M] reads all of K, the same
/// text inside the reduce over K one block of it. So ops are merged only
/// when no loop between them iterates an axis their types name.
///
/// Rooted at each kernel (its body only), so that the driver re-tries it
/// only on kernels a rewrite touched; identical kernels and views are merged
/// by MergeIdenticalKernels.
struct MergeDuplicates : public OpRewritePattern<MapOp> {
  explicit MergeDuplicates(MLIRContext *context) : OpRewritePattern(context) {
    setDebugName("merge-duplicates");
  }
  LogicalResult matchAndRewrite(MapOp map,
                                PatternRewriter &rewriter) const override {
    DominanceInfo dominance(map);
    SmallVector<Operation *> ops;
    map.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    // Candidates by hash, in pre-order (so a dominating op comes first).
    llvm::DenseMap<unsigned, SmallVector<Operation *, 2>> seen;
    llvm::DenseSet<Operation *> erased;
    bool changed = false;
    for (Operation *op : ops) {
      if (erased.contains(op) || op->hasTrait<OpTrait::IsTerminator>() ||
          op->getNumResults() == 0 || !isMemoryEffectFree(op))
        continue;
      // Like upstream CSE: ops with single-block regions, at most one, or a
      // reduce's two (body and combine region). Equivalence compares the
      // regions op by op, so two reduces merge only when their bodies and
      // combine regions are identical and their inits the same values.
      bool singleBlocks = llvm::all_of(op->getRegions(), [](Region &region) {
        return llvm::hasSingleElement(region);
      });
      if (!singleBlocks || (op->getNumRegions() > 1 && !isa<ReduceOp>(op)))
        continue;
      unsigned hash = OperationEquivalence::computeHash(
          op, OperationEquivalence::directHashValue,
          OperationEquivalence::ignoreHashValue,
          OperationEquivalence::IgnoreLocations);
      SmallVector<Operation *, 2> &bucket = seen[hash];
      Operation *kept = nullptr;
      for (Operation *candidate : bucket)
        if (!erased.contains(candidate) &&
            dominance.properlyDominates(candidate, op) &&
            OperationEquivalence::isEquivalentTo(
                candidate, op, OperationEquivalence::IgnoreLocations) &&
            !namesAnyAxis(op, getAxesIteratedBetween(candidate, op))) {
          kept = candidate;
          break;
        }
      if (!kept) {
        bucket.push_back(op);
        continue;
      }
      rewriter.replaceAllUsesWith(op->getResults(), kept->getResults());
      op->walk([&](Operation *nested) { erased.insert(nested); });
      rewriter.eraseOp(op);
      changed = true;
    }
    if (!changed)
      return rewriter.notifyMatchFailure(
          map, "no two equal pure ops in its body that may be merged");
    describeRewrite(rewriter, "merged duplicate loads and computations");
    return success();
  }
};

/// Merges a kernel (or a view) into an identical one earlier in the
/// program. Candidates are the other readers of its first loaded array (or
/// viewed array), so the search stays local.
struct MergeIdenticalKernels : public RewritePattern {
  explicit MergeIdenticalKernels(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {
    setDebugName("merge-identical-kernels");
  }
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MapOp, ViewOp>(op) || !isa<ProgramOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not a kernel or a view");
    // An array this op reads: the viewed array, or the first load's.
    Value array;
    if (auto view = dyn_cast<ViewOp>(op)) {
      array = view.getSource();
    } else {
      op->walk([&](LoadOp load) {
        if (!array)
          array = load.getSource();
      });
    }
    if (!array)
      return rewriter.notifyMatchFailure(op, "reads no array");
    for (Operation *user : array.getUsers()) {
      Operation *other = user;
      while (other && other->getParentOp() != op->getParentOp())
        other = other->getParentOp();
      if (!other || other == op || !other->isBeforeInBlock(op) ||
          !OperationEquivalence::isEquivalentTo(
              other, op, OperationEquivalence::IgnoreLocations))
        continue;
      describeRewrite(rewriter, "merged an identical kernel into the one at " +
                                    describeLocation(other->getLoc()));
      rewriter.replaceOp(op, other->getResults());
      return success();
    }
    return rewriter.notifyMatchFailure(
        op, "no identical kernel or view before it reads its array");
  }
};

/// Moves ops of a reduce body that do not depend on the iteration in front
/// of the reduce: loads whose tiles lack the reduced axis, and computations
/// on values defined outside the body.
struct HoistLoopInvariant : public OpRewritePattern<ReduceOp> {
  explicit HoistLoopInvariant(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("hoist-loop-invariant");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    Region &body = reduce.getBody();
    StringAttr axis = reduce.getAxisAttr();
    SmallVector<Operation *> invariant;
    for (Operation &op : body.front().without_terminator()) {
      // Pure ops, and nested reduces (a statistic the loop recomputes),
      // whose every operand, their nested ops' included, comes from outside
      // the loop and whose tiles, nested ones included, lack its axis: the
      // same value on every iteration.
      bool nestedReduce = isa<ReduceOp>(op);
      if ((op.getNumRegions() != 0 && !nestedReduce) ||
          (!nestedReduce && !isPure(&op)))
        continue;
      bool dependent = false;
      op.walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (body.isAncestor(operand.getParentRegion()) &&
              !op.isAncestor(operand.getParentRegion()->getParentOp()))
            dependent = true;
        for (Type type : nested->getResultTypes())
          if (auto tile = dyn_cast<TileType>(type); tile && tile.hasAxis(axis))
            dependent = true;
        for (Region &region : nested->getRegions())
          for (Block &block : region)
            for (Type type : block.getArgumentTypes())
              if (auto tile = dyn_cast<TileType>(type);
                  tile && tile.hasAxis(axis))
                dependent = true;
      });
      if (dependent)
        continue;
      invariant.push_back(&op);
    }
    if (invariant.empty())
      return rewriter.notifyMatchFailure(reduce, [&](Diagnostic &diag) {
        diag << "every op of its body depends on the iteration over "
             << axis.getValue();
      });
    for (Operation *op : invariant)
      rewriter.moveOpBefore(op, reduce);
    describeRewrite(rewriter,
                    "hoisted " + Twine(invariant.size()).str() +
                        " loop-invariant op(s) out of the reduce over " +
                        axis.getValue().str());
    return success();
  }
};

/// Drops the results of a map that nobody reads; erases a map with none.
struct DropDeadMapResults : public OpRewritePattern<MapOp> {
  explicit DropDeadMapResults(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("drop-dead-map-results");
  }
  LogicalResult matchAndRewrite(MapOp map,
                                PatternRewriter &rewriter) const override {
    SmallVector<unsigned> live;
    for (OpResult result : map->getResults())
      if (!result.use_empty())
        live.push_back(result.getResultNumber());
    if (live.size() == map.getNumResults())
      return rewriter.notifyMatchFailure(map, "every result is read");
    if (live.empty()) {
      describeRewrite(rewriter, "erased a map whose results nobody reads");
      rewriter.eraseOp(map);
      return success();
    }
    SmallVector<Type> types;
    SmallVector<Value> yielded;
    YieldOp yield = map.getYield();
    for (unsigned index : live) {
      types.push_back(map.getResult(index).getType());
      yielded.push_back(yield.getOperand(index));
    }
    rewriter.setInsertionPoint(map);
    auto newMap = MapOp::create(rewriter, map.getLoc(), types, map.getAxesAttr());
    rewriter.inlineRegionBefore(map.getBody(), newMap.getBody(),
                                newMap.getBody().end());
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);
    for (auto [position, index] : llvm::enumerate(live))
      rewriter.replaceAllUsesWith(map.getResult(index),
                                  newMap.getResult(position));
    rewriter.eraseOp(map);
    describeRewrite(rewriter, "dropped the results nobody reads of a map");
    return success();
  }
};

/// The op that combines state element `index` of a reduce with a combine
/// region from its own two arguments alone (`max(a_i, b_i)`), or null when
/// the new state also depends on other elements (a rescaled sum).
static Operation *getPlainRegionCombiner(ReduceOp reduce, unsigned index) {
  unsigned n = reduce.getNumResults();
  Block &combine = reduce.getCombiner().front();
  Operation *def =
      combine.getTerminator()->getOperand(index).getDefiningOp();
  if (!def || def->getBlock() != &combine || def->getNumOperands() != 2)
    return nullptr;
  return def->getOperand(0) == combine.getArgument(index) &&
                 def->getOperand(1) == combine.getArgument(n + index)
             ? def
             : nullptr;
}

/// True when state elements `earlier` and `later` of `reduce` always hold
/// the same value: the same term, and either the same built-in combiner,
/// or (a combine region) the same initial value and the same op combining
/// each from its own two arguments.
static bool holdSameValue(ReduceOp reduce, unsigned earlier, unsigned later) {
  OperandRange terms = reduce.getYield().getOperands();
  if (terms[earlier] != terms[later])
    return false;
  if (std::optional<ArrayAttr> combiners = reduce.getCombiners())
    return (*combiners)[earlier] == (*combiners)[later];
  if (reduce.getInits()[earlier] != reduce.getInits()[later])
    return false;
  Operation *first = getPlainRegionCombiner(reduce, earlier);
  Operation *second = getPlainRegionCombiner(reduce, later);
  return first && second && first->getName() == second->getName() &&
         first->getAttrDictionary() == second->getAttrDictionary();
}

/// Two state elements of a reduce that accumulate the same term in the same
/// way hold the same value: readers of the later one read the earlier one
/// (DropDeadReduceResults or DropDeadRegionReduceState then drops it).
/// Arises when rule 9 merges two reduces that both sum x (LayerNorm's mean
/// and its one-pass variance), or a maximum into an online softmax that
/// already tracks it (SDPA's test for rows of scores all -inf).
struct MergeDuplicateReduceResults : public OpRewritePattern<ReduceOp> {
  explicit MergeDuplicateReduceResults(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("merge-duplicate-reduce-results");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    for (unsigned later = 1; later < reduce.getNumResults(); ++later) {
      if (reduce.getResult(later).use_empty())
        continue;
      for (unsigned earlier = 0; earlier < later; ++earlier) {
        if (!holdSameValue(reduce, earlier, later))
          continue;
        rewriter.replaceAllUsesWith(reduce.getResult(later),
                                    reduce.getResult(earlier));
        describeRewrite(rewriter,
                        "merged two state elements of the reduce over " +
                            reduce.getAxis().str() +
                            " that accumulate the "
                            "same term");
        return success();
      }
    }
    return rewriter.notifyMatchFailure(
        reduce, "no two read state elements accumulate the same term in "
                "the same way");
  }
};

/// Drops the state elements of a reduce with a combine region that nobody
/// reads and that the combine region does not need for the elements that
/// are read: state element i goes (its init, its term in the body's yield,
/// its two block arguments and its yield in the combine region) when result
/// i has no use and neither argument i nor term argument n + i reaches the
/// combine region's yields of the other elements (the online softmax's
/// running maximum rescales the sums, so it stays while a sum is read).
struct DropDeadRegionReduceState : public OpRewritePattern<ReduceOp> {
  explicit DropDeadRegionReduceState(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("drop-dead-region-reduce-state");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (!reduce.hasRegionCombiner())
      return rewriter.notifyMatchFailure(reduce, "has built-in combiners");
    unsigned n = reduce.getNumResults();
    Block &combine = reduce.getCombiner().front();
    auto combineYield = cast<YieldOp>(combine.getTerminator());
    // Values the read elements' new states are computed from.
    llvm::DenseSet<Value> needed;
    SmallVector<Value> worklist;
    for (unsigned index = 0; index < n; ++index)
      if (!reduce.getResult(index).use_empty())
        worklist.push_back(combineYield.getOperand(index));
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!needed.insert(value).second)
        continue;
      if (Operation *def = value.getDefiningOp();
          def && def->getBlock() == &combine)
        llvm::append_range(worklist, def->getOperands());
    }
    SmallVector<unsigned> kept;
    for (unsigned index = 0; index < n; ++index)
      if (!reduce.getResult(index).use_empty() ||
          needed.contains(combine.getArgument(index)) ||
          needed.contains(combine.getArgument(n + index)))
        kept.push_back(index);
    if (kept.size() == n)
      return rewriter.notifyMatchFailure(
          reduce, "every state element is read or needed by one that is");
    if (kept.empty()) {
      rewriter.eraseOp(reduce);
      describeRewrite(rewriter, "erased a reduce whose results nobody reads");
      return success();
    }

    SmallVector<Type> types;
    SmallVector<Value> inits, terms, combined;
    YieldOp bodyYield = reduce.getYield();
    for (unsigned index : kept) {
      types.push_back(reduce.getResult(index).getType());
      inits.push_back(reduce.getInits()[index]);
      terms.push_back(bodyYield.getOperand(index));
      combined.push_back(combineYield.getOperand(index));
    }
    rewriter.setInsertionPoint(reduce);
    auto newReduce = ReduceOp::create(rewriter, reduce.getLoc(), types,
                                      reduce.getAxisAttr(), ArrayAttr(), inits);
    rewriter.inlineRegionBefore(reduce.getBody(), newReduce.getBody(),
                                newReduce.getBody().end());
    rewriter.inlineRegionBefore(reduce.getCombiner(), newReduce.getCombiner(),
                                newReduce.getCombiner().end());
    rewriter.setInsertionPoint(bodyYield);
    rewriter.replaceOpWithNewOp<YieldOp>(bodyYield, terms);
    rewriter.setInsertionPoint(combineYield);
    rewriter.replaceOpWithNewOp<YieldOp>(combineYield, combined);
    // The dropped elements' combine ops are dead now (they fed only their
    // own yields); erase them, then their block arguments.
    Block &newCombine = newReduce.getCombiner().front();
    for (Operation &op :
         llvm::make_early_inc_range(llvm::reverse(newCombine)))
      if (!op.hasTrait<OpTrait::IsTerminator>() && op.use_empty() &&
          isMemoryEffectFree(&op))
        rewriter.eraseOp(&op);
    llvm::BitVector dropArgs(2 * n, true);
    for (unsigned index : kept) {
      dropArgs.reset(index);
      dropArgs.reset(n + index);
    }
    rewriter.modifyOpInPlace(newReduce,
                             [&] { newCombine.eraseArguments(dropArgs); });
    for (auto [position, index] : llvm::enumerate(kept))
      rewriter.replaceAllUsesWith(reduce.getResult(index),
                                  newReduce.getResult(position));
    rewriter.eraseOp(reduce);
    describeRewrite(rewriter,
                    "dropped the state nobody reads of a reduce with a "
                    "combine region");
    return success();
  }
};

/// Drops the state elements of a reduce with built-in combiners that nobody
/// reads.
struct DropDeadReduceResults : public OpRewritePattern<ReduceOp> {
  explicit DropDeadReduceResults(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("drop-dead-reduce-results");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return rewriter.notifyMatchFailure(reduce, "has a combine region");
    SmallVector<unsigned> live;
    for (OpResult result : reduce->getResults())
      if (!result.use_empty())
        live.push_back(result.getResultNumber());
    if (live.size() == reduce.getNumResults())
      return rewriter.notifyMatchFailure(reduce, "every result is read");
    if (live.empty()) {
      rewriter.eraseOp(reduce);
      describeRewrite(rewriter, "erased a reduce whose results nobody reads");
      return success();
    }
    SmallVector<Type> types;
    SmallVector<Attribute> kinds;
    SmallVector<Value> yielded;
    YieldOp yield = reduce.getYield();
    for (unsigned index : live) {
      types.push_back(reduce.getResult(index).getType());
      kinds.push_back((*combiners)[index]);
      yielded.push_back(yield.getOperand(index));
    }
    rewriter.setInsertionPoint(reduce);
    auto newReduce =
        ReduceOp::create(rewriter, reduce.getLoc(), types, reduce.getAxisAttr(),
                         rewriter.getArrayAttr(kinds), ValueRange{});
    rewriter.inlineRegionBefore(reduce.getBody(), newReduce.getBody(),
                                newReduce.getBody().end());
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);
    for (auto [position, index] : llvm::enumerate(live))
      rewriter.replaceAllUsesWith(reduce.getResult(index),
                                  newReduce.getResult(position));
    rewriter.eraseOp(reduce);
    describeRewrite(rewriter, "dropped the state nobody reads of a reduce");
    return success();
  }
};

/// Erases a pure op inside a body whose results nobody uses.
struct EraseDeadOp : public RewritePattern {
  explicit EraseDeadOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {
    setDebugName("erase-dead-op");
  }
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (isa<ProgramOp, MapOp, ViewOp>(op) || !op->getParentOfType<MapOp>() ||
        op->hasTrait<OpTrait::IsTerminator>())
      return rewriter.notifyMatchFailure(op, "not an op of a kernel's body");
    if (!isOpTriviallyDead(op))
      return rewriter.notifyMatchFailure(op, "its results are used, or it "
                                             "has effects");
    describeRewrite(rewriter,
                    "erased an unused " + op->getName().getStringRef().str());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void blockbuster::block::populateCleanupPatterns(RewritePatternSet &patterns) {
  patterns.add<MergeDuplicates, MergeIdenticalKernels, HoistLoopInvariant,
               DropDeadMapResults, MergeDuplicateReduceResults,
               DropDeadReduceResults, DropDeadRegionReduceState, EraseDeadOp>(
      patterns.getContext());
}
