//===- WarpgroupGemmBlocks.cpp - 128 x 256 blocks for Hopper GEMMs --------===//
//
// On sm_90a a plain GEMM kernel runs as gpu-warpgroup-matmul's TMA ring and
// wgmma mainloop, fastest with blocks of 128 x 256 output elements (two
// consumer warpgroups, one m64n256k16 each per k16: docs/performance.md).
// The cost model does not know that schedule: its blocks stop at 128 on
// every axis, and it counts the tiles of the mma.sync lowering. This pass
// writes the schedule's block sizes into the axis table of each program
// that is one such kernel, or that ends with one whose A tile the reduce
// computes from one argument tile (norm + matmul: the warpgroups rewrite
// it in the ring, and its row statistics come from kernels over m alone),
// before block-select (which keeps sizes already in the table, and still
// chooses for every other program). An RMSNorm + SwiGLU FFN gets the blocks
// of gpu-warpgroup-matmul's two-accumulator schedule for its up
// projections (128 x 128 x 64) and of the plain schedule for its down
// projection.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "Blockbuster/Support/SplitFactor.h"
#include "AxisTable.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "block-warpgroup-gemm-blocks"

namespace blockbuster::block {
#define GEN_PASS_DEF_BLOCKWARPGROUPGEMMBLOCKS
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"
} // namespace blockbuster::block

using namespace mlir;
using namespace blockbuster::block;

namespace {

// The schedule's block: 128 rows, 256 columns, k steps of 64.
constexpr int64_t kBlockM = 128, kBlockN = 256, kBlockK = 64;
// The up projections of a SwiGLU FFN: 128 columns of each of the two
// products (two accumulators of 64 x 128 per warpgroup, the registers of
// one 64 x 256).
constexpr int64_t kPairBlockN = 128;
// Grids of 128-row blocks too small for the SMs: 128 x 128 blocks (one
// warpgroup, two per SM) whose k steps gpu-warpgroup-matmul splits across
// blocks (m of 128 rows or more: block-select keeps a block within its
// axis, and the schedule's tile is 128 rows; shorter m keeps decode blocks
// of 16 rows, or the generic path).
constexpr int64_t kSplitBlockN = 128;
// The blocks of 128 x 128 tiles one SM holds (3 ring slots of 32 KB).
constexpr int64_t kSplitBlocksPerSM = 2;
// The k blocks of a GEMM whose A row kernels over (m, k) write first.
constexpr int64_t kRowBlockK = 256;
// The offset of a load index that is an axis without a slice (as in
// BlockOps.cpp and BlockToLinalg.cpp).
constexpr int64_t kExactIndex = -1;

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "not a warpgroup GEMM program: " << reason
                          << ": " << *op << "\n");
  return failure();
}

/// A load of a whole 16-bit program argument of rank 2 along `axes`, whose
/// rows are 16-byte aligned (TMA's rule for global strides).
bool isTmaOperand(Value tile, ArrayRef<StringRef> axes) {
  auto load = tile.getDefiningOp<LoadOp>();
  if (!load || !isa<BlockArgument>(load.getSource()))
    return false;
  auto array = cast<ArrayType>(load.getSource().getType());
  Type element = array.getElementType();
  if (array.getRank() != 2 || !(element.isBF16() || element.isF16()) ||
      (array.getShape()[1] * 2) % 16 != 0)
    return false;
  SmallVector<StringRef> indexAxes;
  for (Attribute axis : load.getIndexAxes())
    indexAxes.push_back(cast<StringAttr>(axis).getValue());
  return ArrayRef<StringRef>(indexAxes) == axes &&
         llvm::all_of(load.getOffsets(),
                      [](int64_t o) { return o == kExactIndex; });
}


