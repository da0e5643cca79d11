//===- StructureNormalization.cpp - Rule 8 --------------------------------===//
//
// Rule 8, structure normalisation: canonical forms the other rules match.
// A reduce over a whole axis runs once, so it is inlined; a broadcast to its
// operand's own type, or of a broadcast, is folded; a transpose feeding a
// dot is dropped (the dot contracts by axis name); a dot of two tiles
// widened from one 16-bit float type to f32 contracts the 16-bit tiles
// (exact: their products are exact in f32, and a dot sums in f32), so the
// code generator sees a 16-bit dot for the tensor cores. Each pattern
// removes an op, so the rule terminates.
//
// The vocabulary (isSingleIterationReduce, inlineSingleIterationReduce) is
// here; the patterns are StructureNormalization.pdll.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"
#include "ScaleHoisting.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

bool blockbuster::block::isSingleIterationReduce(ReduceOp reduce) {
  auto program = reduce->getParentOfType<ProgramOp>();
  AxisAttr axis = program ? program.lookupAxis(reduce.getAxisAttr())
                          : AxisAttr();
  return axis && axis.isWhole();
}

/// A reduce over a whole axis has one iteration: its results are its terms
/// folded once into the initial state.
void blockbuster::block::inlineSingleIterationReduce(RewriterBase &rewriter,
                                                     ReduceOp reduce) {
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
  rewriter.replaceOp(reduce, results);
}

bool blockbuster::block::isTransposeOf(Value transposed, Value x) {
  auto resultType = dyn_cast<TileType>(transposed.getType());
  auto operandType = dyn_cast<TileType>(x.getType());
  if (!resultType || !operandType || resultType == operandType ||
      resultType.getElementType() != operandType.getElementType() ||
      resultType.getAxes().size() != operandType.getAxes().size())
    return false;
  return llvm::all_of(resultType.getAxes(), [&](StringAttr axis) {
    return operandType.hasAxis(axis);
  });
}

bool blockbuster::block::areWidenedFromOne16BitType(Value lhs, Value rhs,
                                                    Operation *dot) {
  auto lhsType = dyn_cast<TileType>(lhs.getType());
  auto rhsType = dyn_cast<TileType>(rhs.getType());
  if (!lhsType || !rhsType ||
      lhsType.getElementType() != rhsType.getElementType() ||
      !isa<BFloat16Type, Float16Type>(lhsType.getElementType()))
    return false;
  auto dotOp = dyn_cast<DotOp>(dot);
  auto isWideningOf = [](Value operand, Value narrow) {
    auto widening = operand.getDefiningOp<CastOp>();
    auto wideType = dyn_cast<TileType>(operand.getType());
    return widening && widening.getOperand() == narrow && wideType &&
           wideType.getElementType().isF32();
  };
  return dotOp && isWideningOf(dotOp.getLhs(), lhs) &&
         isWideningOf(dotOp.getRhs(), rhs);
}

