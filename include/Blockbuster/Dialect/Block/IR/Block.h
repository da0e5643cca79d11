//===- Block.h - The block dialect ------------------------------*- C++ -*-===//
//
// Dialect, types, attributes and ops of the `block` dialect. Include this
// header to use any of them.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCK_H
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCK_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Blockbuster/Dialect/Block/IR/BlockOpsDialect.h.inc"
#include "Blockbuster/Dialect/Block/IR/BlockOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOpsAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOpsTypes.h.inc"

#include "Blockbuster/Dialect/Block/IR/BlockTraits.h"

#define GET_OP_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOps.h.inc"

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCK_H
