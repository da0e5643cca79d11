//===- bb-compile.cpp - Block programs or Linalg to a PTX artifact --------===//
//
//   bb-compile FILE -o DIR [--entry NAME] [--whole-threshold N] [--no-fuse]
//              [--target h100] [--block-sizes A=S,..] [--chip sm_90]
//              [--threads-per-block 128] [--emit-fused FILE]
//              [--wgmma-stages 0] [--wgmma-group-rows 8]
//              [--wgmma-fragment-epilogue=false]
//              [--wgmma-prologue-registers=false]
//              [--wgmma-prologue-ahead=false]
//              [--wgmma-prologue-row-scale=false] [--wgmma-producer=false]
//              [--wgmma-persistent=false] [--wgmma-stream-k=false]
//              [--wgmma-stream-k-min-waves N]
//              [--wgmma-products-one-wgmma=false]
//              [--wgmma-cluster-multicast]
//              [--contract-fma=false]
//              [--rational-erf=false] [--row-async-copies=false]
//              [--attention-mma
//              wgmma|wgmma-overlap|wgmma-pingpong|wgmma-qk|sync]
//              [--attention-f32-operand-parts 3] [--allow-tf32]
//              [--wgmma-split-max-blocks 264] [--split-max-blocks 1056]
//
// Linalg on tensors (or block programs) in; DIR/manifest.json and one PTX
// file per kernel module out (docs/Artifact.md). The device that runs the
// artifact needs no MLIR: the runtimes of lib/Runtime and python/blockbuster
// execute it.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/InitAll.h"
#include "Blockbuster/Pipelines/GPUCompile.h"
#include "Blockbuster/Support/LinalgParserGuard.h"
#include "Blockbuster/Target/ArtifactWriter.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

// Only these show in --help: the LLVM and MLIR options the tool links in
// (hundreds of backend flags) are no part of its interface.
static cl::OptionCategory bbCompileCategory("bb-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir>"),
                                      cl::cat(bbCompileCategory));
static cl::opt<std::string> outputDir("o", cl::Required,
                                      cl::desc("Artifact directory"),
                                      cl::value_desc("dir"),
                                      cl::cat(bbCompileCategory));
static cl::opt<std::string> entry("entry", cl::init(""),
                                  cl::desc("Function to compile (default: "
                                           "the only one)"),
                                  cl::cat(bbCompileCategory));
static cl::opt<int64_t> wholeThreshold(
    "whole-threshold", cl::init(0),
    cl::desc("convert-linalg-to-block's whole-threshold: reduced and feature "
             "axes up to this extent are whole (default: the fastest form "
             "that fits the target)"),
    cl::cat(bbCompileCategory));
static cl::opt<std::string>
    target("target", cl::init("h100"),
           cl::desc("Machine block-fuse and block-select estimate for (h100, "
                    "h200)"),
           cl::cat(bbCompileCategory));
static cl::opt<bool> noFuse("no-fuse", cl::init(false),
                            cl::desc("Skip block-fuse (one kernel per "
                                     "operator)"),
                            cl::cat(bbCompileCategory));
