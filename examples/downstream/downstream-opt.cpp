//===- downstream-opt.cpp - A compiler that embeds Blockbuster ------------===//
//
// The optimizer driver of a downstream project: every upstream MLIR dialect
// and pass, every Blockbuster dialect and pass (Blockbuster/InitAll.h), and a
// pipeline of the project's own that puts Blockbuster's passes among upstream
// ones, built with Blockbuster's C++ pass constructors:
//
//   downstream-opt attention.mlir --downstream-fuse-and-report -o fused.mlir
//
// Blockbuster's passes also run by name, as in bb-opt:
//
//   downstream-opt attention.mlir --convert-linalg-to-block --block-fuse
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "Blockbuster/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

/// Linalg on tensors in, the fused block program out, its fusion report on
/// standard output.
static void buildFuseAndReportPipeline(mlir::OpPassManager &pm) {
  // What the project's frontend would run anyway: upstream passes.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Blockbuster: block programs from Linalg, fused, then measured.
  pm.addPass(blockbuster::createConvertLinalgToBlock());
  pm.addPass(blockbuster::block::createBlockFuse());
  pm.addPass(blockbuster::block::createBlockReport());
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  blockbuster::registerAllPasses();
  mlir::PassPipelineRegistration<>(
      "downstream-fuse-and-report",
      "Canonicalize, convert Linalg to block programs, fuse, report",
      buildFuseAndReportPipeline);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  blockbuster::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Downstream optimizer driver (embeds Blockbuster)\n",
      registry));
}
