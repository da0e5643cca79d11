//===- Passes.h - Linalg to block conversion --------------------*- C++ -*-===//

#ifndef BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_H
#define BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace blockbuster {

#define GEN_PASS_DECL
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"

} // namespace blockbuster

#endif // BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_H
