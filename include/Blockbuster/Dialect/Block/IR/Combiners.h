//===- Combiners.h - Building the ops of a combiner kind --------*- C++ -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H
#define BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

namespace blockbuster::block {

/// The elementwise op of combiner `kind` (block.add, block.mul, block.max,
/// block.min) applied to `lhs` and `rhs`.
mlir::Value createCombine(mlir::OpBuilder &builder, mlir::Location loc,
                          CombinerKind kind, mlir::Value lhs, mlir::Value rhs);

/// The identity of combiner `kind` on elements of `type` (a float, integer
/// or index type): 0, 1, -inf and +inf for floats; for integers the smallest
/// and largest signed values, except on i1, a mask, where max is `or` and
/// min is `and` (false < true), so their identities are false and true.
mlir::TypedAttr getCombinerIdentity(CombinerKind kind, mlir::Type type);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_COMBINERS_H
