//===- Passes.h - Block programs to Linalg on tensors -----------*- C++ -*-===//

#ifndef BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_H
#define BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace blockbuster {

#define GEN_PASS_DECL
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h.inc"

} // namespace blockbuster

#endif // BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_H
