//===- QuadTranspose.h - 16-byte rows from mma fragments --------*- C++ -*-===//
//
// The accumulator fragments of mma.sync and wgmma give each lane of a quad
// (four consecutive lanes, all on one row) two adjacent columns of every
// group of eight: lane q holds columns 8 j + 2 q and 8 j + 2 q + 1. Stored
// as they are, a warp's stores are 4 bytes wide (for 16-bit results). After
// the exchange below, lane q of the quad holds all eight columns of group
// 4 b + q, one 16-byte store.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_QUADTRANSPOSE_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_QUADTRANSPOSE_H

#include "mlir/IR/Builders.h"

namespace blockbuster {

/// `pairs[j]` (four i32 values) is what lane `laneInQuad` (an i32 in [0, 4))
/// holds of column group j; returns the four i32 values that lane p of
/// its quad held of group `laneInQuad`, in the order p = 0, 1, 2, 3: three
/// xor shuffles, each lane sending the value its partner keeps.
llvm::SmallVector<mlir::Value, 4>
transposeQuad(mlir::OpBuilder &builder, mlir::Location loc,
              mlir::Value laneInQuad, llvm::ArrayRef<mlir::Value> pairs);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_QUADTRANSPOSE_H
