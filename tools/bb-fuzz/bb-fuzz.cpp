//===- bb-fuzz.cpp - libFuzzer target over Blockbuster's entry points -----===//
//
// Feeds arbitrary bytes to what a user's file goes through in bb-opt: the
// parser and verifier, then `convert-linalg-to-block` (when the module holds
// Linalg), `block-fuse{keep-snapshots}`, `block-select` and
// `convert-block-to-linalg`, and on its own `convert-block-to-linalg` of the
// unfused program. Bad input must end in an error diagnostic; anything else
// is a finding, reported by aborting (libFuzzer saves the input):
//
//   - a crash, an assertion, a sanitizer report, a hang (-timeout);
//   - a pass that succeeds but leaves IR the verifier rejects;
//   - a pass that fails without an error diagnostic;
//   - valid IR whose printed form does not parse again.
//
// Passes run one at a time with the pass manager's own verifier off, so that
// the verifier after each pass tells which pass broke the IR.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"
#include "Blockbuster/Support/LinalgParserGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
/// Built once: registering every dialect per input would dominate the time.
DialectRegistry *registry = nullptr;
/// BB_FUZZ_VERBOSE=1 prints the diagnostics (to reproduce a finding).
bool verbose = false;

[[noreturn]] void finding(const char *what, StringRef pass,
                          Operation *module) {
  llvm::errs() << "bb-fuzz: " << what;
  if (!pass.empty())
    llvm::errs() << " (" << pass << ")";
  llvm::errs() << "\n";
  if (module && verbose)
    module->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
  std::abort();
}

/// Parses `text` into `context`; null on a parse or verifier error.
OwningOpRef<ModuleOp> parse(StringRef text, MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  // A copy: the lexer expects a NUL after the buffer, libFuzzer's data has
  // none.
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz-input"), llvm::SMLoc());
  // The tools' own parse: the guard turns the Linalg lists on which MLIR
  // 22.1's parser crashes into an error (LinalgParserGuard.h), so the fuzzer
  // tests that guard and does not stop at the upstream crash.
  return blockbuster::parseGuardedSourceFile(sourceMgr, ParserConfig(&context));
}

/// Prints `module` and parses the text again: valid IR must round-trip.
void checkRoundTrip(ModuleOp module, MLIRContext &context, StringRef after) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  if (!parse(text, context))
    finding("printed IR does not parse again", after, module);
}

/// Runs `pipeline` pass by pass on `module`. Returns false once a pass fails
/// (with a diagnostic, else a finding).
bool runPipeline(ModuleOp module, MLIRContext &context,
                 ArrayRef<const char *> pipeline, bool &errorSeen) {
  for (const char *passText : pipeline) {
    PassManager pm(&context);
    pm.enableVerifier(false);
    if (failed(parsePassPipeline(passText, pm)))
      finding("pass pipeline does not parse", passText, nullptr);
    errorSeen = false;
    if (failed(pm.run(module))) {
      if (!errorSeen)
        finding("pass failed without an error diagnostic", passText, module);
      return false;
    }
    if (failed(verify(module)))
      finding("pass succeeded but left invalid IR", passText, module);
    checkRoundTrip(module, context, passText);
  }
  return true;
}
} // namespace

// LLVM's BumpPtrAllocator poisons fresh slabs and unpoisons what it hands
// out, but only where it is compiled with ASan: MLIR's uniquer allocates
// attributes and types from the uninstrumented libMLIR.so into slabs that
// inlined (instrumented) code poisoned, and reading them reports a false
// use-after-poison. Manual poisoning is off; heap and stack checks stay.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registerAllPasses();
  blockbuster::registerAllPasses();
  registry = new DialectRegistry();
  registerAllDialects(*registry);
  registerAllExtensions(*registry);
  blockbuster::registerAllDialects(*registry);
  verbose = getenv("BB_FUZZ_VERBOSE") != nullptr;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef text(reinterpret_cast<const char *>(data), size);
  // A fresh context per input: nothing one input interned or loaded can hide
  // or cause a finding in the next.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  bool errorSeen = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errorSeen = true;
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  OwningOpRef<ModuleOp> module = parse(text, context);
  if (!module)
    return 0;
  checkRoundTrip(*module, context, "");

  bool hasLinalg = false;
  module->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "linalg")
      hasLinalg = true;
  });
  if (hasLinalg &&
      !runPipeline(*module, context, {"convert-linalg-to-block"}, errorSeen))
    return 0;
  // The unfused program straight to Linalg.
  {
    OwningOpRef<ModuleOp> copy = module->clone();
    runPipeline(*copy, context, {"convert-block-to-linalg"}, errorSeen);
  }
  // Fused, selected, then to Linalg.
  runPipeline(*module, context,
              {"block-fuse{keep-snapshots}", "block-select",
               "convert-block-to-linalg"},
              errorSeen);
  return 0;
}
