//===- SplitReductions.cpp - Long reduce loops split across blocks --------===//
//
// Kernel shape 4 of the fast-kernel design (docs/design/06-fast-kernels.md,
// section 3): a decode GEMV (M <= 64 rows against a large weight) has a grid of
// a few dozen blocks, each streaming a long K through one reduce loop, so most
// of the chip's 132 SMs idle and the few busy ones cannot keep enough loads in
// flight to reach the memory bandwidth. This pass gives such a grid a third
// dimension of S splits (rule 3's parallel fold, docs/design/
// 02-fusion-rules.md): split s runs iterations [s T/S, (s+1) T/S) of the reduce
// loop, and the partial sums are combined in the same launch.
//
// The combine is fixed-order, so results do not depend on which block
// finishes last: each split stores its partial accumulators into a
// workspace slot of its own (P[s, b], b the block's index in the original
// grid), then thread 0 of the block bumps the tile's counter after a
// barrier (an atomic between two acquire-release fences at GPU scope: the
// last-block pattern of CUDA's threadFenceReduction sample with one
// thread's fences, as CUTLASS's split-K semaphore). The block that sees S - 1
// sums the S partials in split order into its accumulators, resets the
// counter for the next launch and runs the rest of the body (the epilogue:
// gating, casts, the store of the tile). The counters are a `workspace`
// buffer of the artifact (docs/Artifact.md): zeroed by the runtime when it
// allocates it, left zeroed by every launch, so a replayed CUDA graph needs
// no memset.
//
// Taken: a block grid of fewer than `min-blocks` blocks that uses at most
// two grid dimensions, whose body has one or more top-level scf.for loops
// (lower bound 0, step 1, the same constant trip count T, no results) each
// holding a tile contraction (or a matrix-vector product), whose accumulators are f32 workgroup buffers
// allocated in the body, zero-filled before the loop and only added to in
// it (`out = out + x` by an all-parallel linalg.generic), read only after
// the last such loop; every other write in the loops goes to workgroup
// buffers.
//
// S is a power of two up to `max-splits` that divides T, leaves at least
// `min-iterations` per split and keeps the grid within `max-blocks`; among
// those (and 1: no split) the one of least estimated time (the rule of
// Blockbuster/Support/SplitFactor.h, which block-select's cost model
// applies to the same kernel before code generation), in loop
// iterations of one block times waves: every split still runs the body's
// other loops whole (a norm's statistics, P iterations), so a block costs
// P + T / S (+ 1 for the combine), and the grid takes
// ceil(blocks S / (SMs x blocks per SM)) waves, the blocks per SM bounded by
// threads and by the body's shared memory. Measured on the H100 (docs/
// performance.md): RMSNorm + projection M16 K4096 N12288 (96 blocks of
// 51 KB, P = 32, T = 32) is 14% slower with S = 8 (two waves) than
// unsplit; the model takes S = 4 (one wave).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "Blockbuster/Support/SplitFactor.h"

#include "LinearForalls.h"
#include "SplitGrid.h"
#include "TileContractions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUSPLITREDUCTIONS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

bool isWorkgroup(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

/// True if `op` is `out = out + x` elementwise on buffers into `acc`.
bool isAccumulation(Operation *op, Value acc) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 || generic.getDpsInits()[0] != acc ||
      generic.getNumReductionLoops() != 0 || generic.getNumDpsInputs() != 1)
    return false;
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || !llvm::hasSingleElement(body->without_terminator()))
    return false;
  Value in = body->getArgument(0), out = body->getArgument(1);
  bool inputUsed = generic.getMatchingIndexingMap(
                       generic.getDpsInputOperand(0)) ==
                   generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  return inputUsed && ((add.getLhs() == out && add.getRhs() == in) ||
                       (add.getLhs() == in && add.getRhs() == out));
}

