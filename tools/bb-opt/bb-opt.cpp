//===- bb-opt.cpp - The Blockbuster optimizer driver ----------------------===//
//
// mlir-opt with the Blockbuster dialects and passes added: every upstream
// dialect and pass is available too, so whole pipelines run in one tool.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  blockbuster::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  blockbuster::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Blockbuster optimizer driver\n", registry));
}
