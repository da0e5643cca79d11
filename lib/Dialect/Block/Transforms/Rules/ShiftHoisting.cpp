//===- ShiftHoisting.cpp - Rule 5 -----------------------------------------===//
//
// Rule 5, shift hoisting, and the linearity it rests on. Local patterns in
// ShiftHoisting.pdll: a shift that does not vary along a contraction's axes
// leaves it, dot(x - u, w) = dot(x, w) - u * colsum(w); a contraction of a
// sum with a broadcast term distributes over it. Here, on reduces with
// built-in add combiners:
//
// - the linear split: sum_j (p_j +- q_j) = (sum_j p_j) +- (sum_j q_j), so
//   each part of a term becomes its own accumulator, and a part that rule 4
//   can take out of the loop (u * c_j with u loop-invariant) leaves it;
// - the shifted square (a variance): with u defined outside the loop and
//   p = x at the first index of the reduced axis (a pivot, loaded outside
//   the loop), sum_k (x_k - u)^2 = S2 - e (2 S1 - n e) with e = u - p,
//   S1 = sum_k (x_k - p), S2 = sum_k (x_k - p)^2, n the extent of the
//   reduced axis, so the loop accumulates S2 and S1 and no longer reads u.
//
// All are exact up to floating-point reassociation (the square's
// cancellation is discussed at ExpandShiftedSquare); each removes an op
// from a contraction's operand or a loop's term, so the rule terminates.
//
//===----------------------------------------------------------------------===//

#include "ShiftHoisting.h"
#include "ScaleHoisting.h"

#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

bool blockbuster::block::isShiftOutsideContraction(Value u, Value x, Value w,
                                                   ArrayAttr contract) {
  if (!isScaleOutsideContraction(u, x, contract))
    return false;
  // x - p with p x's pivot is what the pivoted hoisting leaves in the
  // contraction: already safe, and hoisting it again would not terminate.
  if (isShiftPivotOf(u, x, contract))
    return false;
  // dot(x - u, x - u) is a shifted square: expanding it here would leave
  // colsum(x - u) in the loop, still reading u. The variance pattern
  // (ExpandShiftedSquare) rewrites it out of its reduce instead.
  if (auto sub = w.getDefiningOp<SubOp>())
    if (sub.getLhs() == x && sub.getRhs() == u)
      return false;
  return true;
}

bool blockbuster::block::isCheaperDistribution(Value a, Value b, Value w,
                                               ArrayAttr contract) {
  auto aType = dyn_cast<TileType>(a.getType());
  auto bType = dyn_cast<TileType>(b.getType());
  auto wType = dyn_cast<TileType>(w.getType());
  if (!aType || !bType || !wType || !aType.getElementType().isF32() ||
      !bType.getElementType().isF32())
    return false;
  for (Attribute attr : contract) {
    auto axis = cast<StringAttr>(attr);
    if (!aType.hasAxis(axis) || !bType.hasAxis(axis))
      return false;
  }
  // One contraction loses a dimension: an axis of one term that the other
  // term and w both lack. Otherwise both parts are as large as the whole
  // and distributing would double the work.
  auto losesAxis = [&](TileType from, TileType other) {
    return llvm::any_of(from.getAxes(), [&](StringAttr axis) {
      return !other.hasAxis(axis) && !wType.hasAxis(axis);
    });
  };
  return losesAxis(aType, bType) || losesAxis(bType, aType);
}

Value blockbuster::block::createColumnSum(RewriterBase &rewriter, Value w,
                                          ArrayAttr contract, Operation *at) {
  return TileReduceOp::create(rewriter, at->getLoc(), CombinerKind::Add, w,
                              contract);
}

//===----------------------------------------------------------------------===//
// Pivots
//===----------------------------------------------------------------------===//
//
// The pivot of x along an axis K is x's own computation at the first index
// of K: every load in it that indexes K reads index 0 (or the slice offset)
// instead, everything else is the same. It is built outside the loop over K
// from program arguments only (a fixed-index load of another kernel's result
// would not be "the producer's block", and would keep that kernel alive).

