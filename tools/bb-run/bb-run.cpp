//===- bb-run.cpp - Run programs on the CPU and check them ----------------===//
//
// The differential checker of docs/design/03-lowering-and-runtime.md ("Checking
// numbers"):
//
//   bb-run FILE --entry NAME [--block-sizes A=64,B=32] [--seed N] [--print]
//   bb-run FILE --entry NAME --check [--reference REF] [--rtol R] [--atol A]
//          [--f64-oracle]
//   bb-run --device=cuda ARTIFACT_DIR [--check --reference REF] [--print]
//
// FILE and REF are block programs or Linalg on tensors (func.func). Both
// are compiled for the host CPU and JIT-run with MLIR's ExecutionEngine on
// the same seeded random inputs; every output is poisoned with NaN before a
// run, so an element a program forgets to write fails the check. Per output
// the checker prints the largest absolute and relative errors and PASS or
// FAIL, and exits non-zero on any FAIL. With --f64-oracle, an output that
// fails is judged again against the reference computed in f64 (below).
//
// How each side is compiled:
//
// * a block program: block-select (with --block-sizes) and the
//   blockbuster-cpu-pipeline;
// * Linalg as the program under test: convert-linalg-to-block (looked up by
//   name in the pass registry), then as above;
// * Linalg as the reference (--reference REF, or FILE itself when --check
//   has no --reference): upstream MLIR's ordinary path, with nothing of
//   Blockbuster in it (buildLinalgTensorsToLLVMPipeline).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "Blockbuster/InitAll.h"
#include "Blockbuster/Pipelines/Pipelines.h"
#include "Blockbuster/Runtime/CUDA/Artifact.h"
#include "Blockbuster/Runtime/CPU/CPURunner.h"
#include "Blockbuster/Runtime/CUDA/CudaRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <memory>

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::runner;
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
static cl::opt<bool> injectNaN(
    "inject-nan",
    cl::desc("Test the checker: after the run, set the last element of the "
             "first output of the program under test to NaN"),
    cl::cat(category));

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static const ErrorStream toolErrors{llvm::errs(), "bb-run"};

static LoweringOptions getLoweringOptions(bool applyFusion) {
  LoweringOptions options;
  options.fuse = applyFusion;
  options.blockSizes.assign(blockSizes.begin(), blockSizes.end());
  options.target = target;
  return options;
}

/// --inject-error and --inject-nan: prove that the checker fails.
static void injectErrors(MutableArrayRef<HostArray> outputs) {
  if (!outputs.empty() && injectError) {
    // Larger than any tolerance below 1/2: 1 + the output's largest |x|.
    double largest = 0;
    for (int64_t i = 0, e = outputs[0].size(); i < e; ++i)
      largest = std::max(largest, std::fabs(outputs[0].get(i)));
    outputs[0].set(0, outputs[0].get(0) + 1.0 + largest);
  }
  if (!outputs.empty() && injectNaN)
    outputs[0].set(outputs[0].size() - 1, std::nan(""));
}

/// --f64-oracle: the Linalg reference of a check lowered with every f32
/// value computed in f64 and run on the check's inputs, the first time an
/// output needs it. The inputs are generated again from the seed: a program
/// may have written into its argument buffers (an argument that is the
/// `outs` of an op bufferizes in place).
class F64Oracle {
public:
  F64Oracle(MLIRContext &context, const Program &ref) : context(context), ref(ref) {}

  /// The oracle's outputs, or null after an error (printed).
  const SmallVector<HostArray> *getOutputs() {
    if (!outputs && failed(run()))
      return nullptr;
    return &*outputs;
  }

private:
  LogicalResult run() {
    FailureOr<Program> oracle =
        loadProgram(context, ref.filename, ref.entry, toolErrors);
    if (failed(oracle))
      return failure();
    if (oracle->kind != InputKind::Linalg) {
      toolErrors.error() << "--f64-oracle needs a Linalg reference; "
                         << ref.filename << " is a block program\n";
      return failure();
    }
    std::string notes;
    llvm::raw_string_ostream notesStream(notes);
    if (failed(lowerLinalgReference(*oracle->module, oracle->entry,
                                    notesStream, /*inF64=*/true)))
      return failure();
    SmallVector<HostArray> inputs = createArrays(oracle->inputs);
    fillInputs(inputs, seed);
    SmallVector<HostArray> results = createArrays(oracle->outputs);
    for (HostArray &result : results)
      result.poison();
    if (failed(runOnCPU(*oracle->module, oracle->entry, inputs,
                        oracle->byValue, results, toolErrors)))
      return failure();
    outputs = std::move(results);
    return success();
  }

  MLIRContext &context;
  const Program &ref;
  std::optional<SmallVector<HostArray>> outputs;
};

