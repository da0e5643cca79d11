//===- CostModel.cpp - Time of a block program on a target ----------------===//
//
// Per kernel (docs/FusionReport.md, "Estimates"):
//
//   blocks per processor k = min(block slots, threads, shared memory,
//                                registers) of one instance, at least 1
//   splits S = chooseSplitFactor (SplitFactor.h) when the instances B are
//            fewer than the processors P and the body has top-level sums
//            of dots (T iterations); the grid is then S x B blocks
//   waves W = ceil(S B / (P x k))
//   occupancy = S B / (W x P x min(k, ceil(S B / P)))
//   memory = bytes / bandwidth, or, when the arrays the kernel reads fit in
//            L2, max(first reads and writes / bandwidth, bytes / L2 rate)
//   serial = iterations x iteration cost + thread elements x element cost
//            + thread FMAs of f32 dots x FMA cost, the split sums' T
//            iterations (and their elements and FMAs) cut to T / S plus one
//            for the combine
//   prologue = max(0, prologue FLOPs - hidden FLOPs per element x
//              prologue elements) / prologue rate
//   time = max(max(memory, matrix FLOPs padded to whole matrix tiles /
//              matrix rate + other FLOPs / vector rate) / occupancy,
//              W x serial) + prologue + launch cost
//
// The prologue term is a GEMM that computes its A tiles in its k loop (a
// normalisation, once per block of output columns): the warps that issue
// the matrix instructions run it between them, so it adds to the time
// instead of overlapping it, except for the few FLOPs per element that hide
// behind the instructions in flight (docs/FusionReport.md, "Prologues").
// It is what makes materialising LayerNorm's normalised X (one more
// kernel and its round trip) faster than recomputing it per block of
// columns, and leaves RMSNorm's fused.
//
// The serial term is what decode kernels spend their time on: a block of a
// GEMV runs its loops one iteration after another (load, barrier, compute,
// barrier), so a grid that streams 1% of the bandwidth is still busy; it
// is why fewer rows per block and a short loop per split win
// (docs/performance.md, "Session 8: decode blocks").
//
// Occupancy is the wave quantisation of a grid: a grid smaller than the
// processors leaves some idle (a decode GEMV of 32 blocks on 132 SMs runs
// at 32/132 of the chip's rate), and a last wave that is partly empty takes
// as long as a full one. Within a wave, a processor with fewer instances
// than it could hold is assumed to reach its full share of the rates (one
// block keeps one SM's loads in flight through its staged tiles).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"

#include "Blockbuster/Support/SplitFactor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace blockbuster::block;

/// ceil(a / b) for a >= 0, b > 0.
static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Instances of `kernel` that one processor of `target` holds at once; with
/// `countRegisters` false, by block slots, threads and shared memory alone,
/// as gpu-split-reductions counts them (its waves decide the split).
static int64_t getBlocksPerProcessor(const KernelReport &kernel,
                                     const TargetDescription &target,
                                     bool countRegisters = true) {
  int64_t blocks = target.maxBlocksPerProcessor;
  int64_t threads = target.threadsPerInstance;
  blocks = std::min(blocks, target.maxThreadsPerProcessor / threads);
  // Today's GPU lowering stages reduce states in shared memory too: the
  // whole local peak occupies it.
  int64_t shared = kernel.localBytesPeak + target.sharedBytesReservedPerBlock;
  if (shared > 0)
    blocks = std::min(blocks, target.sharedBytesPerProcessor / shared);
  if (countRegisters && target.registersPerSM > 0) {
    // Reduce states spread over the threads, on top of the registers every
    // thread needs; allocated in units of 8 per thread.
    int64_t stateRegisters =
        ceilDiv(kernel.registerBytesPeak, 4 * threads);
    int64_t perThread =
        std::min(ceilDiv(target.baseRegistersPerThread + stateRegisters, 8) * 8,
                 target.maxRegistersPerThread);
    blocks = std::min(blocks, target.registersPerSM / (perThread * threads));
  }
  return std::max<int64_t>(blocks, 1);
}