/// Ops a pivot may be computed through: those that act element by element
/// and broadcast by name, so the same op on tiles without K is x's value at
/// one index of K.
static bool isElementwise(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, NegOp, AbsOp, ExpOp,
             LogOp, SqrtOp, RsqrtOp, TanhOp, SiluOp, ErfOp, SinOp, CosOp,
             GeluOp, SelectOp, CompareOp, CastOp>(op);
}

/// Whether `array` is a program argument, possibly through views.
static bool isProgramArgument(Value array) {
  while (auto view = array.getDefiningOp<ViewOp>())
    array = view.getSource();
  auto arg = dyn_cast<BlockArgument>(array);
  return arg && isa<ProgramOp>(arg.getOwner()->getParentOp());
}

/// The most ops a pivot is built from, and so the most pairs of ops that
/// recognising one compares: the same bound on both sides, so that every
/// pivot rule 5 builds is recognised again and not hoisted about once more.
static constexpr unsigned kMaxPivotOps = 32;

namespace {
/// Builds (or, without a builder, only checks) the pivot of a value.
class PivotBuilder {
public:
  PivotBuilder(StringAttr axis, Operation *insertionPoint, OpBuilder *builder)
      : axis(axis), insertionPoint(insertionPoint), builder(builder) {}

  /// The pivot of `value`, or null when it has none.
  Value get(Value value) {
    auto tile = dyn_cast<TileType>(value.getType());
    if (!tile)
      return {};
    // What does not vary along K and is available before the loop is its
    // own pivot.
    if (!tile.hasAxis(axis) && dominatesInsertionPoint(value))
      return value;
    if (Value known = pivots.lookup(value))
      return known;
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumResults() != 1 || ++size > kMaxPivotOps)
      return {};
    Value pivot;
    if (auto load = dyn_cast<LoadOp>(op))
      pivot = getLoad(load);
    else if (auto constant = dyn_cast<ConstantOp>(op))
      pivot = getConstant(constant);
    else if (isElementwise(op))
      pivot = getElementwise(op);
    if (pivot)
      pivots[value] = pivot;
    return pivot;
  }

private:
  bool dominatesInsertionPoint(Value value) {
    Operation *def = value.getDefiningOp();
    Block *block = def ? def->getBlock() : value.getParentBlock();
    // Defined in a block that encloses the insertion point, before it.
    Operation *ancestor = block->findAncestorOpInBlock(*insertionPoint);
    return ancestor && (!def || def->isBeforeInBlock(ancestor));
  }

  /// A tile type like `type` without K, with `elementType`.
  TileType withoutAxis(TileType type, Type elementType) {
    SmallVector<StringAttr> axes;
    for (StringAttr tileAxis : type.getAxes())
      if (tileAxis != axis)
        axes.push_back(tileAxis);
    return TileType::get(type.getContext(), axes, elementType);
  }

  Value getLoad(LoadOp load) {
    if (!isProgramArgument(load.getSource()))
      return {};
    if (!builder)
      return load.getResult(); // Any non-null value: it exists.
    SmallVector<Attribute> indexAxes(load.getIndexAxes().begin(),
                                     load.getIndexAxes().end());
    SmallVector<int64_t> offsets(load.getOffsets());
    for (auto [entry, offset] : llvm::zip(indexAxes, offsets)) {
      if (entry != axis)
        continue;
      entry = builder->getStringAttr("");
      offset = std::max<int64_t>(offset, 0); // -1 (exact) starts at 0.
    }
    auto type = cast<TileType>(load.getType());
    return LoadOp::create(*builder, load.getLoc(),
                          withoutAxis(type, type.getElementType()),
                          load.getSource(), builder->getArrayAttr(indexAxes),
                          builder->getDenseI64ArrayAttr(offsets));
  }

  Value getConstant(ConstantOp constant) {
    if (!builder)
      return constant.getResult();
    SmallVector<Attribute> axes;
    for (Attribute entry : constant.getAxes())
      if (entry != axis)
        axes.push_back(entry);
    return ConstantOp::create(*builder, constant.getLoc(),
                              builder->getArrayAttr(axes), constant.getValue());
  }

