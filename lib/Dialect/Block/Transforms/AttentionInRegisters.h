//===- AttentionInRegisters.h - Kernels gpu-flash-attention takes -*- C++ -*-//
//
// The block-level image of the structural test of the GPU pipeline's
// gpu-flash-attention (lib/Codegen/GPU/FlashAttention.cpp), which runs an
// attention kernel with every tile in registers: a reduce over key blocks
// whose S = Q K^T reads two loaded 16-bit tiles and whose P V reads a
// computed 16-bit P and a loaded V (or a computed f32 P and a loaded bf16 V
// widened to f32; or, under allow-tf32, all four f32). The pass takes such a kernel when its
// blocks hold one (batch, head) and at most 16 query rows per warp. It is
// a conservative image: the pass may still refuse an op it does not know
// (then the kernel takes the generic path, as without this test).
// block-select limits the block sizes of such kernels accordingly.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_ATTENTIONINREGISTERS_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_ATTENTIONINREGISTERS_H

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

#include <optional>

namespace blockbuster::block {

/// Query rows each warp holds in gpu-flash-attention (the m16n8k16
/// mma.sync accumulator's rows).
constexpr int64_t kAttentionRowsPerWarp = 16;
/// The most keys per block: 128 keys at D = 64 spill (ptxas, 200 keys),
/// 64 do not at D = 64 or 128 (test/Integration/gpu-flash-attention.test).
constexpr int64_t kAttentionMaxKeys = 64;
/// The most keys per block on wgmma (sm_90a), chosen for a head of at
/// least kAttentionWideKeysHead, for the single pass at any head, or given
/// with --block-sizes: S = Q K^T as m64n128k16. The chosen ones when S, O
/// and Q fit kAttentionWideKeysRegisters registers per thread: a block of
/// one warpgroup then runs two to an SM with up to 255 registers each (B4
/// H32 S2048 D128: 198 registers, no spill); at D = 128 it was measured
/// 1.06-1.12x faster than 64 keys for the single pass and 0.99-1.07x for
/// the exact form; at D = 64 (minctasm 4: 128 registers, small spills)
/// the exact form was 0.96-1.02x, and the single pass, with
/// FlashAttention's combine (127 registers, no spill), 0.99-1.16x
/// (docs/performance.md, "FlashAttention's combine").
constexpr int64_t kAttentionWgmmaKeys = 128;
constexpr int64_t kAttentionWideKeysHead = 128;
constexpr int64_t kAttentionWideKeysRegisters = 160;
/// P kept in f32 and split into three bf16 parts (splitP): S, O, the
/// combine's O_j (counted up to a head of 128: see `fits`; the combine
/// is FlashAttention's since session 19), Q and the parts of P within 256
/// registers at 128 keys
/// and a head of 128 on wgmma (B1 H32 S2048 D128: 238 registers, 245
/// causal, no spill, two blocks per SM); on mma.sync at most 32 keys (64
/// at D = 64: 128 bytes of spills under the 128 registers of 4 blocks per
/// SM; D = 128 spills at 32 keys, and the estimate refuses it).
constexpr int64_t kAttentionSplitWideRegisters = 256;
constexpr int64_t kAttentionSplitSyncKeys = 32;
/// The widest head of f32 attention on tf32 wgmma: 256 columns, as
/// FlashAttention's widest head. Up to 128 columns a block takes 64 keys (a
/// ring slot of 64 keys is 32 KB at D = 128, V^T 32 KB); a wider head
/// kAttentionTf32WideHeadKeys: at D = 256, Q 64 KB, three ring slots of 32
/// keys 32 KB each and V^T 32 KB (192 KB of shared memory), O 128
/// registers per thread.
constexpr int64_t kAttentionTf32MaxHead = 256;
constexpr int64_t kAttentionTf32NarrowHead = 128;
constexpr int64_t kAttentionTf32WideHeadKeys = 32;
/// The fewest: one k16 step of P V.
constexpr int64_t kAttentionMinKeys = 16;

/// The axes of an attention kernel that runs in registers.
struct AttentionInRegisters {
  /// Axes of S other than the query and key axes (batch, heads): one
  /// block each.
  llvm::SmallVector<mlir::StringAttr> batchAxes;
  /// The query rows of S (at most 16 per warp in one block) and its keys
  /// (the tiled axis of the reduce).
  mlir::StringAttr queryAxis, keyAxis;
  /// The axes Q K^T contracts (the head dimension of Q and K) and the
  /// columns of O (that of V).
  llvm::SmallVector<mlir::StringAttr> headAxes, valueAxes;
  /// P V contracts a rounding marked rescalable in S's reduce: the single
  /// pass, which gpu-flash-attention runs with FlashAttention's combine
  /// (one accumulator, O).
  bool singlePass = false;
  /// P V contracts an f32 P with a bf16 V widened to f32 (PyTorch's SDPA
  /// exported as is): gpu-flash-attention splits P into bf16 parts, one
  /// P V each, with FlashAttention's combine (P is not rounded:
  /// RunningMaxCombine.h).
  bool splitP = false;
  /// Q, K, V and P in f32 (allowTf32 given to the match): both dots on
  /// tf32 wgmma (gpu-flash-attention's allow-tf32), at most
  /// kAttentionMaxKeys keys (kAttentionTf32WideHeadKeys for a head over
  /// kAttentionTf32NarrowHead); S and O counted in f32 (Q stays in shared
  /// memory on wgmma).
  bool tf32 = false;
  /// The block runs on the wgmma schedule (sm_90a, block-select's
  /// wgmma-attention), where Q is a TMA tile in shared memory. A head over
  /// kAttentionWideKeysHead is counted without Q there (it fits no
  /// register budget with it: O alone is 128 registers at 256 columns);
  /// narrower heads keep the count their measured key choices rest on.
  bool onWgmma = false;

  /// Whether blocks of `sizes` run in registers on `warps` warps with
  /// their S, O and Q fragments (splitP: O, O_j, Q and P's three bf16
  /// parts) in `registers` 32-bit registers per thread: one (batch, head) per block, 16 query rows per warp (fewer
  /// would leave warps idle: each warp computes 16 rows whatever the
  /// block holds, so the block has min(16 x warps, queries) rows), at
  /// most `maxKeys` keys (registers < 0: not estimated, for keys the user
  /// gave; ptxas's report says whether they spill).
  bool fits(const BlockSizes &sizes, int64_t warps, int64_t registers,
            int64_t maxKeys = kAttentionMaxKeys) const;
  /// The elements of the head axes (Q K^T's contraction) in one block.
  int64_t headExtent(const BlockSizes &sizes) const;
};

/// The attention axes of top-level map `kernel` of `program`, if it is
/// an attention kernel that gpu-flash-attention runs in registers; with
/// `allowTf32`, also one whose tiles are all f32 (tf32 wgmma).
std::optional<AttentionInRegisters>
matchAttentionInRegisters(ProgramOp program, MapOp kernel,
                          bool allowTf32 = false);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_ATTENTIONINREGISTERS_H
