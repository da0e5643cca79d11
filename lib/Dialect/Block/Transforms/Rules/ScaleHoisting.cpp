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

#include "../FusionDriver/FusionUtils.h"
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

Value blockbuster::block::relayoutLike(RewriterBase &rewriter, Value value,
                                       Operation *like) {
  Type wanted = like->getResult(0).getType();
  if (value.getType() == wanted)
    return value;
  return BroadcastOp::create(rewriter, like->getLoc(), wanted, value);
}

#include "Rules/ScaleHoisting.h.inc"

/// For term `index` of `reduce` (an add-combined product or quotient):
/// whether the operand that stays in the loop is the left one; none when
/// neither factor is defined outside the loop (a divisor must be the right
/// operand).
static std::optional<bool> getKeptOperandIsLhs(ReduceOp reduce,
                                               unsigned index) {
  Region &body = reduce.getBody();
  auto isOutside = [&](Value value) {
    return !body.isAncestor(value.getParentRegion());
  };
  Operation *def = reduce.getYield().getOperand(index).getDefiningOp();
  if (!def || !isa<MulOp, DivOp>(def))
    return std::nullopt;
  if (isOutside(def->getOperand(1)))
    return true;
  if (isa<MulOp>(def) && isOutside(def->getOperand(0)))
    return false;
  return std::nullopt;
}

std::optional<unsigned>
blockbuster::block::findScaleToHoistOutOfReduce(ReduceOp reduce,
                                                RefusalFn refuse) {
  std::optional<ArrayAttr> combiners = reduce.getCombiners();
  if (!combiners) {
    if (refuse)
      refuse("has a combine region");
    return std::nullopt;
  }
  for (unsigned index = 0, e = reduce.getNumResults(); index < e; ++index)
    if (cast<CombinerKindAttr>((*combiners)[index]).getValue() ==
            CombinerKind::Add &&
        getKeptOperandIsLhs(reduce, index))
      return index;
  if (refuse)
    refuse("no add-combined term is a product (or quotient) by a value "
           "defined outside the loop");
  return std::nullopt;
}

/// Replaces term `index` of `reduce` by `kept`, a value of its body (the
/// state becomes kept's type), and the result by `after(new result)`,
/// built after the loop and given the old result's type where it differs
/// (a relayout).
static ReduceOp
replaceTermAfterLoop(RewriterBase &rewriter, ReduceOp reduce, unsigned index,
                     Value kept, llvm::function_ref<Value(Value)> after) {
  Region &body = reduce.getBody();
  YieldOp yield = reduce.getYield();
  rewriter.setInsertionPoint(reduce);
  SmallVector<Type> types(reduce->getResultTypes());
  types[index] = kept.getType();
  auto newReduce =
      ReduceOp::create(rewriter, reduce.getLoc(), types, reduce.getAxisAttr(),
                       *reduce.getCombiners(), ValueRange{});
  rewriter.inlineRegionBefore(body, newReduce.getBody(),
                              newReduce.getBody().end());
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, kept); });
  rewriter.setInsertionPointAfter(newReduce);
  Value result = after(newReduce.getResult(index));
  Type wanted = reduce.getResult(index).getType();
  if (result.getType() != wanted)
    result = BroadcastOp::create(rewriter, reduce.getLoc(), wanted, result);
  SmallVector<Value> replacements(newReduce.getResults());
  replacements[index] = result;
  rewriter.replaceOp(reduce, replacements);
  return newReduce;
}

/// sum_j (u_j op s) = (sum_j u_j) op s for op in {*, /} when s is defined
/// outside the reduce (it does not vary with j). The state is u_j's type,
/// which may have fewer axes than the term (sum_j mu * c_j = mu * sum_j c_j
/// with mu[M] and c_j[N]); the product after the loop keeps the term's
/// operand order, hence its type.
ReduceOp blockbuster::block::hoistScaleOutOfReduce(RewriterBase &rewriter,
                                                   ReduceOp reduce,
                                                   unsigned index) {
  bool keepLhs = *getKeptOperandIsLhs(reduce, index);
  Operation *def = reduce.getYield().getOperand(index).getDefiningOp();
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  Value kept = keepLhs ? lhs : rhs;
  Value scale = keepLhs ? rhs : lhs;
  return replaceTermAfterLoop(rewriter, reduce, index, kept, [&](Value sum) {
    Value lhsAfter = keepLhs ? sum : scale;
    Value rhsAfter = keepLhs ? scale : sum;
    return isa<MulOp>(def)
               ? MulOp::create(rewriter, def->getLoc(), lhsAfter, rhsAfter)
                     .getResult()
               : DivOp::create(rewriter, def->getLoc(), lhsAfter, rhsAfter)
                     .getResult();
  });
}

