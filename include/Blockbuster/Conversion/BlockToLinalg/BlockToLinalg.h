//===- BlockToLinalg.h - Block programs to Linalg on tensors ----*- C++ -*-===//
//
// The conversion behind `convert-block-to-linalg`, for callers that lower
// one program at a time.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_BLOCKTOLINALG_H
#define BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_BLOCKTOLINALG_H

#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blockbuster {

/// The unit attribute that the conversion puts on the `arith.truncf` of a
/// `block.cast` marked `block.rescalable` (block-fuse's divide-after-rounding
/// and round-dot-operands): the user accepts that the rounding point moves
/// past a positive factor, cast(x) computed as cast(x e) / e. The GPU
/// schedule of attention reads it (gpu-flash-attention: P rounded after the
/// rescaling by the running maximum, FlashAttention's combine).
inline constexpr llvm::StringLiteral kRescalableRoundingAttrName =
    "blockbuster.rescalable";

/// Builds, right before `program`, a func.func of the same name over tensors
/// that computes what `program` does, block by block (see the description
/// of convert-block-to-linalg). `program` is left in place; the caller erases
/// it. Fails with an error on `program` (or the offending op) when a tiled
/// axis has no block size or an op cannot be lowered; nothing is built then.
mlir::FailureOr<mlir::func::FuncOp>
convertProgramToLinalg(block::ProgramOp program);

} // namespace blockbuster

#endif // BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_BLOCKTOLINALG_H
