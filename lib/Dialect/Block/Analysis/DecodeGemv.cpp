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

bool blockbuster::block::decodeStatisticsFit(
    MapOp map, DotOp dot, function_ref<int64_t(StringAttr)> extent) {
  // The statistics read the activation, of the dot's 16-bit type.
  int64_t elementBytes =
      cast<TileType>(dot.getLhs().getType()).getElementType().getIntOrFloatBitWidth() /
      8;
  for (auto reduce : map.getBody().front().getOps<ReduceOp>()) {
    if (reduce->isAncestor(dot))
      continue;
    RowLayout row = chooseRowLayout(extent(reduce.getAxisAttr()), elementBytes,
                                    kDecodeStatisticsPerLane);
    if (!row.fits(kDecodeStatisticsPerLane))
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
        decodeStatisticsFit(map, dot, [&](StringAttr axis) {
          return sizes.getExtent(axis);
        }))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}