/// The time of `estimate` from its terms.
static KernelEstimate finish(KernelEstimate estimate,
                             const TargetDescription &target) {
  estimate.seconds =
      std::max(std::max(estimate.memorySeconds, estimate.computeSeconds) /
                   estimate.occupancy,
               estimate.latencySeconds) +
      estimate.prologueSeconds + target.kernelOverheadSeconds;
  return estimate;
}

/// The time of `kernel`'s global memory traffic on `target`.
static double getMemorySeconds(const KernelReport &kernel,
                               const TargetDescription &target) {
  double bytes = kernel.globalBytesRead + kernel.globalBytesWritten;
  // Re-reads of arrays that fit in L2 together come from it: the first
  // reads and the writes go to memory, everything passes through L2.
  if (target.l2Bytes > 0 && kernel.globalBytesFirstRead <= target.l2Bytes) {
    double firstBytes =
        kernel.globalBytesFirstRead + kernel.globalBytesWritten;
    return std::max(firstBytes / target.globalBytesPerSecond,
                    bytes / target.l2BytesPerSecond);
  }
  return bytes / target.globalBytesPerSecond;
}

/// The time of `kernel`'s FLOPs on `target`: dots on 16-bit operands at the
/// matrix rate (padded to whole matrix tiles), everything else (f32 dots
/// included) at the vector rate.
static double getComputeSeconds(const KernelReport &kernel,
                                const TargetDescription &target) {
  return kernel.matrixTileFlops / target.matrixFlopsPerSecond +
         (kernel.flops - kernel.matrixFlops) / target.vectorFlopsPerSecond;
}

/// The stall of `kernel`'s prologue on `target` (0 without a rate).
static double getPrologueSeconds(const KernelReport &kernel,
                                 const TargetDescription &target) {
  if (target.prologueFlopsPerSecond <= 0)
    return 0;
  double stalled = kernel.prologueFlops - target.prologueHiddenFlopsPerElement *
                                              kernel.prologueElements;
  return std::max(0.0, stalled) / target.prologueFlopsPerSecond;
}

TargetDescription
blockbuster::block::withoutSerialWork(const TargetDescription &target) {
  TargetDescription judged = target;
  judged.iterationSeconds = 0;
  judged.threadElementSeconds = 0;
  judged.threadFmaSeconds = 0;
  judged.decodeGemvIterationSeconds = 0;
  judged.decodeGemvThreadElementSeconds = 0;
  return judged;
}

bool blockbuster::block::isSerialBound(ProgramOp program,
                                       const TargetDescription &target) {
  llvm::StringMap<int64_t> largest;
  for (AxisAttr axis : program.getAxisTable())
    if (axis.isTiled())
      largest[axis.getName().getValue()] = target.maxBlockSize;
  FusionReport report = computeFusionReport(
      program, BlockSizes(program, largest, target.maxBlockSize));
  return llvm::any_of(report.perKernel,
                      [](const KernelReport &kernel) {
                        return kernel.splitTripCount > 0;
                      }) &&
         llvm::all_of(report.perKernel, [&](const KernelReport &kernel) {
           return kernel.instances < target.numProcessors;
         });
}

