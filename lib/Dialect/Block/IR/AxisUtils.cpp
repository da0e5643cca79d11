//===- AxisUtils.cpp - Queries about named axes ---------------------------===//

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace blockbuster::block;

SmallVector<StringAttr> blockbuster::block::getIteratedAxes(Operation *op) {
  SmallVector<StringAttr> axes;
  // Collected innermost first, then reversed, so the outermost map comes
  // first as in the loop nest it lowers to.
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto reduce = dyn_cast<ReduceOp>(parent)) {
      axes.push_back(reduce.getAxisAttr());
    } else if (auto map = dyn_cast<MapOp>(parent)) {
      for (Attribute axis : llvm::reverse(map.getAxes()))
        axes.push_back(cast<StringAttr>(axis));
    } else if (isa<ProgramOp>(parent)) {
      break;
    }
  }
  std::reverse(axes.begin(), axes.end());
  return axes;
}

SmallVector<StringAttr>
blockbuster::block::getBroadcastAxes(ArrayRef<TileType> operands) {
  SmallVector<StringAttr> axes;
  for (TileType tile : operands)
    for (StringAttr axis : tile.getAxes())
      if (!llvm::is_contained(axes, axis))
        axes.push_back(axis);
  return axes;
}

bool blockbuster::block::isBareAxisName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  });
}
