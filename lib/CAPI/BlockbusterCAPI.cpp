//===- BlockbusterCAPI.cpp - The Blockbuster C API ------------------------===//
//
// Blockbuster-c/Blockbuster.h over the pass registry and the CPU runner
// (Blockbuster/Runtime/CPU/CPURunner.h, which bb-run uses too). Each call builds
// a fresh MLIRContext and captures every diagnostic into the result string,
// so a caller sees exactly what bb-opt or bb-run would have printed.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster-c/Blockbuster.h"

#include "Blockbuster/InitAll.h"
#include "Blockbuster/Pipelines/GPUCompile.h"
#include "Blockbuster/Runtime/CPU/CPURunner.h"
#include "Blockbuster/Support/LinalgParserGuard.h"
#include "Blockbuster/Target/ArtifactWriter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::runner;

namespace {
/// One call's context, with every diagnostic captured into `diagnostics`.
class Session {
public:
  Session() {
    static std::once_flag once;
    std::call_once(once, [] {
      // Pipelines name passes of both MLIR and Blockbuster.
      mlir::registerAllPasses();
      blockbuster::registerAllPasses();
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    DialectRegistry registry;
    registerRunnerDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->printOpOnDiagnostic(false);
    handler = std::make_unique<SourceMgrDiagnosticHandler>(
        sourceMgr, context.get(), diagnosticStream);
  }

  MLIRContext &getContext() { return *context; }
  llvm::raw_ostream &errs() { return diagnosticStream; }
  const ErrorStream &getErrorStream() { return errorStream; }

  /// Parses `text` as the module "input.mlir".
  OwningOpRef<ModuleOp> parse(const char *text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text ? text : "", "input.mlir"),
        llvm::SMLoc());
    return parseGuardedSourceFile(sourceMgr, ParserConfig(context.get()));
  }

  /// Runs the textual `pipeline` ("" runs nothing) on `module`.
  LogicalResult runPipeline(ModuleOp module, const char *pipeline) {
    if (!pipeline || !*pipeline)
      return success();
    PassManager pm(context.get());
    std::string message;
    llvm::raw_string_ostream messageStream(message);
    if (failed(parsePassPipeline(pipeline, pm, messageStream))) {
      errorStream.error() << "invalid pass pipeline '" << pipeline
                          << "': " << message << "\n";
      return failure();
    }
    return pm.run(module);
  }

  /// Hands `text` to the caller in *result and returns `status`.
  int finish(int status, const std::string &text, char **result) {
    if (result) {
      *result = static_cast<char *>(std::malloc(text.size() + 1));
      if (*result)
        std::memcpy(*result, text.c_str(), text.size() + 1);
    }
    return status;
  }
  int fail(char **result) {
    if (diagnostics.empty())
      errorStream.error() << "failed without a diagnostic\n";
    return finish(1, diagnostics, result);
  }

private:
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream{diagnostics};
  ErrorStream errorStream{diagnosticStream, "blockbuster"};
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
};
} // namespace

static std::string dtypeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The options argument of the C API: a JSON object, or an error.
static std::optional<llvm::json::Value> parseOptions(const char *options,
                                                     const ErrorStream &errs) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(options);
  if (parsed && parsed->getAsObject())
    return std::move(*parsed);
  errs.error() << "options must be a JSON object: "
               << (parsed ? std::string("got another value")
                          : llvm::toString(parsed.takeError()))
               << "\n";
  return std::nullopt;
}

/// Applies `apply` to each key of `options`, a JSON object (null or empty:
/// none). Returns false after an error (printed) in the text or in `apply`.
static bool applyOptions(
    const char *options, const ErrorStream &errs,
    llvm::function_ref<bool(llvm::StringRef, const llvm::json::Value &)>
        apply) {
  if (!options || !*options)
    return true;
  std::optional<llvm::json::Value> parsed = parseOptions(options, errs);
  if (!parsed)
    return false;
  for (const auto &[key, value] : *parsed->getAsObject())
    if (!apply(key, value))
      return false;
  return true;
}

/// The strings AXIS=SIZE of option `block_sizes`, or false after an error.
static bool getBlockSizes(const llvm::json::Array &value,
                          const ErrorStream &errs,
                          std::vector<std::string> &sizes) {
  for (const llvm::json::Value &size : value) {
    if (!size.getAsString()) {
      errs.error() << "options.block_sizes: expected strings AXIS=SIZE\n";
      return false;
    }
    sizes.push_back(size.getAsString()->str());
  }
  return true;
}