/// A load of the whole result [m, k] of an earlier kernel of the program,
/// rank 2 with 16-bit elements and 16-byte aligned rows (TMA's rule): the
/// hidden activations an MLP's second GEMM reads.
bool isKernelResultOperand(Value tile, ArrayRef<StringRef> axes) {
  auto load = tile.getDefiningOp<LoadOp>();
  if (!load || !load.getSource().getDefiningOp<MapOp>())
    return false;
  auto array = cast<ArrayType>(load.getSource().getType());
  Type element = array.getElementType();
  return array.getRank() == 2 && (element.isBF16() || element.isF16()) &&
         (array.getShape()[1] * 2) % 16 == 0 &&
         tileAxes(load.getResult()) == SmallVector<StringRef>(axes) &&
         llvm::all_of(load.getOffsets(),
                      [](int64_t o) { return o == kExactIndex; });
}

/// Whether the dot's A operand `tile` [m, k] is computed in `reduce` from
/// one load of a whole 16-bit argument [m, k] of TMA's kind by pure
/// elementwise work that reads besides it only tiles along m computed
/// before the reduce, loads of rank-1 arguments along k and constants: the
/// normalised rows of LayerNorm/RMSNorm + matmul, which gpu-warpgroup-matmul
/// rewrites in the ring (WarpgroupPrologue.h). `slice` receives the ops.
bool isPrologueOperand(Value tile, StringRef m, StringRef k, ReduceOp reduce,
                       llvm::SmallPtrSetImpl<Operation *> &slice) {
  auto type = dyn_cast<TileType>(tile.getType());
  if (!type || !(type.getElementType().isBF16() ||
                 type.getElementType().isF16()))
    return false;
  int64_t rawLoads = 0;
  SmallVector<Value> worklist = {tile};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !reduce->isAncestor(def)) {
      // From before the reduce: per-row values (the statistics).
      SmallVector<StringRef> axes = tileAxes(value);
      if (!isa<TileType>(value.getType()) ||
          !(axes.empty() || ArrayRef<StringRef>(axes) == ArrayRef{m}))
        return false;
      continue;
    }
    if (def->getParentOp() != reduce || !slice.insert(def).second)
      continue;
    SmallVector<StringRef> axes = tileAxes(value);
    if (!llvm::all_of(axes, [&](StringRef a) { return a == m || a == k; }))
      return false;
    if (auto load = dyn_cast<LoadOp>(def)) {
      if (isTmaOperand(value, {m, k})) {
        ++rawLoads;
        continue;
      }
      auto array = cast<ArrayType>(load.getSource().getType());
      if (!isa<BlockArgument>(load.getSource()) || array.getRank() != 1 ||
          ArrayRef<StringRef>(axes) != ArrayRef{k} ||
          load.getOffsets()[0] != kExactIndex)
        return false;
      continue;
    }
    if (isa<DotOp, TileReduceOp, ReduceOp>(def) || def->getNumRegions() ||
        !isPure(def) || def->getNumResults() != 1)
      return false;
    llvm::append_range(worklist, def->getOperands());
  }
  return rawLoads == 1;
}

/// A GEMM kernel: its axes, and whether A is read as it is (an argument or
/// an earlier kernel's result) rather than computed in the reduce.
struct GemmKernel {
  StringRef m, n, k;
  bool plain;
};

