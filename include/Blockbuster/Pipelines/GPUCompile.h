//===- GPUCompile.h - Linalg or block programs for the GPU ------*- C++ -*-===//
//
// What bb-compile and the C API run before they write an artifact
// (Blockbuster/Target/ArtifactWriter.h): conversion, fusion, selection and
// blockbuster-gpu-pipeline, with the conversion chosen for the target.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_PIPELINES_GPUCOMPILE_H
#define BLOCKBUSTER_PIPELINES_GPUCOMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace blockbuster {

struct GPUCompileOptions {
  /// `whole-threshold` of convert-linalg-to-block (Linalg input only); 0:
  /// block-select chooses among the conversion's default and every reduced
  /// or feature axis whole, and tiles more where neither fits the target.
  int64_t wholeThreshold = 0;
  /// Run block-fuse before selection (false: the unfused program).
  bool fuse = true;
  /// block-fuse's divide-after-rounding: a division moves past a rounding
  /// before a dot (inexact; attention's single-pass online softmax when P
  /// is rounded to 16 bits). Off: the program's exact arithmetic.
  bool divideAfterRounding = false;
  /// block-fuse's divide-after-bf16-rounding: the same for roundings to
  /// bf16 only (on: bf16 attention with P rounded after the division takes
  /// the single pass, as FlashAttention and PyTorch's SDPA compute it; off:
  /// the program's exact two passes; docs/FusionRules.md).
  bool divideAfterBF16Rounding = true;
  /// block-fuse's round-dot-operands: an f32 dot operand against one
  /// widened from a 16-bit float is rounded to that type (inexact;
  /// attention's f32 P V as one bf16 dot). Off: the program's f32 dot
  /// (attention's f32 P V as three bf16 dots of P's exact parts).
  bool roundDotOperands = false;
  /// block-fuse's and block-select's price-prologues: a GEMM's A prologue
  /// recomputed per block of columns costs its stall (off: nothing, and
  /// LayerNorm + matmul keeps its normalisation in the GEMM's k loop).
  bool pricePrologues = true;
  /// The machine block-fuse and block-select estimate for ("h100",
  /// "h200").
  std::string target = "h100";
  /// `block-sizes` option of block-select ("M=64,N=64"); empty: the cost
  /// model chooses.
  std::string blockSizes;
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  int64_t threads = 128;
  /// blockbuster-gpu-pipeline's wgmma-stages, wgmma-group-rows,
  /// wgmma-fragment-epilogue, wgmma-prologue-registers,
  /// wgmma-prologue-registers-one-warpgroup,
  /// wgmma-prologue-row-scale, wgmma-prologue-statistics,
  /// wgmma-split-statistics, wgmma-prologue-ahead, wgmma-producer,
  /// wgmma-persistent and wgmma-stream-k (sm_90a).
  int64_t wgmmaStages = 0;
  int64_t wgmmaGroupRows = 8;
  bool wgmmaFragmentEpilogue = true;
  bool wgmmaPrologueRegisters = true;
  bool wgmmaPrologueRegistersOneWarpgroup = true;
  bool wgmmaPrologueRowScale = true;
  bool wgmmaPrologueStatistics = false;
  bool wgmmaSplitStatistics = true;
  bool wgmmaPrologueAhead = true;
  bool wgmmaProducer = true;
  bool wgmmaPersistent = true;
  bool wgmmaStreamK = true;
  int64_t wgmmaStreamKMinWaves = 5;
  bool wgmmaProductsOneWgmma = true;
  bool wgmmaClusterMulticast = false;
  /// ... and by default where B's rows are not whole 128-byte lines.
  bool wgmmaClusterMulticastUnaligned = true;
  /// blockbuster-gpu-pipeline's contract-fma and rational-erf.
  bool contractFma = true;
  bool rationalErf = true;
  /// blockbuster-gpu-pipeline's row-async-copies.
  bool rowAsyncCopies = true;
  /// blockbuster-gpu-pipeline's attention-mma (sm_90a): wgmma, wgmma-qk or
  /// sync.
  std::string attentionMma = "wgmma";
  /// blockbuster-gpu-pipeline's attention-v-wait-early.
  bool attentionVWaitEarly = false;
  /// blockbuster-gpu-pipeline's attention-print-refusals.
  bool attentionPrintRefusals = false;
  /// blockbuster-gpu-pipeline's attention-f32-operand-parts.
  int64_t attentionF32OperandParts = 3;
  /// blockbuster-gpu-pipeline's allow-tf32, and block-select's: f32 dots
  /// on tf32 tensor cores (f32 attention on sm_90a's wgmma schedule).
  bool allowTf32 = false;
  /// blockbuster-gpu-pipeline's wgmma-split-max-blocks (0: sm_90a GEMM
  /// blocks are not split, and block-warpgroup-gemm-blocks gives no blocks
  /// to grids that would need the split to fill the SMs).
  int64_t wgmmaSplitMaxBlocks = 264;
  /// blockbuster-gpu-pipeline's split-max-blocks (0: no split reductions).
  int64_t splitMaxBlocks = 1056;
  /// blockbuster-gpu-pipeline's decode-gemv.
  bool decodeGemv = true;
  /// blockbuster-gpu-pipeline's decode-prefetch-bytes.
  int64_t decodePrefetchBytes = 0;
  /// blockbuster-gpu-pipeline's decode-weights-ahead-max-blocks.
  int64_t decodeWeightsAheadMaxBlocks = 264;
  /// blockbuster-gpu-pipeline's decode-weights-ahead-iterations.
  int64_t decodeWeightsAheadIterations = 0;
  /// blockbuster-gpu-pipeline's decode-weights-ahead-bytes.
  int64_t decodeWeightsAheadBytes = 32768;
  /// blockbuster-gpu-pipeline's decode-activations-ahead.
  bool decodeActivationsAhead = true;
  /// blockbuster-gpu-pipeline's decode-activation-vectors.
  bool decodeActivationVectors = true;
  /// blockbuster-gpu-pipeline's decode-weights-before-statistics.
  bool decodeWeightsBeforeStatistics = false;
  /// blockbuster-gpu-pipeline's decode-row-factor.
  bool decodeRowFactor = true;
};

/// Takes `module` (Linalg on tensors, or block programs) through
/// hoist-tensor-constants and convert-linalg-to-block (when it has no
/// block.program), block-fuse, block-select and blockbuster-gpu-pipeline.
/// convert-linalg-to-block keeps each function's argument attributes (the
/// hoisted weights' keys, which the manifest records) on the program that
/// replaces it. Diagnostics go to the context's handler.
/// `fusedProgram`, when given, receives the block program after selection.
mlir::LogicalResult compileForGPU(mlir::ModuleOp module,
                                  const GPUCompileOptions &options,
                                  std::string *fusedProgram = nullptr);

} // namespace blockbuster

#endif // BLOCKBUSTER_PIPELINES_GPUCOMPILE_H
