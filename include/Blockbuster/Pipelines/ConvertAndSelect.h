//===- ConvertAndSelect.h - Whole or tiled, chosen for a target -*- C++ -*-===//
//
// convert-linalg-to-block decides whole or tiled from extents alone, before
// any target is known; block-select then refuses a program whose whole form
// does not fit the target at any block size. The GPU artifact (bb-compile,
// the C API) and the CPU runner (bb-run) share this one way out: convert at
// the conversion's defaults and with other whole or tiled axes, let
// block-select pick, and where nothing fits, convert again with ever more axes tiled.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_PIPELINES_CONVERTANDSELECT_H
#define BLOCKBUSTER_PIPELINES_CONVERTANDSELECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace blockbuster {

/// Runs the textual pass pipeline `pipeline` on `module`; an error naming
/// the pipeline when it does not parse.
mlir::LogicalResult runPipeline(mlir::ModuleOp module,
                                llvm::StringRef pipeline);

/// The whole-thresholds below which convert-linalg-to-block tiles an axis,
/// tried in order (each an axis more tiled) when no form of the program
/// fits the target: 128, 64, ..., 1.
llvm::ArrayRef<int64_t> getTiledWholeThresholds();

struct ConvertAndSelectOptions {
  /// The convert-linalg-to-block options of the forms to choose among
  /// ("whole-threshold=16384", "": the conversion's defaults), the first
  /// one's diagnostics reported.
  llvm::ArrayRef<llvm::StringRef> conversions;
  /// The fusion pipeline (textual; empty: none).
  std::string fuseStep;
  /// The block-select pipeline (textual).
  std::string select;
};

/// Converts the Linalg `module` (hoist-tensor-constants: weights become
/// inputs; convert-linalg-to-block) with each of the options'
/// conversions, fuses each and runs block-select on the first
/// candidate with the others' programs as its snapshots, so that it picks,
/// per program, the fastest form that fits. When no form fits, converts
/// again at each of getTiledWholeThresholds() until one does. On failure,
/// the diagnostics of the first candidate are emitted and `module` is left
/// unchanged; on success it holds the selected block programs.
mlir::LogicalResult convertAndSelect(mlir::ModuleOp module,
                                     const ConvertAndSelectOptions &options);

} // namespace blockbuster

#endif // BLOCKBUSTER_PIPELINES_CONVERTANDSELECT_H