  Value getElementwise(Operation *op) {
    IRMapping mapping;
    SmallVector<StringAttr> axes; // Broadcast by name, in operand order.
    for (Value operand : op->getOperands()) {
      Value pivot = get(operand);
      if (!pivot)
        return {};
      mapping.map(operand, pivot);
      for (StringAttr operandAxis :
           cast<TileType>(operand.getType()).getAxes())
        if (operandAxis != axis && !llvm::is_contained(axes, operandAxis))
          axes.push_back(operandAxis);
    }
    if (!builder)
      return op->getResult(0);
    Operation *clone = builder->clone(*op, mapping);
    auto type = cast<TileType>(op->getResult(0).getType());
    clone->getResult(0).setType(
        TileType::get(op->getContext(), axes, type.getElementType()));
    return clone->getResult(0);
  }

  StringAttr axis;
  Operation *insertionPoint;
  OpBuilder *builder;
  DenseMap<Value, Value> pivots;
  unsigned size = 0;
};
} // namespace

/// The reduce over `axis` whose body holds `op` directly, or null.
static ReduceOp getReduceOver(Operation *op, StringAttr axis) {
  auto reduce = dyn_cast_or_null<ReduceOp>(op->getParentOp());
  if (reduce && reduce.getAxisAttr() == axis &&
      op->getParentRegion() == &reduce.getBody())
    return reduce;
  return {};
}

/// Where the pivot for a contraction at `at` over `axis` goes: right before
/// the reduce over the axis when `at` is in its body, else right before
/// `at`; null when `at` is deeper inside a reduce over the axis (a loop
/// between could iterate an axis of x that the pivot would read whole).
static Operation *getPivotInsertionPoint(Operation *at, StringAttr axis) {
  if (ReduceOp reduce = getReduceOver(at, axis))
    return reduce;
  for (Operation *parent = at->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto reduce = dyn_cast<ReduceOp>(parent);
        reduce && reduce.getAxisAttr() == axis)
      return nullptr;
  return at;
}

namespace {
/// Whether `pivot` computes `value` at a fixed index of `axis`: the same
/// ops, loads of the same arrays with `axis`'s entry fixed, equal constants.
/// A pivot is a DAG (x * x shares x), so each pair of values is compared
/// once: walked as a tree, n nested squares take 2^n comparisons, and a
/// budget on those rejected large pivots that PivotBuilder had built, so
/// rule 5 hoisted a shift about its own pivot again, forever.
class PivotMatcher {
public:
  explicit PivotMatcher(StringAttr axis) : axis(axis) {}

  bool match(Value pivot, Value value) {
    if (pivot == value)
      return true;
    auto [it, inserted] = known.try_emplace({pivot, value}, false);
    if (!inserted)
      return it->second;
    if (known.size() > kMaxPivotOps)
      return false;
    bool result = matchOps(pivot.getDefiningOp(), value.getDefiningOp());
    known[{pivot, value}] = result;
    return result;
  }

private:
  bool matchOps(Operation *p, Operation *v) {
    if (!p || !v || p->getName() != v->getName() ||
        p->getNumOperands() != v->getNumOperands())
      return false;
    if (auto vLoad = dyn_cast<LoadOp>(v)) {
      auto pLoad = cast<LoadOp>(p);
      if (pLoad.getSource() != vLoad.getSource())
        return false;
      for (auto [pEntry, vEntry] :
           llvm::zip(pLoad.getIndexAxes(), vLoad.getIndexAxes()))
        if (pEntry != vEntry &&
            !(vEntry == axis && cast<StringAttr>(pEntry).getValue().empty()))
          return false;
      return true;
    }
    if (auto vConstant = dyn_cast<ConstantOp>(v))
      return cast<ConstantOp>(p).getValue() == vConstant.getValue();
    if (!isElementwise(v) ||
        p->getPropertiesAsAttribute() != v->getPropertiesAsAttribute())
      return false;
    for (auto [pOperand, vOperand] :
         llvm::zip(p->getOperands(), v->getOperands()))
      if (!match(pOperand, vOperand))
        return false;
    return true;
  }

  StringAttr axis;
  /// Pairs compared (or being compared: values are acyclic, so a pair is
  /// never reached again before its result is known).
  DenseMap<std::pair<Value, Value>, bool> known;
};
} // namespace

bool blockbuster::block::isShiftPivotOf(Value u, Value x,
                                        ArrayAttr contract) {
  if (contract.size() != 1)
    return false;
  return PivotMatcher(cast<StringAttr>(contract[0])).match(u, x);
}

