//===- GPUCompile.cpp - Compile Linalg or block programs for the GPU ------===//

#include "Blockbuster/Pipelines/GPUCompile.h"

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"
#include "Blockbuster/Pipelines/ConvertAndSelect.h"
#include "Blockbuster/Pipelines/GPUPipeline.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

bool hasBlockPrograms(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (op.getName().getStringRef() == "block.program")
      return true;
  return false;
}

} // namespace

using namespace blockbuster;

/// The conversions whose programs block-select chooses among
/// (convertAndSelect). Whole or tiled is the conversion's choice from
/// extents and roles alone; the target's limits and the cost model decide
/// here instead:
/// - the conversion's defaults;
/// - the heads of a dot over [heads, D] tiled (a grid dimension) instead of
///   whole: fewer fusions, more blocks (nn.TransformerEncoderLayer
///   B2 S256 D512, f32, on an H100: 4.68 ms instead of 9.62 ms);
/// - that, with reduced and feature axes above 128 tiled too (multi-head
///   attention with separate projections, 256 keys: the keys tiled, three
///   kernels instead of a whole-keys form that fits only unfused);
/// - the same with axes up to 256 whole (attention with heads of 256
///   and 129-256 keys: the keys tiled, the head whole, the form
///   gpu-flash-attention runs in registers; either other form gives the
///   keys whole or the head tiled, which it does not take);
/// - every reduced or feature axis whole up to 16384 (a row kernel keeps
///   its row on chip and reads it once: add + GELU + add + LayerNorm over
///   4096 features is one kernel then, three with the features tiled).
static constexpr StringRef kConversions[] = {
    "", "whole-dot-reduced-axes=false",
    "whole-threshold=128 whole-dot-reduced-axes=false "
    "tiled-attention-keys=true",
    "whole-threshold=256 whole-dot-reduced-axes=false "
    "tiled-attention-keys=true",
    "whole-threshold=16384"};

/// Fuses and selects `module` (block programs, or Linalg converted at
/// `wholeThreshold`, 0: the candidates of convertAndSelect) with
/// `localMemoryBytes` on chip per block (0: the target's), then lowers it
/// with blockbuster-gpu-pipeline.
static LogicalResult compileOnce(ModuleOp module,
                                 const GPUCompileOptions &options,
                                 int64_t wholeThreshold,
                                 int64_t localMemoryBytes,
                                 std::string *fusedProgram) {
  std::string fuseStep =
      options.fuse
          ? "block-fuse{keep-snapshots=true target=" + options.target +
                (options.divideAfterRounding ? " divide-after-rounding=true"
                                             : "") +
                (options.divideAfterBF16Rounding
                     ? " divide-after-bf16-rounding=true"
                     : "") +
                (options.roundDotOperands ? " round-dot-operands=true" : "") +
                (options.pricePrologues ? "" : " price-prologues=false") +
                "}"
          : "";
  std::string select = "block-select{target=" + options.target;
  if (!options.blockSizes.empty())
    select += " block-sizes=" + options.blockSizes;
  if (localMemoryBytes)
    select += " local-memory-bytes=" + std::to_string(localMemoryBytes);
  select += " threads=" + std::to_string(options.threads);
  if (!options.decodeGemv)
    select += " decode-gemv=false";
  if (!options.pricePrologues)
    select += " price-prologues=false";
  // gpu-flash-attention's wgmma schedule takes key tiles of 128.
  if (options.chip == "sm_90a" && options.attentionMma != "sync" &&
      options.attentionMma != "wgmma-qk") {
    select += " wgmma-attention=true";
    if (options.allowTf32)
      select += " allow-tf32=true";
  }
  select += "}";
  // Decode GEMVs take the blocks of gpu-decode-gemv (all rows, 64
  // columns), and on sm_90a plain GEMM kernels those of the wgmma schedule,
  // before the cost model chooses for the rest.
  if (options.decodeGemv)
    select = "block-decode-gemv-blocks," + select;
  if (options.chip == "sm_90a")
    select = "block-warpgroup-gemm-blocks{target=" + options.target +
             " split-max-blocks=" +
             std::to_string(options.wgmmaSplitMaxBlocks) + "}," + select;
  if (hasBlockPrograms(module)) {
    if (failed(runPipeline(module,
                           (fuseStep.empty() ? "" : fuseStep + ",") + select)))
      return failure();
  } else if (wholeThreshold > 0) {
    std::string pipeline =
        "hoist-tensor-constants,convert-linalg-to-block{whole-threshold=" +
        std::to_string(wholeThreshold) + "}," +
        (fuseStep.empty() ? "" : fuseStep + ",") + select;
    if (failed(runPipeline(module, pipeline)))
      return failure();
  } else {
    ConvertAndSelectOptions candidates;
    candidates.conversions = kConversions;
    candidates.fuseStep = fuseStep;
    candidates.select = select;
    if (failed(convertAndSelect(module, candidates)))
      return failure();
  }
  if (fusedProgram) {
    fusedProgram->clear();
    llvm::raw_string_ostream os(*fusedProgram);
    module.print(os);
  }
  PassManager back(module.getContext());
  GPUPipelineOptions gpu;
  gpu.chip = options.chip;
  gpu.features = options.features;
  gpu.threads = options.threads;
  gpu.wgmmaStages = options.wgmmaStages;
  gpu.wgmmaGroupRows = options.wgmmaGroupRows;
  gpu.wgmmaFragmentEpilogue = options.wgmmaFragmentEpilogue;
  gpu.wgmmaPrologueRegisters = options.wgmmaPrologueRegisters;
  gpu.wgmmaPrologueRegistersOneWarpgroup =
      options.wgmmaPrologueRegistersOneWarpgroup;
  gpu.wgmmaPrologueRowScale = options.wgmmaPrologueRowScale;
  gpu.wgmmaPrologueStatistics = options.wgmmaPrologueStatistics;
  gpu.wgmmaSplitStatistics = options.wgmmaSplitStatistics;
  gpu.wgmmaPrologueAhead = options.wgmmaPrologueAhead;
  gpu.wgmmaProducer = options.wgmmaProducer;
  gpu.wgmmaPersistent = options.wgmmaPersistent;
  gpu.wgmmaStreamK = options.wgmmaStreamK;
  gpu.wgmmaStreamKMinWaves = options.wgmmaStreamKMinWaves;
  gpu.wgmmaProductsOneWgmma = options.wgmmaProductsOneWgmma;
  gpu.wgmmaClusterMulticast = options.wgmmaClusterMulticast;
  gpu.wgmmaClusterMulticastUnaligned = options.wgmmaClusterMulticastUnaligned;
  gpu.contractFma = options.contractFma;
  gpu.rationalErf = options.rationalErf;
  gpu.rowAsyncCopies = options.rowAsyncCopies;
  gpu.attentionMma = options.attentionMma;
  gpu.attentionVWaitEarly = options.attentionVWaitEarly;
  gpu.attentionPrintRefusals = options.attentionPrintRefusals;
  gpu.attentionF32OperandParts = options.attentionF32OperandParts;
  gpu.allowTf32 = options.allowTf32;
  gpu.splitMaxBlocks = options.splitMaxBlocks;
  gpu.wgmmaSplitMaxBlocks = options.wgmmaSplitMaxBlocks;
  gpu.decodeGemv = options.decodeGemv;
  gpu.decodePrefetchBytes = options.decodePrefetchBytes;
  gpu.decodeWeightsAheadMaxBlocks = options.decodeWeightsAheadMaxBlocks;
  gpu.decodeActivationsAhead = options.decodeActivationsAhead;
  gpu.decodeActivationVectors = options.decodeActivationVectors;
  gpu.decodeWeightsAheadIterations = options.decodeWeightsAheadIterations;
  gpu.decodeWeightsAheadBytes = options.decodeWeightsAheadBytes;
  gpu.decodeWeightsBeforeStatistics = options.decodeWeightsBeforeStatistics;
  gpu.decodeRowFactor = options.decodeRowFactor;
  buildGPUPipeline(back, gpu);
  return back.run(module);
}

