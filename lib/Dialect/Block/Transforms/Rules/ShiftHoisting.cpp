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
// - the shifted square (a variance): with u defined outside the loop,
//   sum_k (x_k - u)^2 = sum_k x_k^2 - u (2 sum_k x_k - n u), n the extent of
//   the reduced axis, so the loop accumulates sum x^2 and sum x and no
//   longer reads u.
//
// All are exact up to floating-point reassociation (the square's
// cancellation is discussed at ExpandShiftedSquare); each removes an op
// from a contraction's operand or a loop's term, so the rule terminates.
//
//===----------------------------------------------------------------------===//

#include "ShiftHoisting.h"
#include "ScaleHoisting.h"

#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

bool blockbuster::block::isShiftOutsideContraction(Value u, Value x, Value w,
                                                   ArrayAttr contract) {
  if (!isScaleOutsideContraction(u, x, contract))
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

Value blockbuster::block::createColumnSum(PatternRewriter &rewriter, Value w,
                                          ArrayAttr contract, Operation *at) {
  return TileReduceOp::create(rewriter, at->getLoc(), CombinerKind::Add, w,
                              contract);
}

#include "Rules/ShiftHoisting.h.inc"

namespace {
/// Replaces `reduce` (built-in combiners) by one whose term `index` is
/// `term` and which accumulates `extra` with an add combiner as a last
/// state element. The body is moved, not copied. Returns the new reduce;
/// the old one is left for the caller to replace.
ReduceOp appendAddTerm(PatternRewriter &rewriter, ReduceOp reduce,
                       unsigned index, Value term, Value extra) {
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

/// The linear split: a term p +- q of an add-combined reduce becomes two
/// accumulators, sum p and sum q, combined by the same op after the loop.
/// Legal for any add combiner (sums commute and associate, exactly so up to
/// floating-point reassociation); p and q have no axis the term lacks, so
/// neither carries the reduced axis.
struct SplitLinearTerm : public OpRewritePattern<ReduceOp> {
  SplitLinearTerm(MLIRContext *context, FusionTrace &trace)
      : OpRewritePattern(context), trace(trace) {
    setDebugName("split-linear-term");
  }

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return failure();
    Region &body = reduce.getBody();
    OperandRange terms = reduce.getYield().getOperands();
    for (auto [index, term] : llvm::enumerate(terms)) {
      if (cast<CombinerKindAttr>((*combiners)[index]).getValue() !=
          CombinerKind::Add)
        continue;
      Operation *def = term.getDefiningOp();
      if (!def || !isa<AddOp, SubOp>(def) || def->getParentRegion() != &body)
        continue;
      Value p = def->getOperand(0), q = def->getOperand(1);
      bool isSum = isa<AddOp>(def);
      Location loc = def->getLoc();
      unsigned position = index;
      ReduceOp newReduce = appendAddTerm(rewriter, reduce, position, p, q);
      rewriter.setInsertionPointAfter(newReduce);
      Value first = newReduce.getResult(position);
      Value second = newReduce.getResults().back();
      Value combined =
          isSum ? AddOp::create(rewriter, loc, first, second).getResult()
                : SubOp::create(rewriter, loc, first, second).getResult();
      SmallVector<Value> replacements(newReduce.getResults().drop_back());
      replacements[position] = combined;
      rewriter.replaceOp(reduce, replacements);
      trace.message = std::string("split a ") + (isSum ? "sum" : "difference") +
                      " into two accumulators of the reduce over " +
                      newReduce.getAxis().str();
      return success();
    }
    return failure();
  }
  FusionTrace &trace;
};

/// The shifted square of a variance: in a reduce over K with an add
/// combiner, a term dot(d, d) contract [K] or tile_reduce add (d * d) over
/// [K], with d = x - u and u defined outside the loop, sums (x - u)^2 over
/// all of K. Then
///
///   sum_k (x_k - u)^2 = S2 - u (2 S1 - n u),  S2 = sum_k x_k^2,
///                                             S1 = sum_k x_k,  n = |K|,
///
/// and the loop accumulates S2 (in the term's form) and S1, without u.
///
/// Legal when the term contracts exactly the reduced axis (every element of
/// K is summed once over the whole loop, so the count is K's extent, also
/// with a partial last block), u is f32, lacks K and has only axes of x.
///
/// Numerics: this is the textbook one-pass variance; when u is the mean,
/// S2 and u (2 S1 - n u) ~ n u^2 cancel, losing about log2(u^2 / var) bits
/// relative to the two-pass form. The factored form keeps the intermediate
/// values near n u^2 (the expanded S2 - 2 u S1 + n u^2 reaches 2 n u^2).
/// For normalised activations (|mean| of the order of the deviation) the
/// loss is a few ulps; a Welford combiner would be the remedy otherwise.
/// Unlike E[x^2] - mu^2, the identity holds for any loop-invariant u, not
/// only for the mean, so it needs no fact from outside the loop.
struct ExpandShiftedSquare : public OpRewritePattern<ReduceOp> {
  ExpandShiftedSquare(MLIRContext *context, FusionTrace &trace)
      : OpRewritePattern(context), trace(trace) {
    setDebugName("expand-shifted-square");
  }

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return failure();
    Region &body = reduce.getBody();
    StringAttr axis = reduce.getAxisAttr();
    auto program = reduce->getParentOfType<ProgramOp>();
    AxisAttr axisInfo = program ? program.lookupAxis(axis) : AxisAttr();
    if (!axisInfo)
      return failure();
    auto isOutside = [&](Value value) {
      return !body.isAncestor(value.getParentRegion());
    };
    OperandRange terms = reduce.getYield().getOperands();
    for (auto [index, term] : llvm::enumerate(terms)) {
      if (cast<CombinerKindAttr>((*combiners)[index]).getValue() !=
          CombinerKind::Add)
        continue;
      Operation *def = term.getDefiningOp();
      if (!def || def->getParentRegion() != &body)
        continue;
      Value difference;
      ArrayAttr reduced;
      if (auto dot = dyn_cast<DotOp>(def);
          dot && dot.getLhs() == dot.getRhs()) {
        difference = dot.getLhs();
        reduced = dot.getContract();
      } else if (auto sum = dyn_cast<TileReduceOp>(def);
                 sum && sum.getKind() == CombinerKind::Add) {
        auto square = sum.getOperand().getDefiningOp<MulOp>();
        if (!square || square.getLhs() != square.getRhs())
          continue;
        difference = square.getLhs();
        reduced = sum.getReduced();
      } else {
        continue;
      }
      auto sub = difference.getDefiningOp<SubOp>();
      if (!sub || reduced.size() != 1 || reduced[0] != axis)
        continue;
      Value x = sub.getLhs(), u = sub.getRhs();
      if (!isOutside(u) || !isScaleOutsideContraction(u, x, reduced))
        continue;

      // The loop's new terms, where the square was.
      Location loc = def->getLoc();
      rewriter.setInsertionPoint(def);
      Value squares;
      if (isa<DotOp>(def)) {
        squares = DotOp::create(rewriter, loc, x, x, reduced);
      } else {
        Value xx = MulOp::create(rewriter, loc, x, x);
        squares = TileReduceOp::create(rewriter, loc, CombinerKind::Add, xx,
                                       reduced);
      }
      Value sums =
          TileReduceOp::create(rewriter, loc, CombinerKind::Add, x, reduced);
      ReduceOp newReduce =
          appendAddTerm(rewriter, reduce, index, squares, sums);

      // After the loop: S2 - (2 S1 - n u) * u.
      rewriter.setInsertionPointAfter(newReduce);
      Value s2 = newReduce.getResult(index);
      Value s1 = newReduce.getResults().back();
      auto f32 = rewriter.getF32Type();
      Value two = ConstantOp::create(rewriter, loc, rewriter.getArrayAttr({}),
                                     rewriter.getFloatAttr(f32, 2.0));
      double extent = static_cast<double>(axisInfo.getExtent());
      Value count =
          ConstantOp::create(rewriter, loc, rewriter.getArrayAttr({}),
                             rewriter.getFloatAttr(f32, extent));
      Value twiceS1 = MulOp::create(rewriter, loc, s1, two);
      Value countU = MulOp::create(rewriter, loc, u, count);
      Value inner = SubOp::create(rewriter, loc, twiceS1, countU);
      Value correction = MulOp::create(rewriter, loc, inner, u);
      Value result = SubOp::create(rewriter, loc, s2, correction);
      SmallVector<Value> replacements(newReduce.getResults().drop_back());
      replacements[index] = result;
      rewriter.replaceOp(reduce, replacements);
      trace.message = "expanded a shifted square: sum (x - u)^2 = sum x^2 - "
                      "u (2 sum x - n u) out of the reduce over " +
                      axis.getValue().str();
      return success();
    }
    return failure();
  }
  FusionTrace &trace;
};
} // namespace

void blockbuster::block::populateShiftHoistingPatterns(
    RewritePatternSet &patterns, FusionTrace &trace) {
  populateGeneratedPDLLPatterns(patterns);
  patterns.add<ExpandShiftedSquare, SplitLinearTerm>(patterns.getContext(),
                                                     trace);
}
