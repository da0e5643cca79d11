//===- BlockReport.cpp - Print the fusion report as JSON ------------------===//

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
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
    llvm::StringMap<int64_t> overrides;
    for (const std::string &entry : blockSizeOverrides) {
      auto [axis, sizeText] = llvm::StringRef(entry).split('=');
      int64_t size = 0;
      if (axis.empty() || sizeText.getAsInteger(10, size) || size < 1) {
        getOperation().emitError()
            << "block-report: block size '" << entry
            << "' is not of the form AXIS=SIZE with a positive SIZE";
        return signalPassFailure();
      }
      overrides[axis] = size;
    }
    if (defaultBlockSize < 1) {
      getOperation().emitError()
          << "block-report: default-block-size must be positive";
      return signalPassFailure();
    }

    std::string errorMessage;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &errorMessage);
    if (!file) {
      getOperation().emitError() << "block-report: " << errorMessage;
      return signalPassFailure();
    }
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      BlockSizes sizes(program, overrides, defaultBlockSize);
      llvm::json::OStream json(file->os(), /*IndentSize=*/2);
      writeFusionReport(json, computeFusionReport(program, sizes));
      file->os() << '\n';
    }
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
