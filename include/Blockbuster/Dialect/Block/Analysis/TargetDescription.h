//===- TargetDescription.h - Targets known to block-select ----*- C++ -*-===//
//
// The facts about a processor that the cost model (block-select's choice of
// block sizes, block-fuse's extend step, block-report's estimates) reads,
// kept as data, one row per target: limits of the chip and its measured
// rates, not constants in passes.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_TARGETDESCRIPTION_H
#define BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_TARGETDESCRIPTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace blockbuster::block {

/// One processor that block programs are compiled for.
struct TargetDescription {
  /// The name the `target` options use ("h100", "h200", "cpu").
  llvm::StringRef name;
  /// One line for diagnostics and docs.
  llvm::StringRef summary;
  /// Bytes of fast local memory one map instance may keep live at once: the
  /// budget for the fusion report's `shared_bytes_peak` (tiles), or for its
  /// whole `local_bytes_peak` on a target without a separate register file
  /// (`registersPerSM == 0`).
  int64_t localMemoryBytes;
  /// The register file, in 32-bit registers: per SM, and at most per thread
  /// (the hardware's limits). 0 when the target has no separate register
  /// file that the cost model must respect (the CPU).
  int64_t registersPerSM;
  int64_t maxRegistersPerThread;
  /// The thread-block shape the cost model assumes for one map instance, and
  /// how many of each thread's registers may hold reduce states
  /// (accumulators); the rest hold operand fragments, addresses and loop
  /// temporaries.
  int64_t threadsPerInstance;
  int64_t stateRegistersPerThread;
  /// The largest block size the heuristic tries on a tiled axis (a power of
  /// two).
  int64_t maxBlockSize;

  /// The processors that run map instances side by side (SMs; cores), and
  /// what one of them holds at once: blocks, threads, shared memory (bytes,
  /// with `sharedBytesReservedPerBlock` taken by the system per block) and
  /// the registers a thread needs besides its reduce states (addresses,
  /// operand fragments, loop temporaries). Instances that fit one processor
  /// together run in one wave.
  int64_t numProcessors;
  int64_t maxBlocksPerProcessor;
  int64_t maxThreadsPerProcessor;
  int64_t sharedBytesPerProcessor;
  int64_t sharedBytesReservedPerBlock;
  int64_t baseRegistersPerThread;

  /// Measured ceilings: global-memory (copy) bandwidth; the matrix rate of
  /// dots on 16-bit float operands (tensor cores); the rate of every other
  /// FLOP (f32 fused multiply-add, 2 FLOPs each).
  double globalBytesPerSecond;
  /// The L2 cache, and the rate at which a kernel re-reads what it holds:
  /// the bytes a kernel reads again (a weight read by every block of rows)
  /// come from it when the arrays it reads fit. 0 bytes: no such cache.
  int64_t l2Bytes;
  double l2BytesPerSecond;
  double matrixFlopsPerSecond;
  double vectorFlopsPerSecond;
  /// A GEMM's prologue (KernelReport::prologueFlops: the A tile computed
  /// from loaded tiles in the GEMM's own k loop) runs on the warps that
  /// issue the matrix instructions and stalls them: its FLOPs beyond
  /// `prologueHiddenFlopsPerElement` per computed element cost
  /// 1 / `prologueFlopsPerSecond` each, on top of the rest of the kernel's
  /// time (docs/FusionReport.md, "Prologues"). Rate 0: no such term.
  double prologueFlopsPerSecond;
  double prologueHiddenFlopsPerElement;
  /// The fixed cost of one kernel (launch and tail), in seconds.
  double kernelOverheadSeconds;
  /// The serial time of one instance (docs/FusionReport.md, "Serial
  /// work"): seconds per iteration of a top-level reduce loop (its barriers,
  /// a global load's round trip, the chain of matrix instructions) and per
  /// element one thread computes in it (the generic lowering's scalar loop
  /// nests), and per fused multiply-add one thread runs for an f32 dot
  /// (register-tiled FMA, operands from shared memory). Fitted to kernels
  /// measured on the target (docs/FusionReport.md, "Serial work"); 0 where
  /// the model has no such term (the CPU).
  double iterationSeconds;
  double threadElementSeconds;
  double threadFmaSeconds;
  /// The same two rates for a kernel gpu-decode-gemv runs (weights streamed
  /// into registers, the statistics in warp reductions; KernelReport::
  /// decodeGemv): fitted to that schedule's kernels (docs/FusionReport.md,
  /// "Serial work").
  double decodeGemvIterationSeconds;
  double decodeGemvThreadElementSeconds;
  /// The most blocks a grid smaller than the processors may have once
  /// gpu-split-reductions splits its reduce loop across blocks
  /// (SplitFactor.h; bb-compile --split-max-blocks); 0: no split.
  int64_t splitMaxBlocks;
  /// Whether gpu-decode-gemv runs the kernels it takes (false under
  /// bb-compile --decode-gemv=false, block-select decode-gemv=false: the
  /// generic lowering's rates and column walks).
  bool decodeGemv = true;
};

/// Bytes of reduce state (the fusion report's `register_bytes_peak`) one map
/// instance may keep in registers: threadsPerInstance x
/// stateRegistersPerThread x 4 bytes; 0 without a register file.
int64_t getRegisterBudgetBytes(const TargetDescription &target);

/// Every known target, in the order the docs list them.
llvm::ArrayRef<TargetDescription> getTargetDescriptions();

/// The target called `name`, or null when there is none.
const TargetDescription *lookupTargetDescription(llvm::StringRef name);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_ANALYSIS_TARGETDESCRIPTION_H