bool blockbuster::block::isExactInNarrowerType(Value constant, Value widened,
                                               Value narrow) {
  auto def = constant.getDefiningOp<ConstantOp>();
  auto cast = widened.getDefiningOp<CastOp>();
  auto narrowType = dyn_cast<TileType>(narrow.getType());
  auto wideType = dyn_cast<TileType>(widened.getType());
  if (!def || !cast || cast.getOperand() != narrow || !narrowType ||
      !wideType)
    return false;
  auto narrowFloat = dyn_cast<FloatType>(narrowType.getElementType());
  auto wideFloat = dyn_cast<FloatType>(wideType.getElementType());
  auto value = dyn_cast<FloatAttr>(def.getValue());
  if (!narrowFloat || !wideFloat || !value ||
      narrowFloat.getWidth() >= wideFloat.getWidth())
    return false;
  llvm::APFloat converted = value.getValue();
  bool losesInfo = false;
  converted.convert(narrowFloat.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return !losesInfo;
}

/// The float type of the elements of `value`'s tile, or null.
static FloatType getFloatElementType(Value value) {
  auto type = dyn_cast<TileType>(value.getType());
  return type ? dyn_cast<FloatType>(type.getElementType()) : FloatType();
}

/// `def`'s float value rounded to nearest even (as block.cast rounds) to
/// `type`, as a new constant over the same axes.
static Value createRoundedConstant(RewriterBase &rewriter, Location loc,
                                   ConstantOp def, FloatType type) {
  llvm::APFloat value = cast<FloatAttr>(def.getValue()).getValue();
  bool losesInfo = false;
  value.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return ConstantOp::create(rewriter, loc, def.getAxes(),
                            FloatAttr::get(type, value));
}

Value blockbuster::block::narrowConstant(RewriterBase &rewriter,
                                         Value constant, Value like) {
  auto def = constant.getDefiningOp<ConstantOp>();
  return createRoundedConstant(rewriter, def.getLoc(), def,
                               getFloatElementType(like));
}

bool blockbuster::block::isCastOfFloatConstant(Operation *op) {
  auto rounding = dyn_cast<CastOp>(op);
  auto def = rounding ? rounding.getOperand().getDefiningOp<ConstantOp>()
                      : ConstantOp();
  return def && isa<FloatAttr>(def.getValue()) &&
         getFloatElementType(rounding.getResult());
}

Value blockbuster::block::foldCastOfConstant(RewriterBase &rewriter,
                                             Operation *op) {
  auto rounding = cast<CastOp>(op);
  auto def = rounding.getOperand().getDefiningOp<ConstantOp>();
  return createRoundedConstant(rewriter, rounding.getLoc(), def,
                               getFloatElementType(rounding.getResult()));
}

/// The element type of `value`'s tile.
static Type getElementTypeOf(Value value) {
  return cast<TileType>(value.getType()).getElementType();
}

/// The scalar constant defining `value`, or null.
static ConstantOp getScalarConstant(Value value) {
  auto def = value.getDefiningOp<ConstantOp>();
  return def && def.getAxes().empty() ? def : ConstantOp();
}

bool blockbuster::block::isAndWithTrue(Operation *root) {
  auto min = dyn_cast<MinOp>(root);
  if (!min || !getElementTypeOf(min).isInteger(1))
    return false;
  for (auto [c, other] : {std::pair(min.getLhs(), min.getRhs()),
                          std::pair(min.getRhs(), min.getLhs())}) {
    ConstantOp constant = getScalarConstant(other);
    auto value =
        constant ? dyn_cast<IntegerAttr>(constant.getValue()) : IntegerAttr();
    if (value && value.getValue().isOne() && c.getType() == min.getType())
      return true;
  }
  return false;
}

Value blockbuster::block::getAndOperand(Operation *root) {
  auto min = cast<MinOp>(root);
  return getScalarConstant(min.getRhs()) && min.getLhs().getType() == min.getType()
             ? min.getLhs()
             : min.getRhs();
}

/// A position along an axis (block.iota), possibly cast to a 64-bit
/// integer: the iota itself, or null.
static Value getPosition(Value value) {
  if (auto cast = value.getDefiningOp<CastOp>()) {
    if (!getElementTypeOf(cast).isInteger(64))
      return nullptr;
    value = cast.getOperand();
  }
  return value.getDefiningOp<IotaOp>() ? value : nullptr;
}

/// The positions `root` compares (a - b against 0, or two widened ones).
static std::optional<std::pair<Value, Value>>
getComparedPositions(Operation *root) {
  auto compare = dyn_cast<CompareOp>(root);
  if (!compare)
    return std::nullopt;
  if (auto sub = compare.getLhs().getDefiningOp<SubOp>()) {
    // a - b against 0 orders a and b only as a signed number: unsigned,
    // a - b <= 0 holds for a == b alone.
    using P = ComparePredicate;
    if (!llvm::is_contained({P::eq, P::ne, P::lt, P::le, P::gt, P::ge},
                            compare.getPredicate()))
      return std::nullopt;
    ConstantOp zero = getScalarConstant(compare.getRhs());
    auto value = zero ? dyn_cast<IntegerAttr>(zero.getValue()) : IntegerAttr();
    Value a = getPosition(sub.getLhs()), b = getPosition(sub.getRhs());
    if (value && value.getValue().isZero() && a && b)
      return std::pair(a, b);
    return std::nullopt;
  }
  auto lhs = compare.getLhs().getDefiningOp<CastOp>();
  auto rhs = compare.getRhs().getDefiningOp<CastOp>();
  Value a = getPosition(compare.getLhs()), b = getPosition(compare.getRhs());
  if (lhs && rhs && a && b)
    return std::pair(a, b);
  return std::nullopt;
}

bool blockbuster::block::isComparisonOfPositions(Operation *root) {
  return getComparedPositions(root).has_value();
}

Value blockbuster::block::compareThePositions(RewriterBase &rewriter,
                                              Operation *root) {
  auto compare = cast<CompareOp>(root);
  auto [a, b] = *getComparedPositions(root);
  auto aType = cast<TileType>(a.getType());
  SmallVector<StringAttr> axes(aType.getAxes());
  for (StringAttr axis : cast<TileType>(b.getType()).getAxes())
    if (!aType.hasAxis(axis))
      axes.push_back(axis);
  auto type = TileType::get(rewriter.getContext(), axes,
                            getElementTypeOf(compare));
  Value positions = CompareOp::create(rewriter, compare.getLoc(), type,
                                      compare.getPredicate(), a, b);
  return relayoutLike(rewriter, positions, root);
}

bool blockbuster::block::isSumWithSelectOfConstants(Operation *root) {
  auto add = dyn_cast<AddOp>(root);
  if (!add || !isa<FloatType>(getElementTypeOf(add)))
    return false;
  auto select = add.getRhs().getDefiningOp<SelectOp>();
  auto xType = dyn_cast<TileType>(add.getLhs().getType());
  if (!select || !xType || xType != add.getType() ||
      !getScalarConstant(select.getTrueValue()) ||
      !getScalarConstant(select.getFalseValue()))
    return false;
  auto condition = cast<TileType>(select.getCondition().getType());
  return llvm::all_of(condition.getAxes(),
                      [&](StringAttr axis) { return xType.hasAxis(axis); });
}

Value blockbuster::block::distributeSumOverSelect(RewriterBase &rewriter,
                                                  Operation *root) {
  auto add = cast<AddOp>(root);
  auto select = add.getRhs().getDefiningOp<SelectOp>();
  auto type = cast<TileType>(add.getType());
  Value condition = BroadcastOp::create(
      rewriter, select.getLoc(),
      TileType::get(rewriter.getContext(), type.getAxes(),
                    rewriter.getI1Type()),
      select.getCondition());
  Value kept = AddOp::create(rewriter, add.getLoc(), add.getLhs(),
                             select.getTrueValue());
  Value masked = AddOp::create(rewriter, add.getLoc(), add.getLhs(),
                               select.getFalseValue());
  return SelectOp::create(rewriter, select.getLoc(), condition, kept, masked);
}

/// True when `value` is a scalar block.constant -inf.
static bool isMinusInfinityConstant(Value value) {
  auto def = value.getDefiningOp<ConstantOp>();
  auto attr = def ? dyn_cast<FloatAttr>(def.getValue()) : FloatAttr();
  return attr && def.getAxes().empty() && attr.getValue().isInfinity() &&
         attr.getValue().isNegative();
}

/// The x of `x == -inf` (x a float tile), or null.
static Value getComparedWithMinusInfinity(Value value) {
  auto compare = value.getDefiningOp<CompareOp>();
  if (!compare || compare.getPredicate() != ComparePredicate::eq ||
      !isMinusInfinityConstant(compare.getRhs()))
    return nullptr;
  auto type = dyn_cast<TileType>(compare.getLhs().getType());
  return type && isa<FloatType>(type.getElementType()) ? compare.getLhs()
                                                       : nullptr;
}

bool blockbuster::block::isAllMinusInfinity(Operation *root) {
  auto reduce = dyn_cast<TileReduceOp>(root);
  return reduce && reduce.getKind() == CombinerKind::Min &&
         getComparedWithMinusInfinity(reduce.getOperand());
}

Value blockbuster::block::compareMaximumWithMinusInfinity(
    RewriterBase &rewriter, Operation *root) {
  auto all = cast<TileReduceOp>(root);
  auto compare = all.getOperand().getDefiningOp<CompareOp>();
  Value x = compare.getLhs();
  auto allType = cast<TileType>(all.getType());
  auto maxType = TileType::get(rewriter.getContext(), allType.getAxes(),
                               cast<TileType>(x.getType()).getElementType());
  auto max = TileReduceOp::create(rewriter, all.getLoc(), maxType,
                                  CombinerKind::Max, x, all.getReduced());
  return CompareOp::create(rewriter, compare.getLoc(), allType,
                           ComparePredicate::eq, max, compare.getRhs());
}

std::optional<unsigned>
blockbuster::block::findAllMinusInfinityState(ReduceOp reduce) {
  std::optional<ArrayAttr> combiners = reduce.getCombiners();
  if (!combiners || reduce.hasRegionCombiner())
    return std::nullopt;
  for (auto [index, combiner] : llvm::enumerate(*combiners)) {
    if (cast<CombinerKindAttr>(combiner).getValue() != CombinerKind::Min)
      continue;
    Value term = reduce.getYield().getOperand(index);
    Value t = getComparedWithMinusInfinity(term);
    if (t && cast<TileType>(t.getType()).getAxes() ==
                 cast<TileType>(term.getType()).getAxes())
      return index;
  }
  return std::nullopt;
}

ReduceOp blockbuster::block::trackMaximumInstead(RewriterBase &rewriter,
                                                 ReduceOp reduce,
                                                 unsigned index) {
  YieldOp yield = reduce.getYield();
  auto compare = yield.getOperand(index).getDefiningOp<CompareOp>();
  Value t = compare.getLhs();
  SmallVector<Attribute> combiners(reduce.getCombiners()->getValue());
  combiners[index] =
      CombinerKindAttr::get(rewriter.getContext(), CombinerKind::Max);
  SmallVector<Type> types(reduce->getResultTypes());
  Type compareType = types[index];
  types[index] = t.getType();
  rewriter.setInsertionPoint(reduce);
  auto newReduce = ReduceOp::create(rewriter, reduce.getLoc(), types,
                                    reduce.getAxisAttr(),
                                    rewriter.getArrayAttr(combiners),
                                    ValueRange{});
  // The -inf constant may live in the body, which moves: a copy after the
  // loop.
  Operation *minusInfinity = compare.getRhs().getDefiningOp();
  rewriter.inlineRegionBefore(reduce.getBody(), newReduce.getBody(),
                              newReduce.getBody().end());
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, t); });
  rewriter.setInsertionPointAfter(newReduce);
  Value bound = rewriter.clone(*minusInfinity)->getResult(0);
  Value all = CompareOp::create(rewriter, compare.getLoc(), compareType,
                                ComparePredicate::eq,
                                newReduce.getResult(index), bound);
  SmallVector<Value> replacements(newReduce.getResults());
  replacements[index] = all;
  rewriter.replaceOp(reduce, replacements);
  return newReduce;
}

