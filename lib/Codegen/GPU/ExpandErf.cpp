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
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUEXPANDERF
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

// Above it erf(x) rounds to 1 in f32 (erfc(3.92) < 2^-25).
constexpr float kClamp = 3.92f;
// Horner order, highest degree first.
constexpr float kNumerator[] = {2.050091726e-06f, 2.848794690e-04f,
                                3.765513540e-03f, 5.274839578e-02f,
                                1.904041917e-01f, 1.128379146e+00f};
constexpr float kDenominator[] = {3.809159277e-05f, 1.162508809e-03f,
                                  1.496900830e-02f, 1.141081479e-01f,
                                  5.020740628e-01f, 1.0f};

struct ExpandErf : OpRewritePattern<math::ErfOp> {
  ExpandErf(MLIRContext *ctx, bool approximateReciprocal)
      : OpRewritePattern(ctx), approximateReciprocal(approximateReciprocal) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32 erf");
    Location loc = op.getLoc();
    auto constant = [&](float value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(value));
    };
    auto horner = [&](ArrayRef<float> coefficients, Value s) {
      Value sum = constant(coefficients.front());
      for (float c : coefficients.drop_front())
        sum = math::FmaOp::create(rewriter, loc, sum, s, constant(c));
      return sum;
    };
    // minimumf / maximumf propagate NaN.
    Value x = arith::MinimumFOp::create(
        rewriter, loc,
        arith::MaximumFOp::create(rewriter, loc, op.getOperand(),
                                  constant(-kClamp)),
        constant(kClamp));
    Value s = arith::MulFOp::create(rewriter, loc, x, x);
    Value numerator = arith::MulFOp::create(rewriter, loc, x,
                                            horner(kNumerator, s));
    Value denominator = horner(kDenominator, s);
    Value reciprocal =
        approximateReciprocal
            ? NVVM::RcpApproxFtzF32Op::create(rewriter, loc,
                                              rewriter.getF32Type(),
                                              denominator)
                  .getResult()
            : arith::DivFOp::create(rewriter, loc, constant(1.0f),
                                    denominator)
                  .getResult();
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, numerator, reciprocal);
    return success();
  }

  bool approximateReciprocal;
};

struct GPUExpandErf : blockbuster::impl::GPUExpandErfBase<GPUExpandErf> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandErf>(&getContext(), approximateReciprocal);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
