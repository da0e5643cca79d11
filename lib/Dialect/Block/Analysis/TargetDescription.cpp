//===- TargetDescription.cpp - The targets block selection knows ----------===//

#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"

#include "llvm/ADT/STLExtras.h"

using namespace blockbuster::block;

// One row per target. Sources: NVIDIA H100 (sm_90) tuning guide: 228 KB of
// shared memory per SM (design note 01, section 5); bandwidth and peak as
// measured on the device machine (../shared/anchors/performance.md: HBM copy
// 3.00 TB/s, bf16 GEMM 685-720 TFLOP/s; we take 600 TFLOP/s, a sustained
// tensor-core rate), about 4 us per kernel launch. For the CPU, the L2 cache
// of one core of a current server part, which the tiles of one map instance
// should fit in to stay out of DRAM, and round figures for one core.
//
// Registers (H100): 65536 32-bit registers per SM, at most 255 per thread
// (CUDA C Programming Guide, compute capability 9.0). The cost model assumes
// one map instance is a thread block of 256 threads (two warpgroups, 8
// warps; 256 x 255 = 65280 registers fit one SM) and lets 128 of each
// thread's registers hold reduce states: 128 KB of accumulators per
// instance. That is the split of CUTLASS's sm_90 128 x 256 f32-accumulator
// GEMM tile (two consumer warpgroups, 64 x 256 accumulators each, 128
// registers per thread), the largest accumulator tile production kernels
// use; the other registers hold MMA operand fragments, addresses and loop
// temporaries.
static constexpr TargetDescription kTargets[] = {
    {/*name=*/"h100",
     /*summary=*/"NVIDIA H100 (sm_90): 228 KB shared memory and 64K 32-bit "
                 "registers per SM",
     /*localMemoryBytes=*/228 * 1024,
     /*registersPerSM=*/65536,
     /*maxRegistersPerThread=*/255,
     /*threadsPerInstance=*/256,
     /*stateRegistersPerThread=*/128,
     /*maxBlockSize=*/128,
     /*globalBytesPerSecond=*/3.0e12,
     /*flopsPerSecond=*/6.0e14,
     /*kernelOverheadSeconds=*/4.0e-6},
    {/*name=*/"cpu",
     /*summary=*/"host CPU: 2 MB of L2 cache per core",
     /*localMemoryBytes=*/2 * 1024 * 1024,
     /*registersPerSM=*/0,
     /*maxRegistersPerThread=*/0,
     /*threadsPerInstance=*/1,
     /*stateRegistersPerThread=*/0,
     /*maxBlockSize=*/128,
     /*globalBytesPerSecond=*/2.0e10,
     /*flopsPerSecond=*/5.0e10,
     /*kernelOverheadSeconds=*/1.0e-7},
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
static_assert(isConsistent(kTargets[0]) && isConsistent(kTargets[1]),
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
