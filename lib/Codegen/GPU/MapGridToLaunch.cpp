//===- MapGridToLaunch.cpp - Block grids to gpu.launch --------------------===//
//
// A block grid (scf.forall mapped to #gpu.block, on buffers, static trip
// counts) becomes a gpu.launch whose block ids replace the induction
// variables; its thread foralls are then mapped by upstream's
// mapNestedForallToThreadsImpl, which also places the barriers.
//
// Upstream's transform op map_forall_to_blocks does the first half, but its
// C++ entry point needs a transform op to report through; this pass is run
// from a pass pipeline, so it builds the launch itself.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUMAPGRIDTOLAUNCH
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

struct GPUMapGridToLaunch
    : blockbuster::impl::GPUMapGridToLaunchBase<GPUMapGridToLaunch> {
  using Base::Base;

  /// The threads of `grid`'s blocks: its own choice, else the option.
  int64_t blockThreads(scf::ForallOp grid) {
    auto chosen =
        grid->getAttrOfType<IntegerAttr>(blockbuster::kBlockThreadsAttrName);
    return chosen ? chosen.getInt() : threads.getValue();
  }

  FailureOr<gpu::LaunchOp> createLaunch(RewriterBase &rewriter,
                                        scf::ForallOp grid) {
    if (grid.getNumResults() != 0)
      return grid.emitError("expected a block grid on buffers (run "
                            "bufferization first)");
    ArrayRef<int64_t> lbs = grid.getStaticLowerBound();
    ArrayRef<int64_t> ubs = grid.getStaticUpperBound();
    ArrayRef<int64_t> steps = grid.getStaticStep();
    if (llvm::any_of(lbs, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(steps, [](int64_t v) { return v != 1; }) ||
        llvm::any_of(ubs, ShapedType::isDynamic))
      return grid.emitError("expected a block grid with static trip counts, "
                            "lower bounds 0 and steps 1");
    Location loc = grid.getLoc();
    int64_t gridSize[3] = {1, 1, 1};
    SmallVector<gpu::Dimension> dimOfIv;
    for (auto [iv, attr] : llvm::enumerate(*grid.getMapping())) {
      auto dim = static_cast<unsigned>(
          cast<gpu::GPUBlockMappingAttr>(attr).getBlock());
      if (dim > 2)
        return grid.emitError("unsupported block mapping ") << attr;
      gridSize[dim] = ubs[iv];
      dimOfIv.push_back(static_cast<gpu::Dimension>(dim));
    }
    rewriter.setInsertionPoint(grid);
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
    };
    // Clusters of the grid's choice along x (their blocks share shared
    // memory), else none.
    Value clusterX, clusterY, clusterZ;
    if (auto cluster = grid->getAttrOfType<IntegerAttr>(
            blockbuster::kClusterBlocksAttrName)) {
      if (cluster.getInt() < 1 || gridSize[0] % cluster.getInt() != 0)
        return grid.emitError("a cluster of ")
               << cluster.getInt() << " blocks does not divide the grid's "
               << gridSize[0] << " blocks along x";
      clusterX = index(cluster.getInt());
      clusterY = clusterZ = index(1);
    }
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, index(gridSize[0]), index(gridSize[1]),
        index(gridSize[2]), index(blockThreads(grid)), index(1), index(1),
        /*dynamicSharedMemorySize=*/Value(), /*asyncTokenType=*/Type(),
        /*asyncDependencies=*/ValueRange(), /*workgroupAttributions=*/{},
        /*privateAttributions=*/{}, clusterX, clusterY, clusterZ);
    Block &body = launch.getBody().front();
    // The builder gives the body the 12 index arguments of a launch
    // without clusters; one with clusters has 6 more (the cluster ids and
    // sizes), before any attribution (this launch has none).
    if (clusterX)
      while (body.getNumArguments() < launch.getNumConfigRegionAttributes())
        body.addArgument(rewriter.getIndexType(), loc);
    rewriter.setInsertionPointToEnd(&body);
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPoint(terminator);
    for (auto [iv, dim] : llvm::zip(grid.getInductionVars(), dimOfIv))
      rewriter.replaceAllUsesWith(
          iv, gpu::BlockIdOp::create(rewriter, loc, dim).getResult());
    Block *gridBody = grid.getBody();
    for (Operation &op :
         llvm::make_early_inc_range(gridBody->without_terminator()))
      rewriter.moveOpBefore(&op, terminator);
    rewriter.eraseOp(grid);
    return launch;
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ForallOp> grids;
    getOperation().walk([&](scf::ForallOp forall) {
      if (blockbuster::isBlockGrid(forall))
        grids.push_back(forall);
    });
    for (scf::ForallOp grid : grids) {
      int64_t threadsOfGrid = blockThreads(grid);
      FailureOr<gpu::LaunchOp> launch = createLaunch(rewriter, grid);
      if (failed(launch))
        return signalPassFailure();
      rewriter.setInsertionPointToStart(&launch->getBody().front());
      DiagnosedSilenceableFailure mapped =
          transform::gpu::mapNestedForallToThreadsImpl(
              rewriter, std::nullopt, *launch, {threadsOfGrid, 1, 1},
              /*warpSize=*/32, /*syncAfterDistribute=*/true);
      if (!mapped.succeeded()) {
        launch->emitError("cannot map the block's thread loops to threads");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
