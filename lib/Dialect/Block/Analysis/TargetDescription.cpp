//===- TargetDescription.cpp - The targets block selection knows ----------===//

#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"

#include "llvm/ADT/STLExtras.h"

using namespace blockbuster::block;

// One row per target.
//
// H100 (SXM5, sm_90). Limits: CUDA C Programming Guide, compute capability
// 9.0: 132 SMs, each with 228 KB of shared memory (1 KB of it reserved per
// resident block, so one block can have at most 227 KB: the limit of a
// block's tiles, cudaDevAttrMaxSharedMemoryPerBlockOptin = 232448), 65536 32-bit registers, at most 255 per thread, 2048
// threads and 32 blocks. Rates measured on the device machine's H100 80GB
// HBM3 (docs/design/performance-anchors.md, 2026-11-21): copy bandwidth 3.00
// TB/s (a 1 GiB device-to-device copy), bf16 GEMM 685-720 TFLOP/s (8192^3,
// cuBLAS): 700 here. The f32 FMA rate is the data sheet's (128 FP32 lanes per
// SM x 132 SMs x 2 FLOPs x 1.98 GHz boost = 67 TFLOP/s): the kernels that use
// it (f32 dots, elementwise chains) are memory-bound long before they reach
// it. About 4 us per kernel launch (the Python runtime's launch, no graph).
// L2: 50 MB (cudaDeviceProp::l2CacheSize); re-reads at 4.4 TB/s, measured on
// the same machine on 2026-11-24 (CUDA-graph replays of 20 copies of an 8 or
// 16 MB buffer, which stays in L2: 4.48 and 4.39 TB/s read + write; the same
// copy of 1 GB ran at 2.43 TB/s).
//
// H200 (SXM, sm_90, the same GH100 chip and limits with 141 GB of HBM3e):
// copy bandwidth 4.3 TB/s and bf16 GEMM about 790 TFLOP/s, measured on the
// device machine's H200 with the same two benchmarks (reported in the cost
// model's issue, 2026-11-24). Its L2 is the H100's (same chip): the H100's
// figures.
//
// Registers: the cost model assumes one map instance is a thread block of
// 256 threads (two warpgroups, 8 warps; 256 x 255 = 65280 registers fit one
// SM) and lets 128 of each thread's registers hold reduce states: 128 KB of
// accumulators per instance. That is the split of CUTLASS's sm_90 128 x 256
// f32-accumulator GEMM tile (two consumer warpgroups, 64 x 256 accumulators
// each, 128 registers per thread), the largest accumulator tile production
// kernels use; the other registers (32 or more: addresses, operand fragments,
// loop temporaries) count against the blocks that fit an SM.
//
// Serial work: 1.4 us per iteration of a top-level reduce loop and 0.14 us
// per element a thread computes in one, a least-squares fit to 20 decode
// kernels (RMSNorm/LayerNorm + projection, M 16 and 128, K 4096, N 4096 and
// 12288, blocks of 1-32 rows, 32-128 columns, K blocks of 128-512, 1-16
// splits) timed on the H100 on 2026-11-27 (docs/performance.md, "Session 8:
// decode blocks"): within 0.8x-1.45x of every one. The H200 runs the same
// code on the same SMs: the H100's figures.
//
// Prologues: a GEMM whose k loop computes its A tiles (sm_90a: the
// register-A prologue of gpu-warpgroup-matmul) against the same GEMM of a
// materialised A, per kernel on the H200 (scripts/kernel-times.py,
// 2026-11-28, docs/performance.md, "Materialised norms"): LayerNorm +
// matmul M8192 K4096 N4096, 4 FLOPs per element of the block program
// (- mean, * rstd, * gamma, + beta), 457 us against 360 us; RMSNorm +
// matmul, 2 (* rstd, which the schedule moves to the accumulator, and
// * gamma), 357 us against 363 us. Each element is computed once per block
// of 256 columns (16 times): 2 FLOPs per element hide behind the matrix
// instructions, and the rest cost 97 us for 2 x 537M FLOPs, 1.1e13 FLOP/s
// of the whole chip. The H100 runs the same code on the same SMs: the
// H200's figures.
//
// Split reductions: gpu-split-reductions' limit, 8 blocks per SM (the
// bb-compile default); the CPU pipeline does not split.
//
// For the CPU: one core (instances run one after the other), the L2 cache of
// one core of a current server part, which the tiles of one map instance
// should fit in to stay out of DRAM, and round figures for its rates.
static constexpr TargetDescription kTargets[] = {
    {/*name=*/"h100",
     /*summary=*/"NVIDIA H100 (sm_90): 132 SMs, 228 KB shared memory and 64K "
                 "32-bit registers per SM, 3.0 TB/s",
     /*localMemoryBytes=*/227 * 1024,
     /*registersPerSM=*/65536,
     /*maxRegistersPerThread=*/255,
     /*threadsPerInstance=*/256,
     /*stateRegistersPerThread=*/128,
     /*maxBlockSize=*/128,
     /*numProcessors=*/132,
     /*maxBlocksPerProcessor=*/32,
     /*maxThreadsPerProcessor=*/2048,
     /*sharedBytesPerProcessor=*/228 * 1024,
     /*sharedBytesReservedPerBlock=*/1024,
     /*baseRegistersPerThread=*/32,
     /*globalBytesPerSecond=*/3.0e12,
     /*l2Bytes=*/50 * 1024 * 1024,
     /*l2BytesPerSecond=*/4.4e12,
     /*matrixFlopsPerSecond=*/7.0e14,
     /*vectorFlopsPerSecond=*/6.7e13,
     /*prologueFlopsPerSecond=*/1.1e13,
     /*prologueHiddenFlopsPerElement=*/2,
     /*kernelOverheadSeconds=*/4.0e-6,
     /*iterationSeconds=*/1.4e-6,
     /*threadElementSeconds=*/1.4e-7,
     /*threadFmaSeconds=*/2.0e-9,
     /*decodeGemvIterationSeconds=*/2.8e-7,
     /*decodeGemvThreadElementSeconds=*/2.8e-8,
     /*splitMaxBlocks=*/1056},
    {/*name=*/"h200",
     /*summary=*/"NVIDIA H200 (sm_90): 132 SMs, 228 KB shared memory and 64K "
                 "32-bit registers per SM, 4.3 TB/s",
     /*localMemoryBytes=*/227 * 1024,
     /*registersPerSM=*/65536,
     /*maxRegistersPerThread=*/255,
     /*threadsPerInstance=*/256,
     /*stateRegistersPerThread=*/128,
     /*maxBlockSize=*/128,
     /*numProcessors=*/132,
     /*maxBlocksPerProcessor=*/32,
     /*maxThreadsPerProcessor=*/2048,
     /*sharedBytesPerProcessor=*/228 * 1024,
     /*sharedBytesReservedPerBlock=*/1024,
     /*baseRegistersPerThread=*/32,
     /*globalBytesPerSecond=*/4.3e12,
     /*l2Bytes=*/50 * 1024 * 1024,
     /*l2BytesPerSecond=*/4.4e12,
     /*matrixFlopsPerSecond=*/7.9e14,
     /*vectorFlopsPerSecond=*/6.7e13,
     /*prologueFlopsPerSecond=*/1.1e13,
     /*prologueHiddenFlopsPerElement=*/2,
     /*kernelOverheadSeconds=*/4.0e-6,
     /*iterationSeconds=*/1.4e-6,
     /*threadElementSeconds=*/1.4e-7,
     /*threadFmaSeconds=*/2.0e-9,
     /*decodeGemvIterationSeconds=*/2.8e-7,
     /*decodeGemvThreadElementSeconds=*/2.8e-8,
     /*splitMaxBlocks=*/1056},
    {/*name=*/"cpu",
     /*summary=*/"host CPU: one core, 2 MB of L2 cache",
     /*localMemoryBytes=*/2 * 1024 * 1024,
     /*registersPerSM=*/0,
     /*maxRegistersPerThread=*/0,
     /*threadsPerInstance=*/1,
     /*stateRegistersPerThread=*/0,
     /*maxBlockSize=*/128,
     /*numProcessors=*/1,
     /*maxBlocksPerProcessor=*/1,
     /*maxThreadsPerProcessor=*/1,
     /*sharedBytesPerProcessor=*/2 * 1024 * 1024,
     /*sharedBytesReservedPerBlock=*/0,
     /*baseRegistersPerThread=*/0,
     /*globalBytesPerSecond=*/2.0e10,
     /*l2Bytes=*/0,
     /*l2BytesPerSecond=*/0,
     /*matrixFlopsPerSecond=*/5.0e10,
     /*vectorFlopsPerSecond=*/5.0e10,
     /*prologueFlopsPerSecond=*/0,
     /*prologueHiddenFlopsPerElement=*/0,
     /*kernelOverheadSeconds=*/1.0e-7,
     /*iterationSeconds=*/0,
     /*threadElementSeconds=*/0,
     /*threadFmaSeconds=*/0,
     /*decodeGemvIterationSeconds=*/0,
     /*decodeGemvThreadElementSeconds=*/0,
     /*splitMaxBlocks=*/0},
};

// The state budget must fit the hardware: a thread may hold at most
// maxRegistersPerThread registers, and a full instance at that many per
// thread must fit one SM's register file.
static constexpr bool isConsistent(const TargetDescription &target) {
  return target.registersPerSM == 0 ||
         (target.stateRegistersPerThread <= target.maxRegistersPerThread &&
          target.threadsPerInstance * target.maxRegistersPerThread <=
              target.registersPerSM);
}
static constexpr bool areAllConsistent() {
  for (const TargetDescription &target : kTargets)
    if (!isConsistent(target))
      return false;
  return true;
}
static_assert(areAllConsistent(),
              "a target's register budget exceeds its register file");

int64_t
blockbuster::block::getRegisterBudgetBytes(const TargetDescription &target) {
  return target.threadsPerInstance * target.stateRegistersPerThread * 4;
}

llvm::ArrayRef<TargetDescription> blockbuster::block::getTargetDescriptions() {
  return kTargets;
}

const TargetDescription *
blockbuster::block::lookupTargetDescription(llvm::StringRef name) {
  const TargetDescription *it = llvm::find_if(
      kTargets, [&](const TargetDescription &t) { return t.name == name; });
  return it == std::end(kTargets) ? nullptr : it;
}
