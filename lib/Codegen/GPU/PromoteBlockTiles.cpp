//===- PromoteBlockTiles.cpp - Block grids to GPU blocks, tiles to smem ---===//
//
// convert-block-to-linalg emits one outermost scf.forall per kernel. Here the
// grid gets its #gpu.block mapping and the tiles computed inside it are
// marked for workgroup memory, before bufferization decides where buffers
// live: slices of the program's arrays stay views of global memory, every
// tile a block computes is an allocation in shared memory. A grid of more
// than three dimensions folds its leading ones into z.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUPROMOTEBLOCKTILES
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

bool blockbuster::isBlockGrid(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, llvm::IsaPred<gpu::GPUBlockMappingAttr>);
}

SmallVector<scf::ForallOp> blockbuster::collectBlockGrids(Operation *root) {
  SmallVector<scf::ForallOp> grids;
  root->walk<WalkOrder::PreOrder>([&](scf::ForallOp grid) {
    if (!isBlockGrid(grid))
      return WalkResult::advance();
    grids.push_back(grid);
    return WalkResult::skip();
  });
  return grids;
}

namespace {

/// A map without tiled axes is a grid of no dimensions (one block); the GPU
/// needs at least one, so it becomes a grid of one block along x.
scf::ForallOp addUnitDimension(scf::ForallOp grid) {
  IRRewriter rewriter(grid.getContext());
  rewriter.setInsertionPoint(grid);
  auto unit = scf::ForallOp::create(
      rewriter, grid.getLoc(), ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)},
      grid.getOutputs(), std::nullopt);
  Block *body = unit.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.mergeBlocks(grid.getBody(), body, body->getArguments().drop_front());
  rewriter.replaceOp(grid, unit.getResults());
  return unit;
}

/// A grid of more than three dimensions ([B, H, S] row tiles of a 4-D
/// attention, say) keeps its last two dimensions as x and y and folds the
/// leading ones into one, z, whose id is split back into the original ids
/// (the last of them varying fastest). Returns null, leaving the grid as it
/// is, where the trip counts are not static from 0 by 1.
scf::ForallOp foldLeadingDimensions(scf::ForallOp grid) {
  ArrayRef<int64_t> ubs = grid.getStaticUpperBound();
  if (llvm::any_of(grid.getStaticLowerBound(),
                   [](int64_t v) { return v != 0; }) ||
      llvm::any_of(grid.getStaticStep(), [](int64_t v) { return v != 1; }) ||
      llvm::any_of(ubs, ShapedType::isDynamic))
    return nullptr;
  int64_t folded = grid.getRank() - 2;
  int64_t product = 1;
  for (int64_t ub : ubs.take_front(folded))
    product *= ub;
  IRRewriter rewriter(grid.getContext());
  rewriter.setInsertionPoint(grid);
  Location loc = grid.getLoc();
  SmallVector<OpFoldResult> newUbs = {rewriter.getIndexAttr(product),
                                      rewriter.getIndexAttr(ubs[folded]),
                                      rewriter.getIndexAttr(ubs[folded + 1])};
  auto newGrid = scf::ForallOp::create(rewriter, loc, newUbs,
                                       grid.getOutputs(), std::nullopt);
  Block *body = newGrid.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> ids(folded);
  Value linear = newGrid.getInductionVars()[0];
  for (int64_t d = folded - 1; d > 0; --d) {
    Value extent = arith::ConstantIndexOp::create(rewriter, loc, ubs[d]);
    ids[d] = arith::RemUIOp::create(rewriter, loc, linear, extent);
    linear = arith::DivUIOp::create(rewriter, loc, linear, extent);
  }
  ids[0] = linear;
  llvm::append_range(ids, ArrayRef<Value>(newGrid.getInductionVars())
                              .drop_front());
  llvm::append_range(ids, newGrid.getRegionIterArgs());
  rewriter.mergeBlocks(grid.getBody(), body, ids);
  rewriter.replaceOp(grid, newGrid.getResults());
  return newGrid;
}

struct GPUPromoteBlockTiles
    : blockbuster::impl::GPUPromoteBlockTilesBase<GPUPromoteBlockTiles> {
  LogicalResult promote(scf::ForallOp grid) {
    MLIRContext *ctx = grid.getContext();
    if (grid.getRank() == 0)
      grid = addUnitDimension(grid);
    if (grid.getRank() > 3 && !grid.getMapping()) {
      scf::ForallOp folded = foldLeadingDimensions(grid);
      if (!folded)
        return grid.emitError()
               << "a block grid of " << grid.getRank()
               << " dimensions without static trip counts does not map to a "
                  "GPU grid (at most 3: x, y, z)";
      grid = folded;
    }
    int64_t rank = grid.getRank();
    if (rank > 3)
      return grid.emitError() << "a block grid of " << rank
                              << " dimensions does not map to a GPU grid "
                                 "(at most 3: x, y, z)";
    if (!grid.getMapping()) {
      // The last (fastest varying) grid dimension is x.
      static constexpr gpu::MappingId ids[] = {
          gpu::MappingId::DimX, gpu::MappingId::DimY, gpu::MappingId::DimZ};
      SmallVector<Attribute> mapping;
      for (int64_t d = 0; d < rank; ++d)
        mapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, ids[rank - 1 - d]));
      grid.setMappingAttr(ArrayAttr::get(ctx, mapping));
    }
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    IRRewriter rewriter(ctx);
    SmallVector<tensor::EmptyOp> empties;
    grid.getBody()->walk([&](tensor::EmptyOp empty) { empties.push_back(empty); });
    for (tensor::EmptyOp empty : empties) {
      rewriter.setInsertionPoint(empty);
      auto alloc = bufferization::AllocTensorOp::create(
          rewriter, empty.getLoc(), empty.getType(), empty.getDynamicSizes());
      alloc.setMemorySpaceAttr(workgroup);
      rewriter.replaceOp(empty, alloc.getResult());
    }
    return success();
  }

  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      func->setAttr(blockbuster::kNumInputsAttrName,
                    b.getI64IntegerAttr(func.getNumArguments()));
      SmallVector<scf::ForallOp> grids;
      func.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
        grids.push_back(forall);
        return WalkResult::skip();
      });
      for (scf::ForallOp grid : grids)
        if (failed(promote(grid)))
          return signalPassFailure();
    }
  }
};

} // namespace
