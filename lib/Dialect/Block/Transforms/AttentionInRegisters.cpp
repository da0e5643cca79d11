//===- AttentionInRegisters.cpp - Kernels gpu-flash-attention takes -------===//

#include "AttentionInRegisters.h"

#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

using namespace mlir;
using namespace blockbuster::block;

/// A tile of 16-bit floats (the mma.sync operands the pass takes).
static bool isHalfTile(Value value) {
  auto tile = dyn_cast<TileType>(value.getType());
  return tile && isa<FloatType>(tile.getElementType()) &&
         tile.getElementType().getIntOrFloatBitWidth() == 16;
}

static bool isLoaded(Value value) {
  return value.getDefiningOp<LoadOp>() != nullptr;
}

static bool isF32Tile(Value value) {
  auto tile = dyn_cast<TileType>(value.getType());
  return tile && tile.getElementType().isF32();
}

/// An f32 tile cast from a loaded bf16 tile (the f32 V of torch-mlir's
/// SDPA, which widens its bf16 operands).
static bool isWidenedBF16(Value value) {
  auto widen = value.getDefiningOp<CastOp>();
  if (!widen || !isF32Tile(value) || !isLoaded(widen->getOperand(0)))
    return false;
  return cast<TileType>(widen->getOperand(0).getType())
      .getElementType()
      .isBF16();
}

std::optional<AttentionInRegisters>
blockbuster::block::matchAttentionInRegisters(ProgramOp program,
                                              MapOp kernel, bool allowTf32) {
  // S = Q K^T: the first dot whose operands are both loaded (the pass's
  // attentionTileRank), inside a reduce (the loop over key blocks).
  DotOp scores;
  kernel.getBody().walk([&](DotOp dot) {
    if (!scores && isLoaded(dot.getLhs()) && isLoaded(dot.getRhs()))
      scores = dot;
  });
  if (!scores)
    return std::nullopt;
  bool tf32 = allowTf32 && isF32Tile(scores.getLhs()) &&
              isF32Tile(scores.getRhs());
  if (!tf32 &&
      (!isHalfTile(scores.getLhs()) || !isHalfTile(scores.getRhs())))
    return std::nullopt;
  auto reduce = scores->getParentOfType<ReduceOp>();
  if (!reduce || !kernel->isProperAncestor(reduce))
    return std::nullopt;

  auto lhs = cast<TileType>(scores.getLhs().getType());
  auto rhs = cast<TileType>(scores.getRhs().getType());
  auto contracted = [&](StringAttr axis) {
    return llvm::is_contained(scores.getContract().getAsRange<StringAttr>(),
                              axis);
  };
  AttentionInRegisters attention;
  attention.tf32 = tf32;
  for (StringAttr axis : lhs.getAxes()) {
    if (contracted(axis))
      attention.headAxes.push_back(axis);
    else if (rhs.hasAxis(axis))
      attention.batchAxes.push_back(axis);
    else if (attention.queryAxis)
      return std::nullopt;
    else
      attention.queryAxis = axis;
  }
  for (StringAttr axis : rhs.getAxes()) {
    if (contracted(axis) || lhs.hasAxis(axis))
      continue;
    if (attention.keyAxis)
      return std::nullopt;
    attention.keyAxis = axis;
  }
  if (!attention.queryAxis || !attention.keyAxis ||
      reduce.getAxis() != attention.keyAxis.getValue())
    return std::nullopt;
  // The key axis must be tiled: a whole one has no loop to stream.
  bool keysTiled = llvm::any_of(program.getAxisTable(), [&](AxisAttr axis) {
    return axis.getName() == attention.keyAxis && axis.isTiled();
  });
  if (!keysTiled)
    return std::nullopt;

  // P V: a dot of the same kernel whose A is a computed 16-bit tile (P)
  // and whose B is a loaded 16-bit tile (V), contracting the keys; or
  // whose A is a computed f32 tile and whose B is a loaded bf16 tile
  // widened to f32 (PyTorch's SDPA exported as is), which the pass splits
  // into bf16 parts (splitP).
  DotOp values;
  kernel.getBody().walk([&](DotOp dot) {
    if (values || dot == scores || isLoaded(dot.getLhs()) ||
        !llvm::is_contained(dot.getContract().getAsRange<StringAttr>(),
                            attention.keyAxis))
      return;
    if (tf32) {
      if (isF32Tile(dot.getLhs()) && isLoaded(dot.getRhs()) &&
          isF32Tile(dot.getRhs()))
        values = dot;
    } else if (isHalfTile(dot.getLhs()) && isLoaded(dot.getRhs()) &&
               isHalfTile(dot.getRhs())) {
      values = dot;
    } else if (isF32Tile(dot.getLhs()) && isWidenedBF16(dot.getRhs())) {
      values = dot;
      attention.splitP = true;
    }
  });
  if (!values)
    return std::nullopt;
  auto p = cast<TileType>(values.getLhs().getType());
  for (StringAttr axis : cast<TileType>(values.getRhs().getType()).getAxes())
    if (!p.hasAxis(axis))
      attention.valueAxes.push_back(axis);
  auto rounding = values.getLhs().getDefiningOp<CastOp>();
  attention.singlePass = rounding && rounding->hasAttr(kRescalableAttr) &&
                         values->getParentOfType<ReduceOp>() == reduce;
  return attention;
}