/// The precondition of one kernel: `map`'s only reduction is C[m, n] = sum
/// over k of A[m, k] * B[k, n], B a whole 16-bit argument, any elementwise
/// epilogue after it, and A a whole 16-bit argument or earlier kernel's
/// result (plain), or computed in the reduce from an argument
/// (isPrologueOperand).
FailureOr<GemmKernel> matchGemmKernel(MapOp map) {
  if (map.getAxes().size() != 2)
    return fail(map, "not a grid over two axes");
  SmallVector<ReduceOp> reduces;
  SmallVector<DotOp> dots;
  int64_t rowReductions = 0;
  map.walk([&](ReduceOp reduce) { reduces.push_back(reduce); });
  map.walk([&](DotOp dot) { dots.push_back(dot); });
  map.walk([&](TileReduceOp) { ++rowReductions; });
  if (reduces.size() != 1 || dots.size() != 1 || rowReductions ||
      reduces.front()->getParentOp() != map)
    return fail(map, "not one reduce of one dot and elementwise work");
  ReduceOp reduce = reduces.front();
  DotOp dot = dots.front();
  StringRef m = cast<StringAttr>(map.getAxes()[0]).getValue();
  StringRef n = cast<StringAttr>(map.getAxes()[1]).getValue();
  StringRef k = reduce.getAxis();
  if (!isTmaOperand(dot.getRhs(), {k, n}))
    return fail(dot, "B is not B[k, n] of a 16-bit argument with 16-byte "
                     "aligned rows");
  // The reduce's body: A's load or computation, B's load, the dot and its
  // yield.
  llvm::SmallPtrSet<Operation *, 16> prologue;
  bool plain = isTmaOperand(dot.getLhs(), {m, k}) ||
               isKernelResultOperand(dot.getLhs(), {m, k});
  if (!plain && !isPrologueOperand(dot.getLhs(), m, k, reduce, prologue))
    return fail(dot, "A is neither A[m, k] of a 16-bit argument or kernel "
                     "result with 16-byte aligned rows nor computed from an "
                     "argument");
  if (dot->getParentOp() != reduce ||
      llvm::range_size(reduce.getBody().front().getOperations()) !=
          (plain ? 4 : 3 + prologue.size()))
    return fail(reduce, "the reduce does more than one dot and its operands");
  return GemmKernel{m, n, k, plain};
}

/// Whether `map` is a grid over (m, k) with no reduce: elementwise work on
/// rows (a normalisation whose result the GEMM reads as A).
bool isRowBlockKernel(MapOp map, StringRef m, StringRef k) {
  if (map.getAxes().size() != 2 ||
      cast<StringAttr>(map.getAxes()[0]).getValue() != m ||
      cast<StringAttr>(map.getAxes()[1]).getValue() != k)
    return false;
  bool reduces = false;
  map.walk([&](Operation *op) {
    reduces |= isa<ReduceOp, TileReduceOp, DotOp>(op);
  });
  return !reduces;
}

/// The program's GEMM kernel and whether kernels over (m, k) come before
/// it (a materialised A).
struct GemmProgram {
  std::array<StringRef, 3> axes;
  bool rowBlocks;
};

/// Whether `map` iterates none of `axes`: a kernel of axes of its own
/// (block-fuse's rule 10 untied them), whose blocks do not bind the GEMM's.
bool hasOwnAxes(MapOp map, ArrayRef<StringRef> axes) {
  return llvm::none_of(map.getAxes(), [&](Attribute axis) {
    return llvm::is_contained(axes, cast<StringAttr>(axis).getValue());
  });
}

/// The precondition: `program` ends with a GEMM kernel (matchGemmKernel);
/// with a computed A, kernels over m alone (its row statistics) may come
/// before; with A an earlier kernel's result, kernels over m alone and
/// elementwise kernels over (m, k) (LayerNorm's statistics and its
/// normalised X, which the cost model materialises rather than recompute
/// per block of columns: docs/FusionReport.md, "Prologues"), or kernels
/// over axes of their own (that normalised X as one row kernel, the
/// statistics fused into it: FusionRules.md, "Rule 10"), behind which the
/// GEMM is a plain one.
FailureOr<GemmProgram> matchGemmProgram(ProgramOp program) {
  auto maps = llvm::to_vector(program.getBody().getOps<MapOp>());
  if (maps.empty())
    return fail(program, "no kernel");
  FailureOr<GemmKernel> gemm = matchGemmKernel(maps.back());
  if (failed(gemm))
    return failure();
  bool readsKernelResult = false;
  maps.back().walk([&](DotOp dot) {
    readsKernelResult = isKernelResultOperand(dot.getLhs(), {gemm->m, gemm->k});
  });
  // Kernels before the GEMM: none for a plain GEMM of an argument; the row
  // statistics of a computed A (grids over m alone); for A an earlier
  // kernel's result, row statistics and at least one elementwise kernel
  // over (m, k) that writes it.
  bool rowBlocks = false, ownAxes = false;
  for (MapOp other : ArrayRef(maps).drop_back()) {
    if (readsKernelResult && isRowBlockKernel(other, gemm->m, gemm->k)) {
      rowBlocks = true;
      continue;
    }
    if (readsKernelResult && hasOwnAxes(other, {gemm->m, gemm->n, gemm->k})) {
      ownAxes = true;
      continue;
    }
    if ((gemm->plain && !readsKernelResult) || other.getAxes().size() != 1 ||
        cast<StringAttr>(other.getAxes()[0]).getValue() != gemm->m)
      return fail(other, "a kernel besides the GEMM that is not over m "
                         "alone (or, before a GEMM of its result, "
                         "elementwise over m and k)");
  }
  if (readsKernelResult && maps.size() > 1 && !rowBlocks && !ownAxes)
    return fail(program, "kernels over m alone before a plain GEMM");
  return GemmProgram{{gemm->m, gemm->n, gemm->k}, rowBlocks};
}