namespace {
/// True if `value` is a constant 0 (of any axes).
bool isZeroConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto number = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return number && number.getValue().isZero();
}

/// The index (1 or 2) of the operand of `select` that is not a constant 0
/// when the other is one (select(c, 0, x) or select(c, x, 0)), else 0.
unsigned getMaskedOperand(SelectOp select) {
  if (isZeroConstant(select.getTrueValue()))
    return 2;
  if (isZeroConstant(select.getFalseValue()))
    return 1;
  return 0;
}

/// select(c, 0, y) or select(c, y, 0), the same side as `like`, of f32
/// zero: the mask of `like` applied to `y`.
Value applyMaskLike(RewriterBase &rewriter, SelectOp like, Value y) {
  auto element = cast<TileType>(y.getType()).getElementType();
  Value zero = ConstantOp::create(rewriter, like.getLoc(),
                                  rewriter.getArrayAttr({}),
                                  rewriter.getFloatAttr(element, 0.0));
  bool zeroIfTrue = getMaskedOperand(like) == 2;
  return SelectOp::create(rewriter, like.getLoc(), like.getCondition(),
                          zeroIfTrue ? zero : y, zeroIfTrue ? y : zero);
}

/// dot(m(x), w) -> m(dot(x, w)) for a mask m = select(c, 0, .) whose
/// condition c does not vary along the contraction (c's axes are axes of
/// x outside it), also through a cast: cast(m(x)) = m(cast(x)). A masked
/// row of x contributes 0 * w to each term, so the masked rows of the
/// result are 0 either way (w finite, as rule 4 takes scales). Attention
/// exported by torch-mlir masks P this way (rows whose scores are all
/// -inf give 0, not 0 / 0), between P's rounding and the division by the
/// row sum that the online softmax needs out of the P V reduce.
struct HoistMaskOutOfDot : OpRewritePattern<DotOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DotOp dot,
                                PatternRewriter &rewriter) const override {
    for (int operand = 0; operand < 2; ++operand) {
      Value masked = dot->getOperand(operand);
      auto rounding = masked.getDefiningOp<CastOp>();
      auto select =
          (rounding ? rounding.getOperand() : masked).getDefiningOp<SelectOp>();
      if (!select || !getMaskedOperand(select))
        continue;
      Value x = select->getOperand(getMaskedOperand(select));
      auto conditionType = cast_or_null<TileType>(select.getCondition().getType());
      auto xType = dyn_cast<TileType>(x.getType());
      if (!conditionType || !xType ||
          xType.getRank() !=
              cast<TileType>(select.getType()).getRank() ||
          !llvm::all_of(conditionType.getAxes(), [&](StringAttr axis) {
            return xType.hasAxis(axis) &&
                   !llvm::is_contained(dot.getContract(), axis);
          }))
        continue;
      Value operandX = x;
      if (rounding) {
        auto rounded = CastOp::create(
            rewriter, rounding.getLoc(),
            TileType::get(rewriter.getContext(), xType.getAxes(),
                          cast<TileType>(rounding.getType()).getElementType()),
            x);
        rounded->setAttrs(rounding->getAttrs());
        operandX = rounded;
      }
      Value lhs = operand == 0 ? operandX : dot.getLhs();
      Value rhs = operand == 1 ? operandX : dot.getRhs();
      auto newDot =
          DotOp::create(rewriter, dot.getLoc(), lhs, rhs, dot.getContract());
      Value result = applyMaskLike(rewriter, select, newDot);
      rewriter.replaceOp(dot, relayoutLike(rewriter, result, dot));
      return success();
    }
    return rewriter.notifyMatchFailure(
        dot, "no operand is a mask select(c, 0, x) (or its cast) whose "
             "condition does not vary along the contraction");
  }
};