bool blockbuster::block::hasShiftPivot(Value x, ArrayAttr contract,
                                       Operation *at) {
  if (contract.size() != 1)
    return false;
  auto axis = cast<StringAttr>(contract[0]);
  Operation *insertionPoint = getPivotInsertionPoint(at, axis);
  if (!insertionPoint || !cast<TileType>(x.getType()).hasAxis(axis))
    return false;
  return static_cast<bool>(
      PivotBuilder(axis, insertionPoint, /*builder=*/nullptr).get(x));
}

Value blockbuster::block::createShiftPivot(RewriterBase &rewriter, Value x,
                                           ArrayAttr contract, Operation *at) {
  auto axis = cast<StringAttr>(contract[0]);
  Operation *insertionPoint = getPivotInsertionPoint(at, axis);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(insertionPoint);
  Value pivot = PivotBuilder(axis, insertionPoint, &rewriter).get(x);
  // Rule 5 terminates only if what it leaves, x - p, is not hoisted again.
  assert(isShiftPivotOf(pivot, x, contract) && "a pivot not recognised");
  return pivot;
}

#include "Rules/ShiftHoisting.h.inc"

namespace {
/// Replaces `reduce` (built-in combiners) by one whose term `index` is
/// `term` and which accumulates `extra` with an add combiner as a last
/// state element. The body is moved, not copied. Returns the new reduce;
/// the old one is left for the caller to replace.
ReduceOp appendAddTerm(RewriterBase &rewriter, ReduceOp reduce, unsigned index,
                       Value term, Value extra) {
  ArrayAttr combiners = *reduce.getCombiners();
  SmallVector<Type> types(reduce->getResultTypes());
  types[index] = term.getType();
  types.push_back(extra.getType());
  SmallVector<Attribute> kinds(combiners.begin(), combiners.end());
  kinds.push_back(
      CombinerKindAttr::get(rewriter.getContext(), CombinerKind::Add));
  rewriter.setInsertionPoint(reduce);
  auto newReduce =
      ReduceOp::create(rewriter, reduce.getLoc(), types, reduce.getAxisAttr(),
                       rewriter.getArrayAttr(kinds), ValueRange{});
  YieldOp yield = reduce.getYield();
  SmallVector<Value> terms(yield.getOperands());
  terms[index] = term;
  terms.push_back(extra);
  rewriter.inlineRegionBefore(reduce.getBody(), newReduce.getBody(),
                              newReduce.getBody().end());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, terms);
  return newReduce;
}

} // namespace

/// Whether term `index` of `reduce` is a sum or difference computed in the
/// loop, with an add combiner (built-in combiners only).
static bool isSplittableTerm(ReduceOp reduce, unsigned index) {
  ArrayAttr combiners = *reduce.getCombiners();
  if (cast<CombinerKindAttr>(combiners[index]).getValue() != CombinerKind::Add)
    return false;
  Operation *def = reduce.getYield().getOperand(index).getDefiningOp();
  return def && isa<AddOp, SubOp>(def) &&
         def->getParentRegion() == &reduce.getBody();
}

std::optional<unsigned>
blockbuster::block::findLinearTermToSplit(ReduceOp reduce, RefusalFn refuse) {
  if (!reduce.getCombiners()) {
    if (refuse)
      refuse("has a combine region");
    return std::nullopt;
  }
  for (unsigned index = 0, e = reduce.getNumResults(); index < e; ++index)
    if (isSplittableTerm(reduce, index))
      return index;
  if (refuse)
    refuse("no add-combined term is a sum or difference computed in the "
           "loop");
  return std::nullopt;
}