/// The precondition of a chain of GEMMs (an MLP: x W1 + b1, an activation,
/// then W2 + b2 and a residual): two or more kernels, each a plain GEMM
/// over the same rows m (matchGemmKernel, A an argument or an earlier
/// kernel's result). Returns the kernels' axes.
FailureOr<SmallVector<GemmKernel>> matchGemmChain(ProgramOp program) {
  auto maps = llvm::to_vector(program.getBody().getOps<MapOp>());
  if (maps.size() < 2)
    return fail(program, "fewer than two kernels");
  SmallVector<GemmKernel> chain;
  for (MapOp map : maps) {
    FailureOr<GemmKernel> gemm = matchGemmKernel(map);
    if (failed(gemm))
      return failure();
    if (!gemm->plain || (!chain.empty() && gemm->m != chain.front().m))
      return fail(map, "not a plain GEMM over the first kernel's rows");
    chain.push_back(*gemm);
  }
  return chain;
}

/// The axes of an RMSNorm + SwiGLU FFN: x[m, k] normalised, h[m, n] =
/// silu(xn W1) * (xn W3), out[m, n2] = h W2.
struct FfnAxes {
  StringRef m, n, k, n2;
};

/// Whether `array` (a program argument or a kernel's result) is of rank 2
/// with 16-bit elements and 16-byte aligned rows (TMA's rule).
bool hasTmaRows(Value array) {
  auto type = dyn_cast<ArrayType>(array.getType());
  return type && type.getRank() == 2 &&
         (type.getElementType().isBF16() || type.getElementType().isF16()) &&
         (type.getShape()[1] * 2) % 16 == 0;
}

