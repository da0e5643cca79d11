//===- AxisUnifier.h - Axes from unified loop dimensions --------*- C++ -*-===//
//
// Union-find over the loop dimensions of the ops being converted. Each class
// becomes one axis of the block program. A class never holds two loop
// dimensions of one op: an op that reads one array dimension in two roles
// (x @ x^T) keeps two axes, and a merge that would break this is refused.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_AXISUNIFIER_H
#define BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_AXISUNIFIER_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace blockbuster {

class AxisUnifier {
public:
  /// Adds loop dimension `dim` of `op`, of the given extent; returns its id.
  /// Ids grow in the order dimensions are added.
  unsigned addDim(mlir::Operation *op, unsigned dim, int64_t extent);

  /// The id of loop dimension `dim` of `op` (which must have been added).
  unsigned getDim(mlir::Operation *op, unsigned dim) const;

  /// Merges the classes of two dimensions. Returns false, and merges
  /// nothing, when the classes would hold two dimensions of one op or have
  /// different extents.
  bool unify(unsigned a, unsigned b);

  /// The representative of `id`'s class: its smallest id, so that the
  /// numbering of axes follows program order whatever the merge order.
  unsigned find(unsigned id) const;

  int64_t getExtent(unsigned id) const { return extents[find(id)]; }

private:
  mutable llvm::SmallVector<unsigned> parent;
  llvm::SmallVector<int64_t> extents;
  /// Per class representative: the op -> loop dim members.
  llvm::SmallVector<llvm::SmallDenseMap<mlir::Operation *, unsigned, 4>>
      members;
  llvm::DenseMap<std::pair<mlir::Operation *, unsigned>, unsigned> ids;
};

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CONVERSION_LINALGTOBLOCK_AXISUNIFIER_H
