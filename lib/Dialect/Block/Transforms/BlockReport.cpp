//===- BlockReport.cpp - Print the fusion report as JSON ------------------===//

#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"
#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace blockbuster::block {
#define GEN_PASS_DEF_BLOCKREPORT
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"
} // namespace blockbuster::block

using namespace mlir;
using namespace blockbuster::block;

namespace {
struct BlockReportPass
    : public blockbuster::block::impl::BlockReportBase<BlockReportPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Option errors name no IR location: they are about the command line.
    auto optionError = [&]() {
      return emitError(UnknownLoc::get(context)) << "block-report: ";
    };
    llvm::StringMap<int64_t> overrides;
    for (const std::string &entry : blockSizeOverrides) {
      auto [axis, sizeText] = llvm::StringRef(entry).split('=');
      int64_t size = 0;
      if (axis.empty() || sizeText.getAsInteger(10, size) || size < 1) {
        optionError() << "block size '" << entry
                      << "' is not of the form AXIS=SIZE with a positive SIZE";
        return signalPassFailure();
      }
      if (!overrides.try_emplace(axis, size).second) {
        optionError() << "block-sizes sets axis '" << axis << "' twice";
        return signalPassFailure();
      }
    }
    const TargetDescription *targetDesc = lookupTargetDescription(target);
    if (!targetDesc) {
      InFlightDiagnostic diag = optionError() << "unknown target '" << target
                                              << "'; known targets:";
      for (const TargetDescription &known : getTargetDescriptions())
        diag << " " << known.name;
      return signalPassFailure();
    }
    if (defaultBlockSize < 1) {
      optionError() << "default-block-size must be positive";
      return signalPassFailure();
    }
    // Every axis named in block-sizes must be a tiled axis of some program:
    // a typo would otherwise silently fall back to default sizes.
    for (const auto &entry : overrides) {
      StringAttr axis = StringAttr::get(context, entry.getKey());
      bool tiled = llvm::any_of(
          getOperation().getOps<ProgramOp>(), [&](ProgramOp program) {
            AxisAttr declared = program.lookupAxis(axis);
            return declared && declared.isTiled();
          });
      if (!tiled) {
        optionError() << "block-sizes names axis '" << entry.getKey()
                      << "', which no program declares as a tiled axis";
        return signalPassFailure();
      }
    }

    std::string errorMessage;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &errorMessage);
    if (!file) {
      getOperation().emitError() << "block-report: " << errorMessage;
      return signalPassFailure();
    }
    TargetDescription judged =
        serialWork ? *targetDesc : withoutSerialWork(*targetDesc);
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      BlockSizes sizes(program, overrides, defaultBlockSize);
      llvm::json::OStream json(file->os(), /*IndentSize=*/2);
      writeFusionReport(json, computeFusionReport(program, sizes), &judged,
                        isSerialBound(program, judged));
      file->os() << '\n';
    }
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
