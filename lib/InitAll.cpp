//===- InitAll.cpp - Register every Blockbuster dialect and pass ----------===//

#include "Blockbuster/InitAll.h"

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h"
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "Blockbuster/Pipelines/GPUPipeline.h"
#include "Blockbuster/Pipelines/Pipelines.h"
#include "Blockbuster/Runtime/CPU/Passes.h"

void blockbuster::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<block::BlockDialect>();
}

void blockbuster::registerAllPasses() {
  block::registerBlockPasses();
  registerLinalgToBlockPasses();
  registerBlockToLinalgPasses();
  registerBlockbusterGPUPasses();
  registerPipelines();
  registerGPUPipeline();
  registerCPUCheckerPasses();
}
