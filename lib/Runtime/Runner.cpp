//===- Runner.cpp - Run a program and check it against a reference --------===//
//
// The differential checker of docs/design/03-lowering-and-runtime.md
// ("Checking numbers"). FILE and REF are block programs or Linalg on tensors
// (func.func). Both are compiled for the host CPU and JIT-run with MLIR's
// ExecutionEngine on the same seeded random inputs; every output is poisoned
// with NaN before a run, so an element a program forgets to write fails the
// check. Per output the checker prints the largest absolute and relative
// errors and PASS or FAIL, and exits non-zero on any FAIL. With
// --f64-oracle, an output that fails is judged again against the reference
// computed in f64 (below).
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

#include "Blockbuster/Runtime/Runner.h"

#include "Blockbuster/Runtime/CPU/CPURunner.h"
#include "Blockbuster/Runtime/CUDA/Artifact.h"
#include "Blockbuster/Runtime/CUDA/CudaRuntime.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::runner;

static const ErrorStream toolErrors{llvm::errs(), "bb-run"};

static LoweringOptions getLoweringOptions(const RunOptions &options,
                                          bool applyFusion) {
  LoweringOptions lowering;
  lowering.fuse = applyFusion;
  lowering.blockSizes.assign(options.blockSizes.begin(),
                             options.blockSizes.end());
  lowering.target = options.target;
  return lowering;
}

/// --inject-error and --inject-nan: prove that the checker fails.
static void injectErrors(const RunOptions &options,
                         MutableArrayRef<HostArray> outputs) {
  if (!outputs.empty() && options.injectError) {
    // Larger than any tolerance below 1/2: 1 + the output's largest |x|.
    double largest = 0;
    for (int64_t i = 0, e = outputs[0].size(); i < e; ++i)
      largest = std::max(largest, std::fabs(outputs[0].get(i)));
    outputs[0].set(0, outputs[0].get(0) + 1.0 + largest);
  }
  if (!outputs.empty() && options.injectNaN)
    outputs[0].set(outputs[0].size() - 1, std::nan(""));
}

namespace {
/// --f64-oracle: the Linalg reference of a check lowered with every f32
/// value computed in f64 and run on the check's inputs, the first time an
/// output needs it. The inputs are generated again from the seed: a program
/// may have written into its argument buffers (an argument that is the
/// `outs` of an op bufferizes in place).
class F64Oracle {
public:
  F64Oracle(MLIRContext &context, const Program &ref, uint64_t seed)
      : context(context), ref(ref), seed(seed) {}

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
    if (failed(lowerLinalgReference(*oracle->module, oracle->entry, notesStream,
                                    /*inF64=*/true)))
      return failure();
    SmallVector<HostArray> inputs = createArrays(oracle->inputs);
    fillInputs(inputs, seed);
    SmallVector<HostArray> results = createArrays(oracle->outputs);
    for (HostArray &result : results)
      result.poison();
    if (failed(runOnCPU(*oracle->module, oracle->entry, inputs, oracle->byValue,
                        results, toolErrors)))
      return failure();
    outputs = std::move(results);
    return success();
  }

  MLIRContext &context;
  const Program &ref;
  uint64_t seed;
  std::optional<SmallVector<HostArray>> outputs;
};

} // namespace

