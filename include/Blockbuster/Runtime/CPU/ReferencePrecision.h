//===- ReferencePrecision.h - References computed in wider floats -*- C++ -*-===//

#ifndef BLOCKBUSTER_RUNTIME_CPU_REFERENCEPRECISION_H
#define BLOCKBUSTER_RUNTIME_CPU_REFERENCEPRECISION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blockbuster {

/// Rewrites `func` (Linalg on tensors) to compute every f16 and bf16 value in
/// f32, keeping its signature: arguments are extended on entry, results
/// rounded on return, and the conversions in between disappear. Upstream's
/// lowering of the program as written accumulates long f16 sums in f16,
/// where terms below half an ulp of the running sum vanish (a sum of 8192
/// values near 0.5 stops at 2048); a reference must not be the less
/// accurate side of a comparison. Returns false, leaving `func` unusable,
/// when an op cannot be promoted (the caller keeps a copy).
bool promoteNarrowFloatsToF32(mlir::func::FuncOp func);

/// Rewrites `func` to compute every f32 value in f64, keeping its signature
/// (f32 arguments extended on entry, results rounded on return): the f64
/// oracle that `bb-run --f64-oracle` measures both f32 results against.
/// Unlike the f16 promotion, nothing in between is rounded back to f32: the
/// oracle stands for the exact result. Returns false like the above.
bool promoteF32ToF64(mlir::func::FuncOp func);

} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CPU_REFERENCEPRECISION_H
