//===- bb-compile.cpp - Block programs or Linalg to a PTX artifact --------===//
//
//   bb-compile FILE -o DIR [--entry NAME] [--whole-threshold N] [--no-fuse]
//              [--target h100] [--block-sizes A=S,..] [--chip sm_90]
//              [--threads-per-block 128] [--emit-fused FILE]
//              [--wgmma-stages 3] [--wgmma-group-rows 8]
//
// Linalg on tensors (or block programs) in; DIR/manifest.json and one PTX
// file per kernel module out (docs/Artifact.md). The device that runs the
// artifact needs no MLIR: the runtimes of lib/Runtime and python/blockbuster
// execute it.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"
#include "Blockbuster/Pipelines/GPUArtifact.h"
#include "Blockbuster/Support/LinalgParserGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir>"));
static cl::opt<std::string> outputDir("o", cl::Required,
                                      cl::desc("Artifact directory"),
                                      cl::value_desc("dir"));
static cl::opt<std::string> entry("entry", cl::init(""),
                                  cl::desc("Function to compile (default: "
                                           "the only one)"));
static cl::opt<int64_t> wholeThreshold(
    "whole-threshold", cl::init(0),
    cl::desc("convert-linalg-to-block's whole-threshold: reduced and feature "
             "axes up to this extent are whole (default: the fastest form "
             "that fits the target)"));
static cl::opt<std::string>
    target("target", cl::init("h100"),
           cl::desc("Machine block-fuse and block-select estimate for (h100, "
                    "h200)"));
static cl::opt<bool> noFuse("no-fuse", cl::init(false),
                            cl::desc("Skip block-fuse (one kernel per "
                                     "operator)"));
static cl::opt<std::string>
    blockSizes("block-sizes", cl::init(""),
               cl::desc("Block sizes AXIS=SIZE,... given to block-select"));
static cl::opt<std::string> chip("chip", cl::init("sm_90"),
                                 cl::desc("Target chip"));
static cl::opt<std::string> features("features", cl::init("+ptx80"),
                                     cl::desc("PTX features"));
static cl::opt<int64_t> threadsPerBlock("threads-per-block", cl::init(128),
                                cl::desc("Threads per block"));
static cl::opt<int64_t> wgmmaStages(
    "wgmma-stages", cl::init(3),
    cl::desc("sm_90a GEMM blocks: slots of the TMA ring"));
static cl::opt<int64_t> wgmmaGroupRows(
    "wgmma-group-rows", cl::init(8),
    cl::desc("sm_90a GEMM blocks: rows of tiles per group of the launch "
             "order (0: row by row)"));
static cl::opt<std::string>
    emitFused("emit-fused", cl::init(""),
              cl::desc("Also write the selected block program to this file"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  blockbuster::registerAllPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "Blockbuster: compile to a PTX artifact\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  blockbuster::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "bb-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      blockbuster::parseGuardedSourceFile(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  blockbuster::GPUCompileOptions options;
  options.wholeThreshold = wholeThreshold;
  options.fuse = !noFuse;
  options.target = target;
  options.blockSizes = blockSizes;
  options.chip = chip;
  options.features = features;
  options.threads = threadsPerBlock;
  options.wgmmaStages = wgmmaStages;
  options.wgmmaGroupRows = wgmmaGroupRows;
  std::string fused;
  if (failed(blockbuster::compileForGPU(*module, options, &fused)))
    return 1;
  if (!emitFused.empty()) {
    auto out = openOutputFile(emitFused, &error);
    if (!out) {
      llvm::errs() << "bb-compile: error: " << error << "\n";
      return 1;
    }
    out->os() << fused;
    out->keep();
  }
  if (failed(blockbuster::writeArtifact(*module, entry, outputDir)))
    return 1;
  return 0;
}