/// Compares `outputs` of the program under test with the reference's and
/// prints one line per output and PASS or FAIL; returns the exit status.
/// `narrow`: an input or output is f16 or bf16 (the looser tolerance).
/// With --f64-oracle, `oracle` judges the outputs that fail again.
static int checkOutputs(const RunOptions &options, ArrayRef<HostArray> outputs,
                        ArrayRef<HostArray> refOutputs, bool narrow,
                        StringRef refEntry, StringRef refFilename,
                        F64Oracle &oracle) {
  // Tolerances of docs/design/03-lowering-and-runtime.md: f32 1e-4 relative;
  // f16/bf16 storage 2e-2.
  double rtol = options.rtol >= 0 ? options.rtol : (narrow ? 2e-2 : 1e-4);
  llvm::outs() << "reference: @" << refEntry << " (" << refFilename
               << "), rtol " << llvm::format("%g", rtol) << "\n";

  bool allPassed = true;
  for (auto [index, pair] : llvm::enumerate(llvm::zip(outputs, refOutputs))) {
    const HostArray &out = std::get<0>(pair);
    const HostArray &refOut = std::get<1>(pair);
    // Rounding errors of a sum scale with its terms, not with its value, so
    // by default an element near a zero of the reference is judged against
    // the output's scale, its largest magnitude. The normwise criterion
    // keeps that from hiding an error spread over the small elements.
    double atol =
        options.atol >= 0 ? options.atol : rtol * getLargestMagnitude(refOut);
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
    if (!passed && result.nans == 0 && options.f64Oracle) {
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
                 << "): atol " << llvm::format("%.3g", atol) << ", max_abs_err "
                 << llvm::format("%.3g", result.maxAbsError) << ", max_rel_err "
                 << llvm::format("%.3g", result.maxRelError) << ", max err/tol "
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

/// Lowers the reference for the CPU: Linalg through upstream's ordinary
/// path, a block program through Blockbuster's, unfused.
static LogicalResult lowerReference(Program &ref, const RunOptions &options) {
  return ref.kind == InputKind::Linalg
             ? lowerLinalgReference(*ref.module, ref.entry, llvm::outs())
             : lowerWithBlockbuster(*ref.module, ref.kind,
                                    getLoweringOptions(options,
                                                       /*applyFusion=*/false));
}

/// Arrays of `descs`, poisoned with NaN.
static SmallVector<HostArray> createPoisonedArrays(ArrayRef<ArrayDesc> descs) {
  SmallVector<HostArray> arrays = createArrays(descs);
  for (HostArray &array : arrays)
    array.poison();
  return arrays;
}

static bool hasNarrowFloats(const Program &program) {
  bool narrow = false;
  for (const ArrayDesc &desc : program.inputs)
    narrow |= isNarrowFloat(desc.elementType);
  for (const ArrayDesc &desc : program.outputs)
    narrow |= isNarrowFloat(desc.elementType);
  return narrow;
}

/// What follows a run of the program under test (`where` names how it ran):
/// its outputs printed and, with a reference, the reference run on the CPU
/// on the same inputs and compared. Returns the exit status.
static int reportAndCheck(MLIRContext &context, const RunOptions &options,
                          const Program &test, StringRef where,
                          MutableArrayRef<HostArray> inputs,
                          MutableArrayRef<HostArray> outputs,
                          const std::optional<Program> &ref) {
  injectErrors(options, outputs);
  llvm::outs() << "bb-run: @" << test.entry << " (" << where << "), seed "
               << options.seed << "\n";
  if (options.printOutputs)
    for (auto [index, output] : llvm::enumerate(outputs))
      printArray(llvm::outs(), "output #" + std::to_string(index), output);
  F64Oracle oracle(context, ref ? *ref : test, options.seed);
  if (options.printF64Oracle) {
    const SmallVector<HostArray> *exact = oracle.getOutputs();
    if (!exact)
      return 1;
    for (auto [index, output] : llvm::enumerate(*exact))
      printArray(llvm::outs(), "oracle #" + std::to_string(index), output);
  }
  if (!ref)
    return 0;

  SmallVector<HostArray> refOutputs = createPoisonedArrays(ref->outputs);
  if (failed(runOnCPU(*ref->module, ref->entry, inputs, ref->byValue,
                      refOutputs, toolErrors)))
    return 1;
  if (options.printOutputs)
    for (auto [index, output] : llvm::enumerate(refOutputs))
      printArray(llvm::outs(), "reference #" + std::to_string(index), output);
  return checkOutputs(options, outputs, refOutputs, hasNarrowFloats(test),
                      ref->entry, ref->filename, oracle);
}

int blockbuster::runner::runProgramOnCPU(MLIRContext &context,
                                         const RunOptions &options) {
  FailureOr<Program> test = loadProgram(context, options.inputFilename,
                                        options.entryName, toolErrors);
  if (failed(test))
    return 1;

  // The reference: another file, or for Linalg input the same file through
  // upstream's lowering.
  std::optional<Program> ref;
  if (options.check) {
    StringRef refFile = options.referenceFilename;
    if (refFile.empty()) {
      if (test->kind != InputKind::Linalg) {
        toolErrors.error() << "--check on a block program needs "
                              "--reference (another block program or Linalg)\n";
        return 1;
      }
      refFile = options.inputFilename;
    }
    FailureOr<Program> loaded =
        loadProgram(context, refFile, test->entry, toolErrors);
    if (failed(loaded))
      return 1;
    ref = std::move(*loaded);
    if (failed(checkSignaturesMatch(*test, *ref, toolErrors)))
      return 1;
  } else if (!options.referenceFilename.empty()) {
    toolErrors.error() << "--reference needs --check\n";
    return 1;
  }

  if (failed(lowerWithBlockbuster(
          *test->module, test->kind,
          getLoweringOptions(options,
                             /*applyFusion=*/options.fuse && !options.noFuse))))
    return 1;
  if (ref && failed(lowerReference(*ref, options)))
    return 1;

  SmallVector<HostArray> inputs = createArrays(test->inputs);
  fillInputs(inputs, options.seed);
  SmallVector<HostArray> outputs = createPoisonedArrays(test->outputs);
  // The Blockbuster path passes scalars as 0-d arrays: all by descriptor.
  if (failed(runOnCPU(*test->module, test->entry, inputs, /*inputsByValue=*/{},
                      outputs, toolErrors)))
    return 1;
  return reportAndCheck(context, options, *test, test->filename, inputs,
                        outputs, ref);
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

/// The signature of `artifact`, as a program's, for checkSignaturesMatch.
static Program getArtifactSignature(MLIRContext &context,
                                    const runtime::Artifact &artifact,
                                    StringRef filename) {
  Program test;
  test.filename = filename.str();
  test.entry = artifact.entry;
  for (auto [indices, descs] :
       {std::make_pair(&artifact.inputs, &test.inputs),
        std::make_pair(&artifact.outputs, &test.outputs)})
    for (int index : *indices) {
      const runtime::Buffer &buffer = artifact.buffers[index];
      ArrayDesc desc;
      desc.shape.assign(buffer.shape.begin(), buffer.shape.end());
      desc.elementType = getElementType(context, buffer.dtype);
      descs->push_back(desc);
    }
  return test;
}

/// The reference of an artifact's check, loaded and lowered: --reference,
/// or the manifest's "source". Null without --check.
static FailureOr<std::optional<Program>>
loadArtifactReference(MLIRContext &context, const RunOptions &options,
                      const runtime::Artifact &artifact, const Program &test) {
  if (!options.check) {
    if (!options.referenceFilename.empty()) {
      toolErrors.error() << "--reference needs --check\n";
      return failure();
    }
    return std::optional<Program>();
  }
  std::string refFile = options.referenceFilename;
  if (refFile.empty() && !artifact.source.empty()) {
    SmallString<256> path(artifact.directory);
    llvm::sys::path::append(path, artifact.source);
    refFile = path.str().str();
  }
  if (refFile.empty()) {
    toolErrors.error() << "--check with --device=cuda needs --reference "
                          "FILE (the program the artifact was compiled "
                          "from), or a \"source\" in the manifest\n";
    return failure();
  }
  StringRef refEntry = options.entryName.empty() ? StringRef(test.entry)
                                                 : StringRef(options.entryName);
  FailureOr<Program> ref = loadProgram(context, refFile, refEntry, toolErrors);
  if (failed(ref) || failed(checkSignaturesMatch(test, *ref, toolErrors)) ||
      failed(lowerReference(*ref, options)))
    return failure();
  return std::optional<Program>(std::move(*ref));
}

/// Views of `arrays` as the runtime's host arrays of artifact buffers
/// `indices`.
static std::vector<runtime::HostArrayRef>
getHostArrayRefs(const runtime::Artifact &artifact,
                 MutableArrayRef<HostArray> arrays, ArrayRef<int> indices) {
  std::vector<runtime::HostArrayRef> refs;
  for (auto [array, index] : llvm::zip(arrays, indices)) {
    const runtime::Buffer &buffer = artifact.buffers[index];
    refs.push_back(
        {array.data(), array.getBytes(), buffer.shape, buffer.dtype});
  }
  return refs;
}

int blockbuster::runner::runArtifactOnCuda(MLIRContext &context,
                                           const RunOptions &options) {
  if (options.fuse || !options.blockSizes.empty()) {
    toolErrors.error() << "--fuse and --block-sizes choose how to compile; "
                          "an artifact is compiled already\n";
    return 1;
  }
  llvm::Expected<runtime::Artifact> artifact =
      runtime::loadArtifact(options.inputFilename);
  if (!artifact) {
    toolErrors.error() << llvm::toString(artifact.takeError()) << "\n";
    return 1;
  }
  Program test =
      getArtifactSignature(context, *artifact, options.inputFilename);
  FailureOr<std::optional<Program>> ref =
      loadArtifactReference(context, options, *artifact, test);
  if (failed(ref))
    return 1;

  SmallVector<HostArray> inputs = createArrays(test.inputs);
  fillInputs(inputs, options.seed);
  SmallVector<HostArray> outputs = createPoisonedArrays(test.outputs);
  std::vector<runtime::HostArrayRef> inputRefs =
      getHostArrayRefs(*artifact, inputs, artifact->inputs);
  std::vector<runtime::HostArrayRef> outputRefs =
      getHostArrayRefs(*artifact, outputs, artifact->outputs);

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
  std::string where =
      test.filename + ", CUDA: " + (*program)->getDeviceDescription();
  return reportAndCheck(context, options, test, where, inputs, outputs, *ref);
}
