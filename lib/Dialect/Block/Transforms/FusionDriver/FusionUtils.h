//===- FusionUtils.h - Shared facts and surgery for fusion rules -*- C++ -*-===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONUTILS_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONUTILS_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace blockbuster::block {

/// The top-level map whose result `array` is, or null (an argument, a view).
MapOp getProducerMap(mlir::Value array);

/// The top-level ops (maps, views) whose results `op` or any op nested in it
/// uses, in program order.
llvm::SetVector<mlir::Operation *> getTopLevelProducers(mlir::Operation *op);

/// True when top-level op `to` uses, directly or through other top-level
/// ops, a result of top-level op `from`.
bool dependsOn(mlir::Operation *to, mlir::Operation *from);

/// True when `consumer` depends on `producer` through a third top-level op:
/// merging the two would then form a cycle.
bool hasIndirectPath(mlir::Operation *producer, mlir::Operation *consumer);

/// True when `load` reads exactly the block that `producer` yields as its
/// result `resultIndex` in the instance where the load runs: the load indexes
/// every dimension with the axis the producer's yield has there (no slices,
/// no fixed indices), and of those axes, the ones iterated around the load
/// are exactly the producer's map axes.
bool readsProducedBlock(LoadOp load, MapOp producer, unsigned resultIndex);

/// True when the body of `producer` keeps its meaning when cloned where the
/// axes `iterated` are iterated: no op in it names (in a tile type, or as a
/// nested reduce's axis) an axis of `iterated` that `producer` does not
/// iterate. Such an axis spans its whole extent in the producer but would be
/// one block at the new place (a row sum over it would become a partial
/// one).
bool canCloneBodyUnder(MapOp producer,
                       llvm::ArrayRef<mlir::StringAttr> iterated);

/// Clones the body of `producer` (without its yield) at the builder's
/// insertion point; returns the cloned tiles it yields.
llvm::SmallVector<mlir::Value> cloneMapBody(mlir::RewriterBase &rewriter,
                                            MapOp producer);

/// True when every load directly in `body` of a result of `producer` reads
/// exactly the block `producer` yields.
bool loadsReadProducedBlocks(mlir::Block &body, MapOp producer);

/// Clones the body of `producer` at the start of `body` and replaces every
/// load directly in `body` of its results with the cloned tiles.
void inlineProducerLoads(mlir::RewriterBase &rewriter, MapOp producer,
                         mlir::Block &body);

/// Replaces `load` with `tile` (the same block), relaying it out when the
/// load's tile lists the axes in another order.
void replaceLoad(mlir::RewriterBase &rewriter, LoadOp load, mlir::Value tile);

/// Restores def-before-use order in `block` after a rewrite placed an op
/// before some of its operands' definers: the order upstream's (stable)
/// sortTopologically gives, reached by moving through `rewriter` only the
/// ops outside a longest run already in that order.
void restoreOrder(mlir::RewriterBase &rewriter, mlir::Block &block);

/// A short location string for traces: `file:line:col` without directories.
std::string describeLocation(mlir::Location loc);

/// A name for a copy of `axis` that `program`'s table does not have:
/// AXIS_1, AXIS_2, ...
mlir::StringAttr getFreshAxisName(ProgramOp program, mlir::StringAttr axis);

/// Renames axes in `op` and every op nested in it (attributes and types,
/// not locations): each key of `renaming` becomes its value. The program's
/// table must already declare the new names.
void renameAxesIn(mlir::RewriterBase &rewriter, mlir::Operation *op,
                  const llvm::DenseMap<mlir::StringAttr, mlir::StringAttr>
                      &renaming);

/// The map axes of `map` as a set, for comparisons.
llvm::SmallVector<mlir::StringAttr> getSortedMapAxes(MapOp map);

/// Gives each result of `program` that repeats an earlier one (fusion
/// merged the kernels that wrote them) an array of its own: the map that
/// writes it yields the tile once more (DistinctResults.cpp).
void yieldRepeatedResultsSeparately(ProgramOp program,
                                    mlir::RewriterBase &rewriter);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONUTILS_H
