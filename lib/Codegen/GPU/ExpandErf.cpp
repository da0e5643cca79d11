//===- ExpandErf.cpp - f32 erf as one rational function -------------------===//
//
// libdevice's erff (what convert-gpu-to-nvvm makes of math.erf) evaluates
// one polynomial of degree 6 whose 7 coefficients it selects per element
// between two sets (|x| below or above 1.003), then 1 - 2^p above: about 22
// SASS instructions per element, 9 of them selects, the largest share of an
// add + GELU + add + LayerNorm row kernel that is bound by its issue slots.
// One rational function over the whole range needs no selects:
//
//   erf(x) = c * P(c^2) / Q(c^2),  c = clamp(x, -3.92, 3.92),
//
// P of degree 5, Q of degree 5 with Q(0) = 1, fitted here to erf(x) / x on
// [0, 3.92] in relative error (Lawson's iteration on a least-squares fit,
// 0.31 * 2^-24 before rounding the coefficients to f32). Beyond 3.92 erf
// rounds to 1 in f32. Evaluated in f32 (Horner, fmas): at most 7.0 ulp on
// every f32 against erf in f64 with an exact reciprocal, 9.0 with
// rcp.approx.ftz's (1 ulp); libdevice's erff is within 2 ulp
// (test/Codegen/GPU/expand-erf.test sweeps it on the CPU). Upstream's
// math::ErfPolynomialApproximation is not used for the same reason as
// libdevice: it selects its coefficients between three intervals.
//
// Where the erf sits in a linear context, the expansion takes it in
// (GELU's x * 0.5 * (1 + erf(x * (1 / sqrt 2))) as the anchors write it,
// x * ((1 + erf(x / sqrt 2)) * 0.5) as torch-mlir does): a constant factor a
// (or divisor) of the operand goes into the
// coefficients and the clamp (erf(a x) = a c P(a^2 c^2) / Q(a^2 c^2), c
// clamped to 3.92 / |a|; the product's rounding is left out), `erf + k`
// becomes the expansion's last product as one fma, and a power of two by
// which that sum is then multiplied moves onto it (exact); the normal CDF
// 0.5 (1 + erf) so formed is in [0, 1], so its fma saturates and only x^2
// is clamped. In the add + GELU + add + LayerNorm row kernel: 4 of 37.5
// SASS instructions an element.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <cmath>
#include <optional>

