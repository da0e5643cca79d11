//===- DecodeGemv.cpp - Which dots gpu-decode-gemv takes ------------------===//

#include "Blockbuster/Dialect/Block/Analysis/DecodeGemv.h"
#include "Blockbuster/Support/RowSchedule.h"

#include <limits>

using namespace mlir;
using namespace blockbuster::block;

std::optional<GemvDotAxes> blockbuster::block::matchGemvDot(MapOp map,
                                                            DotOp dot) {
  auto load = dot.getRhs().getDefiningOp<LoadOp>();
  auto lhsType = dyn_cast<TileType>(dot.getLhs().getType());
  auto rhsType = dyn_cast<TileType>(dot.getRhs().getType());
  if (!load || !lhsType || !rhsType ||
      !(lhsType.getElementType().isBF16() || lhsType.getElementType().isF16()))
    return std::nullopt;
  auto array = cast<ArrayType>(load.getSource().getType());
  if (array.getRank() != 2 ||
      array.getElementType() != lhsType.getElementType())
    return std::nullopt;
  // A [rows, depth], or x [depth] (a vector-matrix product: no rows axis).
  ArrayRef<StringAttr> a = lhsType.getAxes(), b = rhsType.getAxes();
  if (a.empty() || a.size() > 2 || b.size() != 2 || a.back() != b[0])
    return std::nullopt;
  auto isGridAxis = [&](StringAttr axis) {
    return llvm::is_contained(map.getAxes(), Attribute(axis));
  };
  StringAttr rows = a.size() == 2 ? a[0] : StringAttr();
  if ((rows && !isGridAxis(rows)) || !isGridAxis(b[1]))
    return std::nullopt;
  return GemvDotAxes{rows, b[1], b[0]};
}

/// The loads `value` is computed from within `body` (through the ops of
/// `body` alone).
static void collectLoads(Value value, Region &body,
                         SmallVectorImpl<LoadOp> &loads) {
  Operation *op = value.getDefiningOp();
  if (!op || !body.isAncestor(op->getParentRegion()))
    return;
  if (auto load = dyn_cast<LoadOp>(op)) {
    loads.push_back(load);
    return;
  }
  for (Value operand : op->getOperands())
    collectLoads(operand, body, loads);
}

/// Whether gpu-decode-row-factor moves `statistics` into the dot loop of
/// `gemv` (the reduce of decode GEMV dot `dot`): its one result is the sum
/// of squares `dot(x, x)` of a load of an array the dot's A operand is
/// computed from, used (through ops on row values outside the reduces)
/// only by multiplications in `gemv`, the prologue's row factor (the
/// codegen's matchPrologueStatistics and matchRowFactor, on the block
/// program's form of RMSNorm + projection).
static bool movesToRowFactor(ReduceOp statistics, ReduceOp gemv, DotOp dot) {
  if (statistics->getNumResults() != 1)
    return false;
  auto yield = cast<YieldOp>(statistics.getBody().front().getTerminator());
  auto squares = yield->getOperand(0).getDefiningOp<DotOp>();
  if (!squares || squares.getLhs() != squares.getRhs())
    return false;
  SmallVector<LoadOp> raw, prologue;
  collectLoads(squares.getLhs(), statistics.getBody(), raw);
  collectLoads(dot.getLhs(), gemv.getBody(), prologue);
  if (raw.size() != 1 || !llvm::any_of(prologue, [&](LoadOp load) {
        return load.getSource() == raw.front().getSource();
      }))
    return false;
  SmallVector<Value> values{statistics->getResult(0)};
  while (!values.empty()) {
    Value value = values.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (gemv->isAncestor(user)) {
        if (!isa<MulOp>(user))
          return false;
        continue;
      }
      if (user->getBlock() != statistics->getBlock() ||
          isa<ReduceOp, YieldOp>(user) || user->getNumRegions() != 0)
        return false;
      llvm::append_range(values, user->getResults());
    }
  }
  return true;
}

