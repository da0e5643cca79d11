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

/// Builds, right before `program`, a func.func of the same name over tensors
/// that computes what `program` does, block by block (see the description
/// of convert-block-to-linalg). `program` is left in place; the caller erases
/// it. Fails with an error on `program` (or the offending op) when a tiled
/// axis has no block size or an op cannot be lowered; nothing is built then.
mlir::FailureOr<mlir::func::FuncOp>
convertProgramToLinalg(block::ProgramOp program);

} // namespace blockbuster

#endif // BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_BLOCKTOLINALG_H
