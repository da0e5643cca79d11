//===- ConvertAndSelect.cpp - Whole or tiled, chosen for a target ---------===//

#include "Blockbuster/Pipelines/ConvertAndSelect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

LogicalResult blockbuster::runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return emitError(module.getLoc())
           << "cannot build '" << pipeline << "': " << error;
  return pm.run(module);
}

/// When no form of a program fits the target at any block size (attention
/// with 256 keys whole on the GPU: its [queries, keys] tiles next to the
/// whole [keys, D] operands; an encoder layer's 8 MB of whole rows on the
/// CPU), ever lower thresholds, one at a time, until one does: the axes
/// that do not fit become tiled, and block-select gives them a smaller
/// block.
static constexpr int64_t kTiledThresholds[] = {128, 64, 32, 16, 8, 4, 2, 1};

ArrayRef<int64_t> blockbuster::getTiledWholeThresholds() {
  return kTiledThresholds;
}

/// Converts a copy of `module` with the convert-linalg-to-block options
/// `conversion` and fuses it. Returns null when either fails; `errors`
/// receives the diagnostics.
static OwningOpRef<ModuleOp>
convertCandidate(ModuleOp module, StringRef conversion,
                 const blockbuster::ConvertAndSelectOptions &options,
                 SmallVectorImpl<Diagnostic> &errors) {
  OwningOpRef<ModuleOp> candidate = module.clone();
  std::string pipeline = "hoist-tensor-constants,convert-linalg-to-block";
  if (!conversion.empty())
    pipeline += "{" + conversion.str() + "}";
  if (!options.fuseStep.empty())
    pipeline += "," + options.fuseStep;
  ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &diag) {
    errors.push_back(std::move(diag));
    return success();
  });
  if (failed(blockbuster::runPipeline(*candidate, pipeline)))
    return nullptr;
  return candidate;
}

/// Moves the block programs of `from` into `into` as snapshots of the
/// programs of the same names there (block-select's `block.snapshot_of`),
/// renamed with `suffix`.
static void addAsSnapshots(ModuleOp from, ModuleOp into, StringRef suffix) {
  MLIRContext *context = into.getContext();
  for (Operation &op :
       llvm::make_early_inc_range(from.getBody()->getOperations())) {
    if (op.getName().getStringRef() != "block.program")
      continue;
    auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    auto of = op.getAttrOfType<StringAttr>("block.snapshot_of");
    op.setAttr("block.snapshot_of", of ? of : name);
    op.setAttr(SymbolTable::getSymbolAttrName(),
               StringAttr::get(context, name.getValue() + suffix));
    op.moveBefore(into.getBody(), into.getBody()->end());
  }
}

LogicalResult
blockbuster::convertAndSelect(ModuleOp module,
                              const ConvertAndSelectOptions &options) {
  auto selectIn = [&](ModuleOp candidate,
                      SmallVectorImpl<Diagnostic> &errors) {
    ScopedDiagnosticHandler collect(module.getContext(),
                                    [&](Diagnostic &diag) {
                                      errors.push_back(std::move(diag));
                                      return success();
                                    });
    return runPipeline(candidate, options.select);
  };
  auto adopt = [&](ModuleOp chosen) {
    module.getBody()->getOperations().clear();
    module.getBody()->getOperations().splice(
        module.getBody()->end(), chosen.getBody()->getOperations());
    return success();
  };

  SmallVector<Diagnostic> errors;
  OwningOpRef<ModuleOp> combined;
  for (auto [index, conversion] : llvm::enumerate(options.conversions)) {
    SmallVector<Diagnostic> ignored;
    bool first = index == 0;
    OwningOpRef<ModuleOp> candidate = convertCandidate(
        module, conversion, options, first ? errors : ignored);
    if (!candidate) {
      if (first)
        break; // The conversion itself refuses the program.
      continue;
    }
    if (!combined)
      combined = std::move(candidate);
    else
      addAsSnapshots(*candidate, *combined,
                     "_form" + std::to_string(index));
  }
  if (combined) {
    if (succeeded(selectIn(*combined, errors)))
      return adopt(*combined);
    for (int64_t threshold : kTiledThresholds) {
      SmallVector<Diagnostic> ignored;
      OwningOpRef<ModuleOp> candidate = convertCandidate(
          module, "whole-threshold=" + std::to_string(threshold), options,
          ignored);
      if (candidate && succeeded(selectIn(*candidate, ignored)))
        return adopt(*candidate);
    }
  }
  for (Diagnostic &diag : errors)
    module.getContext()->getDiagEngine().emit(std::move(diag));
  return failure();
}
