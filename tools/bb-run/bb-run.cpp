//===- bb-run.cpp - Run programs on the CPU and check them ----------------===//
//
// The command line of the differential checker (lib/Runtime/Runner.cpp,
// docs/CPUExecution.md):
//
//   bb-run FILE --entry NAME [--block-sizes A=64,B=32] [--seed N] [--print]
//   bb-run FILE --entry NAME --check [--reference REF] [--rtol R] [--atol A]
//          [--f64-oracle]
//   bb-run FILE --print --print-f64-oracle     (Linalg FILE)
//   bb-run --device=cuda ARTIFACT_DIR [--check --reference REF] [--print]
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"
#include "Blockbuster/Runtime/CPU/CPURunner.h"
#include "Blockbuster/Runtime/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static cl::OptionCategory category("bb-run options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<program.mlir>"),
                                          cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("The block.program or func.func to run (default: the "
                       "only one in the file)"),
              cl::cat(category));
static cl::opt<bool>
    check("check",
          cl::desc("Compare every output with the reference's, on the same "
                   "inputs; exit 1 on any mismatch"),
          cl::cat(category));
static cl::opt<std::string> referenceFilename(
    "reference",
    cl::desc("The reference program (a block program or Linalg); without "
             "it, --check compares Linalg input with its upstream lowering"),
    cl::value_desc("file"), cl::cat(category));
static cl::list<std::string>
    blockSizes("block-sizes",
               cl::desc("Block sizes AXIS=SIZE given to block-select, for "
                        "both programs"),
               cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("The target whose heuristic block-select uses for axes "
                    "not in --block-sizes"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the random inputs (SplitMix64)"),
         cl::init(1), cl::cat(category));
static cl::opt<double>
    rtolOption("rtol",
               cl::desc("Relative tolerance (default 1e-4; 2e-2 when an input "
                        "or output is f16 or bf16)"),
               cl::init(-1.0), cl::cat(category));
static cl::opt<double> atolOption(
    "atol",
    cl::desc("Absolute tolerance (default: rtol times the largest magnitude "
             "in the reference output)"),
    cl::init(-1.0), cl::cat(category));
static cl::opt<bool> fuse("fuse",
                          cl::desc("Fuse the program under test with "
                                   "block-fuse before block-select"),
                          cl::cat(category));
static cl::opt<bool> noFuse("no-fuse",
                            cl::desc("Run the program under test unfused (the "
                                     "default; overrides --fuse)"),
                            cl::cat(category));
static cl::opt<bool> printOutputs("print",
                                  cl::desc("Print every output (and, with "
                                           "--check, the reference's)"),
                                  cl::cat(category));
static cl::opt<bool> injectError(
    "inject-error",
    cl::desc("Test the checker: after the run, add 1 + max|x| to the first "
             "element of the first output of the program under test"),
    cl::cat(category));
static cl::opt<std::string> device(
    "device",
    cl::desc("Where the program under test runs: cpu (FILE is MLIR, JIT-run) "
             "or cuda (FILE is an artifact directory, docs/Artifact.md)"),
    cl::init("cpu"), cl::cat(category));
static cl::opt<bool> f64Oracle(
    "f64-oracle",
    cl::desc("With --check and a Linalg reference: judge an output that "
             "fails the tolerance again against the reference computed in "
             "f64; it passes when its largest and RMS errors there are at "
             "most twice the f32 reference's (plus atol, atol/10)"),
    cl::cat(category));
static cl::opt<bool> printF64Oracle(
    "print-f64-oracle",
    cl::desc("Also print the outputs of the Linalg program (the reference "
             "with --check) computed with every f32 value in f64, as "
             "'oracle #N' (scripts/prepare-gpu-difftest.sh)"),
    cl::cat(category));
static cl::opt<bool> injectNaN(
    "inject-nan",
    cl::desc("Test the checker: after the run, set the last element of the "
             "first output of the program under test to NaN"),
    cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Blockbuster's passes, so that convert-linalg-to-block is found by name.
  blockbuster::registerAllPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "bb-run: JIT-run block programs and Linalg on the CPU, and check one "
      "against a reference\n");

  if (device != "cpu" && device != "cuda") {
    llvm::errs() << "bb-run: error: --device=" << device
                 << " is not one of cpu, cuda\n";
    return 1;
  }
  blockbuster::runner::RunOptions options;
  options.inputFilename = inputFilename;
  options.entryName = entryName;
  options.check = check;
  options.referenceFilename = referenceFilename;
  options.blockSizes.assign(blockSizes.begin(), blockSizes.end());
  options.target = target;
  options.seed = seed;
  options.rtol = rtolOption;
  options.atol = atolOption;
  options.fuse = fuse;
  options.noFuse = noFuse;
  options.printOutputs = printOutputs;
  options.f64Oracle = f64Oracle;
  options.printF64Oracle = printF64Oracle;
  options.injectError = injectError;
  options.injectNaN = injectNaN;

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  blockbuster::runner::registerRunnerDialects(registry);
  MLIRContext context(registry);
  // A failing pass names the op and the reason; the whole module that
  // MLIR would print after it buries the message.
  context.printOpOnDiagnostic(false);

  // Diagnostics print as file:line:col: error: ...; the handler reopens the
  // file a location names to show the line.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  if (device == "cuda")
    return blockbuster::runner::runArtifactOnCuda(context, options);
  return blockbuster::runner::runProgramOnCPU(context, options);
}
