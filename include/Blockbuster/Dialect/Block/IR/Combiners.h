//===- Combiners.h - Building the ops of a combiner kind --------*- C++ -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H
#define BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

namespace blockbuster::block {

/// The elementwise op of combiner `kind` (block.add, block.mul, block.max,
/// block.min) applied to `lhs` and `rhs`.
mlir::Value createCombine(mlir::OpBuilder &builder, mlir::Location loc,
                          CombinerKind kind, mlir::Value lhs, mlir::Value rhs);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H