namespace blockbuster {
#define GEN_PASS_DEF_GPUEXPANDERF
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

// Above it erf(x) rounds to 1 in f32 (erfc(3.92) < 2^-25).
static constexpr double kClamp = 3.92;
// Horner order, highest degree first.
static constexpr float kNumerator[] = {2.050091726e-06f, 2.848794690e-04f,
                                3.765513540e-03f, 5.274839578e-02f,
                                1.904041917e-01f, 1.128379146e+00f};
static constexpr float kDenominator[] = {3.809159277e-05f, 1.162508809e-03f,
                                  1.496900830e-02f, 1.141081479e-01f,
                                  5.020740628e-01f, 1.0f};

/// The f32 constant `value` is (a splat or scalar f32 constant), if any.
static std::optional<double> getF32Constant(Value value) {
  FloatAttr attr;
  if (!value.getType().isF32() || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr.getValueAsDouble();
}

/// A finite non-zero f32 constant, or a power of two, if `value` is one.
static std::optional<double> getScale(Value value, bool powerOfTwo) {
  std::optional<double> c = getF32Constant(value);
  int exponent;
  if (!c || !std::isfinite(*c) || *c == 0.0 ||
      (powerOfTwo && std::frexp(std::fabs(*c), &exponent) != 0.5))
    return std::nullopt;
  return c;
}

/// `value` as `x * c` (either order) or `x / c`, for a finite non-zero f32
/// constant c (a power of two with `powerOfTwo`): x and c (or 1 / c).
static std::optional<std::pair<Value, double>>
matchScaled(Value value, bool powerOfTwo = false) {
  if (auto mul = value.getDefiningOp<arith::MulFOp>()) {
    for (int i = 0; i < 2; ++i)
      if (std::optional<double> c =
              getScale(mul->getOperand(1 - i), powerOfTwo))
        return std::make_pair(mul->getOperand(i), *c);
    return std::nullopt;
  }
  if (auto div = value.getDefiningOp<arith::DivFOp>())
    if (std::optional<double> c = getScale(div.getRhs(), powerOfTwo))
      return std::make_pair(div.getLhs(), 1.0 / *c);
  return std::nullopt;
}

/// What an erf's expansion folds in around the rational function, all of it
/// linear: erf(a z) with a constant a (a multiplication or division before
/// the erf; its rounding is left out), `erf + k` with a constant k (the
/// last product of the expansion becomes an fma), and a power of two 2^j by
/// which the sum is then multiplied, exactly: either the sum's one use
/// multiplies it by 2^j (torch-mlir's GELU, `x * ((1 + erf(x / sqrt 2)) *
/// 0.5)`), or by `x * 2^j` (the anchors', `x * 0.5 * (1 + erf(x * (1 /
/// sqrt 2)))`), the scaling then moving from x to the sum.
namespace {
struct ErfContext {
  Value input;
  double inputScale = 1.0;
  /// `erf + k`; null when the erf is used as is.
  arith::AddFOp sum;
  double addend = 0.0;
  /// `sum * 2^j`, which the expansion replaces instead of the sum.
  arith::MulFOp scaledSum;
  /// The product `(x * 2^j) * sum` (an arith.mulf or a math.fma) whose
  /// factor `x * 2^j` becomes x.
  Operation *scaledUser = nullptr;
  unsigned scaledOperand = 0;
  Value unscaledFactor;
  /// 2^j.
  double outputScale = 1.0;

  /// The op whose value the expansion replaces.
  Operation *getResult(math::ErfOp erf) const {
    if (scaledSum)
      return scaledSum;
    if (sum)
      return sum;
    return erf;
  }
};
} // namespace

/// The sum `erf + k` that `op`'s expansion folds in, if any: erf's one use,
/// an addition of a finite f32 constant.
static arith::AddFOp matchSum(math::ErfOp op, double &addend) {
  if (!op->hasOneUse())
    return {};
  auto sum = dyn_cast<arith::AddFOp>(*op->user_begin());
  if (!sum)
    return {};
  std::optional<double> k =
      getF32Constant(sum.getOperand(sum.getLhs() == op.getResult() ? 1 : 0));
  if (!k || !std::isfinite(*k))
    return {};
  addend = *k;
  return sum;
}

static ErfContext matchContext(math::ErfOp op) {
  ErfContext context;
  context.input = op.getOperand();
  if (auto scaled = matchScaled(op.getOperand())) {
    context.input = scaled->first;
    context.inputScale = scaled->second;
  }
  context.sum = matchSum(op, context.addend);
  if (!context.sum || !context.sum->hasOneUse())
    return context;
  Operation *user = *context.sum->user_begin();
  if (auto mul = dyn_cast<arith::MulFOp>(user)) {
    if (auto scaled = matchScaled(mul.getResult(), /*powerOfTwo=*/true);
        scaled && scaled->first == context.sum.getResult()) {
      context.scaledSum = mul;
      context.outputScale = scaled->second;
      return context;
    }
  }
  if (!isa<arith::MulFOp, math::FmaOp>(user))
    return context;
  // The factor of the product that is not the sum (of an fma a * b + c, the
  // sum is a or b).
  for (unsigned i = 0; i < 2; ++i) {
    if (user->getOperand(1 - i) != context.sum.getResult())
      continue;
    Value factor = user->getOperand(i);
    auto scaled = matchScaled(factor, /*powerOfTwo=*/true);
    if (!scaled || !factor.hasOneUse())
      continue;
    context.scaledUser = user;
    context.scaledOperand = i;
    context.unscaledFactor = scaled->first;
    context.outputScale = scaled->second;
    break;
  }
  return context;
}

/// Expands `op` in `context` before the rewriter's insertion point: the
/// erf's value, or with `context.sum` the sum's, times 2^j where
/// `context.scaledUser` takes it.
static Value buildExpansion(PatternRewriter &rewriter, math::ErfOp op,
                            const ErfContext &context,
                            bool approximateReciprocal) {
  Location loc = op.getLoc();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(value)));
  };
  // Coefficient i of P (Horner order: of degree n - i) times a^(2 (n - i) +
  // 1) 2^j, of Q times a^(2 (n - i)), so that c P'(c^2) / Q'(c^2) = a c
  // P(a^2 c^2) 2^j / Q(a^2 c^2); scaled in double, rounded once.
  double a2 = context.inputScale * context.inputScale;
  auto horner = [&](ArrayRef<float> coefficients, double scale, Value s) {
    auto coefficient = [&](size_t i) {
      return coefficients[i] * std::pow(a2, coefficients.size() - 1 - i) *
             scale;
    };
    Value sum = constant(coefficient(0));
    for (size_t i = 1; i < coefficients.size(); ++i)
      sum = math::FmaOp::create(rewriter, loc, sum, s,
                                constant(coefficient(i)));
    return sum;
  };
  // minimumf / maximumf propagate NaN.
  double clamp = kClamp / std::fabs(context.inputScale);
  // 0.5 (1 + erf) (or 0.5 (1 - erf)) is in [0, 1]: its fma saturates
  // instead (FFMA.SAT, below), so only x^2 is clamped. Beyond the clamp,
  // x P(s) / Q(s) is then x / clamp times its value at the clamp (about
  // +-1), which the saturation takes to 0 or 1.
  bool saturates = context.sum &&
                   std::fabs(context.outputScale) == 0.5 &&
                   context.addend * context.outputScale == 0.5;
  Value x = context.input, s;
  if (saturates) {
    s = arith::MinimumFOp::create(rewriter, loc,
                                  arith::MulFOp::create(rewriter, loc, x, x),
                                  constant(clamp * clamp));
  } else {
    x = arith::MinimumFOp::create(
        rewriter, loc,
        arith::MaximumFOp::create(rewriter, loc, x, constant(-clamp)),
        constant(clamp));
    s = arith::MulFOp::create(rewriter, loc, x, x);
  }
  Value numerator = arith::MulFOp::create(
      rewriter, loc, x,
      horner(kNumerator, context.inputScale * context.outputScale, s));
  Value denominator = horner(kDenominator, 1.0, s);
  Value reciprocal =
      approximateReciprocal
          ? NVVM::RcpApproxFtzF32Op::create(rewriter, loc,
                                            rewriter.getF32Type(), denominator)
                .getResult()
          : arith::DivFOp::create(rewriter, loc, constant(1.0), denominator)
                .getResult();
  if (!context.sum)
    return arith::MulFOp::create(rewriter, loc, numerator, reciprocal);
  Value sum = math::FmaOp::create(rewriter, loc, numerator, reciprocal,
                                  constant(context.addend * context.outputScale));
  if (!saturates)
    return sum;
  // min(max(y, 0), 1) with the non-NaN-propagating forms is PTX's `.sat`
  // (NaN gives 0), which ptxas folds into the fma. NaN still propagates
  // where GELU multiplies the sum by its NaN operand.
  return arith::MinNumFOp::create(
      rewriter, loc, arith::MaxNumFOp::create(rewriter, loc, sum, constant(0.0)),
      constant(1.0));
}