LogicalResult blockbuster::compileForGPU(ModuleOp module,
                                         const GPUCompileOptions &options,
                                         std::string *fusedProgram) {
  // Where the compiler chooses whole or tiled (Linalg input, no threshold,
  // no block sizes given), a form that block-select accepted but whose
  // tiles the lowering cannot fit (block-select's shared-memory figure is
  // an estimate; the lowering packs the real buffers) is not the end: the
  // program is compiled again, first with the same axes whole and less
  // on-chip memory for block-select (smaller blocks of the same fused
  // form: the lowering's padded operand tiles and the buffers it keeps
  // until the next barrier take a few KB more than the estimate), then with
  // ever more axes tiled; the first diagnostics are reported only if no
  // form fits.
  bool canRetry = !hasBlockPrograms(module) && options.wholeThreshold <= 0 &&
                  options.blockSizes.empty();
  if (!canRetry)
    return compileOnce(module, options, options.wholeThreshold, 0,
                       fusedProgram);
  const block::TargetDescription *target =
      block::lookupTargetDescription(options.target);
  SmallVector<std::pair<int64_t, int64_t>> retries; // (threshold, bytes)
  if (target)
    for (int64_t sixteenths : {15, 14, 12})
      retries.push_back({0, target->localMemoryBytes * sixteenths / 16});
  for (int64_t threshold : getTiledWholeThresholds())
    retries.push_back({threshold, 0});

  OwningOpRef<ModuleOp> original = module.clone();
  // One compilation of `module`: its errors are collected into `errors`;
  // its remarks (the passes' print-refusals) are reported, once the
  // handler is gone, only if it compiles (not those of forms given up).
  auto attempt = [&](int64_t threshold, int64_t localMemoryBytes,
                     SmallVector<Diagnostic> &errors) {
    SmallVector<Diagnostic> remarks;
    bool compiled;
    {
      ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &d) {
        (d.getSeverity() == DiagnosticSeverity::Remark ? remarks : errors)
            .push_back(std::move(d));
        return success();
      });
      compiled = succeeded(compileOnce(module, options, threshold,
                                       localMemoryBytes, fusedProgram));
    }
    if (compiled)
      for (Diagnostic &diag : remarks)
        module.getContext()->getDiagEngine().emit(std::move(diag));
    return compiled;
  };
  SmallVector<Diagnostic> firstErrors;
  if (attempt(0, 0, firstErrors))
    return success();
  for (auto [threshold, localMemoryBytes] : retries) {
    module.getBody()->getOperations().clear();
    OwningOpRef<ModuleOp> copy = original->clone();
    module.getBody()->getOperations().splice(module.getBody()->end(),
                                             copy->getBody()->getOperations());
    SmallVector<Diagnostic> ignored;
    if (attempt(threshold, localMemoryBytes, ignored))
      return success();
  }
  for (Diagnostic &diag : firstErrors)
    module.getContext()->getDiagEngine().emit(std::move(diag));
  return failure();
}