static cl::opt<bool> divideAfterRounding(
    "divide-after-rounding", cl::init(false),
    cl::desc("Let block-fuse move a division past a rounding before a dot: "
             "dot(cast(x / s), w) as dot(cast(x), w) / s (inexact; for "
             "attention with P rounded to bf16, the single-pass online "
             "softmax with one Q K^T instead of the program's exact two "
             "passes; docs/GPUPipeline.md)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> divideAfterBF16Rounding(
    "divide-after-bf16-rounding", cl::init(true),
    cl::desc("--divide-after-rounding for roundings to bf16 only (default: "
             "on; bf16 has f32's exponent range, so only the rounding "
             "moves: bf16 attention with P rounded after the division is "
             "the single pass, as FlashAttention and PyTorch's SDPA compute "
             "it; =false: the program's exact two passes)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> roundDotOperands(
    "round-dot-operands", cl::init(false),
    cl::desc("Let block-fuse round an f32 dot operand to the 16-bit float "
             "type of the other operand, widened from it: dot(x, f32(v)) as "
             "dot(bf16(x), v) (inexact; for attention exported from "
             "PyTorch in bf16, whose P stays f32: P rounded to bf16 as "
             "PyTorch's flash kernels round it, one bf16 P V instead of "
             "the three exact ones of P's parts; docs/GPUPipeline.md)"),
    cl::cat(bbCompileCategory));
static cl::opt<std::string>
    blockSizes("block-sizes", cl::init(""),
               cl::desc("Block sizes AXIS=SIZE,... given to block-select"),
               cl::cat(bbCompileCategory));
static cl::opt<std::string> chip("chip", cl::init("sm_90"),
                                 cl::desc("Target chip"),
                                 cl::cat(bbCompileCategory));
static cl::opt<std::string> features("features", cl::init("+ptx80"),
                                     cl::desc("PTX features"),
                                     cl::cat(bbCompileCategory));
static cl::opt<int64_t> threadsPerBlock("threads-per-block", cl::init(128),
                                        cl::desc("Threads per block"),
                                        cl::cat(bbCompileCategory));
static cl::opt<int64_t> wgmmaStages(
    "wgmma-stages", cl::init(0),
    cl::desc("sm_90a GEMM blocks: slots of the TMA ring (0: 3 for 128 x "
             "128 tiles, 4 for 128 x 256)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> wgmmaGroupRows(
    "wgmma-group-rows", cl::init(8),
    cl::desc("sm_90a GEMM blocks: rows of tiles per group of the launch "
             "order (0: row by row)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaFragmentEpilogue(
    "wgmma-fragment-epilogue", cl::init(true),
    cl::desc("sm_90a GEMM blocks: the elementwise epilogue on the "
             "accumulator registers, stored straight to global memory "
             "(=false: through shared memory)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPrologueRegisters(
    "wgmma-prologue-registers", cl::init(true),
    cl::desc("sm_90a GEMM blocks with a prologue (norm + matmul): the A "
             "operand computed in wgmma's register fragments (=false: the "
             "slot's A part rewritten in shared memory)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPrologueRowScale(
    "wgmma-prologue-row-scale", cl::init(true),
    cl::desc("sm_90a GEMM blocks with a register-A prologue: factors of the "
             "row inputs alone (RMSNorm's rstd) scale the accumulator rows "
             "after the mainloop instead of every A element (=false: the "
             "op's body as written)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> contractFma(
    "contract-fma", cl::init(true),
    cl::desc("Elementwise bodies of row kernels and of sm_90a GEMM "
             "prologues with fused multiply-adds: (x - m) * r of row values "
             "as fma(x, r, -(m * r)), a * b + c as fma(a, b, c) (=false: the "
             "bodies as written)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> rowAsyncCopies(
    "row-async-copies", cl::init(true),
    cl::desc("Row kernels: rows read from global memory copied into shared "
             "memory by cp.async, every copy of a row before one wait "
             "(=false: 16-byte loads, which ptxas issues in groups just "
             "before their uses)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> rationalErf(
    "rational-erf", cl::init(true),
    cl::desc("f32 erf in kernels as one rational function (16 instructions, "
             "within 9 ulp) instead of libdevice's __nv_erff (about 22, "
             "within 2 ulp)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPrologueRegistersOneWarpgroup(
    "wgmma-prologue-registers-one-warpgroup", cl::init(true),
    cl::desc("sm_90a 128 x 128 GEMM blocks (one warpgroup) of whole tiles "
             "that take RMSNorm's statistics in the mainloop: A in registers "
             "as on two warpgroups (=false: the slot rewritten in place)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPrologueStatistics(
    "wgmma-prologue-statistics", cl::init(false),
    cl::desc("sm_90a GEMM blocks with a register-A prologue whose row "
             "factor the accumulator takes: RMSNorm's sum of squares "
             "accumulated from the A fragments in the mainloop instead of a "
             "kernel of its own (measured slower on the H100: off by "
             "default, the statistics kernel stays)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaSplitStatistics(
    "wgmma-split-statistics", cl::init(true),
    cl::desc("sm_90a norm + matmul GEMM blocks of grids smaller than the "
             "SMs (split or not): RMSNorm's sum of squares accumulated in "
             "the mainloop, each split's sums combined with its partials, "
             "rstd a factor of the accumulator rows: one kernel (=false: "
             "the statistics kernel stays)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPrologueAhead(
    "wgmma-prologue-ahead", cl::init(true),
    cl::desc("sm_90a GEMM blocks with a prologue (norm + matmul): the next "
             "step's A part rewritten while this step's wgmma runs "
             "(=false: this step's, after the last wgmma)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaProducer(
    "wgmma-producer", cl::init(true),
    cl::desc("sm_90a 128 x 256 GEMM blocks: a third (producer) warpgroup "
             "issues the TMA copies, setmaxnreg gives its registers to the "
             "two consumer warpgroups (384 threads)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaPersistent(
    "wgmma-persistent", cl::init(true),
    cl::desc("sm_90a GEMM blocks of the producer form: a persistent grid "
             "(one block per SM looping over the tiles in grouped order)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaStreamK(
    "wgmma-stream-k", cl::init(true),
    cl::desc("sm_90a plain GEMM blocks on a persistent grid whose tiles are "
             "no whole number of waves: the last wave and the partial one "
             "share their k steps evenly over the blocks (stream-K), on "
             "grids of at least --wgmma-stream-k-min-waves waves"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> wgmmaStreamKMinWaves(
    "wgmma-stream-k-min-waves", cl::init(5),
    cl::desc("sm_90a stream-K only on grids of at least this many waves of "
             "tiles (1: wherever the tiles are no whole number of waves)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaProductsOneWgmma(
    "wgmma-products-one-wgmma", cl::init(true),
    cl::desc("sm_90a GEMM blocks of two register-A products (SwiGLU's gate "
             "and up): one m64n256k16 over both products' B per m64 and "
             "k16 instead of one m64n128k16 per product"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaClusterMulticast(
    "wgmma-cluster-multicast", cl::init(false),
    cl::desc("sm_90a persistent GEMM blocks of the producer form without "
             "stream-K: clusters of two blocks on the two row tiles of one "
             "column, the B part of each slot loaded half by each and "
             "multicast to both (TMA multicast)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> wgmmaClusterMulticastUnaligned(
    "wgmma-cluster-multicast-unaligned", cl::init(true),
    cl::desc("--wgmma-cluster-multicast's clusters where B's rows are not "
             "whole 128-byte lines (N x 2 bytes: 5-15% faster there on an "
             "H200; =false: only with --wgmma-cluster-multicast)"),
    cl::cat(bbCompileCategory));
static cl::opt<std::string> attentionMma(
    "attention-mma", cl::init("wgmma"),
    cl::desc("sm_90a attention blocks: wgmma (both dots on wgmma, K and V "
             "on a TMA ring, P from registers), wgmma-overlap (also a loop's "
             "S = Q K^T issued an iteration ahead, overlapping the "
             "softmax), wgmma-pingpong (blocks of two consumer warpgroups, "
             "--threads-per-block 256, take turns issuing their dots), "
             "wgmma-qk (S = Q K^T only), sync (both on mma.sync, "
             "K and V by cp.async)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> attentionF32OperandParts(
    "attention-f32-operand-parts", cl::init(3),
    cl::desc("Attention whose P V takes an f32 P and a bf16 V widened to f32 "
             "(PyTorch's SDPA exported as is): the bf16 parts P is split "
             "into, one dot each on the tensor cores (3: exact, the parts "
             "sum to P; 2: within 2^-17 of P)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> allowTf32(
    "allow-tf32", cl::init(false),
    cl::desc("Let f32 dots run on the tensor cores with tf32 operands (10-bit "
             "mantissas: inexact, about 1e-3 relative; off: exact f32). "
             "Today: f32 attention on sm_90a's wgmma schedule "
             "(docs/GPUPipeline.md, \"TF32 attention\")"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> attentionPrintRefusals(
    "attention-print-refusals", cl::init(false),
    cl::desc("A remark on each attention block grid that gpu-flash-attention "
             "does not take in registers or (sm_90a) on wgmma, with the "
             "reason"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> attentionVWaitEarly(
    "attention-v-wait-early", cl::init(false),
    cl::desc("sm_90a attention blocks on wgmma: the iteration's V tile "
             "waited for right after S = Q K^T's issue (=false: at P V)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> wgmmaSplitMaxBlocks(
    "wgmma-split-max-blocks", cl::init(264),
    cl::desc("sm_90a GEMM blocks (128 rows, TMA + wgmma) whose grid has "
             "fewer blocks than the SMs split their k steps across at most "
             "this many blocks (0: no split, and small GEMMs keep "
             "block-select's blocks)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> splitMaxBlocks(
    "split-max-blocks", cl::init(1056),
    cl::desc("Grids of fewer blocks than the SMs split their reduce loops "
             "across at most this many blocks (0: no split)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> decodeGemv(
    "decode-gemv", cl::init(true),
    cl::desc("Decode blocks (at most 16 rows against a weight slice) on "
             "the register schedule of gpu-decode-gemv (=false: the "
             "generic path)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> pricePrologues(
    "price-prologues", cl::init(true),
    cl::desc("Fusion and block selection price a GEMM's A prologue "
             "recomputed per block of columns against materialising it "
             "(=false: the prologue costs nothing; LayerNorm + matmul keeps "
             "its normalisation in the GEMM's k loop)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> decodePrefetchBytes(
    "decode-prefetch-bytes", cl::init(0),
    cl::desc("Decode blocks: weight bytes of a block prefetched into L2 "
             "ahead of its loop, in whole iterations (0: none)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> decodeWeightsAheadMaxBlocks(
    "decode-weights-ahead-max-blocks", cl::init(264),
    cl::desc("Decode grids of at most this many blocks: the next "
             "iteration's weights in flight across the loop's back edge "
             "(inline ld.global.nc; 0: none, plain loads, which LLVM folds "
             "to the top of each iteration)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> decodeActivationsAhead(
    "decode-activations-ahead", cl::init(true),
    cl::desc("Decode blocks of one dot whose weights are ahead: the A "
             "fragment's loads (x and the norm's vectors) an iteration ahead "
             "too (=false: at the top of each iteration)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> decodeWeightsAheadIterations(
    "decode-weights-ahead-iterations", cl::init(0),
    cl::desc("Decode grids whose weights are ahead: how many loop "
             "iterations ahead (each costs 16 registers per k16 step a lane "
             "loads; 0: by --decode-weights-ahead-bytes)"),
    cl::cat(bbCompileCategory));
static cl::opt<int64_t> decodeWeightsAheadBytes(
    "decode-weights-ahead-bytes", cl::init(32768),
    cl::desc("Decode grids whose weights are ahead: the bytes of a block's "
             "weights in flight ahead, in whole iterations (at least one)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> decodeActivationVectors(
    "decode-activation-vectors", cl::init(true),
    cl::desc("Decode blocks: k ordered within a warp's k16 steps so that a "
             "lane's A elements are contiguous, loaded by 16-byte vectors "
             "(=false: 4-byte pairs)"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> decodeWeightsBeforeStatistics(
    "decode-weights-before-statistics", cl::init(false),
    cl::desc("Decode blocks of one dot whose weights are ahead: the first "
             "iteration's loads issued before the norm's statistics, in the "
             "same warps"),
    cl::cat(bbCompileCategory));
static cl::opt<bool> decodeRowFactor(
    "decode-row-factor", cl::init(true),
    cl::desc("Decode blocks of RMSNorm + projection: rstd applied to the "
             "accumulator after the dot loop, the sum of squares from the A "
             "fragments (each block reads X once; =false: the statistics "
             "before the loop, the body as written)"),
    cl::cat(bbCompileCategory));
static cl::opt<std::string>
    emitFused("emit-fused", cl::init(""),
              cl::desc("Also write the selected block program to this file"),
              cl::cat(bbCompileCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  blockbuster::registerAllPasses();
  cl::HideUnrelatedOptions(bbCompileCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Blockbuster: compile to a PTX artifact\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  blockbuster::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  if (attentionF32OperandParts != 2 && attentionF32OperandParts != 3) {
    llvm::errs() << "bb-compile: error: --attention-f32-operand-parts must be "
                    "2 or 3, not "
                 << attentionF32OperandParts << "\n";
    return 1;
  }
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "bb-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      blockbuster::parseGuardedSourceFile(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  blockbuster::GPUCompileOptions options;
  options.wholeThreshold = wholeThreshold;
  options.fuse = !noFuse;
  options.divideAfterRounding = divideAfterRounding;
  options.divideAfterBF16Rounding = divideAfterBF16Rounding;
  options.roundDotOperands = roundDotOperands;
  options.target = target;
  options.blockSizes = blockSizes;
  options.chip = chip;
  options.features = features;
  options.threads = threadsPerBlock;
  options.wgmmaStages = wgmmaStages;
  options.splitMaxBlocks = splitMaxBlocks;
  options.wgmmaSplitMaxBlocks = wgmmaSplitMaxBlocks;
  options.decodeGemv = decodeGemv;
  options.pricePrologues = pricePrologues;
  options.decodePrefetchBytes = decodePrefetchBytes;
  options.decodeWeightsAheadMaxBlocks = decodeWeightsAheadMaxBlocks;
  options.decodeActivationsAhead = decodeActivationsAhead;
  options.decodeActivationVectors = decodeActivationVectors;
  options.decodeWeightsAheadIterations = decodeWeightsAheadIterations;
  options.decodeWeightsAheadBytes = decodeWeightsAheadBytes;
  options.decodeWeightsBeforeStatistics = decodeWeightsBeforeStatistics;
  options.decodeRowFactor = decodeRowFactor;
  options.wgmmaGroupRows = wgmmaGroupRows;
  options.wgmmaFragmentEpilogue = wgmmaFragmentEpilogue;
  options.wgmmaPrologueRegisters = wgmmaPrologueRegisters;
  options.wgmmaPrologueRegistersOneWarpgroup =
      wgmmaPrologueRegistersOneWarpgroup;
  options.wgmmaPrologueRowScale = wgmmaPrologueRowScale;
  options.wgmmaPrologueStatistics = wgmmaPrologueStatistics;
  options.wgmmaSplitStatistics = wgmmaSplitStatistics;
  options.wgmmaPrologueAhead = wgmmaPrologueAhead;
  options.wgmmaProducer = wgmmaProducer;
  options.wgmmaPersistent = wgmmaPersistent;
  options.wgmmaStreamK = wgmmaStreamK;
  options.wgmmaStreamKMinWaves = wgmmaStreamKMinWaves;
  options.wgmmaProductsOneWgmma = wgmmaProductsOneWgmma;
  options.wgmmaClusterMulticast = wgmmaClusterMulticast;
  options.wgmmaClusterMulticastUnaligned = wgmmaClusterMulticastUnaligned;
  options.contractFma = contractFma;
  options.rationalErf = rationalErf;
  options.rowAsyncCopies = rowAsyncCopies;
  options.attentionMma = attentionMma;
  options.attentionVWaitEarly = attentionVWaitEarly;
  options.attentionPrintRefusals = attentionPrintRefusals;
  options.attentionF32OperandParts = attentionF32OperandParts;
  options.allowTf32 = allowTf32;
  std::string fused;
  if (failed(blockbuster::compileForGPU(*module, options, &fused)))
    return 1;
  if (!emitFused.empty()) {
    auto out = openOutputFile(emitFused, &error);
    if (!out) {
      llvm::errs() << "bb-compile: error: " << error << "\n";
      return 1;
    }
    out->os() << fused;
    out->keep();
  }
  if (failed(blockbuster::writeArtifact(*module, entry, outputDir)))
    return 1;
  return 0;
}