extern "C" {

const char *bbVersion(void) { return "blockbuster-capi 1"; }

void bbFreeString(char *string) { std::free(string); }

int bbTransform(const char *mlir, const char *pipeline, char **result) {
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(mlir);
  if (!module || failed(session.runPipeline(*module, pipeline)))
    return session.fail(result);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return session.finish(0, text, result);
}

int bbReport(const char *mlir, const char *pipeline, const char *reportOptions,
             char **result) {
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(mlir);
  if (!module || failed(session.runPipeline(*module, pipeline)))
    return session.fail(result);
  // block-report writes to a file; a temporary one is read back.
  llvm::SmallString<128> path;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("blockbuster-report", "json",
                                             path)) {
    session.getErrorStream().error()
        << "cannot create a temporary file: " << error.message() << "\n";
    return session.fail(result);
  }
  llvm::FileRemover remover(path);
  std::string options = "output=" + path.str().str();
  if (reportOptions && *reportOptions)
    options += std::string(" ") + reportOptions;
  std::string reportPipeline = "block-report{" + options + "}";
  if (failed(session.runPipeline(*module, reportPipeline.c_str())))
    return session.fail(result);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> report =
      llvm::MemoryBuffer::getFile(path);
  if (!report) {
    session.getErrorStream().error() << "cannot read the report back: "
                                     << report.getError().message() << "\n";
    return session.fail(result);
  }
  return session.finish(0, (*report)->getBuffer().str(), result);
}

/// Loads `entry` of `mlir` as bb-run does (hoisting tensor constants).
static FailureOr<Program> loadFromText(Session &session, const char *mlir,
                                       const char *entry) {
  return loadProgram(
      session.getContext(),
      llvm::MemoryBuffer::getMemBufferCopy(mlir ? mlir : "", "input.mlir"),
      "input.mlir", entry ? entry : "", session.getErrorStream());
}

static llvm::json::Array describeArrays(ArrayRef<ArrayDesc> descs) {
  llvm::json::Array arrays;
  for (const ArrayDesc &desc : descs) {
    llvm::json::Array shape;
    for (int64_t extent : desc.shape)
      shape.push_back(extent);
    arrays.push_back(llvm::json::Object{
        {"shape", std::move(shape)},
        {"dtype", dtypeName(desc.elementType)}});
  }
  return arrays;
}