/// Whether gpu-decode-gemv gives the M1 block of vector-matrix product
/// `dot` (in `gemv`) its unit rows dimension back (UnitRows.h): it does so
/// for the block's own tiles and the views of a [1, .., 1, K] activation
/// only. A vector loaded straight from a rank-1 array of its own (the
/// normalised row a kernel before wrote) is refused ("a vector-matrix
/// product whose vector is neither a tile of the block nor a view of a [1,
/// K] activation"), and so is a 0-d statistic another kernel wrote, read in
/// the loop ("a prologue map other than (r, k), (r), (k)"): LayerNorm +
/// matmul M1 K4352 as two or three kernels.
static bool unitRowsApply(ReduceOp gemv, DotOp dot) {
  if (auto load = dot.getLhs().getDefiningOp<LoadOp>()) {
    auto view = load.getSource().getDefiningOp<ViewOp>();
    auto array = view ? cast<ArrayType>(view.getSource().getType())
                      : ArrayType();
    if (!array || array.getRank() < 2 ||
        llvm::any_of(array.getShape().drop_back(),
                     [](int64_t d) { return d != 1; }))
      return false;
  }
  WalkResult scalars = gemv.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto load = operand.getDefiningOp<LoadOp>())
        if (cast<TileType>(load.getType()).getRank() == 0)
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !scalars.wasInterrupted();
}

bool blockbuster::block::decodeGemvLowers(
    MapOp map, DotOp dot, int64_t rows,
    function_ref<int64_t(StringAttr)> extent) {
  // gpu-decode-gemv's blocks: 128 threads (kDecodeGemvDepthMultiple's 4
  // warps on a column group).
  constexpr int64_t kWarps = 4;
  ReduceOp gemv;
  for (auto reduce : map.getBody().front().getOps<ReduceOp>())
    if (reduce->isAncestor(dot))
      gemv = reduce;
  if (!gemv)
    return false;
  if (cast<TileType>(dot.getLhs().getType()).getRank() == 1 &&
      !unitRowsApply(gemv, dot))
    return false;
  // The statistics: the reduces before the dot's (those after it keep the
  // generic path in the same block).
  for (auto reduce : map.getBody().front().getOps<ReduceOp>()) {
    if (!reduce->isBeforeInBlock(gemv))
      break;
    if (movesToRowFactor(reduce, gemv, dot))
      continue;
    // The row schedule's vectors are 16 bytes of the narrowest element it
    // reads from global memory.
    int64_t narrowestBytes = 0;
    reduce.getBody().walk([&](LoadOp load) {
      // Row scalars (a tile without the reduced axis) do not count.
      if (!llvm::is_contained(cast<TileType>(load.getType()).getAxes(),
                              reduce.getAxisAttr()))
        return;
      int64_t bytes = std::max<int64_t>(
          1, cast<TileType>(load.getType()).getElementType()
                     .getIntOrFloatBitWidth() / 8);
      narrowestBytes =
          narrowestBytes ? std::min(narrowestBytes, bytes) : bytes;
    });
    if (!narrowestBytes ||
        !choosePrefixLayout(rows, extent(reduce.getAxisAttr()),
                            narrowestBytes, kDecodeStatisticsPerLane, kWarps))
      return false;
  }
  return true;
}

bool blockbuster::block::runsDecodeGemv(MapOp map, const BlockSizes &sizes) {
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  auto wholeTiles = [&](StringAttr axis, int64_t multiple, int64_t most) {
    int64_t block = sizes.getBlockSize(axis);
    return block > 0 && block <= most && block % multiple == 0 &&
           sizes.getExtent(axis) % block == 0;
  };
  auto walk = map.getBody().walk([&](DotOp dot) {
    std::optional<GemvDotAxes> axes = matchGemvDot(map, dot);
    if (axes &&
        (!axes->rows ||
         (sizes.getExtent(axes->rows) <= kDecodeGemvMaxRows &&
          wholeTiles(axes->rows, 1, kDecodeGemvTileRows))) &&
        wholeTiles(axes->columns, kDecodeGemvBlockColumns, kAny) &&
        wholeTiles(axes->depth, kDecodeGemvDepthMultiple, kAny) &&
        decodeGemvLowers(
            map, dot, axes->rows ? sizes.getBlockSize(axes->rows) : 1,
            [&](StringAttr axis) { return sizes.getExtent(axis); }))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}
