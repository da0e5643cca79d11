//===- GPUPipeline.cpp - Block programs to PTX for NVIDIA GPUs ------------===//
//
// The GPU path of docs/design/03-lowering-and-runtime.md: block program ->
// per-block Linalg on tensors -> tiles in shared memory, views of global memory
// -> each tile op distributed over the block's threads -> one gpu.launch per
// kernel -> outlined kernels, the host side recorded as a launch manifest ->
// NVVM -> PTX (gpu-module-to-binary format=isa). The host function stays on
// memrefs: the runtime executes the manifest, not host code.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Pipelines/GPUPipeline.h"
#include "Blockbuster/Pipelines/Pipelines.h"

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

/// The CUDA toolkit named by CUDA_HOME, CUDA_ROOT or CUDA_PATH, else
/// /usr/local/cuda when it has libdevice, else none.
static std::string findCudaToolkit() {
  for (const char *var : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (const char *path = getenv(var))
      return path;
  if (llvm::sys::fs::is_directory("/usr/local/cuda/nvvm/libdevice"))
    return "/usr/local/cuda";
  return "";
}

void blockbuster::buildGPUPipeline(OpPassManager &pm,
                                   const GPUPipelineOptions &options) {
  pm.addPass(createConvertBlockToLinalg());
  // Map the grids before canonicalization, which inlines the body of an
  // unmapped one-block forall into the host function.
  pm.addPass(createGPUPromoteBlockTiles());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Fewer, larger tile ops: fewer barriers and fewer tiles in shared memory;
  // a dot's prologue stays out of the dot (tensor cores).
  pm.addPass(createGPUFuseElementwiseTileOps());
  // Again, for the tensor.empty ops that fusion made.
  pm.addPass(createGPUPromoteBlockTiles());

  addBufferizeToOutParams(pm);
  pm.addNestedPass<func::FuncOp>(createGPUWriteReshapedResultsInPlace());

  pm.addPass(createGPUCarryLoopStateInPlace());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // RMSNorm's statistics kernel into the GEMM blocks that read it, where
  // their mainloop accumulates the statistics (before the row kernels,
  // which would lower it): blocks of grids smaller than the SMs (split
  // grids, whose splits combine the sums), and with
  // wgmma-prologue-statistics every register-A block.
  bool registerStatistics = options.wgmmaPrologueStatistics &&
                            options.wgmmaPrologueRegisters &&
                            options.wgmmaPrologueRowScale;
  bool splitStatistics = options.wgmmaSplitStatistics &&
                         options.wgmmaPrologueRowScale;
  if (options.chip == "sm_90a" && (registerStatistics || splitStatistics)) {
    GPUSinkPrologueStatisticsOptions sink;
    sink.registerBlocks = registerStatistics;
    sink.smallGrids = splitStatistics;
    pm.addPass(createGPUSinkPrologueStatistics(sink));
  }
  // Whole-row blocks first: their rows stay in registers (kernel shape 3).
  GPURowKernelsOptions rows;
  rows.threads = options.threads;
  rows.contractFma = options.contractFma;
  rows.asyncRowCopies = options.rowAsyncCopies;
  pm.addPass(createGPURowKernels(rows));
  // Attention blocks (16 query rows per warp): every tile in registers,
  // the dots on wgmma with K and V on a TMA ring (sm_90a), else on
  // mma.sync (kernel shape 2).
  GPUFlashAttentionOptions attention;
  attention.threads = options.threads;
  if (options.chip == "sm_90a")
    attention.mma = options.attentionMma;
  attention.vWaitEarly = options.attentionVWaitEarly;
  attention.printRefusals = options.attentionPrintRefusals;
  attention.f32OperandParts = options.attentionF32OperandParts;
  attention.allowTf32 = options.allowTf32;
  pm.addPass(createGPUFlashAttention(attention));
  // The chooser of GEMM schedules: on sm_90a, 128 x 128 GEMM blocks get the
  // TMA + wgmma mainloop (its k steps split across blocks where the grid is
  // too small for the SMs); every other dot stays with mma.sync.
  if (options.chip == "sm_90a") {
    GPUWarpgroupMatmulOptions wgmma;
    wgmma.threads = options.threads;
    wgmma.stages = options.wgmmaStages;
    wgmma.groupRows = options.wgmmaGroupRows;
    wgmma.fragmentEpilogue = options.wgmmaFragmentEpilogue;
    wgmma.prologueRegisters = options.wgmmaPrologueRegisters;
    wgmma.prologueRegistersOneWarpgroup =
        options.wgmmaPrologueRegistersOneWarpgroup;
    wgmma.prologueRowScale = options.wgmmaPrologueRowScale;
    wgmma.prologueStatistics =
        options.wgmmaPrologueStatistics || options.wgmmaSplitStatistics;
    wgmma.prologueAhead = options.wgmmaPrologueAhead;
    wgmma.producer = options.wgmmaProducer;
    wgmma.persistent = options.wgmmaPersistent;
    wgmma.streamK = options.wgmmaStreamK;
    wgmma.streamKMinWaves = options.wgmmaStreamKMinWaves;
    wgmma.productsOneWgmma = options.wgmmaProductsOneWgmma;
    wgmma.clusterMulticast = options.wgmmaClusterMulticast;
    wgmma.clusterMulticastUnaligned = options.wgmmaClusterMulticastUnaligned;
    wgmma.prologueContractFma = options.contractFma;
    wgmma.splitMaxBlocks = options.wgmmaSplitMaxBlocks;
    pm.addPass(createGPUWarpgroupMatmul(wgmma));
  }
  // Decode GEMVs: a grid too small for the chip splits its reduce loop
  // across blocks (kernel shape 4). After the wgmma chooser, whose GEMM
  // blocks split their own ring.
  // RMSNorm's row factor after a decode block's dot loop, its squares in
  // the loop: before the split, so that the splits' partial sums are
  // combined with the accumulators.
  if (options.decodeGemv && options.decodeRowFactor)
    pm.addPass(createGPUDecodeRowFactor());
  if (options.splitMaxBlocks > 0) {
    GPUSplitReductionsOptions split;
    split.maxBlocks = options.splitMaxBlocks;
    split.threads = options.threads;
    pm.addPass(createGPUSplitReductions(split));
  }
  // Decode blocks (at most 16 rows against a weight slice): the weights
  // streamed into registers, mma.sync on them (kernel shape 4). After the
  // split, whose loop bounds and combine it keeps.
  if (options.decodeGemv) {
    GPUDecodeGemvOptions gemv;
    gemv.threads = options.threads;
    gemv.prefetchBytes = options.decodePrefetchBytes;
    gemv.weightsAheadMaxBlocks = options.decodeWeightsAheadMaxBlocks;
    gemv.activationsAhead = options.decodeActivationsAhead;
    gemv.activationVectors = options.decodeActivationVectors;
    gemv.weightsAheadIterations = options.decodeWeightsAheadIterations;
    gemv.weightsAheadBytes = options.decodeWeightsAheadBytes;
    gemv.weightsBeforeStatistics = options.decodeWeightsBeforeStatistics;
    pm.addPass(createGPUDecodeGemv(gemv));
  }
  GPUContractionsToMMAOptions mma;
  mma.threads = options.threads;
  pm.addPass(createGPUContractionsToMMA(mma));
  GPUContractionsToFMAOptions fma;
  fma.threads = options.threads;
  pm.addPass(createGPUContractionsToFMA(fma));
  GPUWarpRowReductionsOptions rowReductions;
  rowReductions.threads = options.threads;
  pm.addPass(createGPUWarpRowReductions(rowReductions));
  GPUDistributeToThreadsOptions distribute;
  distribute.threads = options.threads;
  pm.addPass(createGPUDistributeToThreads(distribute));
  GPUMapGridToLaunchOptions launch;
  launch.threads = options.threads;
  pm.addPass(createGPUMapGridToLaunch(launch));
  pm.addPass(createGPUPackWorkgroupMemory());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());

  // Constants used in a launch would otherwise become kernel parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createGPUTensorMapParams());
  pm.addPass(createGPUKernelArgAttrs());
  GPULaunchManifestOptions manifest;
  manifest.chip = options.chip;
  manifest.features = options.features;
  pm.addPass(createGPULaunchManifest(manifest));

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // After outlining: nvgpu ops on workgroup memrefs captured by a launch
  // would otherwise become descriptor structs passed by value (docs/design/
  // 05-gpu-lowering-notes.md, gotcha 6).
  kernels.addPass(createConvertNVGPUToNVVMPass());
  // f32 erf without libdevice's per-element coefficient selects (before
  // convert-gpu-to-nvvm turns it into a call of __nv_erff).
  if (options.rationalErf)
    kernels.addPass(createGPUExpandErf());
  kernels.addPass(createGPUPairBF16RoundTrips());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // NVVM ops that are PTX strings (mbarrier waits, TMA copies, wgmma) become
  // inline assembly; LLVM translation has no lowering for them.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGPUExternDynamicSharedMemory());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  // libdevice (exp, erf, ... on the GPU) is linked only when the toolkit is
  // found; otherwise the PTX calls undefined __nv_* functions (docs/design/
  // 05-gpu-lowering-notes.md, gotcha 1).
  binary.toolkitPath = options.cudaPath.empty() ? findCudaToolkit()
                                                : options.cudaPath.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createGPUDropBinaryTimings());
}

void blockbuster::registerGPUPipeline() {
  PassPipelineRegistration<GPUPipelineOptions>(
      "blockbuster-gpu-pipeline",
      "Lowers block programs (block sizes bound) to PTX in gpu.binary ops, "
      "host functions on memrefs with a launch manifest",
      buildGPUPipeline);
}
