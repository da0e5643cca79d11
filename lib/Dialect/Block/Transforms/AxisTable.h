//===- AxisTable.h - Writing block sizes into a program's table -*- C++ -*-===//
//
// The passes that fix a schedule's block sizes before block-select
// (block-warpgroup-gemm-blocks, block-decode-gemv-blocks) write them into
// the program's axis table, where block-select keeps them.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_AXISTABLE_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_AXISTABLE_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "llvm/ADT/StringMap.h"

namespace blockbuster::block {

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