/// The precondition of the FFN blocks: `program` is kernels over m alone
/// (the row statistics), then a kernel over (m, n) whose one reduce over k
/// does two dots of the same A tile, computed from one argument tile
/// (isPrologueOperand), with B[k, n] of two arguments, and whose epilogue
/// is elementwise (the gating), then a plain GEMM over (m, n2) of that
/// kernel's result [m, n] (reduced over n) and a third argument [n, n2].
/// gpu-warpgroup-matmul runs the first GEMM's two products on one
/// mainloop with two accumulators.
FailureOr<FfnAxes> matchFfnProgram(ProgramOp program) {
  auto maps = llvm::to_vector(program.getBody().getOps<MapOp>());
  if (maps.size() < 2)
    return fail(program, "fewer than two kernels");
  MapOp up = maps[maps.size() - 2], down = maps.back();
  if (up.getAxes().size() != 2 || down.getAxes().size() != 2)
    return fail(program, "the last two kernels are not grids over two axes");
  FfnAxes axes;
  axes.m = cast<StringAttr>(up.getAxes()[0]).getValue();
  axes.n = cast<StringAttr>(up.getAxes()[1]).getValue();
  if (cast<StringAttr>(down.getAxes()[0]).getValue() != axes.m)
    return fail(down, "the last kernel is not over the same rows");
  axes.n2 = cast<StringAttr>(down.getAxes()[1]).getValue();

  // The up projections: one reduce of two dots that share A.
  SmallVector<ReduceOp> reduces;
  SmallVector<DotOp> dots;
  int64_t rowReductions = 0;
  up.walk([&](ReduceOp reduce) { reduces.push_back(reduce); });
  up.walk([&](DotOp dot) { dots.push_back(dot); });
  up.walk([&](TileReduceOp) { ++rowReductions; });
  if (reduces.size() != 1 || dots.size() != 2 || rowReductions ||
      reduces.front()->getParentOp() != up ||
      dots[0].getLhs() != dots[1].getLhs())
    return fail(up, "not one reduce of two dots of one A tile");
  ReduceOp reduce = reduces.front();
  axes.k = reduce.getAxis();
  llvm::SmallPtrSet<Operation *, 16> prologue;
  if (!isPrologueOperand(dots[0].getLhs(), axes.m, axes.k, reduce, prologue))
    return fail(dots[0], "A is not computed from one argument tile");
  for (DotOp dot : dots)
    if (dot->getParentOp() != reduce ||
        !isTmaOperand(dot.getRhs(), {axes.k, axes.n}))
      return fail(dot, "B is not B[k, n] of a 16-bit argument with 16-byte "
                       "aligned rows");
  // A's computation, two loads of B, two dots, the yield.
  if (llvm::range_size(reduce.getBody().front().getOperations()) !=
      5 + prologue.size())
    return fail(reduce, "the reduce does more than two dots and their "
                        "operands");

  // The down projection: a plain GEMM of the gated result.
  reduces.clear();
  dots.clear();
  down.walk([&](ReduceOp reduce) { reduces.push_back(reduce); });
  down.walk([&](DotOp dot) { dots.push_back(dot); });
  down.walk([&](TileReduceOp) { ++rowReductions; });
  if (reduces.size() != 1 || dots.size() != 1 || rowReductions ||
      reduces.front()->getParentOp() != down ||
      reduces.front().getAxis() != axes.n ||
      dots.front()->getParentOp() != reduces.front() ||
      llvm::range_size(reduces.front().getBody().front().getOperations()) !=
          4)
    return fail(down, "not one reduce of one dot over n");
  auto hLoad = dots.front().getLhs().getDefiningOp<LoadOp>();
  if (!hLoad || hLoad.getSource() != up->getResult(0) ||
      !hasTmaRows(hLoad.getSource()) ||
      tileAxes(hLoad.getResult()) != SmallVector<StringRef>{axes.m, axes.n} ||
      !llvm::all_of(hLoad.getOffsets(),
                    [](int64_t o) { return o == kExactIndex; }) ||
      !isTmaOperand(dots.front().getRhs(), {axes.n, axes.n2}))
    return fail(down, "not a GEMM of the up projections' result and an "
                      "argument");

  for (MapOp other : ArrayRef(maps).drop_back(2))
    if (other.getAxes().size() != 1 ||
        cast<StringAttr>(other.getAxes()[0]).getValue() != axes.m)
      return fail(other, "a kernel before the FFN that is not over m alone");
  return axes;
}