/// The extent of one block along `axis` (a whole axis: all of it).
static int64_t getBlockExtent(const BlockSizes &sizes, StringAttr axis) {
  int64_t size = sizes.getBlockSize(axis);
  return size == 0 ? sizes.getExtent(axis)
                   : std::min(size, sizes.getExtent(axis));
}

int64_t AttentionInRegisters::headExtent(const BlockSizes &sizes) const {
  int64_t head = 1;
  for (StringAttr axis : headAxes)
    head *= getBlockExtent(sizes, axis);
  return head;
}

bool AttentionInRegisters::fits(const BlockSizes &sizes, int64_t warps,
                                int64_t registers, int64_t maxKeys) const {
  for (StringAttr axis : batchAxes)
    if (getBlockExtent(sizes, axis) != 1)
      return false;
  if (getBlockExtent(sizes, queryAxis) !=
      std::min(kAttentionRowsPerWarp * warps, sizes.getExtent(queryAxis)))
    return false;
  // Per thread, 16 rows over 32 lanes: S and O in f32, Q in 16 bits.
  int64_t keys = getBlockExtent(sizes, keyAxis), columns = 1;
  if (keys > maxKeys)
    return false;
  for (StringAttr axis : valueAxes)
    columns *= getBlockExtent(sizes, axis);
  // tf32: heads up to 256 f32 columns, of 32 keys above 128
  // (gpu-flash-attention's TMA arrays: Q, the ring slots and V^T must fit
  // shared memory).
  int64_t head = headExtent(sizes);
  if (tf32 &&
      (head > kAttentionTf32MaxHead || columns > kAttentionTf32MaxHead ||
       (std::max(head, columns) > kAttentionTf32NarrowHead &&
        keys > kAttentionTf32WideHeadKeys)))
    return false;
  if (registers < 0)
    return true;
  // P kept in f32: at P V, O (and O_j, counted up to a head of 128) in
  // f32 and P's three parts in bf16 (S's registers are free then).
  // tf32: S (P's tf32 fragments in its registers) and O; Q stays in
  // shared memory (tf32 runs on wgmma only), as a wide head's on wgmma.
  // A wide head on wgmma is counted as it runs: Q in shared memory, and
  // one accumulator (gpu-flash-attention takes FlashAttention's combine
  // for an unrounded P, RunningMaxCombine.h); narrower heads keep the count
  // their measured key choices rest on (O_j's registers are slack there).
  bool wide = onWgmma && head > kAttentionWideKeysHead;
  int64_t q = wide ? 0 : head / 2, accumulators = wide ? 1 : 2;
  int64_t perThread =
      splitP ? kAttentionRowsPerWarp *
                   (accumulators * columns + 3 * keys / 2 + q) / 32
      : tf32 ? kAttentionRowsPerWarp * (keys + columns) / 32
             : kAttentionRowsPerWarp * (keys + columns + q) / 32;
  return perThread <= registers;
}