/// The f32 erf that is an operand of `op`, if any.
static math::ErfOp getErfOperand(Operation *op) {
  for (Value operand : op->getOperands())
    if (auto erf = operand.getDefiningOp<math::ErfOp>();
        erf && erf.getType().isF32())
      return erf;
  return {};
}

/// Replaces `context.getResult(erf)` by the expansion and erases the ops it
/// takes in (earlier in the block: the walk has visited them).
static void expandInContext(PatternRewriter &rewriter, math::ErfOp erf,
                            const ErfContext &context,
                            bool approximateReciprocal) {
  Value value = buildExpansion(rewriter, erf, context, approximateReciprocal);
  if (context.scaledUser)
    rewriter.modifyOpInPlace(context.scaledUser, [&] {
      context.scaledUser->setOperand(context.scaledOperand,
                                     context.unscaledFactor);
    });
  Operation *result = context.getResult(erf);
  rewriter.replaceOp(result, value);
  if (context.scaledSum)
    rewriter.eraseOp(context.sum);
  if (result != erf)
    rewriter.eraseOp(erf);
}

namespace {

/// The patterns below, each rooted at the last op of the chain it expands
/// (the walk reaches the erf, then its sum, then the sum's product), so
/// that the ops before it can be erased.
template <typename OpTy>
struct ErfPattern : OpRewritePattern<OpTy> {
  ErfPattern(MLIRContext *ctx, bool approximateReciprocal)
      : OpRewritePattern<OpTy>(ctx),
        approximateReciprocal(approximateReciprocal) {}
  bool approximateReciprocal;
};

/// An erf that no sum takes in: its value.
struct ExpandErf : ErfPattern<math::ErfOp> {
  using ErfPattern::ErfPattern;

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32 erf");
    double addend;
    if (matchSum(op, addend))
      return rewriter.notifyMatchFailure(
          op, "expanded with the sum that takes it (ExpandErfPlusConstant)");
    expandInContext(rewriter, op, matchContext(op), approximateReciprocal);
    return success();
  }
};