/// The linear split: a term p +- q of an add-combined reduce becomes two
/// accumulators, sum p and sum q, combined by the same op after the loop.
/// Legal for any add combiner (sums commute and associate, exactly so up to
/// floating-point reassociation); p and q have no axis the term lacks, so
/// neither carries the reduced axis.
ReduceOp blockbuster::block::splitLinearTerm(RewriterBase &rewriter,
                                             ReduceOp reduce, unsigned index) {
  Operation *def = reduce.getYield().getOperand(index).getDefiningOp();
  Value p = def->getOperand(0), q = def->getOperand(1);
  bool isSum = isa<AddOp>(def);
  Location loc = def->getLoc();
  ReduceOp newReduce = appendAddTerm(rewriter, reduce, index, p, q);
  rewriter.setInsertionPointAfter(newReduce);
  Value first = newReduce.getResult(index);
  Value second = newReduce.getResults().back();
  Value combined =
      isSum ? AddOp::create(rewriter, loc, first, second).getResult()
            : SubOp::create(rewriter, loc, first, second).getResult();
  SmallVector<Value> replacements(newReduce.getResults().drop_back());
  replacements[index] = combined;
  rewriter.replaceOp(reduce, replacements);
  return newReduce;
}

namespace {
/// The parts of a shifted square: the difference x - u, the axes its
/// square is summed over, and the op that squares and sums it.
struct ShiftedSquare {
  SubOp difference;
  ArrayAttr reduced;
  Operation *square;
};
} // namespace

/// Term `index` of `reduce` as a shifted square that ExpandShiftedSquare
/// rewrites, or none.
static std::optional<ShiftedSquare> getShiftedSquare(ReduceOp reduce,
                                                     unsigned index) {
  ArrayAttr combiners = *reduce.getCombiners();
  Region &body = reduce.getBody();
  StringAttr axis = reduce.getAxisAttr();
  auto isOutside = [&](Value value) {
    return !body.isAncestor(value.getParentRegion());
  };
  if (cast<CombinerKindAttr>(combiners[index]).getValue() != CombinerKind::Add)
    return std::nullopt;
  Operation *def = reduce.getYield().getOperand(index).getDefiningOp();
  if (!def || def->getParentRegion() != &body)
    return std::nullopt;
  Value difference;
  ArrayAttr reduced;
  if (auto dot = dyn_cast<DotOp>(def); dot && dot.getLhs() == dot.getRhs()) {
    difference = dot.getLhs();
    reduced = dot.getContract();
  } else if (auto sum = dyn_cast<TileReduceOp>(def);
             sum && sum.getKind() == CombinerKind::Add) {
    auto square = sum.getOperand().getDefiningOp<MulOp>();
    if (!square || square.getLhs() != square.getRhs())
      return std::nullopt;
    difference = square.getLhs();
    reduced = sum.getReduced();
  } else {
    return std::nullopt;
  }
  auto sub = difference.getDefiningOp<SubOp>();
  if (!sub || reduced.size() != 1 || reduced[0] != axis)
    return std::nullopt;
  Value x = sub.getLhs(), u = sub.getRhs();
  if (!isOutside(u) || !isScaleOutsideContraction(u, x, reduced))
    return std::nullopt;
  if (!hasShiftPivot(x, reduced, def) || isShiftPivotOf(u, x, reduced))
    return std::nullopt;
  return ShiftedSquare{sub, reduced, def};
}

std::optional<unsigned>
blockbuster::block::findShiftedSquare(ReduceOp reduce, RefusalFn refuse) {
  if (!reduce.getCombiners()) {
    if (refuse)
      refuse("has a combine region");
    return std::nullopt;
  }
  auto program = reduce->getParentOfType<ProgramOp>();
  if (!program || !program.lookupAxis(reduce.getAxisAttr())) {
    if (refuse)
      refuse("its axis is not declared");
    return std::nullopt;
  }
  for (unsigned index = 0, e = reduce.getNumResults(); index < e; ++index)
    if (getShiftedSquare(reduce, index))
      return index;
  if (refuse)
    refuse("no add-combined term is a square of x - u, with u defined "
           "outside the loop, over its axis alone, and x with a pivot");
  return std::nullopt;
}

