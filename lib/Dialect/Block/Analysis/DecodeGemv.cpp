//===- DecodeGemv.cpp - Which dots gpu-decode-gemv takes ------------------===//

#include "Blockbuster/Dialect/Block/Analysis/DecodeGemv.h"

#include <limits>

using namespace mlir;
using namespace blockbuster::block;

/// The axes of a tile value, else empty.
static SmallVector<StringRef> getTileAxes(Value value) {
  SmallVector<StringRef> axes;
  if (auto tile = dyn_cast<TileType>(value.getType()))
    for (Attribute axis : tile.getAxes())
      axes.push_back(cast<StringAttr>(axis).getValue());
  return axes;
}

std::optional<GemvDotAxes> blockbuster::block::matchGemvDot(MapOp map,
                                                            DotOp dot) {
  auto load = dot.getRhs().getDefiningOp<LoadOp>();
  auto lhsType = dyn_cast<TileType>(dot.getLhs().getType());
  if (!load || !lhsType ||
      !(lhsType.getElementType().isBF16() || lhsType.getElementType().isF16()))
    return std::nullopt;
  auto array = cast<ArrayType>(load.getSource().getType());
  if (array.getRank() != 2 ||
      array.getElementType() != lhsType.getElementType())
    return std::nullopt;
  SmallVector<StringRef> a = getTileAxes(dot.getLhs());
  SmallVector<StringRef> b = getTileAxes(dot.getRhs());
  if (a.size() != 2 || b.size() != 2 || a[1] != b[0])
    return std::nullopt;
  auto isGridAxis = [&](StringRef name) {
    return llvm::any_of(map.getAxes(), [&](Attribute axis) {
      return cast<StringAttr>(axis).getValue() == name;
    });
  };
  if (!isGridAxis(a[0]) || !isGridAxis(b[1]))
    return std::nullopt;
  return GemvDotAxes{a[0], b[1], a[1]};
}

bool blockbuster::block::runsDecodeGemv(MapOp map, const BlockSizes &sizes) {
  MLIRContext *context = map.getContext();
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  auto walk = map.getBody().walk([&](DotOp dot) {
    std::optional<GemvDotAxes> axes = matchGemvDot(map, dot);
    if (!axes)
      return WalkResult::advance();
    auto wholeTiles = [&](StringRef name, int64_t multiple, int64_t most) {
      auto axis = StringAttr::get(context, name);
      int64_t block = sizes.getBlockSize(axis);
      return block > 0 && block <= most && block % multiple == 0 &&
             sizes.getExtent(axis) % block == 0;
    };
    if (sizes.getExtent(StringAttr::get(context, axes->rows)) <=
            kDecodeGemvMaxRows &&
        wholeTiles(axes->rows, 1, kDecodeGemvTileRows) &&
        wholeTiles(axes->columns, kDecodeGemvBlockColumns, kAny) &&
        wholeTiles(axes->depth, kDecodeGemvDepthMultiple, kAny))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}
