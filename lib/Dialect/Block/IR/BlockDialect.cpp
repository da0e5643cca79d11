//===- BlockDialect.cpp - The block dialect -------------------------------===//

#include "Blockbuster/Dialect/Block/IR/Block.h"

using namespace mlir;
using namespace blockbuster::block;

#include "Blockbuster/Dialect/Block/IR/BlockOpsDialect.cpp.inc"

void BlockDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Blockbuster/Dialect/Block/IR/BlockOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}
