//===- GPUPipeline.h - Block programs to PTX --------------------*- C++ -*-===//

#ifndef BLOCKBUSTER_PIPELINES_GPUPIPELINE_H
#define BLOCKBUSTER_PIPELINES_GPUPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace blockbuster {

/// Options of `blockbuster-gpu-pipeline`.
struct GPUPipelineOptions
    : public mlir::PassPipelineOptions<GPUPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features"),
                               llvm::cl::init("+ptx80")};
  Option<int64_t> threads{*this, "threads",
                          llvm::cl::desc("Threads per block"),
                          llvm::cl::init(128)};
  Option<int64_t> wgmmaStages{
      *this, "wgmma-stages",
      llvm::cl::desc("sm_90a GEMM blocks: shared-memory slots of the TMA "
                     "ring (0: 3 for 128 x 128 tiles, two blocks per SM; "
                     "4 for 128 x 256)"),
      llvm::cl::init(0)};
  Option<int64_t> wgmmaGroupRows{
      *this, "wgmma-group-rows",
      llvm::cl::desc("sm_90a GEMM blocks: rows of tiles per group of the "
                     "launch order (0: row by row)"),
      llvm::cl::init(8)};
  Option<bool> wgmmaFragmentEpilogue{
      *this, "wgmma-fragment-epilogue",
      llvm::cl::desc("sm_90a GEMM blocks: an elementwise epilogue applied to "
                     "the accumulator registers and stored straight to "
                     "global memory (off: through shared memory)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPrologueRegisters{
      *this, "wgmma-prologue-registers",
      llvm::cl::desc("sm_90a GEMM blocks with a prologue (norm + matmul): "
                     "the A operand computed in wgmma's register fragments "
                     "(off: the slot's A part rewritten in shared memory)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPrologueRowScale{
      *this, "wgmma-prologue-row-scale",
      llvm::cl::desc("sm_90a GEMM blocks with a register-A prologue: factors "
                     "of the row inputs alone (RMSNorm's rstd) scale the "
                     "accumulator rows after the mainloop instead of every "
                     "A element (off: the op's body as written)"),
      llvm::cl::init(true)};
  Option<bool> rationalErf{
      *this, "rational-erf",
      llvm::cl::desc("f32 erf in kernels as one rational function (16 "
                     "instructions, within 9 ulp; gpu-expand-erf) instead "
                     "of libdevice's __nv_erff (about 22, within 2 ulp)"),
      llvm::cl::init(true)};
  Option<bool> contractFma{
      *this, "contract-fma",
      llvm::cl::desc("Elementwise bodies of row kernels and of sm_90a GEMM "
                     "prologues with fused multiply-adds: `(x - m) * r` of "
                     "row values as `fma(x, r, -(m * r))`, `a * b + c` as "
                     "`fma(a, b, c)` (f32 rounding differences; off: the "
                     "bodies as written)"),
      llvm::cl::init(true)};
  Option<bool> rowAsyncCopies{
      *this, "row-async-copies",
      llvm::cl::desc("Row kernels: rows read from global memory copied into "
                     "shared memory by cp.async, every copy of a row before "
                     "one wait (off: 16-byte loads, which ptxas issues in "
                     "groups just before their uses)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPrologueRegistersOneWarpgroup{
      *this, "wgmma-prologue-registers-one-warpgroup",
      llvm::cl::desc("sm_90a 128 x 128 GEMM blocks (one warpgroup) of whole "
                     "tiles that take RMSNorm's statistics in the mainloop: "
                     "A in registers as on two warpgroups (=false: the slot "
                     "rewritten in place)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPrologueStatistics{
      *this, "wgmma-prologue-statistics",
      llvm::cl::desc("sm_90a GEMM blocks with a register-A prologue whose "
                     "row factor the accumulator takes: RMSNorm's sum of "
                     "squares accumulated from the A fragments in the "
                     "mainloop instead of a kernel of its own (measured "
                     "slower on the H100, so off by default: the "
                     "statistics kernel stays)"),
      llvm::cl::init(false)};
  Option<bool> wgmmaSplitStatistics{
      *this, "wgmma-split-statistics",
      llvm::cl::desc("sm_90a norm + matmul GEMM blocks of grids smaller "
                     "than the SMs (split or not): RMSNorm's sum of squares "
                     "accumulated in the mainloop (from the rewritten slots "
                     "or the A fragments), each split's sums combined with "
                     "its partials, rstd a factor of the accumulator rows: "
                     "one kernel (off: the statistics kernel stays)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaProducer{
      *this, "wgmma-producer",
      llvm::cl::desc("sm_90a 128 x 256 GEMM blocks: a producer warpgroup "
                     "issues the TMA copies, setmaxnreg moves registers to "
                     "the two consumer warpgroups (384 threads)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPersistent{
      *this, "wgmma-persistent",
      llvm::cl::desc("sm_90a GEMM blocks of the producer form: a persistent "
                     "grid (one block per SM looping over the tiles)"),
      llvm::cl::init(true)};
  Option<bool> wgmmaStreamK{
      *this, "wgmma-stream-k",
      llvm::cl::desc("sm_90a plain GEMM blocks on a persistent grid whose "
                     "tiles are no whole number of waves: the last wave and "
                     "the partial one share their k steps evenly over the "
                     "blocks (stream-K), a tile of two blocks' steps summed "
                     "by the block that finishes it last"),
      llvm::cl::init(true)};
  Option<int64_t> wgmmaStreamKMinWaves{
      *this, "wgmma-stream-k-min-waves",
      llvm::cl::desc("sm_90a stream-K only on grids of at least this many "
                     "waves of tiles"),
      llvm::cl::init(5)};
  Option<bool> wgmmaClusterMulticast{
      *this, "wgmma-cluster-multicast",
      llvm::cl::desc("sm_90a persistent GEMM blocks of the producer form "
                     "without stream-K: clusters of two blocks on the two "
                     "row tiles of one column, the B part of each slot "
                     "loaded half by each and multicast to both"),
      llvm::cl::init(false)};
  Option<bool> wgmmaClusterMulticastUnaligned{
      *this, "wgmma-cluster-multicast-unaligned",
      llvm::cl::desc("wgmma-cluster-multicast's clusters where B's rows are "
                     "not whole 128-byte lines"),
      llvm::cl::init(true)};
  Option<bool> wgmmaProductsOneWgmma{
      *this, "wgmma-products-one-wgmma",
      llvm::cl::desc("sm_90a GEMM blocks of two register-A products "
                     "(SwiGLU's gate and up): one m64n256k16 over both "
                     "products' B per m64 and k16"),
      llvm::cl::init(true)};
  Option<bool> wgmmaPrologueAhead{
      *this, "wgmma-prologue-ahead",
      llvm::cl::desc("sm_90a GEMM blocks with a prologue (norm + matmul): "
                     "the next step's A part rewritten while this step's "
                     "wgmma runs (off: this step's, after the last wgmma)"),
      llvm::cl::init(true)};
  Option<std::string> attentionMma{
      *this, "attention-mma",
      llvm::cl::desc("sm_90a attention blocks: the tensor-core instructions "
                     "of their dots (wgmma: both on wgmma, K and V on a "
                     "TMA ring, P from registers; wgmma-overlap: also a "
                     "loop's S = Q K^T issued an iteration ahead; "
                     "wgmma-pingpong: blocks of two consumer warpgroups "
                     "take turns issuing their dots; "
                     "wgmma-qk: S = Q K^T on wgmma, P V on mma.sync; "
                     "sync: both on mma.sync)"),
      llvm::cl::init("wgmma")};
  Option<bool> attentionPrintRefusals{
      *this, "attention-print-refusals",
      llvm::cl::desc("A remark on each attention block grid that "
                     "gpu-flash-attention does not take in registers or on "
                     "wgmma, with the reason"),
      llvm::cl::init(false)};
  Option<bool> attentionVWaitEarly{
      *this, "attention-v-wait-early",
      llvm::cl::desc("sm_90a attention blocks on wgmma: the iteration's V "
                     "tile waited for right after S = Q K^T's issue, not at "
                     "P V"),
      llvm::cl::init(false)};
  Option<int64_t> attentionF32OperandParts{
      *this, "attention-f32-operand-parts",
      llvm::cl::desc("Attention blocks whose P V takes an f32 P and a bf16 V "
                     "widened to f32 (PyTorch's SDPA exported as is): the "
                     "bf16 parts P is split into, one dot each on the "
                     "tensor cores (3: exact; 2: within 2^-17 of P)"),
      llvm::cl::init(3)};
  Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("f32 dots on the tensor cores with tf32 operands "
                     "(inexact; off: exact f32): f32 attention on the "
                     "sm_90a wgmma schedule (gpu-flash-attention's "
                     "allow-tf32)"),
      llvm::cl::init(false)};
  Option<int64_t> wgmmaSplitMaxBlocks{
      *this, "wgmma-split-max-blocks",
      llvm::cl::desc("sm_90a GEMM blocks whose grid has fewer blocks than "
                     "the SMs: their k steps split across at most this many "
                     "blocks, the partials combined in fixed order by the "
                     "last (0: no split)"),
      llvm::cl::init(264)};
  Option<int64_t> splitMaxBlocks{
      *this, "split-max-blocks",
      llvm::cl::desc("gpu-split-reductions' max-blocks: the most blocks of a "
                     "grid whose reduce loop is split (0: no split)"),
      llvm::cl::init(1056)};
  Option<bool> decodeGemv{
      *this, "decode-gemv",
      llvm::cl::desc("Decode blocks (at most 16 rows against a weight "
                     "slice): the register schedule of gpu-decode-gemv "
                     "(off: the generic path)"),
      llvm::cl::init(true)};
  Option<int64_t> decodePrefetchBytes{
      *this, "decode-prefetch-bytes",
      llvm::cl::desc("Decode blocks: weight bytes of a block prefetched "
                     "into L2 ahead of its loop (0, the default: none)"),
      llvm::cl::init(0)};
  Option<int64_t> decodeWeightsAheadMaxBlocks{
      *this, "decode-weights-ahead-max-blocks",
      llvm::cl::desc("Decode grids of at most this many blocks: the next "
                     "iteration's weights in flight across the loop's back "
                     "edge (inline ld.global.nc; 0: none)"),
      llvm::cl::init(264)};
  Option<int64_t> decodeWeightsAheadIterations{
      *this, "decode-weights-ahead-iterations",
      llvm::cl::desc("Decode grids whose weights are ahead: how many loop "
                     "iterations ahead (0: by decode-weights-ahead-bytes)"),
      llvm::cl::init(0)};
  Option<int64_t> decodeWeightsAheadBytes{
      *this, "decode-weights-ahead-bytes",
      llvm::cl::desc("Decode grids whose weights are ahead: the bytes of a "
                     "block's weights in flight ahead, in whole iterations "
                     "(at least one)"),
      llvm::cl::init(32768)};
  Option<bool> decodeActivationsAhead{
      *this, "decode-activations-ahead",
      llvm::cl::desc("Decode blocks whose weights are ahead: the A "
                     "fragment's loads an iteration ahead too"),
      llvm::cl::init(true)};
  Option<bool> decodeActivationVectors{
      *this, "decode-activation-vectors",
      llvm::cl::desc("Decode blocks: k ordered within a warp's k16 steps so "
                     "that a lane's A elements are contiguous, loaded by "
                     "16-byte vectors (off: 4-byte pairs)"),
      llvm::cl::init(true)};
  Option<bool> decodeWeightsBeforeStatistics{
      *this, "decode-weights-before-statistics",
      llvm::cl::desc("Decode blocks of one dot whose weights are ahead: the "
                     "first iteration's loads issued before the norm's "
                     "statistics, in the same warps"),
      llvm::cl::init(false)};
  Option<bool> decodeRowFactor{
      *this, "decode-row-factor",
      llvm::cl::desc("Decode blocks of RMSNorm + projection: the row factor "
                     "(rstd) applied to the accumulator after the dot loop "
                     "and the sum of squares taken from the A fragments, so "
                     "that each block reads X once (off: the statistics "
                     "before the loop, the body as written)"),
      llvm::cl::init(true)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose libdevice is linked (default: "
                     "$CUDA_HOME, $CUDA_ROOT, $CUDA_PATH, /usr/local/cuda)"),
      llvm::cl::init("")};
};

/// `blockbuster-gpu-pipeline`: a block program whose block sizes are bound
/// to PTX. convert-block-to-linalg; elementwise fusion of the tile ops;
/// tiles in workgroup memory (gpu-promote-block-tiles); one-shot
/// bufferization, results as out-params; loop state in fixed buffers;
/// tile ops distributed over threads; block grids to gpu.launch; workgroup
/// buffers packed into dynamic shared memory; outlining with sunk constants;
/// the launch manifest; NVVM and gpu-module-to-binary (PTX). The steps and
/// the MLIR 22 bugs they avoid are in docs/GPUPipeline.md.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options);

/// Registers `blockbuster-gpu-pipeline`.
void registerGPUPipeline();

} // namespace blockbuster

#endif // BLOCKBUSTER_PIPELINES_GPUPIPELINE_H
