//===- RowCombiners.h - Combiners of row reductions on a warp ---*- C++ -*-===//
//
// The reassociable f32 combiners a row reduction may be split over the
// lanes of a warp with, shared by gpu-warp-row-reductions and
// gpu-row-kernels.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_ROWCOMBINERS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_ROWCOMBINERS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/APFloat.h"

#include <optional>

namespace blockbuster {

/// The identity of the reassociable f32 combiner `op` (addf, mulf, maximumf,
/// maxnumf, minimumf, minnumf), or none.
std::optional<llvm::APFloat> combinerIdentity(mlir::Operation *op);

/// A new op like `combiner` (its name and attributes) on `lhs` and `rhs`.
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Operation *combiner, mlir::Value lhs,
                    mlir::Value rhs);

/// The combination of `value` over the 32 lanes of a warp, in every lane: a
/// butterfly of `gpu.shuffle xor` with offsets 16, 8, 4, 2, 1.
mlir::Value combineAcrossWarp(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Operation *combiner, mlir::Value value);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_ROWCOMBINERS_H
