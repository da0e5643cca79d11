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
static const TargetDescription kTargets[] = {
    {/*name=*/"h100",
     /*summary=*/"NVIDIA H100 (sm_90): 228 KB shared memory per SM",
     /*localMemoryBytes=*/228 * 1024,
     /*maxBlockSize=*/128,
     /*globalBytesPerSecond=*/3.0e12,
     /*flopsPerSecond=*/6.0e14,
     /*kernelOverheadSeconds=*/4.0e-6},
    {/*name=*/"cpu",
     /*summary=*/"host CPU: 2 MB of L2 cache per core",
     /*localMemoryBytes=*/2 * 1024 * 1024,
     /*maxBlockSize=*/128,
     /*globalBytesPerSecond=*/2.0e10,
     /*flopsPerSecond=*/5.0e10,
     /*kernelOverheadSeconds=*/1.0e-7},
};

llvm::ArrayRef<TargetDescription> blockbuster::block::getTargetDescriptions() {
  return kTargets;
}

const TargetDescription *
blockbuster::block::lookupTargetDescription(llvm::StringRef name) {
  const TargetDescription *it = llvm::find_if(
      kTargets, [&](const TargetDescription &t) { return t.name == name; });
  return it == std::end(kTargets) ? nullptr : it;
}