/// `erf + k`: the expansion's last product as an fma with k (and GELU's
/// power of two moved into it from the product's other factor).
struct ExpandErfPlusConstant : ErfPattern<arith::AddFOp> {
  using ErfPattern::ErfPattern;

  LogicalResult matchAndRewrite(arith::AddFOp sum,
                                PatternRewriter &rewriter) const override {
    math::ErfOp erf = getErfOperand(sum);
    double addend;
    if (!erf || matchSum(erf, addend) != sum)
      return rewriter.notifyMatchFailure(sum, "not f32 erf + constant");
    ErfContext context = matchContext(erf);
    if (context.scaledSum)
      return rewriter.notifyMatchFailure(
          sum, "expanded with the product that scales it (ExpandScaledErfSum)");
    expandInContext(rewriter, erf, context, approximateReciprocal);
    return success();
  }
};

/// `(erf + k) * 2^j`: as ExpandErfPlusConstant, the power of two in the
/// coefficients.
struct ExpandScaledErfSum : ErfPattern<arith::MulFOp> {
  using ErfPattern::ErfPattern;

  LogicalResult matchAndRewrite(arith::MulFOp product,
                                PatternRewriter &rewriter) const override {
    math::ErfOp erf;
    for (Value operand : product->getOperands())
      if (auto sum = operand.getDefiningOp<arith::AddFOp>())
        if (math::ErfOp candidate = getErfOperand(sum))
          erf = candidate;
    if (!erf || matchContext(erf).scaledSum != product)
      return rewriter.notifyMatchFailure(
          product, "not (f32 erf + constant) times a power of two");
    expandInContext(rewriter, erf, matchContext(erf), approximateReciprocal);
    return success();
  }
};

struct GPUExpandErf : blockbuster::impl::GPUExpandErfBase<GPUExpandErf> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandErf, ExpandErfPlusConstant, ExpandScaledErfSum>(
        &getContext(), approximateReciprocal);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
