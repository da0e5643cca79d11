//===- FmaContraction.h - Elementwise bodies as fused multiply-adds -*- C++ -*-===//
//
// The elementwise bodies of norms run once per element of a row or of an A
// tile, and the kernels that run them are bound by their instructions (a
// LayerNorm's `(x - mean) * rstd * gamma + beta` is four f32 operations per
// element as written: the register-A prologue of the Hopper norm + matmul
// kernel, the add + GELU + add + LayerNorm row kernel). Written with fused
// multiply-adds it is two, one of them per row: what nvcc's default
// `--fmad=true` and Triton do, at f32 rounding differences.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_FMACONTRACTION_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_FMACONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {

/// Rewrites, in place, the body of `op`, a linalg.generic whose iterators
/// are all parallel, in f32:
///   - `(x - m) * r`, where `m` and `r` vary over fewer of the op's loops
///     than the product does (a row's mean and rstd against its elements),
///     becomes `fma(x, r, -(m * r))`, `-(m * r)` ops of `m` and `r` alone
///     that a lowering computes once per row (the rows of a row kernel and
///     of a wgmma prologue hoist them);
///   - `a * b + c` (either order of the add), the product used once,
///     becomes `fma(a, b, c)`.
/// Rounding: one rounding fewer per contraction; `-(m * r)` is rounded, an
/// absolute error of at most half an ulp of `m * r`, against the
/// subtraction's exact `x - m` where x and m are close: relative to the
/// result (x - m) * r that is |m| / |x - m| times 2^-24, below a bf16
/// rounding unless the mean exceeds the deviation 2^14 times.
/// Fails (changing nothing) when the body has nothing to rewrite or the op
/// has a reduction.
mlir::LogicalResult contractToFma(mlir::RewriterBase &rewriter,
                                  mlir::linalg::GenericOp op);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_FMACONTRACTION_H