/// Compares `outputs` of the program under test with the reference's and
/// prints one line per output and PASS or FAIL; returns the exit status.
/// `narrow`: an input or output is f16 or bf16 (the looser tolerance).
/// With --f64-oracle, `oracle` judges the outputs that fail again.
static int checkOutputs(ArrayRef<HostArray> outputs,
                        ArrayRef<HostArray> refOutputs, bool narrow,
                        StringRef refEntry, StringRef refFilename,
                        F64Oracle &oracle) {
  // Tolerances of docs/design/03-lowering-and-runtime.md: f32 1e-4 relative;
  // f16/bf16 storage 2e-2.
  double rtol = rtolOption >= 0 ? rtolOption : (narrow ? 2e-2 : 1e-4);
  llvm::outs() << "reference: @" << refEntry << " (" << refFilename
               << "), rtol " << llvm::format("%g", rtol) << "\n";

  bool allPassed = true;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(outputs, refOutputs))) {
    const HostArray &out = std::get<0>(pair);
    const HostArray &refOut = std::get<1>(pair);
    // Rounding errors of a sum scale with its terms, not with its value, so
    // by default an element near a zero of the reference is judged against
    // the output's scale, its largest magnitude. The normwise criterion
    // keeps that from hiding an error spread over the small elements.
    double atol = atolOption >= 0 ? atolOption
                                  : rtol * getLargestMagnitude(refOut);
    Comparison result = compare(out, refOut, rtol, atol);
    bool passed = result.nans == 0 && result.mismatches == 0 &&
                  result.normRelError <= rtol;
    // Where the output is ill-conditioned, any two f32 evaluation orders
    // differ by more than rtol; what can be asked of the program under test
    // is then to be about as close to the exact result as the reference is
    // (TorchInductor's accuracy check with an fp64 reference compares RMS
    // errors the same way). The largest error is compared too, so that one
    // wrong element does not hide in the mean of a large output. NaN never
    // passes.
    std::string oracleLine;
    if (!passed && result.nans == 0 && f64Oracle) {
      const SmallVector<HostArray> *oracleOutputs = oracle.getOutputs();
      if (!oracleOutputs)
        return 1;
      const HostArray &exact = (*oracleOutputs)[index];
      Comparison testError = compare(out, exact, rtol, atol);
      Comparison refError = compare(refOut, exact, rtol, atol);
      passed = testError.nans == 0 && refError.nans == 0 &&
               testError.maxAbsError <= 2 * refError.maxAbsError + atol &&
               testError.rmsError <= 2 * refError.rmsError + atol / 10;
      llvm::raw_string_ostream(oracleLine)
          << "  f64 oracle: max error "
          << llvm::format("%.3g", testError.maxAbsError) << " (reference "
          << llvm::format("%.3g", refError.maxAbsError) << "), rms error "
          << llvm::format("%.3g", testError.rmsError) << " (reference "
          << llvm::format("%.3g", refError.rmsError)
          << "); passes at most twice the reference's + atol (max), "
             "+ atol/10 (rms): "
          << (passed ? "PASS" : "FAIL") << "\n";
    }
    llvm::outs() << "output #" << index << " (" << out.getDesc().str()
                 << "): atol " << llvm::format("%.3g", atol)
                 << ", max_abs_err " << llvm::format("%.3g", result.maxAbsError)
                 << ", max_rel_err " << llvm::format("%.3g", result.maxRelError)
                 << ", max err/tol "
                 << llvm::format("%.3g", result.maxErrorOverTolerance)
                 << ", norm_rel_err "
                 << llvm::format("%.3g", result.normRelError) << ", mismatches "
                 << result.mismatches << ", nan " << result.nans << " of "
                 << out.size() << ": " << (passed ? "PASS" : "FAIL") << "\n"
                 << oracleLine;
    if (!passed) {
      allPassed = false;
      if (result.firstBad >= 0) {
        llvm::outs() << "  first failing element ";
        printIndex(llvm::outs(), out.getDesc(), result.firstBad);
        llvm::outs() << ": got "
                     << llvm::format("%.8g", out.get(result.firstBad))
                     << ", reference "
                     << llvm::format("%.8g", refOut.get(result.firstBad))
                     << "\n";
      } else {
        llvm::outs() << "  the normwise relative error exceeds rtol\n";
      }
    }
  }
  llvm::outs() << (allPassed ? "PASS" : "FAIL") << "\n";
  return allPassed ? 0 : 1;
}


