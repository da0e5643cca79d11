//===- KernelCost.cpp - Roofline estimate of one kernel -------------------===//

#include "KernelCost.h"

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"

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
  FusionReport one;
  one.perKernel = std::move(whole.perKernel);
  double seconds = estimateSeconds(one, target);
  scratch->erase();
  return seconds;
}