bool isZeroFill(Operation *op, Value acc) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || fill.getDpsInits()[0] != acc)
    return false;
  auto zero = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  auto value = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
  return value && value.getValue().isPosZero();
}

/// Buffers a loop body op writes, or failure for a write this pass cannot
/// see through.
LogicalResult collectWrites(Operation *op, SmallVectorImpl<Value> &writes) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (Value init : linalgOp.getDpsInits())
      writes.push_back(init);
    return success();
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    writes.push_back(copy.getTarget());
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    writes.push_back(store.getMemRef());
    return success();
  }
  if (isa<memref::SubViewOp, memref::AllocOp, scf::ForOp, scf::YieldOp>(op) ||
      isMemoryEffectFree(op))
    return success();
  return failure();
}

/// The buffer a view (subviews, reshapes) is taken of.
Value rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

/// The uses of `buffer` and of the views taken of it (an accumulator that
/// gpu-decode-row-factor gave a unit rows dimension is written through a
/// `memref.expand_shape`), each with the value it uses; not the views.
void collectUses(Value buffer,
                 SmallVectorImpl<std::pair<Operation *, Value>> &uses) {
  for (Operation *user : buffer.getUsers()) {
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (view && view.getViewSource() == buffer) {
      for (Value result : user->getResults())
        collectUses(result, uses);
      continue;
    }
    uses.push_back({user, buffer});
  }
}

struct SplitPlan {
  scf::ForallOp grid;
  SmallVector<scf::ForOp> loops;
  SmallVector<memref::AllocOp> accumulators;
  int64_t blocks = 1, tripCount = 0, splits = 1;
};