int bbSignature(const char *mlir, const char *entry, char **result) {
  Session session;
  FailureOr<Program> program = loadFromText(session, mlir, entry);
  if (failed(program))
    return session.fail(result);
  llvm::json::Array inputs = describeArrays(program->inputs);
  // Weights hoisted by loadProgram (hoist-tensor-constants), with their keys.
  if (auto func = dyn_cast_or_null<FunctionOpInterface>(
          SymbolTable::lookupSymbolIn(*program->module, program->entry))) {
    for (auto [index, input] : llvm::enumerate(inputs)) {
      Attribute marker = func.getArgAttr(index, "blockbuster.hoisted_constant");
      if (!marker)
        continue;
      llvm::json::Object &object = *input.getAsObject();
      object["hoisted"] = true;
      if (auto key = dyn_cast<StringAttr>(marker))
        object["constant"] = key.getValue();
    }
  }
  llvm::json::Object signature{
      {"entry", program->entry},
      {"kind", program->kind == InputKind::Linalg ? "linalg" : "block"},
      {"inputs", std::move(inputs)},
      {"outputs", describeArrays(program->outputs)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(signature));
  return session.finish(0, text, result);
}

int bbRunCPU(const char *mlir, const char *entry, const char *options,
             int64_t numInputs, void *const *inputs, const int64_t *inputBytes,
             int64_t numOutputs, void *const *outputs,
             const int64_t *outputBytes, char **result) {
  Session session;
  const ErrorStream &errs = session.getErrorStream();
  LoweringOptions lowering;
  bool reference = false;
  bool applied = applyOptions(
      options, errs, [&](llvm::StringRef key, const llvm::json::Value &value) {
        if (key == "fuse" && value.getAsBoolean()) {
          lowering.fuse = *value.getAsBoolean();
        } else if (key == "reference" && value.getAsBoolean()) {
          reference = *value.getAsBoolean();
        } else if (key == "target" && value.getAsString()) {
          lowering.target = value.getAsString()->str();
        } else if (key == "block_sizes" && value.getAsArray()) {
          return getBlockSizes(*value.getAsArray(), errs, lowering.blockSizes);
        } else {
          errs.error() << "unknown or mistyped option '" << key.str()
                       << "' (known: fuse, reference, target, block_sizes)\n";
          return false;
        }
        return true;
      });
  if (!applied)
    return session.fail(result);

  FailureOr<Program> program = loadFromText(session, mlir, entry);
  if (failed(program))
    return session.fail(result);
  // The caller's buffers must match the signature byte for byte before
  // anything is compiled or written.
  SmallVector<HostArray> inputArrays = createArrays(program->inputs);
  SmallVector<HostArray> outputArrays = createArrays(program->outputs);
  if (numInputs != static_cast<int64_t>(inputArrays.size()) ||
      numOutputs != static_cast<int64_t>(outputArrays.size())) {
    errs.error() << "@" << program->entry << " takes " << inputArrays.size()
                 << " inputs and returns " << outputArrays.size()
                 << " outputs; got " << numInputs << " and " << numOutputs
                 << "\n";
    return session.fail(result);
  }
  for (auto [kind, arrays, bytes, pointers] :
       {std::make_tuple("input", &inputArrays, inputBytes, inputs),
        std::make_tuple("output", &outputArrays, outputBytes,
                        static_cast<void *const *>(outputs))}) {
    for (auto [index, array] : llvm::enumerate(*arrays)) {
      if (!pointers || !bytes || !pointers[index] ||
          bytes[index] != static_cast<int64_t>(array.getBytes())) {
        errs.error() << kind << " " << index << " of @" << program->entry
                     << " is " << array.getDesc().str() << " ("
                     << array.getBytes() << " bytes); got "
                     << (bytes ? bytes[index] : 0) << " bytes at "
                     << (pointers ? pointers[index] : nullptr) << "\n";
        return session.fail(result);
      }
    }
  }

  LogicalResult lowered =
      reference
          ? (program->kind == InputKind::Linalg
                 ? lowerLinalgReference(*program->module, program->entry,
                                        llvm::nulls())
                 : lowerWithBlockbuster(*program->module, program->kind,
                                        LoweringOptions()))
          : lowerWithBlockbuster(*program->module, program->kind, lowering);
  if (failed(lowered))
    return session.fail(result);
  for (auto [index, array] : llvm::enumerate(inputArrays))
    std::memcpy(array.data(), inputs[index], array.getBytes());
  for (HostArray &array : outputArrays)
    array.poison();
  // Upstream's reference passes scalar arguments by value, Blockbuster's
  // path as 0-d arrays (as in bb-run).
  SmallVector<bool> byValue;
  if (reference && program->kind == InputKind::Linalg)
    byValue = program->byValue;
  if (failed(runOnCPU(*program->module, program->entry, inputArrays, byValue,
                      outputArrays, errs)))
    return session.fail(result);
  for (auto [index, array] : llvm::enumerate(outputArrays))
    std::memcpy(outputs[index], array.data(), array.getBytes());
  return session.finish(0, "", result);
}

int bbCompileArtifact(const char *mlir, const char *options,
                      const char *directory, char **result) {
  Session session;
  const ErrorStream &errs = session.getErrorStream();
  GPUCompileOptions gpu;
  std::string entry;
  bool applied = applyOptions(
      options, errs, [&](llvm::StringRef key, const llvm::json::Value &value) {
        if (key == "entry" && value.getAsString()) {
          entry = value.getAsString()->str();
        } else if (key == "fuse" && value.getAsBoolean()) {
          gpu.fuse = *value.getAsBoolean();
        } else if (key == "whole_threshold" && value.getAsInteger()) {
          gpu.wholeThreshold = *value.getAsInteger();
        } else if (key == "target" && value.getAsString()) {
          gpu.target = value.getAsString()->str();
        } else if (key == "chip" && value.getAsString()) {
          gpu.chip = value.getAsString()->str();
        } else if (key == "features" && value.getAsString()) {
          gpu.features = value.getAsString()->str();
        } else if (key == "round_dot_operands" && value.getAsBoolean()) {
          gpu.roundDotOperands = *value.getAsBoolean();
        } else if (key == "divide_after_rounding" && value.getAsBoolean()) {
          gpu.divideAfterRounding = *value.getAsBoolean();
        } else if (key == "divide_after_bf16_rounding" &&
                   value.getAsBoolean()) {
          gpu.divideAfterBF16Rounding = *value.getAsBoolean();
        } else if (key == "allow_tf32" && value.getAsBoolean()) {
          gpu.allowTf32 = *value.getAsBoolean();
        } else if (key == "threads" && value.getAsInteger()) {
          gpu.threads = *value.getAsInteger();
        } else if (key == "block_sizes" && value.getAsArray()) {
          std::vector<std::string> sizes;
          if (!getBlockSizes(*value.getAsArray(), errs, sizes))
            return false;
          gpu.blockSizes = llvm::join(sizes, ",");
        } else {
          errs.error() << "unknown or mistyped option '" << key.str()
                       << "' (known: entry, whole_threshold, fuse, target, "
                          "chip, features, round_dot_operands, "
                          "divide_after_rounding, allow_tf32, threads, "
                          "block_sizes)\n";
          return false;
        }
        return true;
      });
  if (!applied)
    return session.fail(result);
  if (!directory || !*directory) {
    errs.error() << "no output directory for the artifact\n";
    return session.fail(result);
  }
  OwningOpRef<ModuleOp> module = session.parse(mlir);
  if (!module)
    return session.fail(result);
  // bb-compile's path: convert, fuse, select for the GPU, then
  // blockbuster-gpu-pipeline (compileForGPU), and the artifact writer.
  if (failed(compileForGPU(*module, gpu)) ||
      failed(writeArtifact(*module, entry, directory)))
    return session.fail(result);
  llvm::SmallString<256> manifest(directory);
  llvm::sys::path::append(manifest, "manifest.json");
  return session.finish(0, manifest.str().str(), result);
}

} // extern "C"
