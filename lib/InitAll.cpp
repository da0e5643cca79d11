//===- InitAll.cpp - Register every Blockbuster dialect and pass ----------===//

#include "Blockbuster/InitAll.h"

#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"

void blockbuster::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<block::BlockDialect>();
}

void blockbuster::registerAllPasses() { block::registerBlockPasses(); }
