//===- RunningMaxCombine.h - FlashAttention's combine of a single pass --*- C++
//-*-===//
//
// Rule 9's online softmax (docs/FusionRules.md) folds each key tile into the
// loop's state with the tile's own maximum: m_j = rowmax(S), the terms
// l_j = rowsum(exp(S - m_j)) and O_j = round(exp(S - m_j)) V, then
// M = max(m, m_j), alpha = exp(m - M), beta = exp(m_j - M),
// l = l alpha + l_j beta, O = O alpha + O_j beta. On the registers of
// gpu-flash-attention that is a second accumulator O_j and, per tile, a
// product of O and of O_j and a sum (128 FMUL + 64 FADD per thread at
// D = 128). FlashAttention takes M before the exponent instead:
// P = exp(S - M), l = l alpha + rowsum(P), O = O alpha + P V (P V
// accumulated into O rescaled, beta = 1).
//
// The two are equal in real arithmetic (exp(S - M) = exp(S - m_j) beta);
// they differ in where P is rounded to bf16: round(exp(S - M)) instead of
// round(exp(S - m_j)) beta, one rounding of P (relative error 2^-9) either
// way. The block program rounds at m_j only because a block.reduce's body
// cannot read the reduce's state (its terms are independent of it, which
// rule 9's combine regions, rule 7's hoisting and the split reductions rely
// on). That rounding is the user's inexact choice exactly where the cast is
// `block.rescalable` (block-fuse's divide-after-rounding and
// round-dot-operands), the licence to move the rounding past a positive
// factor; convert-block-to-linalg marks its `arith.truncf`
// (kRescalableRoundingAttrName). Without that mark (the exact two-pass
// default, a program that rounds P itself) nothing matches.
//
// A P that V multiplies unrounded, in f32 (f32 attention; PyTorch's SDPA
// exported in bf16, whose P stays f32 against a widened V) has no rounding
// to move: the two forms differ only in f32 roundings (exp(S - M) against
// exp(S - m_j) beta), as a reassociated sum does, so FlashAttention's is
// taken there too. One accumulator instead of O and O_j is what lets a head
// of 256 keep O in the registers of one warpgroup.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_RUNNINGMAXCOMBINE_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_RUNNINGMAXCOMBINE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {

/// Rule 9's online combine in one reduce loop over key tiles, after
/// bufferization (linalg ops on workgroup buffers).
struct OnlineCombine {
  /// m_j = rowmax(S) into its buffer.
  mlir::linalg::GenericOp tileMax;
  /// M = max(m, m_j); shift = select(M == -inf, 0, M); alpha = exp(m -
  /// shift); beta = exp(m_j - shift).
  mlir::linalg::GenericOp newMax, shift, alpha, beta;
  /// The ops that read m_j only through exp(x - select(m_j == -inf, 0,
  /// m_j)), the shift's function of it.
  llvm::SmallVector<mlir::linalg::GenericOp> exponentials;
  /// A state t the combine rescales: t = t alpha + t_j beta, where t_j is
  /// zero-filled and accumulated by one op (a row sum of exponentials, or
  /// a dot of their rescalable rounding), and a copy updates t.
  struct Rescaled {
    mlir::linalg::FillOp fill;
    mlir::linalg::GenericOp accumulate, combine;
    mlir::linalg::CopyOp update;
    /// The combine's product of t by alpha, and the operand numbers of t,
    /// alpha and t_j in the combine.
    mlir::Operation *product = nullptr;
    unsigned state = 0, alpha = 0, term = 0;
  };
  llvm::SmallVector<Rescaled> rescaled;
};

/// The online combine of `loop`, where every term the combine rescales is
/// a row sum of exponentials or a dot of them or of their rounding marked
/// rescalable, and at least one is such a dot; failure otherwise.
mlir::FailureOr<OnlineCombine> matchOnlineCombine(mlir::scf::ForOp loop);

/// Rewrites a matched combine to FlashAttention's: M, its shift and alpha
/// right after m_j; the exponentials read M instead of m_j; each t_j starts
/// at t alpha instead of zero and updates t directly; beta and the
/// combines go.
void rewriteToRunningMax(mlir::RewriterBase &rewriter,
                         OnlineCombine combine);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_RUNNINGMAXCOMBINE_H
