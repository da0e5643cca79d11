//===- AxisUtils.h - Queries about named axes -------------------*- C++ -*-===//
//
// Facts about axes that verifiers, the fusion report and the rewrite rules
// share: which program declares an axis, which axes the enclosing maps and
// reduces iterate, and the result axes of name-broadcasting ops.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_AXISUTILS_H
#define BLOCKBUSTER_DIALECT_BLOCK_IR_AXISUTILS_H

#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

namespace blockbuster::block {

/// The axes iterated by the maps and reduces enclosing `op` (not `op`
/// itself), outermost first. A tile axis in this list has the axis' block
/// size; any other tile axis spans the axis' whole extent.
llvm::SmallVector<mlir::StringAttr> getIteratedAxes(mlir::Operation *op);

/// The axes of a name-broadcasting op's result: the axes of the first
/// operand, then those of each later operand that are not yet present.
llvm::SmallVector<mlir::StringAttr>
getBroadcastAxes(llvm::ArrayRef<TileType> operands);

/// True when `name` can be printed as a bare identifier (M, N, d0, head_dim).
bool isBareAxisName(llvm::StringRef name);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_AXISUTILS_H
