//===- BlockSelect.cpp - Bind the block sizes of tiled axes ---------------===//
//
// Fills in the axis tables so that every tiled axis has a block size: a
// power of two for every axis left open, the sizes with the lowest estimated
// time (CostModel.h) among those whose local footprint fits the target
// (tiles within shared memory, reduce states within the register budget),
// and chooses among a program and its fusion snapshots the same way.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"
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
    const TargetDescription *known = lookupTargetDescription(target);
    if (!known) {
      InFlightDiagnostic diag = module.emitError()
                                << "block-select: unknown target '" << target
                                << "'; known targets:";
      for (const TargetDescription &known : getTargetDescriptions())
        diag << " " << known.name;
      return signalPassFailure();
    }
    TargetDescription limited = *known;
    int64_t budget = localMemoryBytes;
    if (budget < 0 || budget > known->localMemoryBytes) {
      module.emitError() << "block-select: local-memory-bytes " << budget
                         << " is not between 0 and "
                         << known->localMemoryBytes << ", the "
                         << known->name << "'s";
      return signalPassFailure();
    }
    if (budget > 0)
      limited.localMemoryBytes = budget;
    const TargetDescription *targetDesc = &limited;

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
  /// then the cost model. Returns the estimated time at those sizes.
  FailureOr<double> selectBlockSizes(ProgramOp program,
                                 const llvm::StringMap<int64_t> &explicitSizes,
                                 const TargetDescription &targetDesc) {
    // Sizes fixed before the cost model runs: explicit ones and the table's.
    llvm::StringMap<int64_t> fixed;
    SmallVector<AxisAttr> open;
    for (AxisAttr axis : program.getAxisTable()) {
      if (!axis.isTiled())
        continue;
      auto it = explicitSizes.find(axis.getName().getValue());
      if (it != explicitSizes.end())
        fixed[axis.getName().getValue()] = it->second;
      else if (axis.getBlockSize())
        fixed[axis.getName().getValue()] = *axis.getBlockSize();
      else
        open.push_back(axis);
    }

    // The estimate of `sizes` (open axes not in it take `common`), or
    // nothing when a kernel does not fit on chip.
    std::string why; // Why the last sizes tried did not fit.
    auto estimate = [&](const llvm::StringMap<int64_t> &sizes,
                        int64_t common) -> std::optional<double> {
      FusionReport report =
          computeFusionReport(program, BlockSizes(program, sizes, common));
      // Tiles in shared memory and reduce states in registers must both
      // fit (docs/FusionReport.md).
      if (!fitsOnChip(report, targetDesc, &why))
        return std::nullopt;
      return estimateSeconds(report, targetDesc);
    };

    llvm::StringMap<int64_t> chosen = fixed;
    if (!open.empty()) {
      // Each common size for all open axes that fits is a start (the
      // smallest tried last, so `why` is about block size 1 when none
      // fits)...
      SmallVector<std::pair<int64_t, double>> starts;
      for (int64_t size = targetDesc.maxBlockSize; size >= 1; size /= 2)
        if (std::optional<double> seconds = estimate(fixed, size))
          starts.push_back({size, *seconds});
      if (starts.empty()) {
        program.emitError()
            << "block-select: no block size fits @" << program.getSymName()
            << " on target '" << targetDesc.name
            << "': with block size 1 on every open axis its " << why;
        return failure();
      }
      // ...from which each open axis moves on its own, in table order, to
      // the size with the lowest estimate (ties: the larger size, fewer
      // loop trips): a decode GEMV wants narrow output blocks (more blocks
      // on the chip) but long reduction blocks. Each round is one pass over
      // the axes; a round that changes nothing ends the descent (each
      // change lowers the estimate, or keeps it and grows a block). One
      // start is not enough: from a common size that fits, the way to a
      // block of 128 queries and one head of attention goes through sizes
      // that do not fit, so every start descends and the lowest end wins
      // (ties: the earlier start, the larger common size).
      auto descend = [&](int64_t common, double seconds,
                         llvm::StringMap<int64_t> &sizes) {
        for (AxisAttr axis : open)
          sizes[axis.getName().getValue()] = common;
        for (bool changed = true; changed;) {
          changed = false;
          for (AxisAttr axis : open) {
            StringRef name = axis.getName().getValue();
            int64_t current = std::min(sizes[name], axis.getExtent());
            for (int64_t size = targetDesc.maxBlockSize; size >= 1;
                 size /= 2) {
              // Sizes past the extent all clamp to it: the same program.
              int64_t clamped = std::min(size, axis.getExtent());
              if (clamped == current ||
                  (size > axis.getExtent() && size / 2 >= axis.getExtent()))
                continue;
              llvm::StringMap<int64_t> trial = sizes;
              trial[name] = size;
              std::optional<double> trialSeconds = estimate(trial, common);
              if (!trialSeconds || *trialSeconds > seconds ||
                  (*trialSeconds == seconds && clamped < current))
                continue;
              sizes[name] = size;
              current = clamped;
              seconds = *trialSeconds;
              changed = true;
            }
          }
        }
        return seconds;
      };
      double bestSeconds = 0;
      for (auto [index, start] : llvm::enumerate(starts)) {
        llvm::StringMap<int64_t> sizes = fixed;
        double seconds = descend(start.first, start.second, sizes);
        if (index == 0 || seconds < bestSeconds) {
          chosen = std::move(sizes);
          bestSeconds = seconds;
        }
      }
    }

    BlockSizes sizes(program, chosen, targetDesc.maxBlockSize);
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
