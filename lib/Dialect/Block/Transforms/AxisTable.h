//===- AxisTable.h - Axes of tiles, block sizes in the table ----*- C++ -*-===//
//
// The passes that fix a schedule's block sizes before block-select
// (block-warpgroup-gemm-blocks, block-decode-gemv-blocks) read the axes of
// a dot's tiles and write the sizes into the program's axis table, where
// block-select keeps them.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_AXISTABLE_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_AXISTABLE_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "llvm/ADT/StringMap.h"

namespace blockbuster::block {

/// Marks a program (or fusion snapshot) whose GEMM kernel
/// block-warpgroup-gemm-blocks gave 128-row blocks on a grid too small for
/// the SMs, which gpu-warpgroup-matmul splits along k: the cost model
/// prices neither the wgmma schedule nor its split, and its estimate of
/// those blocks loses to decode blocks of 16 rows that each stream the
/// weights (M128: 0.35x torch.compile against 1.4x, docs/performance.md,
/// session 13), so block-select prefers a form with the mark over forms
/// without, as it does attention in registers.
inline constexpr llvm::StringLiteral kWarpgroupSplitAttrName =
    "block.warpgroup_split";

/// The axes of a tile value, else empty.
inline llvm::SmallVector<llvm::StringRef> tileAxes(mlir::Value value) {
  llvm::SmallVector<llvm::StringRef> axes;
  if (auto tile = llvm::dyn_cast<TileType>(value.getType()))
    for (mlir::Attribute axis : tile.getAxes())
      axes.push_back(llvm::cast<mlir::StringAttr>(axis).getValue());
  return axes;
}

/// Gives each axis of `program` named in `sizes` that block size; the
/// other entries of its axis table stay as they are.
inline void setBlockSizes(ProgramOp program,
                          const llvm::StringMap<int64_t> &sizes) {
  llvm::SmallVector<mlir::Attribute> table;
  for (AxisAttr axis : program.getAxisTable()) {
    auto it = sizes.find(axis.getName().getValue());
    table.push_back(it == sizes.end()
                        ? axis
                        : AxisAttr::get(axis.getContext(), axis.getName(),
                                        axis.getExtent(), axis.getKind(),
                                        it->second));
  }
  program.setAxesAttr(mlir::ArrayAttr::get(program.getContext(), table));
}

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_AXISTABLE_H
