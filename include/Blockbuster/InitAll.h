//===- InitAll.h - Register every Blockbuster dialect and pass --*- C++ -*-===//

#ifndef BLOCKBUSTER_INITALL_H
#define BLOCKBUSTER_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace blockbuster {

/// Adds the Blockbuster dialects to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every Blockbuster pass and pipeline with the global registry.
void registerAllPasses();

} // namespace blockbuster

#endif // BLOCKBUSTER_INITALL_H