static int runMain(MLIRContext &context) {
  FailureOr<Program> test = loadProgram(context, inputFilename, entryName, toolErrors);
  if (failed(test))
    return 1;

  // The reference: another file, or for Linalg input the same file through
  // upstream's lowering.
  std::optional<Program> ref;
  if (check) {
    StringRef refFile = referenceFilename;
    if (refFile.empty()) {
      if (test->kind != InputKind::Linalg) {
        toolErrors.error() << "--check on a block program needs "
                        "--reference (another block program or Linalg)\n";
        return 1;
      }
      refFile = inputFilename;
    }
    FailureOr<Program> loaded = loadProgram(context, refFile, test->entry, toolErrors);
    if (failed(loaded))
      return 1;
    ref = std::move(*loaded);
    if (failed(checkSignaturesMatch(*test, *ref, toolErrors)))
      return 1;
  } else if (!referenceFilename.empty()) {
    toolErrors.error() << "--reference needs --check\n";
    return 1;
  }

  if (failed(lowerWithBlockbuster(*test->module, test->kind,
                                  getLoweringOptions(/*applyFusion=*/fuse &&
                                                     !noFuse))))
    return 1;
  if (ref) {
    LogicalResult lowered =
        ref->kind == InputKind::Linalg
            ? lowerLinalgReference(*ref->module, ref->entry, llvm::outs())
            : lowerWithBlockbuster(*ref->module, ref->kind,
                                   getLoweringOptions(/*applyFusion=*/false));
    if (failed(lowered))
      return 1;
  }

  SmallVector<HostArray> inputs = createArrays(test->inputs);
  fillInputs(inputs, seed);

  SmallVector<HostArray> outputs = createArrays(test->outputs);
  for (HostArray &output : outputs)
    output.poison();
  // The Blockbuster path passes scalars as 0-d arrays: all by descriptor.
  if (failed(runOnCPU(*test->module, test->entry, inputs, /*inputsByValue=*/{},
                      outputs, toolErrors)))
    return 1;
  injectErrors(outputs);

  llvm::outs() << "bb-run: @" << test->entry << " (" << test->filename
               << "), seed " << seed << "\n";
  if (printOutputs)
    for (auto [index, output] : llvm::enumerate(outputs))
      printArray(llvm::outs(), "output #" + std::to_string(index), output);
  if (!ref)
    return 0;

  SmallVector<HostArray> refOutputs = createArrays(ref->outputs);
  for (HostArray &output : refOutputs)
    output.poison();
  if (failed(runOnCPU(*ref->module, ref->entry, inputs, ref->byValue,
                      refOutputs, toolErrors)))
    return 1;
  if (printOutputs)
    for (auto [index, output] : llvm::enumerate(refOutputs))
      printArray(llvm::outs(), "reference #" + std::to_string(index), output);

  bool narrow = false;
  for (const ArrayDesc &desc : test->inputs)
    narrow |= isNarrowFloat(desc.elementType);
  for (const ArrayDesc &desc : test->outputs)
    narrow |= isNarrowFloat(desc.elementType);
  F64Oracle oracle(context, *ref);
  return checkOutputs(outputs, refOutputs, narrow, ref->entry, ref->filename,
                      oracle);
}

//===----------------------------------------------------------------------===//
// --device=cuda: running an artifact
//===----------------------------------------------------------------------===//

static Type getElementType(MLIRContext &context, runtime::DType dtype) {
  Builder builder(&context);
  switch (dtype) {
  case runtime::DType::F16:
    return builder.getF16Type();
  case runtime::DType::BF16:
    return builder.getBF16Type();
  case runtime::DType::F32:
    return builder.getF32Type();
  case runtime::DType::F64:
    return builder.getF64Type();
  case runtime::DType::I1:
    return builder.getI1Type();
  case runtime::DType::I8:
    return builder.getI8Type();
  case runtime::DType::I16:
    return builder.getI16Type();
  case runtime::DType::I32:
    return builder.getI32Type();
  case runtime::DType::I64:
    return builder.getI64Type();
  }
  llvm_unreachable("unknown dtype");
}

