//===- BlockbusterPlugin.cpp - Blockbuster as an mlir-opt plugin ----------===//
//
// Loads into a stock mlir-opt of the same LLVM version:
//
//   mlir-opt --load-dialect-plugin=BlockbusterPlugin.so \
//            --load-pass-plugin=BlockbusterPlugin.so \
//            --pass-pipeline='builtin.module(block-report)' input.mlir
//
// Pass flags are parsed before plugins load, so plugin passes must be named
// inside --pass-pipeline rather than as --block-report.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Blockbuster", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            blockbuster::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "BlockbusterPasses", LLVM_VERSION_STRING,
          []() { blockbuster::registerAllPasses(); }};
}
