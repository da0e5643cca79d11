//===- KernelCost.cpp - Costs block-fuse judges rewrites by ---------------===//

#include "Blockbuster/Dialect/Block/Analysis/KernelCost.h"

#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"
#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace blockbuster::block;

double blockbuster::block::estimateKernelSeconds(
    ProgramOp program, MapOp map, int64_t defaultBlockSize,
    const TargetDescription &target) {
  // The values `map` reads from outside become the arguments of a scratch
  // program with the same axis table; the report of that program has one
  // kernel, counted exactly as in `program`.
  llvm::SetVector<Value> outside;
  map.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!map->isAncestor(operand.getParentRegion()->getParentOp()))
        outside.insert(operand);
  });
  OpBuilder builder(map.getContext());
  auto scratch = ProgramOp::create(
      builder, map.getLoc(), "kernel",
      builder.getFunctionType(llvm::map_to_vector(
                                  outside, [](Value v) { return v.getType(); }),
                              {}),
      llvm::to_vector(program.getAxisTable()));
  IRMapping mapping;
  Block &entry = scratch.getBody().front();
  for (auto [value, argument] : llvm::zip(outside, entry.getArguments()))
    mapping.map(value, argument);
  builder.setInsertionPointToEnd(&entry);
  builder.clone(*map, mapping);

  FusionReport whole = computeFusionReport(
      scratch, BlockSizes(scratch, /*overrides=*/{}, defaultBlockSize));
  // Without the serial work of blocks: a program-wide term (isSerialBound)
  // that block-fuse's extend step does not judge by (withoutSerialWork).
  double seconds = estimateSeconds(whole, target, /*serialBound=*/false);
  scratch->erase();
  return seconds;
}

/// Bytes of one element in global memory, as the report counts them.
static int64_t getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1,
                           llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

int64_t blockbuster::block::countLoadBytes(LoadOp load,
                                           ArrayRef<StringAttr> iterated,
                                           const BlockSizes &sizes) {
  auto tile = cast<TileType>(load.getType());
  int64_t elements = 1;
  for (StringAttr axis : tile.getAxes())
    elements *= sizes.getExtent(axis);
  for (StringAttr axis : iterated)
    if (!tile.hasAxis(axis))
      elements *= sizes.getNumBlocks(axis);
  return elements * getElementBytes(tile.getElementType());
}

int64_t blockbuster::block::countKernelBytes(MapOp map,
                                             const BlockSizes &sizes) {
  int64_t bytes = 0;
  map.getBody().walk([&](LoadOp load) {
    bytes += countLoadBytes(load, getIteratedAxes(load), sizes);
  });
  for (Value result : map.getResults()) {
    auto array = cast<ArrayType>(result.getType());
    bytes += array.getNumElements() * getElementBytes(array.getElementType());
  }
  return bytes;
}