struct BlockWarpgroupGemmBlocks
    : blockbuster::block::impl::BlockWarpgroupGemmBlocksBase<
          BlockWarpgroupGemmBlocks> {
  using Base::Base;

  void runOnOperation() override {
    const TargetDescription *targetDesc = lookupTargetDescription(target);
    if (!targetDesc) {
      getOperation().emitError()
          << "block-warpgroup-gemm-blocks: unknown target '" << target << "'";
      return signalPassFailure();
    }
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      if (succeeded(matchFfnProgram(program))) {
        setFfnBlocks(program, *targetDesc);
        continue;
      }
      if (FailureOr<SmallVector<GemmKernel>> chain = matchGemmChain(program);
          succeeded(chain)) {
        setChainBlocks(program, *chain, *targetDesc);
        continue;
      }
      FailureOr<GemmProgram> gemm = matchGemmProgram(program);
      if (failed(gemm))
        continue;
      const std::array<StringRef, 3> *axes = &gemm->axes;
      // Kernels over (m, k) before the GEMM are row kernels of k blocks:
      // 256 columns give every lane 16-byte accesses (gpu-row-kernels),
      // and the ring still steps by 64.
      llvm::StringMap<int64_t> sizes = {
          {(*axes)[0], kBlockM},
          {(*axes)[1], kBlockN},
          {(*axes)[2], gemm->rowBlocks ? kRowBlockK : kBlockK}};
      llvm::StringMap<AxisAttr> byName;
      for (AxisAttr axis : program.getAxisTable())
        byName[axis.getName().getValue()] = axis;
      // Only where every axis is still open, long enough for whole blocks
      // of m and n, and the blocks fill every SM at least once: one 128 x
      // 256 block takes an SM's shared memory (4 ring slots), so fewer
      // blocks than SMs leave SMs idle that 128 x 128 blocks would use.
      // And more than one k step: with one, the reduce folds away and the
      // block keeps an f32 tile besides the schedule's own (two of 128 KB
      // next to the ring do not fit).
      AxisAttr mAxis = byName.lookup((*axes)[0]);
      AxisAttr nAxis = byName.lookup((*axes)[1]);
      AxisAttr kAxis = byName.lookup((*axes)[2]);
      bool open = llvm::all_of(sizes, [&](const auto &entry) {
        AxisAttr axis = byName.lookup(entry.getKey());
        return axis && axis.isTiled() && !axis.getBlockSize();
      });
      if (!open || kAxis.getExtent() <= sizes.lookup((*axes)[2]))
        continue;
      // Row kernels take whole k blocks only (a partial one has a dynamic
      // row length): other k extents leave the blocks to block-select.
      if (gemm->rowBlocks && kAxis.getExtent() % kRowBlockK != 0)
        continue;
      int64_t m = mAxis.getExtent(), n = nAxis.getExtent(),
              k = kAxis.getExtent();
      if (m >= kBlockM && n >= kBlockN &&
          llvm::divideCeilSigned(m, kBlockM) * llvm::divideCeilSigned(n, kBlockN) >=
              targetDesc->numProcessors) {
        setBlockSizes(program, sizes);
        continue;
      }
      // Too few for the SMs: 128 x 128 blocks where gpu-warpgroup-matmul
      // splits their k steps (the same rule as there) to fill them; not
      // behind row kernels over k blocks, which the split's steps of 64
      // would give 4-byte accesses.
      if (gemm->rowBlocks || m < kBlockM || n < kSplitBlockN ||
          splitsOf(llvm::divideCeil(m, kBlockM) *
                       llvm::divideCeil(n, kSplitBlockN),
                   k, *targetDesc) == 1)
        continue;
      sizes[(*axes)[1]] = kSplitBlockN;
      setBlockSizes(program, sizes);
      program->setAttr(kWarpgroupSplitAttrName, UnitAttr::get(&getContext()));
    }
  }

  /// A chain's blocks: 128 rows, 256 columns of every kernel, and k steps
  /// of 64 on the k axes that are no kernel's columns (an axis that is one
  /// kernel's n and the next one's k, an MLP's hidden axis, is a k block of
  /// 256: gpu-warpgroup-matmul's ring still steps by 64). Only where every
  /// axis is still open and each kernel's 128 x 256 blocks fill the SMs
  /// and its reduce has more than one k block (as for one GEMM, above);
  /// otherwise block-select chooses.
  void setChainBlocks(ProgramOp program, ArrayRef<GemmKernel> chain,
                      const TargetDescription &targetDesc) {
    llvm::StringMap<int64_t> sizes;
    for (const GemmKernel &gemm : chain) {
      sizes[gemm.m] = kBlockM;
      sizes[gemm.n] = kBlockN;
    }
    for (const GemmKernel &gemm : chain) {
      if (gemm.n == gemm.m || gemm.k == gemm.m)
        return;
      sizes.try_emplace(gemm.k, kBlockK);
    }
    llvm::StringMap<AxisAttr> byName;
    for (AxisAttr axis : program.getAxisTable())
      byName[axis.getName().getValue()] = axis;
    for (const auto &entry : sizes) {
      AxisAttr axis = byName.lookup(entry.getKey());
      if (!axis || !axis.isTiled() || axis.getBlockSize())
        return;
    }
    for (const GemmKernel &gemm : chain) {
      int64_t m = byName.lookup(gemm.m).getExtent(),
              n = byName.lookup(gemm.n).getExtent(),
              k = byName.lookup(gemm.k).getExtent();
      if (m < kBlockM || n < kBlockN || k <= sizes.lookup(gemm.k) ||
          llvm::divideCeilSigned(m, kBlockM) * llvm::divideCeilSigned(n, kBlockN) <
              targetDesc.numProcessors)
        return;
    }
    setBlockSizes(program, sizes);
  }

  /// The splits gpu-warpgroup-matmul gives a grid of `blocks` 128 x 128
  /// blocks over `k` (SplitFactor.h, k steps of 64).
  int64_t splitsOf(int64_t blocks, int64_t k,
                   const TargetDescription &targetDesc) {
    if (splitMaxBlocks <= 0)
      return 1;
    return blockbuster::chooseSplitFactor(
        {blocks, llvm::divideCeilSigned(k, kBlockK), 0,
         targetDesc.numProcessors * kSplitBlocksPerSM},
        {targetDesc.numProcessors, splitMaxBlocks,
         blockbuster::kMaxWarpgroupSplits,
         blockbuster::kMinWarpgroupStepsPerSplit});
  }

  /// The FFN's blocks: 128 x 128 blocks of h (each computing the 128
  /// columns of both products) over k steps of 64, and the down
  /// projection's k blocks the same 128 columns of h, its own 128 x 256
  /// blocks where they fill the SMs (else 128 x 128: one warpgroup, two
  /// blocks per SM). Only where every axis is still open and the up
  /// projections' grid fills the SMs (as for a plain GEMM, above).
  void setFfnBlocks(ProgramOp program, const TargetDescription &targetDesc) {
    FfnAxes axes = *matchFfnProgram(program);
    llvm::StringMap<AxisAttr> byName;
    for (AxisAttr axis : program.getAxisTable())
      byName[axis.getName().getValue()] = axis;
    SmallVector<AxisAttr> table;
    for (StringRef name : {axes.m, axes.n, axes.k, axes.n2}) {
      AxisAttr axis = byName.lookup(name);
      if (!axis || !axis.isTiled() || axis.getBlockSize())
        return;
      table.push_back(axis);
    }
    int64_t m = table[0].getExtent(), n = table[1].getExtent(),
            k = table[2].getExtent(), n2 = table[3].getExtent();
    // Up projections too few for the SMs still take the schedule (from 128
    // rows): each of their blocks streams two B tiles once (decode blocks
    // of 16 rows read them once per 16 rows), and the down projection's
    // grid is split.
    bool fills = m >= kBlockM && llvm::divideCeilSigned(m, kBlockM) *
                                         llvm::divideCeilSigned(
                                             n, kPairBlockN) >=
                                     targetDesc.numProcessors;
    if (m < kBlockM || n < kPairBlockN || k <= kBlockK ||
        !(fills || splitMaxBlocks > 0))
      return;
    bool wide = n2 >= kBlockN && llvm::divideCeilSigned(m, kBlockM) *
                                         llvm::divideCeilSigned(n2, kBlockN) >=
                                     targetDesc.numProcessors;
    if (!fills)
      program->setAttr(kWarpgroupSplitAttrName, UnitAttr::get(&getContext()));
    setBlockSizes(program, {{axes.m, kBlockM},
                            {axes.n, kPairBlockN},
                            {axes.k, kBlockK},
                            {axes.n2, wide ? kBlockN : kPairBlockN}});
  }
};

} // namespace