struct GPUSplitReductions
    : blockbuster::impl::GPUSplitReductionsBase<GPUSplitReductions> {
  using Base::Base;

  /// The accumulators of `loop` (grid body allocations it adds to), or
  /// failure if the loop is not a pure sum over its iterations.
  FailureOr<SmallVector<memref::AllocOp>> loopAccumulators(scf::ForOp loop) {
    SmallVector<Value> writes;
    WalkResult walk = loop.getBody()->walk([&](Operation *op) {
      return failed(collectWrites(op, writes)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    Block *gridBody = loop->getBlock();
    SmallVector<memref::AllocOp> accs;
    for (Value write : writes) {
      Value root = rootOf(write);
      if (!isWorkgroup(root))
        return failure(); // a store to global memory inside the loop
      auto alloc = root.getDefiningOp<memref::AllocOp>();
      if (!alloc)
        return failure(); // a buffer this pass does not see the uses of
      if (alloc->getBlock() != gridBody || llvm::is_contained(accs, alloc))
        continue; // a temporary of the loop body
      auto type = alloc.getType();
      if (!type.hasStaticShape() || !type.getElementType().isF32())
        return failure();
      // Written only by accumulations in the loop, never read there.
      SmallVector<std::pair<Operation *, Value>> uses;
      collectUses(alloc, uses);
      for (auto [user, used] : uses) {
        if (!loop->isAncestor(user))
          continue;
        if (!isAccumulation(user, used))
          return failure();
      }
      accs.push_back(alloc);
    }
    return accs;
  }

  std::optional<SplitPlan> plan(scf::ForallOp grid) {
    SplitPlan p;
    p.grid = grid;
    for (auto [ub, attr] :
         llvm::zip(grid.getStaticUpperBound(), *grid.getMapping())) {
      if (ShapedType::isDynamic(ub))
        return std::nullopt;
      if (cast<gpu::GPUBlockMappingAttr>(attr).getBlock() ==
          gpu::MappingId::DimZ)
        return std::nullopt;
      p.blocks *= ub;
    }
    if (grid.getRank() > 2 || p.blocks >= minBlocks)
      return std::nullopt;
    Block *body = grid.getBody();
    for (auto loop : body->getOps<scf::ForOp>()) {
      bool hasContraction = false;
      loop.walk([&](linalg::GenericOp op) {
        // A tile dot, or a matrix-vector product (a decode of one row).
        hasContraction |= blockbuster::matchTileContraction(op).has_value() ||
                          linalg::isaContractionOpInterface(op);
      });
      if (!hasContraction)
        continue;
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !step || *lb != 0 || *step != 1 ||
          loop.getNumResults() != 0 ||
          (p.tripCount && p.tripCount != *ub))
        return std::nullopt;
      p.tripCount = *ub;
      FailureOr<SmallVector<memref::AllocOp>> accs = loopAccumulators(loop);
      if (failed(accs) || accs->empty())
        return std::nullopt;
      p.loops.push_back(loop);
      llvm::append_range(p.accumulators, *accs);
    }
    if (p.loops.empty())
      return std::nullopt;
    // Outside its loop an accumulator is zero-filled before the first loop
    // and read after the last one.
    Operation *first = p.loops.front(), *last = p.loops.back();
    for (memref::AllocOp acc : p.accumulators) {
      bool filled = false;
      SmallVector<std::pair<Operation *, Value>> uses;
      collectUses(acc, uses);
      for (auto [user, used] : uses) {
        Operation *top = body->findAncestorOpInBlock(*user);
        if (!top)
          return std::nullopt;
        if (llvm::is_contained(p.loops, top))
          continue;
        if (top->isBeforeInBlock(first) && isZeroFill(user, used)) {
          filled = true;
          continue;
        }
        if (!last->isBeforeInBlock(top))
          return std::nullopt;
      }
      if (!filled)
        return std::nullopt;
    }
    // Every block still runs the other loops of the body whole (a norm's
    // statistics): they cost as much per split as per block.
    int64_t otherIterations = 0;
    for (auto loop : body->getOps<scf::ForOp>()) {
      if (llvm::is_contained(p.loops, loop))
        continue;
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      otherIterations += lb && ub && step && *step > 0
                             ? llvm::divideCeil(*ub - *lb, *step)
                             : p.tripCount;
    }
    // The rule block-select's cost model applies too (SplitFactor.h).
    p.splits = blockbuster::chooseSplitFactor(
        {p.blocks, p.tripCount, otherIterations, sms * blocksPerSM(p)},
        {minBlocks, maxBlocks, maxSplits, minIterations});
    if (p.splits == 1)
      return std::nullopt;
    return p;
  }

  /// The blocks of `p`'s grid that fit on one SM at once, by threads and
  /// by shared memory: the body's workgroup buffers plus the operands of
  /// its contractions that come from global memory (staged in shared memory
  /// by the tensor-core lowering), counted without reuse.
  int64_t blocksPerSM(SplitPlan &p) {
    int64_t bytes = 1024; // the runtime's reserve per block
    // Through the data layout: index tiles (masks built from linalg.index)
    // have no bit width of their own.
    const DataLayout &layout = DataLayout::closest(p.grid);
    auto bytesOf = [&](MemRefType type) {
      return type.getNumElements() *
             int64_t(layout.getTypeSize(type.getElementType()));
    };
    p.grid.getBody()->walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        MemRefType type = alloc.getType();
        if (isWorkgroup(alloc) && type.hasStaticShape())
          bytes += bytesOf(type);
        return;
      }
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || !blockbuster::matchTileContraction(generic))
        return;
      for (Value input : generic.getDpsInputs()) {
        auto type = dyn_cast<MemRefType>(input.getType());
        if (type && !isWorkgroup(input) && type.hasStaticShape())
          bytes += bytesOf(type);
      }
    });
    auto threadsAttr = p.grid->getAttrOfType<IntegerAttr>(
        blockbuster::kBlockThreadsAttrName);
    int64_t blockThreads = threadsAttr ? threadsAttr.getInt() : threads;
    return std::max<int64_t>(
        1, std::min({sharedMemoryPerSM / bytes,
                     threadsPerSM / std::max<int64_t>(1, blockThreads),
                     int64_t(32)}));
  }

  void rewrite(RewriterBase &rewriter, SplitPlan &p) {
    MLIRContext *ctx = rewriter.getContext();
    Location loc = p.grid.getLoc();
    int64_t S = p.splits;

    // Workspace on the host: the partials of every accumulator and the
    // counters of the original grid's blocks.
    rewriter.setInsertionPoint(p.grid);
    SmallVector<Value> partials;
    for (memref::AllocOp acc : p.accumulators) {
      SmallVector<int64_t> shape{S, p.blocks};
      llvm::append_range(shape, acc.getType().getShape());
      partials.push_back(memref::AllocOp::create(
          rewriter, loc, MemRefType::get(shape, rewriter.getF32Type())));
    }
    auto counters = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({p.blocks}, rewriter.getIntegerType(32)));
    counters->setAttr(blockbuster::kWorkspaceAttrName, UnitAttr::get(ctx));

    p.grid = blockbuster::addSplitDimension(rewriter, p.grid, S);
    scf::ForallOp grid = p.grid;
    Block *body = grid.getBody();
    Value split = grid.getInductionVars().back();

    // Each loop runs its split's share of the iterations.
    rewriter.setInsertionPointToStart(body);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value share = index(p.tripCount / S);
    Value begin = arith::MulIOp::create(rewriter, loc, split, share);
    Value end = arith::AddIOp::create(rewriter, loc, begin, share);
    // The block's index in the original grid, row-major.
    Value block = blockbuster::unsplitBlockIndex(rewriter, loc, grid);
    for (scf::ForOp loop : p.loops)
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getLowerBoundMutable().assign(begin);
        loop.getUpperBoundMutable().assign(end);
      });

    // After the last loop: store the partials, count the split in.
    Operation *lastLoop = p.loops.back();
    SmallVector<Operation *> epilogue;
    for (Operation &op : llvm::make_range(std::next(lastLoop->getIterator()),
                                          body->without_terminator().end()))
      epilogue.push_back(&op);
    rewriter.setInsertionPointAfter(lastLoop);
    auto slot = [&](Value partial, Value s) -> Value {
      auto type = cast<MemRefType>(partial.getType());
      SmallVector<OpFoldResult> offsets{s, block};
      SmallVector<OpFoldResult> sizes(2, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        rewriter.getIndexAttr(1));
      for (int64_t extent : type.getShape().drop_front(2)) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(extent));
      }
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          type.getShape().drop_front(2), type, offsets, sizes, strides);
      return memref::SubViewOp::create(rewriter, loc,
                                       cast<MemRefType>(reduced), partial,
                                       offsets, sizes, strides);
    };
    for (auto [acc, partial] : llvm::zip(p.accumulators, partials))
      memref::CopyOp::create(rewriter, loc, acc,
                             slot(partial, split));
    // The block's stores happen before thread 0's count (the barrier), and
    // its release fence at GPU scope (cumulative: it covers what the
    // barrier ordered before it) publishes them with the count; a block
    // that reads S - 1 acquires every split's partials by its fence after
    // the count, and the barrier after the forall passes them on to its
    // threads (the PTX memory model's release and acquire patterns; CUTLASS's
    // split-K semaphore does the same). Earlier every thread ran
    // `membar.gl` (fence.sc.gpu) before the count and again in the last
    // block: 3% of the warps' stall samples of RMSNorm M16 (session 13).
    gpu::BarrierOp::create(rewriter, loc);
    auto flagType = MemRefType::get(
        {1}, rewriter.getIntegerType(32), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value flag = memref::AllocOp::create(rewriter, loc, flagType);
    Value zeroIndex = index(0);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      scf::ForallOp one = blockbuster::createThreadForall(rewriter, loc, 1);
      rewriter.setInsertionPoint(one.getBody()->getTerminator());
      Type i32 = rewriter.getIntegerType(32);
      Value isLast =
          blockbuster::countBlockIn(rewriter, loc, counters, block, S);
      blockbuster::createCountFence(rewriter, loc);
      memref::StoreOp::create(
          rewriter, loc, arith::ExtUIOp::create(rewriter, loc, i32, isLast),
          flag, ValueRange{zeroIndex});
    }
    Value flagValue =
        memref::LoadOp::create(rewriter, loc, flag, ValueRange{zeroIndex});
    Value last = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, flagValue,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 0));
    auto ifLast = scf::IfOp::create(rewriter, loc, last,
                                    /*withElseRegion=*/false);
    Block *then = ifLast.thenBlock();
    for (Operation *op : epilogue)
      rewriter.moveOpBefore(op, then->getTerminator());

    // The last block: the partials in split order, then the epilogue.
    rewriter.setInsertionPointToStart(then);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    for (auto [acc, partial] : llvm::zip(p.accumulators, partials)) {
      int64_t rank = acc.getType().getRank();
      auto type = cast<MemRefType>(partial.getType());
      SmallVector<OpFoldResult> offsets{rewriter.getIndexAttr(0), block},
          sizes{rewriter.getIndexAttr(S), rewriter.getIndexAttr(1)},
          strides(type.getRank(), rewriter.getIndexAttr(1));
      SmallVector<int64_t> shape{S};
      for (int64_t extent : type.getShape().drop_front(2)) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(extent));
        shape.push_back(extent);
      }
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          shape, type, offsets, sizes, strides);
      Value all = memref::SubViewOp::create(rewriter, loc,
                                            cast<MemRefType>(reduced), partial,
                                            offsets, sizes, strides);
      linalg::FillOp::create(rewriter, loc, zero, Value(acc));
      // (d0..d{r-1}, s): the split is the innermost loop of each thread.
      AffineMap inMap = AffineMap::get(
          rank + 1, 0,
          [&] {
            SmallVector<AffineExpr> exprs{rewriter.getAffineDimExpr(rank)};
            for (int64_t d = 0; d < rank; ++d)
              exprs.push_back(rewriter.getAffineDimExpr(d));
            return exprs;
          }(),
          ctx);
      // (d0..d{r-1}); built from its results, since getMajorSubMap(0) of a
      // rank-0 accumulator (a sum to a scalar) is the null map.
      AffineMap outMap = AffineMap::get(
          rank + 1, 0,
          llvm::to_vector(llvm::map_range(
              llvm::seq<int64_t>(0, rank),
              [&](int64_t d) { return rewriter.getAffineDimExpr(d); })),
          ctx);
      SmallVector<utils::IteratorType> iterators(rank,
                                                 utils::IteratorType::parallel);
      iterators.push_back(utils::IteratorType::reduction);
      linalg::GenericOp::create(
          rewriter, loc, ValueRange{all}, ValueRange{acc},
          ArrayRef<AffineMap>{inMap, outMap}, iterators,
          [](OpBuilder &b, Location l, ValueRange args) {
            Value sum = arith::AddFOp::create(b, l, args[1], args[0]);
            linalg::YieldOp::create(b, l, sum);
          });
    }
    // Thread 0 leaves the counter zeroed for the next launch.
    {
      OpBuilder::InsertionGuard guard(rewriter);
      scf::ForallOp one = blockbuster::createThreadForall(rewriter, loc, 1);
      rewriter.setInsertionPoint(one.getBody()->getTerminator());
      memref::StoreOp::create(
          rewriter, loc,
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                       0),
          counters, ValueRange{block});
    }
  }

  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids;
    getOperation().walk([&](scf::ForallOp forall) {
      if (blockbuster::isBlockGrid(forall))
        grids.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids)
      if (std::optional<SplitPlan> p = plan(grid))
        rewrite(rewriter, *p);
  }
};

} // namespace
