//===- BlockSelect.cpp - Bind the block sizes of tiled axes ---------------===//
//
// Fills in the axis tables so that every tiled axis has a block size: a
// power of two for every axis left open, the sizes with the lowest estimated
// time (CostModel.h) among those whose local footprint fits the target
// (tiles within shared memory, reduce states within the register budget),
// and chooses among a program and its fusion snapshots the same way.
// Attention kernels that the GPU pipeline runs in registers
// (AttentionInRegisters.h) keep blocks it takes, and a snapshot with one
// wins over those without.
//
//===----------------------------------------------------------------------===//

#include "AttentionInRegisters.h"
#include "AxisTable.h"

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
    // Without gpu-decode-gemv its kernels run on the generic lowering.
    limited.decodeGemv = decodeGemv;
    if (!pricePrologues)
      limited.prologueFlopsPerSecond = 0;
    const TargetDescription *targetDesc = &limited;
    if (threads < 1) {
      module.emitError() << "block-select: threads " << threads
                         << " is not positive";
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
      bool bestInRegisters = false;
      for (ProgramOp candidate : candidates) {
        // With snapshots to fall back to, a candidate that fits at no size
        // just drops out; its error is reported only if all do.
        FailureOr<double> seconds = failure();
        bool inRegisters = false;
        {
          std::optional<ScopedDiagnosticHandler> quiet;
          if (candidates.size() > 1)
            quiet.emplace(&getContext(),
                          [](Diagnostic &) { return success(); });
          seconds = selectBlockSizes(candidate, explicitSizes, *targetDesc,
                                     &inRegisters);
        }
        if (failed(seconds))
          continue;
        // Split wgmma GEMM blocks count as a form in registers: the
        // estimate knows neither (AxisTable.h).
        inRegisters |= candidate->hasAttr(kWarpgroupSplitAttrName);
        // The estimate charges neither the generic path's shared-memory
        // round trip and barrier per tile op nor what attention in
        // registers saves (7x measured on B4 H32 S2048 D128): a form in
        // registers wins over forms that are not.
        if (!best || (inRegisters && !bestInRegisters) ||
            (inRegisters == bestInRegisters && *seconds < bestSeconds)) {
          best = candidate;
          bestSeconds = *seconds;
          bestInRegisters = inRegisters;
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
      best->removeAttr(kWarpgroupSplitAttrName);
    }
  }

  /// The attention kernels of `program` that run in registers on GPU
  /// targets, save those whose batch or query axes `fixed` binds to other
  /// sizes than that schedule's (the user's sizes win). Sizes equal to the
  /// schedule's (one batch and head, 16 query rows per warp: what
  /// build-anchors.py --attention-rows gives) are that schedule, and the
  /// form in registers still wins over the snapshots.
  SmallVector<AttentionInRegisters>
  findAttentionInRegisters(ProgramOp program,
                           const llvm::StringMap<int64_t> &fixed,
                           const TargetDescription &targetDesc) {
    SmallVector<AttentionInRegisters> found;
    if (targetDesc.registersPerSM == 0 || threads < 32)
      return found;
    auto fixedOtherwise = [&](StringAttr axis, int64_t size) {
      auto it = fixed.find(axis.getValue());
      return it != fixed.end() && it->second != size;
    };
    int64_t queries = kAttentionRowsPerWarp * (threads / 32);
    for (MapOp kernel : program.getBody().getOps<MapOp>()) {
      std::optional<AttentionInRegisters> attention =
          matchAttentionInRegisters(program, kernel,
                                    wgmmaAttention && allowTf32);
      if (!attention || fixedOtherwise(attention->queryAxis, queries) ||
          llvm::any_of(attention->batchAxes, [&](StringAttr axis) {
            return fixedOtherwise(axis, 1);
          }))
        continue;
      attention->onWgmma = wgmmaAttention;
      found.push_back(*attention);
    }
    return found;
  }

  /// Binds every tiled axis of `program`; explicit sizes, then the table,
  /// then the cost model. Returns the estimated time at those sizes;
  /// `inRegisters` says whether an attention kernel runs in registers.
  /// `inRegisters` false: attention kernels too large for registers at
  /// any size (a large head dimension) are sized like any other kernel.
  FailureOr<double> selectBlockSizes(ProgramOp program,
                                 const llvm::StringMap<int64_t> &explicitSizes,
                                 const TargetDescription &targetDesc,
                                 bool *inRegisters = nullptr,
                                 bool allowRegisters = true) {
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

    // Attention in registers: one (batch, head) and 16 query rows per
    // warp per block, and the most keys (up to kAttentionMaxKeys) whose
    // tiles fit the registers. The cost model sees neither the loop trips
    // nor the registers of the schedule: it would take fewer keys, which
    // it counts as less shared memory.
    SmallVector<AttentionInRegisters> attention;
    if (allowRegisters)
      attention = findAttentionInRegisters(program, fixed, targetDesc);
    if (inRegisters)
      *inRegisters = !attention.empty();
    int64_t warps = threads / 32;
    llvm::StringSet<> tiled;
    for (AxisAttr axis : program.getAxisTable())
      if (axis.isTiled())
        tiled.insert(axis.getName().getValue());
    auto bind = [&](StringAttr axis, int64_t size) {
      if (tiled.contains(axis.getValue()))
        fixed[axis.getValue()] = size;
    };
    // The most keys and the registers for S, O and Q of an attention
    // kernel at `sizes`: given keys up to 128, unchecked; on wgmma with a
    // head of 128 or more, or for the single pass over whole tiles of 128
    // keys, 128 within 160 registers; else 64 within the target's state
    // registers. (The single pass at D = 64 takes 127 of the 128 registers
    // its 4 blocks per SM leave; a partial key tile's bounds spill 8 bytes.)
    // P kept in f32 (splitP): on wgmma, 128 keys within 256 registers for
    // a head of 128 (2 blocks per SM), 64 within them for a wider one,
    // else 64 within the state registers; on mma.sync 32 within them (64
    // keys at D = 64 spill). tf32: 64 keys within the state registers, 32
    // within 256 for a head over 128.
    auto keyBudget = [&](const AttentionInRegisters &kernel,
                         const BlockSizes &sizes) {
      if (explicitSizes.count(kernel.keyAxis.getValue()))
        return std::pair<int64_t, int64_t>{kAttentionWgmmaKeys, -1};
      // tf32: 64 keys (a ring slot of 32 KB and V^T of 32 KB at D = 128);
      // a wider head 32 keys, its O within 256 registers (one block per SM:
      // its 192 KB of shared memory at D = 256 allow no second).
      if (kernel.tf32) {
        if (kernel.headExtent(sizes) > kAttentionTf32NarrowHead)
          return std::pair<int64_t, int64_t>{kAttentionTf32WideHeadKeys,
                                             kAttentionSplitWideRegisters};
        return std::pair<int64_t, int64_t>{
            kAttentionMaxKeys, targetDesc.stateRegistersPerThread};
      }
      if (kernel.splitP) {
        if (!wgmmaAttention)
          return std::pair<int64_t, int64_t>{
              kAttentionSplitSyncKeys, targetDesc.stateRegistersPerThread};
        // A head over 128: 64 keys (at 256, 128 keys took 250-255
        // registers and spilled at a partial key tile).
        if (kernel.headExtent(sizes) > kAttentionWideKeysHead)
          return std::pair<int64_t, int64_t>{kAttentionMaxKeys,
                                             kAttentionSplitWideRegisters};
        if (kernel.headExtent(sizes) >= kAttentionWideKeysHead)
          return std::pair<int64_t, int64_t>{kAttentionWgmmaKeys,
                                             kAttentionSplitWideRegisters};
        return std::pair<int64_t, int64_t>{
            kAttentionMaxKeys, targetDesc.stateRegistersPerThread};
      }
      if (wgmmaAttention &&
          (kernel.headExtent(sizes) >= kAttentionWideKeysHead ||
           (kernel.singlePass &&
            sizes.getExtent(kernel.keyAxis) % kAttentionWgmmaKeys == 0)))
        return std::pair<int64_t, int64_t>{kAttentionWgmmaKeys,
                                           kAttentionWideKeysRegisters};
      return std::pair<int64_t, int64_t>{kAttentionMaxKeys,
                                         targetDesc.stateRegistersPerThread};
    };
    for (const AttentionInRegisters &kernel : attention) {
      for (StringAttr axis : kernel.batchAxes)
        bind(axis, 1);
      bind(kernel.queryAxis, kAttentionRowsPerWarp * warps);
      if (fixed.count(kernel.keyAxis.getValue()))
        continue;
      bool fits = false;
      for (int64_t keys = kAttentionWgmmaKeys;
           !fits && keys >= kAttentionMinKeys; keys /= 2) {
        bind(kernel.keyAxis, keys);
        BlockSizes sizes(program, fixed, targetDesc.maxBlockSize);
        auto [maxKeys, registers] = keyBudget(kernel, sizes);
        fits = kernel.fits(sizes, warps, registers, maxKeys);
      }
      // No key count fits the registers (P kept in f32 at D = 128 on
      // mma.sync): sized like any other kernel, as when no size of the
      // other axes fits (below). Not left to that test: with every tiled
      // axis bound here, none would be tried.
      if (!fits)
        return selectBlockSizes(program, explicitSizes, targetDesc,
                                inRegisters, /*allowRegisters=*/false);
    }
    llvm::erase_if(open, [&](AxisAttr axis) {
      return fixed.count(axis.getName().getValue());
    });

    // Whether blocks' serial work counts (a decode program): one answer for
    // every size tried (CostModel.h).
    bool decode = isSerialBound(program, targetDesc);
    // The kernels whose fit on chip the sizes tried decide: those with a
    // tiled axis the table leaves open. A kernel whose every tiled axis the
    // table sizes was sized by the pass that wrote them
    // (block-warpgroup-gemm-blocks' wgmma GEMMs, whose TMA ring and
    // register accumulators the estimate counts as tiles that do not fit),
    // as a program whose every axis the table sizes is not checked at all;
    // it must not keep the row kernel beside it (block-fuse's rule 10) from
    // any size.
    SmallVector<bool> sizedHere;
    for (MapOp map : program.getOps<MapOp>()) {
      bool open = false;
      map.walk([&](Operation *op) {
        auto sizedByTable = [&](StringAttr axis) {
          AxisAttr entry = program.lookupAxis(axis);
          return !entry || !entry.isTiled() || entry.getBlockSize();
        };
        if (auto nested = dyn_cast<MapOp>(op))
          for (Attribute axis : nested.getAxes())
            open |= !sizedByTable(cast<StringAttr>(axis));
        if (auto reduce = dyn_cast<ReduceOp>(op))
          open |= !sizedByTable(reduce.getAxisAttr());
      });
      sizedHere.push_back(open);
    }
    // The estimate of `sizes` (open axes not in it take `common`), or
    // nothing when a kernel does not fit on chip, or an attention kernel
    // would leave registers.
    std::string why; // Why the last sizes tried did not fit.
    auto estimate = [&](const llvm::StringMap<int64_t> &sizes,
                        int64_t common) -> std::optional<double> {
      BlockSizes blockSizes(program, sizes, common);
      for (const AttentionInRegisters &kernel : attention) {
        auto [maxKeys, registers] = keyBudget(kernel, blockSizes);
        if (!kernel.fits(blockSizes, warps, registers, maxKeys)) {
          why = "attention blocks are not one (batch, head) and " +
                std::to_string(kAttentionRowsPerWarp * warps) +
                " query rows with S, O and Q within " +
                std::to_string(targetDesc.stateRegistersPerThread) +
                " registers per thread";
          return std::nullopt;
        }
      }
      FusionReport report = computeFusionReport(program, blockSizes);
      // Tiles in shared memory and reduce states in registers must both
      // fit (docs/FusionReport.md), in the kernels sized here.
      FusionReport sized; // Only the peaks, which fitsOnChip reads.
      for (auto [kernel, here] : llvm::zip(report.perKernel, sizedHere))
        if (here)
          sized.takePeaks(kernel);
      if (!fitsOnChip(sized, targetDesc, &why))
        return std::nullopt;
      return estimateSeconds(report, targetDesc, decode);
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
      if (starts.empty() && !attention.empty())
        return selectBlockSizes(program, explicitSizes, targetDesc,
                                inRegisters, /*allowRegisters=*/false);
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
      // In a decode program (CostModel.h, isSerialBound) an axis that only
      // loops (no kernel's grid has it) may take blocks of twice the
      // largest size: every iteration of a block's loops costs a round
      // trip and barriers, and K blocks of 256 ran 1.1-1.5x faster than
      // 128 on the H100 (docs/performance.md, "Session 8: decode blocks").
      llvm::StringSet<> gridAxes;
      for (MapOp map : program.getOps<MapOp>())
        for (Attribute axis : map.getAxes())
          gridAxes.insert(cast<StringAttr>(axis).getValue());
      auto largestSize = [&](StringRef axis) {
        return decode && !gridAxes.contains(axis)
                   ? 2 * targetDesc.maxBlockSize
                   : targetDesc.maxBlockSize;
      };
      auto descend = [&](int64_t common, double seconds,
                         llvm::StringMap<int64_t> &sizes) {
        for (AxisAttr axis : open)
          sizes[axis.getName().getValue()] = common;
        for (bool changed = true; changed;) {
          changed = false;
          for (AxisAttr axis : open) {
            StringRef name = axis.getName().getValue();
            int64_t current = std::min(sizes[name], axis.getExtent());
            for (int64_t size = largestSize(name); size >= 1; size /= 2) {
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
    return estimateSeconds(computeFusionReport(program, sizes), targetDesc,
                           decode);
  }
};
} // namespace