#include "Rules/StructureNormalization.h.inc"

/// True when `x` is a product or quotient by a scale outside `dot`'s
/// contraction, which rule 4 moves out of the dot (leaving, for a widened
/// x, a dot NarrowWidenedDot makes 16-bit with no rounding).
static bool isScaledOutsideContraction(Value x, DotOp dot) {
  Operation *def = x.getDefiningOp();
  if (!isa_and_nonnull<MulOp, DivOp>(def))
    return false;
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  return isScaleOutsideContraction(rhs, lhs, dot.getContract()) ||
         (isa<MulOp>(def) &&
          isScaleOutsideContraction(lhs, rhs, dot.getContract()));
}

namespace {
/// dot(x, f32(b)) -> dot(cast(x), b) (either operand), x an f32 tile computed
/// in the kernel (not a load, which may yet fuse with its producer, nor a
/// relayout or a cast, nor a product by a scale rule 4 moves out: those may
/// still become 16-bit
/// with no rounding) and b a tile of a 16-bit float type: x is rounded to
/// b's type, which changes each product by up to that rounding (8 bits of
/// mantissa for bf16; not an identity: only on request). The dot is then a
/// 16-bit dot the tensor cores run (NarrowWidenedDot's form). The cast is
/// rescalable (kRescalableAttr).
struct RoundDotOperand : OpRewritePattern<DotOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DotOp dot,
                                PatternRewriter &rewriter) const override {
    for (int operand = 0; operand < 2; ++operand) {
      Value x = dot->getOperand(operand);
      Value other = dot->getOperand(1 - operand);
      auto widening = other.getDefiningOp<CastOp>();
      auto xType = dyn_cast<TileType>(x.getType());
      if (!widening || !xType || !xType.getElementType().isF32() ||
          !x.getDefiningOp() ||
          isa<LoadOp, CastOp, BroadcastOp>(x.getDefiningOp()) ||
          isScaledOutsideContraction(x, dot))
        continue;
      Value narrow = widening.getOperand();
      auto narrowType = dyn_cast<TileType>(narrow.getType());
      if (!narrowType ||
          !isa<BFloat16Type, Float16Type>(narrowType.getElementType()))
        continue;
      auto rounded = CastOp::create(
          rewriter, x.getLoc(),
          TileType::get(rewriter.getContext(), xType.getAxes(),
                        narrowType.getElementType()),
          x);
      // The rounding is the option's, not the program's: as PyTorch's flash
      // kernels do, P may be rounded before its division by the row sum and
      // its rescaling by the running maximum (rule 4's DivideAfterRounding
      // for rescalable casts, rule 9's single-pass online softmax).
      rounded->setAttr(kRescalableAttr, rewriter.getUnitAttr());
      Value lhs = operand == 0 ? rounded.getResult() : narrow;
      Value rhs = operand == 1 ? rounded.getResult() : narrow;
      rewriter.replaceOpWithNewOp<DotOp>(dot, lhs, rhs, dot.getContract());
      return success();
    }
    return rewriter.notifyMatchFailure(
        dot, "no operand is f32 against a widened 16-bit operand");
  }
};
} // namespace

void blockbuster::block::populateRoundDotOperandsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RoundDotOperand>(patterns.getContext());
}

void blockbuster::block::populateStructureNormalizationPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
