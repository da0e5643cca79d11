//===- AxisUntying.cpp - Rule 10 ------------------------------------------===//
//
// Rule 10, axis untying (the extend step): one axis table serves every
// kernel of a program, so a kernel whose array another kernel reads in a
// loop over axis K keeps K's blocks even when nothing fuses across that
// array. LayerNorm's normalised X, materialised before a GEMM because
// recomputing it per block of output columns costs more (docs/FusionReport.md,
// "Prologues"), is then written in the GEMM's k blocks, and its row
// statistics, a reduce over all of K, stay a kernel of their own that reads
// X a second time. The kernels of that region only meet the rest of the
// program through arrays, which a load reads the same whatever axes wrote
// them: fresh copies of the axes they name, K's whole, make them a row
// program of their own, which the main loop fuses as it fuses a LayerNorm
// alone (rule 8 runs the reduces over the whole axis once, rule 1 fuses the
// statistics into the normalisation): one kernel that reads X once, and
// block-select chooses its rows per block apart from the GEMM's.
//
// The vocabulary (findRegionToUntie, untieRegion) is here; the pattern is
// AxisUntying.pdll.
//
//===----------------------------------------------------------------------===//

#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

/// The axis of the first reduce around a load of `producer`'s results in
/// another kernel that `producer` iterates, or null. Fails when something
/// other than a load in another kernel reads them (a return, a view).
static FailureOr<StringAttr> getMaterialisingAxis(MapOp producer) {
  StringAttr axis;
  for (Operation *user : producer->getUsers()) {
    auto load = dyn_cast<LoadOp>(user);
    if (!load || producer->isAncestor(load))
      return failure();
    for (Operation *op = load->getParentOp(); !axis && !isa<MapOp>(op);
         op = op->getParentOp())
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && llvm::is_contained(producer.getAxes(), reduce.getAxisAttr()))
        axis = reduce.getAxisAttr();
  }
  return axis;
}

/// Whether `dot` multiplies 16-bit floats (matrix work, not a statistic).
static bool isMatrixDot(DotOp dot) {
  Type element = cast<TileType>(dot.getLhs().getType()).getElementType();
  return element.isF16() || element.isBF16();
}

std::optional<UntyingRegion>
blockbuster::block::findRegionToUntie(MapOp producer, RefusalFn refuse) {
  auto refuseWith = [&](const Twine &reason) -> std::optional<UntyingRegion> {
    if (refuse)
      refuse(reason);
    return std::nullopt;
  };
  if (producer.getBody()
          .walk([](ReduceOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return refuseWith("has a reduce of its own");
  FailureOr<StringAttr> rowAxis = getMaterialisingAxis(producer);
  if (failed(rowAxis))
    return refuseWith("its result is read by other ops than loads of other "
                      "kernels");
  if (!*rowAxis)
    return refuseWith("no loop of another kernel reads its result over an "
                      "axis it iterates");
  auto program = producer->getParentOfType<ProgramOp>();
  if (program.lookupAxis(*rowAxis).getExtent() > kMaxUntiedRow)
    return refuseWith("its rows along " + rowAxis->getValue() +
                      " are longer than " + Twine(kMaxUntiedRow));

  // The kernels whose results only the region reads, to a fixed point.
  llvm::SetVector<MapOp> members;
  members.insert(producer);
  for (bool grown = true; grown;) {
    grown = false;
    for (MapOp map : program.getBody().getOps<MapOp>()) {
      if (members.contains(map) || map->use_empty())
        continue;
      bool readHereOnly = llvm::all_of(map->getUsers(), [&](Operation *user) {
        auto reader = user->getParentOfType<MapOp>();
        return reader && members.contains(reader);
      });
      if (readHereOnly) {
        members.insert(map);
        grown = true;
      }
    }
  }

  // Row work along the row axis only.
  bool hasStatistics = false;
  for (MapOp map : members) {
    WalkResult result = map.getBody().walk([&](Operation *op) {
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        if (reduce.getAxisAttr() != *rowAxis)
          return WalkResult::interrupt();
        hasStatistics = true;
      }
      if (auto dot = dyn_cast<DotOp>(op); dot && isMatrixDot(dot))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return refuseWith("map at " + describeLocation(map.getLoc()) +
                        " of its region reduces over another axis than " +
                        rowAxis->getValue() + " or multiplies 16-bit matrices");
  }
  if (!hasStatistics)
    return refuseWith("no kernel read only by it reduces over " +
                      rowAxis->getValue() + " (no row statistics to fuse)");

  UntyingRegion region;
  region.rowAxis = *rowAxis;
  for (MapOp map : program.getBody().getOps<MapOp>())
    if (members.contains(map))
      region.maps.push_back(map);
  return region;
}

void blockbuster::block::untieRegion(RewriterBase &rewriter,
                                     const UntyingRegion &region) {
  auto program = region.maps.front()->getParentOfType<ProgramOp>();
  MLIRContext *context = program.getContext();
  // The tiled axes the region names: as map axes, reduce axes, or in the
  // tiles of its values (every other axis attribute names one of those).
  llvm::DenseSet<StringAttr> named;
  auto noteType = [&](Type type) {
    if (auto tile = dyn_cast<TileType>(type))
      named.insert(tile.getAxes().begin(), tile.getAxes().end());
  };
  for (MapOp map : region.maps)
    map.walk([&](Operation *op) {
      llvm::for_each(op->getResultTypes(), noteType);
      for (Region &nested : op->getRegions())
        for (Block &block : nested)
          llvm::for_each(block.getArgumentTypes(), noteType);
      if (auto reduce = dyn_cast<ReduceOp>(op))
        named.insert(reduce.getAxisAttr());
      if (auto nestedMap = dyn_cast<MapOp>(op))
        for (Attribute axis : nestedMap.getAxes())
          named.insert(cast<StringAttr>(axis));
    });
  // Fresh copies in table order (deterministic names), the row axis's
  // whole; whole axes stay shared (they have no blocks to choose).
  SmallVector<Attribute> table(program.getAxes().getValue());
  llvm::DenseMap<StringAttr, StringAttr> renaming;
  for (AxisAttr axis : program.getAxisTable()) {
    if (!axis.isTiled() || !named.contains(axis.getName()))
      continue;
    StringAttr fresh = getFreshAxisName(program, axis.getName());
    bool row = axis.getName() == region.rowAxis;
    table.push_back(AxisAttr::get(
        context, fresh, axis.getExtent(),
        row ? AxisKind::Whole : AxisKind::Tiled,
        row ? std::nullopt : axis.getBlockSize()));
    renaming[axis.getName()] = fresh;
  }
  rewriter.modifyOpInPlace(program, [&] {
    program.setAxesAttr(ArrayAttr::get(context, table));
  });
  StringAttr wholeRow = renaming.lookup(region.rowAxis);
  for (MapOp map : region.maps) {
    renameAxesIn(rewriter, map, renaming);
    SmallVector<Attribute> axes;
    for (Attribute axis : map.getAxes())
      if (axis != wholeRow)
        axes.push_back(axis);
    rewriter.modifyOpInPlace(
        map, [&] { map.setAxesAttr(ArrayAttr::get(context, axes)); });
  }
}

#include "Rules/AxisUntying.h.inc"

void blockbuster::block::populateAxisUntyingPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
