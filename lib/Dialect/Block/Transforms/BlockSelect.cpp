//===- BlockSelect.cpp - Bind the block sizes of tiled axes ---------------===//
//
// Fills in the axis tables so that every tiled axis has a block size: one
// power of two for every axis left open, the one with the lowest roofline
// estimate among those whose local footprint fits the target (tiles within
// shared memory, reduce states within the register budget), and chooses
// among a program and its fusion snapshots the same way.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace blockbuster::block {
#define GEN_PASS_DEF_BLOCKSELECT
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"
} // namespace blockbuster::block

using namespace mlir;
using namespace blockbuster::block;

namespace {
struct BlockSelectPass
    : public blockbuster::block::impl::BlockSelectBase<BlockSelectPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetDescription *targetDesc = lookupTargetDescription(target);
    if (!targetDesc) {
      InFlightDiagnostic diag = module.emitError()
                                << "block-select: unknown target '" << target
                                << "'; known targets:";
      for (const TargetDescription &known : getTargetDescriptions())
        diag << " " << known.name;
      return signalPassFailure();
    }

    llvm::StringMap<int64_t> explicitSizes;
    for (const std::string &entry : blockSizeOverrides) {
      auto [axis, sizeText] = llvm::StringRef(entry).split('=');
      int64_t size = 0;
      if (axis.empty() || sizeText.getAsInteger(10, size) || size < 1) {
        module.emitError() << "block-select: block size '" << entry
                           << "' is not of the form AXIS=SIZE with a "
                              "positive SIZE";
        return signalPassFailure();
      }
      explicitSizes[axis] = size;
    }

    // A misspelt axis would otherwise be silently ignored and the heuristic
    // would pick a size the user did not ask for.
    llvm::StringSet<> declared;
    for (ProgramOp program : module.getOps<ProgramOp>()) {
      for (AxisAttr axis : program.getAxisTable()) {
        declared.insert(axis.getName().getValue());
        if (axis.isWhole() && explicitSizes.count(axis.getName().getValue())) {
          program.emitError()
              << "block-select: block-sizes names axis '"
              << axis.getName().getValue() << "', which @"
              << program.getSymName()
              << " declares whole; whole axes are one block";
          return signalPassFailure();
        }
      }
    }
    for (const auto &entry : explicitSizes) {
      if (!declared.contains(entry.getKey())) {
        module.emitError() << "block-select: block-sizes names axis '"
                           << entry.getKey()
                           << "', which no block.program declares";
        return signalPassFailure();
      }
    }

    // Each program with its snapshots: the cheapest at its best sizes
    // takes the program's name, the others go.
    llvm::MapVector<StringAttr, SmallVector<ProgramOp>> groups;
    for (ProgramOp program : module.getOps<ProgramOp>()) {
      auto of = program->getAttrOfType<StringAttr>("block.snapshot_of");
      groups[of ? of : program.getSymNameAttr()].push_back(program);
    }
    for (auto &[name, candidates] : groups) {
      ProgramOp best;
      double bestSeconds = 0;
      for (ProgramOp candidate : candidates) {
        // With snapshots to fall back to, a candidate that fits at no size
        // just drops out; its error is reported only if all do.
        FailureOr<double> seconds = failure();
        {
          std::optional<ScopedDiagnosticHandler> quiet;
          if (candidates.size() > 1)
            quiet.emplace(&getContext(),
                          [](Diagnostic &) { return success(); });
          seconds = selectBlockSizes(candidate, explicitSizes, *targetDesc);
        }
        if (failed(seconds))
          continue;
        if (!best || *seconds < bestSeconds) {
          best = candidate;
          bestSeconds = *seconds;
        }
      }
      if (!best) {
        // Report the failure of the program itself.
        ProgramOp main = candidates.front();
        for (ProgramOp candidate : candidates)
          if (!candidate->hasAttr("block.snapshot_of"))
            main = candidate;
        (void)selectBlockSizes(main, explicitSizes, *targetDesc);
        return signalPassFailure();
      }
      for (ProgramOp candidate : candidates)
        if (candidate != best)
          candidate.erase();
      best.setSymName(name.getValue());
      best->removeAttr("block.snapshot_of");
    }
  }

  /// Binds every tiled axis of `program`; explicit sizes, then the table,
  /// then the cost model. Returns the roofline estimate at those sizes.
  FailureOr<double> selectBlockSizes(ProgramOp program,
                                 const llvm::StringMap<int64_t> &explicitSizes,
                                 const TargetDescription &targetDesc) {
    // Sizes fixed before the heuristic runs: explicit ones and the table's.
    llvm::StringMap<int64_t> fixed;
    bool anyOpen = false;
    for (AxisAttr axis : program.getAxisTable()) {
      if (!axis.isTiled())
        continue;
      auto it = explicitSizes.find(axis.getName().getValue());
      if (it != explicitSizes.end())
        fixed[axis.getName().getValue()] = it->second;
      else if (axis.getBlockSize())
        fixed[axis.getName().getValue()] = *axis.getBlockSize();
      else
        anyOpen = true;
    }

    // BlockSizes resolves `fixed` first and gives every other tiled axis the
    // default, so the candidate is the default block size.
    int64_t chosen = targetDesc.maxBlockSize;
    if (anyOpen) {
      std::string why; // Why the last size tried (the smallest) did not fit.
      int64_t best = 0;
      double bestSeconds = 0;
      for (int64_t size = targetDesc.maxBlockSize; size >= 1; size /= 2) {
        BlockSizes sizes(program, fixed, size);
        FusionReport report = computeFusionReport(program, sizes);
        // Tiles in shared memory and reduce states in registers must both
        // fit (docs/FusionReport.md).
        if (!fitsOnChip(report, targetDesc, &why))
          continue;
        double seconds = estimateSeconds(report, targetDesc);
        // Strictly lower to win: ties keep the larger size.
        if (!best || seconds < bestSeconds) {
          best = size;
          bestSeconds = seconds;
        }
      }
      chosen = best;
      if (chosen < 1) {
        program.emitError()
            << "block-select: no block size fits @" << program.getSymName()
            << " on target '" << targetDesc.name
            << "': with block size 1 on every open axis its " << why;
        return failure();
      }
    }

    BlockSizes sizes(program, fixed, chosen);
    SmallVector<Attribute> table;
    for (AxisAttr axis : program.getAxisTable()) {
      if (!axis.isTiled()) {
        table.push_back(axis);
        continue;
      }
      table.push_back(AxisAttr::get(axis.getContext(), axis.getName(),
                                    axis.getExtent(), axis.getKind(),
                                    sizes.getBlockSize(axis.getName())));
    }
    program.setAxesAttr(ArrayAttr::get(program.getContext(), table));
    return estimateSeconds(computeFusionReport(program, sizes), targetDesc);
  }
};
} // namespace