KernelEstimate blockbuster::block::estimateKernel(
    const KernelReport &kernel, const TargetDescription &target,
    bool serialBound) {
  KernelEstimate estimate;
  estimate.blocksPerProcessor = getBlocksPerProcessor(kernel, target);
  int64_t processors = target.numProcessors;
  // The splits gpu-split-reductions will give the kernel's reduce loop
  // (SplitFactor.h): the grid runs S x B blocks.
  estimate.splits = chooseSplitFactor(
      {std::max<int64_t>(kernel.instances, 1), kernel.splitTripCount,
       kernel.splitOtherIterations,
       processors * getBlocksPerProcessor(kernel, target,
                                          /*countRegisters=*/false)},
      {processors, target.splitMaxBlocks});
  int64_t instances =
      std::max<int64_t>(kernel.instances, 1) * estimate.splits;
  estimate.waves =
      ceilDiv(instances, processors * estimate.blocksPerProcessor);
  // The busiest processor of a wave holds min(k, ceil(B / P)) instances.
  int64_t perProcessor = std::min(estimate.blocksPerProcessor,
                                  ceilDiv(instances, processors));
  estimate.occupancy = static_cast<double>(instances) /
                       (estimate.waves * processors * perProcessor);

  estimate.memorySeconds = getMemorySeconds(kernel, target);
  estimate.computeSeconds = getComputeSeconds(kernel, target);
  estimate.prologueSeconds = getPrologueSeconds(kernel, target);
  if (!serialBound)
    return finish(estimate, target);
  // One block's loops, the split sums' iterations shared among the splits.
  // Without gpu-decode-gemv its kernels run on the generic lowering.
  bool decodeGemv = kernel.decodeGemv && target.decodeGemv;
  int64_t iterations = kernel.serialIterations;
  int64_t elements = kernel.serialThreadElements +
                     (decodeGemv ? 0 : kernel.serialColumnWalkElements);
  int64_t fmas = kernel.serialThreadFmas;
  if (int64_t splits = estimate.splits; splits > 1) {
    int64_t trips = kernel.splitTripCount;
    iterations += trips / splits + 1 - trips;
    elements += (trips / splits - trips) *
                (kernel.splitIterationThreadElements +
                 (decodeGemv ? 0 : kernel.splitIterationColumnWalkElements));
    fmas += (trips / splits - trips) * kernel.splitIterationThreadFmas;
  }
  double iterationSeconds = decodeGemv ? target.decodeGemvIterationSeconds
                                       : target.iterationSeconds;
  double elementSeconds = decodeGemv ? target.decodeGemvThreadElementSeconds
                                     : target.threadElementSeconds;
  estimate.latencySeconds =
      estimate.waves * (iterations * iterationSeconds +
                        elements * elementSeconds +
                        fmas * target.threadFmaSeconds);
  return finish(estimate, target);
}

double blockbuster::block::estimateSeconds(const FusionReport &report,
                                           const TargetDescription &target,
                                           bool serialBound) {
  double seconds = 0;
  for (const KernelReport &kernel : report.perKernel)
    seconds += estimateKernel(kernel, target, serialBound).seconds;
  return seconds;
}

bool blockbuster::block::fitsOnChip(const FusionReport &report,
                                    const TargetDescription &target,
                                    std::string *why) {
  auto fail = [&](llvm::StringRef what, int64_t peak, int64_t budget) {
    if (why)
      *why = (what + " " + llvm::Twine(peak) + " bytes > " +
              llvm::Twine(budget))
                 .str();
    return false;
  };
  if (target.registersPerSM == 0) {
    if (report.localBytesPeak > target.localMemoryBytes)
      return fail("local_bytes_peak", report.localBytesPeak,
                  target.localMemoryBytes);
    return true;
  }
  if (report.sharedBytesPeak > target.localMemoryBytes)
    return fail("shared_bytes_peak", report.sharedBytesPeak,
                target.localMemoryBytes);
  int64_t registerBudget = getRegisterBudgetBytes(target);
  if (report.registerBytesPeak > registerBudget)
    return fail("register_bytes_peak", report.registerBytesPeak,
                registerBudget);
  // Today's GPU lowering (lib/Codegen/GPU) stages reduce states in shared
  // memory as well, and refuses a kernel whose tiles and states together
  // exceed it: until states stay in registers there, the total must fit
  // too.
  if (report.localBytesPeak > target.localMemoryBytes)
    return fail("local_bytes_peak", report.localBytesPeak,
                target.localMemoryBytes);
  return true;
}
