//===- TileBounds.h - Constant bounds of tile extents -----------*- C++ -*-===//
//
// Tiles at the partial edge blocks of a grid have dynamic extents
// (`arith.minsi(rest, block)`); the GPU lowering needs their static upper
// bound (the full block) to size shared memory and register fragments.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_TILEBOUNDS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_TILEBOUNDS_H

#include "mlir/IR/Value.h"

#include <optional>

namespace blockbuster {

/// A constant upper bound of the index `value`. The value bounds analysis
/// does not model `arith.minsi`; a min is bounded by any bounded operand.
std::optional<int64_t> constantUpperBound(mlir::Value value);

/// A constant upper bound of dimension `dim` of the memref `memref`: its
/// static size, or the bound of the size it was allocated or sliced with.
std::optional<int64_t> constantUpperBound(mlir::Value memref, unsigned dim);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_TILEBOUNDS_H
