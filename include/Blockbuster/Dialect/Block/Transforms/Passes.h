//===- Passes.h - Passes on block programs ----------------------*- C++ -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_H
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_H

#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Pass/Pass.h"

namespace blockbuster::block {

#define GEN_PASS_DECL
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_H
