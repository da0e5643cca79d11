//===- ReferencePrecision.h - An f32 reference for f16/bf16 code -*- C++ -*-===//

#ifndef BLOCKBUSTER_RUNTIME_REFERENCEPRECISION_H
#define BLOCKBUSTER_RUNTIME_REFERENCEPRECISION_H

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

} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_REFERENCEPRECISION_H
