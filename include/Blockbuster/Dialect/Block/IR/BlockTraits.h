//===- BlockTraits.h - Op traits of the block dialect -----------*- C++ -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTRAITS_H
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace blockbuster::block {
namespace detail {
/// Checks that every axis the op names (in its tile types and in its axis
/// attributes) is declared in the enclosing program's axis table.
mlir::LogicalResult verifyDeclaredAxes(mlir::Operation *op);
} // namespace detail

/// Ops whose axes must be declared by the enclosing block.program.
template <typename ConcreteType>
class DeclaredAxes
    : public mlir::OpTrait::TraitBase<ConcreteType, DeclaredAxes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyDeclaredAxes(op);
  }
};
} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTRAITS_H