/// FILE is an artifact directory (docs/Artifact.md). The artifact is
/// validated and the reference compiled before any CUDA call; then the
/// inputs (the same seeded stream as on the CPU) are copied in, the outputs
/// poisoned, the kernels launched, and the outputs checked against the CPU
/// run of the reference program (--reference, or the manifest's "source").
static int runArtifactOnCuda(MLIRContext &context) {
  if (fuse || !blockSizes.empty()) {
    toolErrors.error() << "--fuse and --block-sizes choose how to compile; "
                          "an artifact is compiled already\n";
    return 1;
  }
  llvm::Expected<runtime::Artifact> artifact =
      runtime::loadArtifact(inputFilename);
  if (!artifact) {
    toolErrors.error() << llvm::toString(artifact.takeError()) << "\n";
    return 1;
  }
  // The artifact's signature, as a program's, for checkSignaturesMatch.
  Program test;
  test.filename = inputFilename;
  test.entry = artifact->entry;
  for (auto [indices, descs] : {std::make_pair(&artifact->inputs, &test.inputs),
                                std::make_pair(&artifact->outputs,
                                               &test.outputs)})
    for (int index : *indices) {
      const runtime::Buffer &buffer = artifact->buffers[index];
      ArrayDesc desc;
      desc.shape.assign(buffer.shape.begin(), buffer.shape.end());
      desc.elementType = getElementType(context, buffer.dtype);
      descs->push_back(desc);
    }

  std::optional<Program> ref;
  if (check) {
    std::string refFile = referenceFilename;
    if (refFile.empty() && !artifact->source.empty()) {
      SmallString<256> path(artifact->directory);
      llvm::sys::path::append(path, artifact->source);
      refFile = path.str().str();
    }
    if (refFile.empty()) {
      toolErrors.error() << "--check with --device=cuda needs --reference "
                            "FILE (the program the artifact was compiled "
                            "from), or a \"source\" in the manifest\n";
      return 1;
    }
    StringRef refEntry = entryName.empty() ? StringRef(test.entry)
                                           : StringRef(entryName);
    FailureOr<Program> loaded =
        loadProgram(context, refFile, refEntry, toolErrors);
    if (failed(loaded))
      return 1;
    ref = std::move(*loaded);
    if (failed(checkSignaturesMatch(test, *ref, toolErrors)))
      return 1;
    LogicalResult lowered =
        ref->kind == InputKind::Linalg
            ? lowerLinalgReference(*ref->module, ref->entry, llvm::outs())
            : lowerWithBlockbuster(*ref->module, ref->kind,
                                   getLoweringOptions(/*applyFusion=*/false));
    if (failed(lowered))
      return 1;
  } else if (!referenceFilename.empty()) {
    toolErrors.error() << "--reference needs --check\n";
    return 1;
  }

  SmallVector<HostArray> inputs = createArrays(test.inputs);
  fillInputs(inputs, seed);
  SmallVector<HostArray> outputs = createArrays(test.outputs);
  for (HostArray &output : outputs)
    output.poison();
  auto toRefs = [&](MutableArrayRef<HostArray> arrays,
                    ArrayRef<int> indices) {
    std::vector<runtime::HostArrayRef> refs;
    for (auto [array, index] : llvm::zip(arrays, indices)) {
      const runtime::Buffer &buffer = artifact->buffers[index];
      refs.push_back({array.data(), array.getBytes(), buffer.shape,
                      buffer.dtype});
    }
    return refs;
  };
  std::vector<runtime::HostArrayRef> inputRefs =
      toRefs(inputs, artifact->inputs);
  std::vector<runtime::HostArrayRef> outputRefs =
      toRefs(outputs, artifact->outputs);

  llvm::Expected<std::unique_ptr<runtime::CudaProgram>> program =
      runtime::CudaProgram::load(std::move(*artifact));
  if (!program) {
    toolErrors.error() << llvm::toString(program.takeError()) << "\n";
    return 1;
  }
  if (llvm::Error error = (*program)->run(inputRefs, outputRefs)) {
    toolErrors.error() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  injectErrors(outputs);
  llvm::outs() << "bb-run: @" << test.entry << " (" << test.filename
               << ", CUDA: " << (*program)->getDeviceDescription()
               << "), seed " << seed << "\n";
  if (printOutputs)
    for (auto [index, output] : llvm::enumerate(outputs))
      printArray(llvm::outs(), "output #" + std::to_string(index), output);
  if (!ref)
    return 0;

  SmallVector<HostArray> refOutputs = createArrays(ref->outputs);
  for (HostArray &output : refOutputs)
    output.poison();
  if (failed(runOnCPU(*ref->module, ref->entry, inputs, ref->byValue,
                      refOutputs, toolErrors)))
    return 1;
  if (printOutputs)
    for (auto [index, output] : llvm::enumerate(refOutputs))
      printArray(llvm::outs(), "reference #" + std::to_string(index), output);
  bool narrow = false;
  for (const ArrayDesc &desc : test.inputs)
    narrow |= isNarrowFloat(desc.elementType);
  for (const ArrayDesc &desc : test.outputs)
    narrow |= isNarrowFloat(desc.elementType);
  F64Oracle oracle(context, *ref);
  return checkOutputs(outputs, refOutputs, narrow, ref->entry, ref->filename,
                      oracle);
}

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
    toolErrors.error() << "--device=" << device
                       << " is not one of cpu, cuda\n";
    return 1;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  blockbuster::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  // A failing pass names the op and the reason; the whole module that
  // MLIR would print after it buries the message.
  context.printOpOnDiagnostic(false);

  // Diagnostics print as file:line:col: error: ...; the handler reopens the
  // file a location names to show the line.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  if (device == "cuda")
    return runArtifactOnCuda(context);
  return runMain(context);
}
