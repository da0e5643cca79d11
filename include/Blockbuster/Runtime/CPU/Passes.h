//===- Passes.h - Passes of the CPU checker ---------------------*- C++ -*-===//

#ifndef BLOCKBUSTER_RUNTIME_CPU_PASSES_H
#define BLOCKBUSTER_RUNTIME_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace blockbuster {

#define GEN_PASS_DECL
#include "Blockbuster/Runtime/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Blockbuster/Runtime/CPU/Passes.h.inc"

} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CPU_PASSES_H
