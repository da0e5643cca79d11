//===- CostModel.h - Time of a block program on a target ------*- C++ -*-===//
//
// The one model of time that block-select (block sizes, snapshots),
// block-fuse's extend step (keep a replication or not) and block-report
// (estimates per kernel) share: per kernel, the larger of its global bytes
// over the bandwidth and its FLOPs over the matrix and vector rates, spread
// over the processors in waves of the instances that fit on them at once,
// or, when longer, the serial work of one instance times the waves, plus a
// launch cost. docs/FusionReport.md gives the formula and the rates.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_COSTMODEL_H
#define BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_COSTMODEL_H

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"

#include <string>

namespace blockbuster::block {

/// The estimate of one kernel on one target.
struct KernelEstimate {
  /// Instances one processor holds at once: the least of what its shared
  /// memory, registers, threads and block slots allow (at least 1).
  int64_t blocksPerProcessor = 1;
  /// The splits of the kernel's reduce loop that gpu-split-reductions
  /// will choose (SplitFactor.h; 1: none). The figures below are the split
  /// grid's: instances x splits blocks.
  int64_t splits = 1;
  /// ceil(instances x splits / (processors x blocksPerProcessor)).
  int64_t waves = 1;
  /// The share of the processors' time the instances keep busy: instances
  /// over the slots of the waves that the busiest processor runs (1 when
  /// the grid fills every wave).
  double occupancy = 1;
  /// Global bytes over the bandwidth; FLOPs over their rates.
  double memorySeconds = 0;
  double computeSeconds = 0;
  /// The serial work of one block (its loop iterations and the elements
  /// each thread computes in them) times the waves.
  double latencySeconds = 0;
  /// The stall of the matrix instructions' warps on the kernel's prologue
  /// (TargetDescription::prologueFlopsPerSecond).
  double prologueSeconds = 0;
  /// max(max(memorySeconds, computeSeconds) / occupancy, latencySeconds)
  /// + prologueSeconds + the launch cost.
  double seconds = 0;
};

/// Whether the serial work of blocks decides the time of `program`'s
/// kernels: a decode program (kernel shape 4), with sums of dots over a
/// loop that gpu-split-reductions may split, and whose every kernel has a
/// grid smaller than the chip even at the largest blocks. Its blocks' loops are its time, and the
/// fastest blocks are small. A program with a kernel that fills the chip at
/// large blocks is judged by throughput alone: the schedules that run its
/// GEMMs (the TMA ring of wgmma blocks) overlap one iteration's loads with
/// the last one's work, which the fit of the generic path's loops does not
/// describe, and its other kernels share the rows' blocks with them (128
/// rows for wgmma).
///
/// A property of the program, not of its block sizes: it is judged at the
/// target's largest block on every tiled axis, so that every block size
/// block-select tries is estimated the same way (at a reduction block of 2
/// the FLOPs padded to whole matrix tiles would outweigh the bytes).
bool isSerialBound(ProgramOp program, const TargetDescription &target);

/// `target` without the serial work of blocks: what block-fuse's extend
/// step judges by (it estimates at one block size for every axis, where a
/// decode block's loops say nothing about the blocks block-select takes).
TargetDescription withoutSerialWork(const TargetDescription &target);

/// The estimate of `kernel` on `target`; the serial work counts when
/// `serialBound` (isSerialBound of its program).
KernelEstimate estimateKernel(const KernelReport &kernel,
                              const TargetDescription &target,
                              bool serialBound);

/// The estimate of every kernel of `report` on `target`, summed (kernels
/// run one after the other); the serial work counts when `serialBound`
/// (isSerialBound of its program).
double estimateSeconds(const FusionReport &report,
                       const TargetDescription &target, bool serialBound);

/// Whether every kernel of `report` fits `target`'s on-chip memory: reduce
/// states within the register budget and other tiles within the shared
/// memory, and (while the GPU lowering stages states in shared memory too)
/// all of them within the shared memory; without a register file, all tiles
/// within the local memory.
/// When not, `why` (if given) says which budget is exceeded and by what.
bool fitsOnChip(const FusionReport &report, const TargetDescription &target,
                std::string *why = nullptr);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_COSTMODEL_H