/// sum_j m(y_j) -> m(sum_j y_j) for a mask m = select(c, 0, .) with c
/// defined outside the reduce: the masked elements sum zeros.
struct HoistMaskOutOfReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayAttr> combiners = reduce.getCombiners();
    if (!combiners)
      return rewriter.notifyMatchFailure(reduce, "has a combine region");
    Region &body = reduce.getBody();
    YieldOp yield = reduce.getYield();
    for (unsigned index = 0, e = reduce.getNumResults(); index < e; ++index) {
      if (cast<CombinerKindAttr>((*combiners)[index]).getValue() !=
          CombinerKind::Add)
        continue;
      auto select = yield.getOperand(index).getDefiningOp<SelectOp>();
      if (!select || !getMaskedOperand(select) ||
          body.isAncestor(select.getCondition().getParentRegion()))
        continue;
      Value y = select->getOperand(getMaskedOperand(select));
      if (cast<TileType>(y.getType()).getRank() !=
          cast<TileType>(select.getType()).getRank())
        continue;
      replaceTermAfterLoop(rewriter, reduce, index, y, [&](Value sum) {
        return applyMaskLike(rewriter, select, sum);
      });
      return success();
    }
    return rewriter.notifyMatchFailure(
        reduce, "no add-combined term is a mask select(c, 0, y) with c "
                "defined outside the loop");
  }
};
} // namespace


namespace {
/// dot(cast(x / s), w) -> dot(cast(x), w) / s (either operand), s a scale
/// outside the contraction: the rounding of the cast then applies to x
/// instead of x / s, which changes the result by up to the cast's rounding
/// error relative to each term (not an identity: only on request). For
/// attention's P = cast(E / l) it lets the division by l leave the P V
/// reduce, as rule 4 does for an unrounded P, and rule 9 then derives the
/// single-pass online softmax: P = exp(S - m) rounded, O / l at the end.
struct DivideAfterRounding : OpRewritePattern<DotOp> {
  /// Which casts the rounding may move past: those that already carry
  /// kRescalableAttr (a rounding the user asked for elsewhere,
  /// --round-dot-operands), casts to bf16 too (bf16 has f32's exponent
  /// range: rounding the f32 x instead of x / s moves the rounding error,
  /// half a bf16 ulp of each term either way, but cannot overflow where an
  /// f16 cast of x could), or every cast.
  enum class Scope { Rescalable, BF16, All };
  DivideAfterRounding(MLIRContext *context, Scope scope)
      : OpRewritePattern(context), scope(scope) {}

  bool mayMove(CastOp cast) const {
    if (scope == Scope::All || cast->hasAttr(kRescalableAttr))
      return true;
    auto tile = dyn_cast<TileType>(cast.getType());
    return scope == Scope::BF16 && tile && tile.getElementType().isBF16();
  }

  LogicalResult matchAndRewrite(DotOp dot,
                                PatternRewriter &rewriter) const override {
    for (int operand = 0; operand < 2; ++operand) {
      Value rounded = dot->getOperand(operand);
      auto cast = rounded.getDefiningOp<CastOp>();
      if (cast && !mayMove(cast))
        continue;
      auto div = cast ? cast.getOperand().getDefiningOp<DivOp>() : DivOp();
      if (!div)
        continue;
      Value x = div.getLhs(), s = div.getRhs();
      if (x.getType() != div.getType() ||
          !isScaleOutsideContraction(s, x, dot.getContract()))
        continue;
      auto newCast =
          CastOp::create(rewriter, cast.getLoc(), cast.getType(), x);
      newCast->setAttr(kRescalableAttr, rewriter.getUnitAttr());
      Value lhs = operand == 0 ? newCast.getResult() : dot.getLhs();
      Value rhs = operand == 1 ? newCast.getResult() : dot.getRhs();
      auto newDot =
          DotOp::create(rewriter, dot.getLoc(), lhs, rhs, dot.getContract());
      auto quotient = DivOp::create(rewriter, div.getLoc(), newDot, s);
      rewriter.replaceOp(dot, relayoutLike(rewriter, quotient, dot));
      return success();
    }
    return rewriter.notifyMatchFailure(
        dot, scope == Scope::Rescalable
                 ? "no operand is a rescalable cast of a quotient by a scale "
                   "outside the contraction"
                 : "no operand is a cast of a quotient by a scale outside "
                   "the contraction");
  }

private:
  Scope scope;
};
} // namespace

void blockbuster::block::populateDivideAfterRoundingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DivideAfterRounding>(patterns.getContext(),
                                    DivideAfterRounding::Scope::All);
}

void blockbuster::block::populateDivideAfterBF16RoundingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DivideAfterRounding>(patterns.getContext(),
                                    DivideAfterRounding::Scope::BF16);
}

void blockbuster::block::populateScaleHoistingPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
  patterns.add<HoistMaskOutOfDot, HoistMaskOutOfReduce>(patterns.getContext());
  patterns.add<DivideAfterRounding>(patterns.getContext(),
                                    DivideAfterRounding::Scope::Rescalable);
}