/// The shifted square of a variance: in a reduce over K with an add
/// combiner, a term dot(d, d) contract [K] or tile_reduce add (d * d) over
/// [K], with d = x - u and u defined outside the loop, sums (x - u)^2 over
/// all of K. With any loop-invariant p,
///
///   sum_k (x_k - u)^2 = S2 - e (2 S1 - n e),   e = u - p,
///                       S2 = sum_k (x_k - p)^2, S1 = sum_k (x_k - p),
///                       n = |K|,
///
/// so the loop accumulates S2 (in the term's form) and S1 and no longer
/// reads u: it can merge with the loop that computes u (rule 9).
///
/// Numerics. With p = 0 this is the textbook one-pass variance: when u is
/// the mean, S2 ~ n (var + mean^2) and e (2 S1 - n e) ~ n mean^2 cancel,
/// losing about log2(1 + mean^2 / var) bits (LayerNorm on inputs with mean
/// 32 x std failed rtol 1e-4). The shift p is the pivot of the shifted-data
/// algorithm (Chan, Golub and LeVeque, 1983): x at the first index of K,
/// loaded once outside the loop. A sample of the data is within a few
/// deviations of the mean whatever the mean is, so S2 ~ n (var + (mean -
/// p)^2) and the loss is about log2(1 + (mean - p)^2 / var) bits, a few at
/// most, independent of the offset. (A Welford combiner of (count, mean, M2)
/// would be exact too, but needs the count of each partial block and a
/// region combiner that rule 9 could no longer merge with built-in
/// accumulators; the pivot keeps every state an add.)
///
/// Legal when the term contracts exactly the reduced axis (every element of
/// K is summed once over the whole loop, so the count is K's extent, also
/// with a partial last block), u is f32, lacks K and has only axes of x, and
/// x is a load (or a cast of one) whose entry for K is K or K + c, so the
/// pivot is the same load at index 0 (or c) outside the loop. A difference
/// whose u is already such a pivot (what this rewrite produces) is left
/// alone: it is safe as it stands and reads nothing computed by a loop.
ReduceOp blockbuster::block::expandShiftedSquare(RewriterBase &rewriter,
                                                 ReduceOp reduce,
                                                 unsigned index) {
  ShiftedSquare square = *getShiftedSquare(reduce, index);
  StringAttr axis = reduce.getAxisAttr();
  AxisAttr axisInfo = reduce->getParentOfType<ProgramOp>().lookupAxis(axis);
  Operation *def = square.square;
  ArrayAttr reduced = square.reduced;
  Value x = square.difference.getLhs(), u = square.difference.getRhs();

  // The pivot p, once per instance, right before the loop.
  Location loc = def->getLoc();
  Value pivot = createShiftPivot(rewriter, x, reduced, def);

  // The loop's new terms, where the square was: d' = x - p.
  rewriter.setInsertionPoint(def);
  Value shifted = SubOp::create(rewriter, loc, x, pivot);
  Value squares;
  if (isa<DotOp>(def)) {
    squares = DotOp::create(rewriter, loc, shifted, shifted, reduced);
  } else {
    Value dd = MulOp::create(rewriter, loc, shifted, shifted);
    squares =
        TileReduceOp::create(rewriter, loc, CombinerKind::Add, dd, reduced);
  }
  Value sums =
      TileReduceOp::create(rewriter, loc, CombinerKind::Add, shifted, reduced);
  ReduceOp newReduce = appendAddTerm(rewriter, reduce, index, squares, sums);

  // After the loop: S2 - (2 S1 - n e) * e, e = u - p.
  rewriter.setInsertionPointAfter(newReduce);
  Value s2 = newReduce.getResult(index);
  Value s1 = newReduce.getResults().back();
  auto f32 = rewriter.getF32Type();
  Value two = ConstantOp::create(rewriter, loc, rewriter.getArrayAttr({}),
                                 rewriter.getFloatAttr(f32, 2.0));
  double extent = static_cast<double>(axisInfo.getExtent());
  Value count = ConstantOp::create(rewriter, loc, rewriter.getArrayAttr({}),
                                   rewriter.getFloatAttr(f32, extent));
  Value e = SubOp::create(rewriter, loc, u, pivot);
  Value twiceS1 = MulOp::create(rewriter, loc, s1, two);
  Value countE = MulOp::create(rewriter, loc, e, count);
  Value inner = SubOp::create(rewriter, loc, twiceS1, countE);
  Value correction = MulOp::create(rewriter, loc, inner, e);
  Value result = SubOp::create(rewriter, loc, s2, correction);
  SmallVector<Value> replacements(newReduce.getResults().drop_back());
  replacements[index] = result;
  rewriter.replaceOp(reduce, replacements);
  return newReduce;
}

void blockbuster::block::populateShiftHoistingPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
