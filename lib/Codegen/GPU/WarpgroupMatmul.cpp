//===- WarpgroupMatmul.cpp - Tiled GEMMs on Hopper: TMA ring + wgmma ------===//
//
// The sm_90a schedule of a kernel whose block is one 128 x 128 or 128 x 256
// tile of a matrix product read from global memory
// (docs/design/06-fast-kernels.md, section 3.1):
//
//   C_tile = sum over k of A[m0 : m0 + 128, k] * B[k, n0 : n0 + N]
//
// with 16-bit A and B, an f32 accumulator and any epilogue after the reduce
// loop. A 128 x 128 tile is one warpgroup's; a 128 x 256 tile is two
// consumer warpgroups', 64 rows each (the grid gets
// `blockbuster.block_threads` = 256). The block's own reduce loop (a k loop
// of the block program, or one whole-k dot) and the zero fill of its
// accumulator tile are replaced by:
//
//  - on the host, one TMA descriptor per operand
//    (`nvgpu.tma.create.descriptor`, 128-byte swizzle, zero fill out of
//    bounds, L2 promotion of 256 bytes, 128 for rows that are not whole
//    128-byte lines): a box of 128 x 64 elements of A, and of 64 x 64
//    elements of B (the swizzle spans 128 bytes, so a row of B is N / 64
//    boxes);
//  - in the kernel, a ring of `stages` shared-memory slots, each holding the
//    A and B tiles of one k step of 64, guarded by one mbarrier per slot.
//    Thread 0 fills the first `stages - 1` slots before the loop; in step i
//    each warpgroup waits for slot i, issues `nvgpu.warpgroup.mma` (its rows
//    x N x 64 as wgmma.m64nNk16 with f32 accumulators in registers across
//    the whole loop), waits until only that group is in flight (so its step
//    i - 1 is done), and thread 0 then refills that slot with step
//    i + stages - 1: copies stay in flight while the tensor cores work.
//    With two warpgroups each one's first thread also arrives on a second
//    mbarrier of the slot of step i - 1, and thread 0 waits for both
//    arrivals before the refill;
//  - after the loop, with the `fragment-epilogue` option (the default),
//    when the epilogue is one elementwise op from the accumulator (or its
//    top-left corner) to a tile whose only other use is a copy to global
//    memory: its body applied to each thread's accumulator registers (the
//    fragment layout of wgmma: thread t of the block holds rows
//    16 (t / 32) + (t % 32) / 4 + 8 i and columns 2 (t % 4) + 8 j, + 1)
//    and the results stored straight to global memory: 16-bit results as
//    16-byte vectors of 8 columns after the four lanes of each quad
//    exchanged their pairs (QuadTranspose.h), 32-bit results two columns
//    at once, each store bounds-checked at partial edge blocks; no shared
//    memory, one barrier fewer;
//  - otherwise the accumulator fragments stored into a fresh f32 tile that
//    replaces the old accumulator, so the epilogue (edge tiles are views of
//    its top-left corner) is lowered as before.
//
// Partial edge tiles need no other special case: TMA fills the
// out-of-bounds part of a box with zeros, and the epilogue only reads or
// writes the tile's valid corner.
// An A tile that a 128 x 128 or 128 x 256 block computes elementwise from a
// tile of a global array (the normalised rows of LayerNorm/RMSNorm +
// matmul) takes the same schedule with a prologue (WarpgroupPrologue.h):
// TMA stages the raw tile. By default (`prologue-registers`) with two
// warpgroups, each warpgroup loads its 64 rows of step i + 1's slot into
// wgmma's A fragments (ldmatrix), applies the prologue to the registers
// while step i's wgmma runs and issues register-A wgmmas
// (WarpgroupRegisterMma.h); the loop runs two k steps per iteration with two
// sets of A registers, since a wgmma reads its A registers until a wait
// covers it. Otherwise each warpgroup rewrites its rows of each slot's A
// part in place. By default one step ahead (`prologue-ahead`):
// step i's wgmma, the release and refill of step i - 1's slot as in a
// plain GEMM, then step i + 1's rows rewritten while step i's wgmma runs
// and a barrier of the warpgroup's warps, so that the next wgmma queues
// behind the running one. Otherwise step i's rows rewritten while step i -
// 1's wgmma runs, then wgmma.wait_group 0 and the block's barrier before
// the refill (no release mbarriers: the barrier orders the refill after
// every warp's wgmma) and step i's wgmma: the tensor cores drain every
// step (measured 6-9% slower, docs/performance.md).
// Two dots of one computed A tile in one k loop, each into its own
// accumulator (the gate and up projections of an RMSNorm + SwiGLU FFN, the
// epilogue silu(gate) * up reading both), share the mainloop of a 128 x 128
// tile: a slot holds A, then the 64 x 128 part of each B (48 KB, as a
// 128 x 256 tile's); each of two warpgroups computes its 64 rows of A in
// registers once per k16 and issues one m64n256k16 over both products' B
// boxes, which lie side by side in the slot, into its two accumulators
// (128 registers per thread, as one 64 x 256; `products-one-wgmma=false`:
// one m64n128k16 into each), all in one wgmma group; the epilogue runs on
// both accumulators' registers.
// With `producer`, blocks of two consumer warpgroups get a third warpgroup
// that only copies: after setup the block branches, the producer's
// setmaxnreg returns registers that the consumers' setmaxnreg takes, one
// producer thread fills each slot once both consumer warpgroups released
// its previous use, and the consumers wait, multiply, release and run the
// epilogue. With `persistent` too, min(SMs, tiles) blocks loop over the
// tiles with one ring whose uses are counted across them, so the producer
// loads a tile's first steps during the previous tile's last steps and
// epilogue. With `cluster-multicast` too (off by default), a persistent
// grid without stream-K whose tiles have an even number of rows runs in
// clusters of two blocks on the two row tiles of a column: each block's
// producer loads its A box and half of the slot's B boxes, multicast to
// both blocks; the empty barriers count both blocks' consumer warpgroups,
// which release each slot in both (a remote arrive through mapa), and the
// cluster's barrier follows the inits and precedes the consumers' exit.
// Everything else stays with gpu-contractions-to-mma (mma.sync): other chips
// (the pipeline adds this pass for sm_90a only), other block sizes, batched
// dots, A tiles staged or computed otherwise, operands whose rows are not
// 16-byte aligned (TMA needs 16-byte global strides).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Support/SplitFactor.h"
#include "FmaContraction.h"
#include "GlobalAccess.h"
#include "QuadTranspose.h"
#include "SplitGrid.h"
#include "TileBounds.h"
#include "TileContractions.h"
#include "TmaRing.h"
#include "PrologueStatistics.h"
#include "WarpgroupPrologue.h"
#include "WarpgroupRegisterMma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpu-warpgroup-matmul"

namespace blockbuster {
#define GEN_PASS_DEF_GPUWARPGROUPMATMUL
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

// The block tile's rows and the k step of one ring slot. A 128 x 128 tile
// is one warpgroup's (128 threads, two m64n128k16 per k16, 128 f32
// accumulator registers per thread); a 128 x 256 tile is two warpgroups',
// each owning 64 rows (one m64n256k16 per k16, again 128 registers per
// thread): B is read once per k16 instead of twice, and the ring writes A
// once for 256 columns (docs/design/06-fast-kernels.md, section 3.1).
constexpr int64_t kTileM = 128, kStepK = 64;
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kRowsPerMma = 64;
// The producer form's register split (setmaxnreg). The block of 384
// threads is compiled for at most 168 registers per thread (65536 / 384,
// rounded down to a multiple of 8), so it holds 168 * 384 = 64512, which
// the split must not exceed (setmaxnreg.inc would wait forever): the
// producer warpgroup gives back 128 per thread and the two consumer
// warpgroups take 64 more each, 128 * 40 + 256 * 232 = 64512. On a
// persistent grid the producer's tile loop needs more than 40 (ptxas
// spilled around its mbarrier waits at K200), and the forms that take that
// grid need no more than 224 in the consumers: 128 * 56 + 256 * 224.
struct RegisterSplit {
  int32_t producer, consumers;
};
constexpr RegisterSplit kRegisters{40, 232}, kPersistentRegisters{56, 224};
// At most this many stream-K groups (CUTLASS's default of max_sk_groups).
constexpr int64_t kMaxStreamKGroups = 8;
// The 128-byte swizzle spans 64 elements of 16 bits: B's 128-wide rows are
// loaded as two boxes of 64 columns.
constexpr int64_t kSwizzleElements = kTmaSwizzleElements;

/// One product of a block-level GEMM: C[m, n] = sum over k of A * B.
struct WarpgroupProduct {
  linalg::GenericOp dot;
  std::optional<AccumulationFold> fold;
  // B [K, N] in global memory, defined outside the grid.
  Value b;
  // The f32 workgroup tile that holds the product after the reduce.
  Value acc;
  linalg::FillOp accFill;
};

/// A block-level GEMM the schedule applies to: one product, or two that
/// share the A tile in one k loop (the gate and up projections of a SwiGLU
/// FFN), each with an accumulator of its own.
struct WarpgroupGemm {
  SmallVector<WarpgroupProduct, 2> products;
  linalg::GenericOp dot() const { return products.front().dot; }
  // The op the mainloop replaces: the block's k loop, or the dot itself
  // when the reduced axis is whole.
  Operation *reduce;
  // A [M, K] in global memory, defined outside the grid.
  Value a;
  // The tile's first row and column.
  OpFoldResult rowOffset, colOffset;
  Type elementType;
  // The tile's columns per product: 128 or 256 (one product).
  int64_t tileN = 128;
  int64_t accumulators() const { return products.size(); }
  // One warpgroup per 128 columns of B in a slot: a 128 x 128 tile of one
  // product is one warpgroup's, of two products (or 128 x 256 of one) two
  // warpgroups', 64 rows each.
  int64_t warpgroups() const { return tileN * accumulators() / 128; }
  // The op that computes A in the block, if A is not read from memory.
  std::optional<WarpgroupPrologue> prologue;
};

/// `value` as `base[offsets] [sizes]` if it is a unit-stride subview of a
/// rank-2 memref; else null.
memref::SubViewOp unitStrideSubview(Value value) {
  auto subview = value.getDefiningOp<memref::SubViewOp>();
  if (!subview || subview.getSourceType().getRank() != 2 ||
      subview.getType().getRank() != 2 ||
      !llvm::all_of(subview.getStaticStrides(),
                    [](int64_t s) { return s == 1; }))
    return nullptr;
  return subview;
}

/// True if `offset` is `iv * step` (or `step * iv`), or `iv` is null and
/// `offset` is zero.
bool isStepOffset(OpFoldResult offset, Value iv, int64_t step) {
  if (!iv)
    return isConstantIntValue(offset, 0);
  auto value = dyn_cast<Value>(offset);
  auto mul = value ? value.getDefiningOp<arith::MulIOp>() : nullptr;
  if (!mul)
    return false;
  auto isStep = [&](Value v) { return isConstantIntValue(v, step); };
  return (mul.getLhs() == iv && isStep(mul.getRhs())) ||
         (mul.getRhs() == iv && isStep(mul.getLhs()));
}

/// A rank-2 memref of static shape and identity layout whose rows are
/// 16-byte aligned (TMA's rule for global strides).
bool isTmaSource(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == 2 && type.hasStaticShape() &&
         type.getLayout().isIdentity() && !type.getMemorySpace() &&
         (type.getDimSize(1) * 2) % 16 == 0;
}

/// Whether a product's B [K, N] has rows that are not whole 128-byte
/// lines of memory (N x its element's bytes).
bool hasUnalignedBRows(const WarpgroupGemm &gemm) {
  return llvm::any_of(gemm.products, [](const WarpgroupProduct &product) {
    auto type = cast<MemRefType>(product.b.getType());
    return (type.getDimSize(type.getRank() - 1) *
            type.getElementTypeBitWidth() / 8) %
               128 !=
           0;
  });
}

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "not a warpgroup GEMM: " << reason << ": " << *op
                          << "\n");
  return failure();
}

/// Whether `dot` is a tile contraction A[m, k] * B[k, n] -> C[m, n] of f16
/// or bf16 operands of one type; returns that type.
FailureOr<Type> matchProductShape(linalg::GenericOp dot) {
  std::optional<TileContraction> c = matchTileContraction(dot);
  if (!c || !c->batch.empty())
    return fail(dot, "not an unbatched tile contraction");
  SmallVector<AffineMap> maps = dot.getIndexingMapsArray();
  MLIRContext *ctx = dot.getContext();
  AffineExpr m = getAffineDimExpr(c->m, ctx), n = getAffineDimExpr(c->n, ctx),
             k = getAffineDimExpr(c->k, ctx);
  if (maps[0].getResults() != ArrayRef<AffineExpr>{m, k} ||
      maps[1].getResults() != ArrayRef<AffineExpr>{k, n} ||
      maps[2].getResults() != ArrayRef<AffineExpr>{m, n})
    return fail(dot, "operands are not A[m, k], B[k, n], C[m, n]");
  Type elementType = getElementTypeOrSelf(dot.getDpsInputs()[0].getType());
  if (elementType != getElementTypeOrSelf(dot.getDpsInputs()[1].getType()) ||
      !(elementType.isF16() || elementType.isBF16()))
    return fail(dot, "operands are not both f16 or both bf16");
  return elementType;
}

/// The other dots of `loop` that read `dot`'s A tile: the products of a
/// GEMM that share their A operand.
SmallVector<linalg::GenericOp> sharingA(linalg::GenericOp dot,
                                        scf::ForOp loop) {
  SmallVector<linalg::GenericOp> siblings;
  for (auto other : loop.getBody()->getOps<linalg::GenericOp>())
    if (other != dot && other.getNumDpsInputs() == 2 &&
        other.getDpsInputs()[0] == dot.getDpsInputs()[0] &&
        matchTileContraction(other))
      siblings.push_back(other);
  return siblings;
}

/// The precondition: `dot` is the only work of its block's reduce, or the
/// first of two dots in its k loop that share their A tile (and nothing
/// else happens there).
FailureOr<WarpgroupGemm> matchWarpgroupGemm(linalg::GenericOp dot) {
  FailureOr<Type> elementType = matchProductShape(dot);
  if (failed(elementType))
    return failure();

  auto grid = dot->getParentOfType<scf::ForallOp>();
  WarpgroupGemm gemm;
  gemm.elementType = *elementType;
  // The k loop: the dot's parent when that is a loop directly in the grid.
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  bool inLoop = loop && loop->getParentOp() == grid;
  SmallVector<linalg::GenericOp> siblings;
  if (inLoop)
    siblings = sharingA(dot, loop);
  if (siblings.size() > 1)
    return fail(dot, "more than two dots share the A tile");
  if (!siblings.empty() && siblings.front()->isBeforeInBlock(dot))
    return fail(dot, "not the first of the dots that share the A tile");
  SmallVector<linalg::GenericOp, 2> dots = {dot};
  llvm::append_range(dots, siblings);
  for (linalg::GenericOp product : dots) {
    if (product != dot && matchProductShape(product) != *elementType)
      return fail(product, "the products' operands differ in type");
    gemm.products.push_back({product, findAccumulationFold(product), Value(),
                             Value(), nullptr});
  }
  SmallVector<Operation *> siblingOps(siblings.begin(), siblings.end());
  if (FailureOr<WarpgroupPrologue> matched = matchWarpgroupPrologue(
          dot, inLoop ? loop.getOperation() : dot.getOperation(), siblingOps);
      succeeded(matched))
    gemm.prologue = *matched;
  auto isPrologue = [&](Operation *op) {
    return gemm.prologue &&
           (op == gemm.prologue->op.getOperation() ||
            op == gemm.prologue->op.getDpsInits()[0].getDefiningOp());
  };
  if (inLoop) {
    gemm.reduce = loop;
    for (WarpgroupProduct &product : gemm.products) {
      if (!product.fold)
        return fail(product.dot, "a k loop whose dot does not accumulate a "
                                 "tile");
      product.acc = product.fold->acc;
    }
    // Nothing else may happen in the loop: the dots, their zero-filled
    // result tiles, the adds into the accumulators, views and index
    // arithmetic.
    auto isProductWork = [&](Operation *op) {
      return llvm::any_of(gemm.products, [&](WarpgroupProduct &p) {
        return op == p.dot.getOperation() || op == p.fold->fill ||
               op == p.fold->add ||
               op == p.dot.getDpsInits()[0].getDefiningOp();
      });
    };
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (isProductWork(&op) || isPrologue(&op) || isPure(&op))
        continue;
      return fail(&op, "the k loop does more than its dots");
    }
    if (!loop.getInitArgs().empty() ||
        !isConstantIntValue(loop.getLowerBound(), 0) ||
        !isConstantIntValue(loop.getStep(), 1))
      return fail(loop, "not a plain k loop");
  } else if (dot->getParentOp() == grid) {
    if (gemm.products.front().fold)
      return fail(dot, "a whole-k dot added into another tile");
    gemm.reduce = dot;
    gemm.products.front().acc = dot.getDpsInits()[0];
  } else {
    return fail(dot, "not directly in the block or in its k loop");
  }

  // Each accumulator: a workgroup tile of the block, zero-filled just
  // before the reduce.
  for (WarpgroupProduct &product : gemm.products) {
    auto accAlloc = product.acc.getDefiningOp<memref::AllocOp>();
    if (!accAlloc || accAlloc->getParentOp() != grid ||
        accAlloc.getType().getRank() != 2)
      return fail(product.dot, "the accumulator is not a tile of the block");
    for (Operation *user : product.acc.getUsers()) {
      Operation *ancestor = grid.getBody()->findAncestorOpInBlock(*user);
      if (gemm.reduce->isAncestor(user) || !ancestor)
        continue;
      if (ancestor->isBeforeInBlock(gemm.reduce)) {
        auto fill = dyn_cast<linalg::FillOp>(user);
        if (!fill || product.accFill ||
            !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
          return fail(user, "the accumulator is used before the reduce");
        product.accFill = fill;
      }
    }
    if (!product.accFill)
      return fail(product.dot, "the accumulator does not start at zero");
  }

  // The operands: tiles [m0 : m0 + 128, k : k + kStep] of A and [k : k +
  // kStep, n0 : n0 + N] of each B read straight from global memory, the
  // B tiles of two products at the same place.
  memref::SubViewOp aTile = gemm.prologue
                                ? gemm.prologue->raw
                                : unitStrideSubview(dot.getDpsInputs()[0]);
  if (!aTile)
    return fail(dot, "A is not a tile of a global array");
  gemm.a = aTile.getSource();
  if (!isTmaSource(gemm.a) ||
      grid->isAncestor(gemm.a.getParentBlock()->getParentOp()))
    return fail(dot, "A is not a whole global array with 16-byte aligned "
                     "rows");
  SmallVector<memref::SubViewOp, 2> bTiles;
  for (WarpgroupProduct &product : gemm.products) {
    memref::SubViewOp bTile =
        unitStrideSubview(product.dot.getDpsInputs()[1]);
    if (!bTile)
      return fail(product.dot, "B is not a tile of a global array");
    product.b = bTile.getSource();
    if (!isTmaSource(product.b) ||
        grid->isAncestor(product.b.getParentBlock()->getParentOp()) ||
        product.b.getType() != gemm.products.front().b.getType() ||
        (!bTiles.empty() &&
         (bTile.getMixedOffsets() != bTiles.front().getMixedOffsets() ||
          bTile.getMixedSizes() != bTiles.front().getMixedSizes())))
      return fail(product.dot, "B is not a whole global array with 16-byte "
                               "aligned rows, read where the other B is");
    bTiles.push_back(bTile);
  }
  memref::SubViewOp bTile = bTiles.front();
  int64_t kTotal = cast<MemRefType>(gemm.a.getType()).getDimSize(1);
  std::optional<int64_t> tileM = constantUpperBound(aTile.getResult(), 0);
  std::optional<int64_t> tileN = constantUpperBound(bTile.getResult(), 1);
  std::optional<int64_t> stepK = constantUpperBound(aTile.getResult(), 1);
  if (tileM != kTileM || (tileN != 128 && tileN != 256) || !stepK)
    return fail(dot, "the block is not a 128 x 128 or 128 x 256 tile");
  gemm.tileN = *tileN;
  // Two products: each warpgroup's two 64 x 128 accumulators take the 128
  // registers per thread of one 64 x 256 one, and the A operand comes
  // from the prologue in registers (the only form that issues the two
  // products' wgmmas in one group).
  if (gemm.accumulators() > 1 && (gemm.tileN != 128 || !gemm.prologue))
    return fail(dot, "two products of a tile other than 128 x 128, or of "
                     "an A tile not computed in the block");
  Value iv = loop && gemm.reduce == loop.getOperation() ? loop.getInductionVar()
                                                        : Value();
  SmallVector<OpFoldResult> aOffsets = aTile.getMixedOffsets();
  SmallVector<OpFoldResult> bOffsets = bTile.getMixedOffsets();
  if (!isStepOffset(aOffsets[1], iv, *stepK) ||
      !isStepOffset(bOffsets[0], iv, *stepK))
    return fail(dot, "the k offsets are not the loop's steps");
  std::optional<int64_t> steps = iv ? getConstantIntValue(loop.getUpperBound())
                                    : std::optional<int64_t>(1);
  if (!steps || *steps != llvm::divideCeilSigned(kTotal, *stepK))
    return fail(dot, "the reduce does not cover the whole k axis");
  gemm.rowOffset = aOffsets[0];
  gemm.colOffset = bOffsets[1];
  for (OpFoldResult offset : {gemm.rowOffset, gemm.colOffset})
    if (auto value = dyn_cast<Value>(offset);
        value && gemm.reduce->isAncestor(value.getParentBlock()->getParentOp()))
      return fail(dot, "the tile's offsets change inside the reduce");
  return gemm;
}

/// An epilogue the accumulator fragments can take in registers: `op`, an
/// elementwise op of the block from the accumulators (each, or a view of
/// its top-left corner in `corners`) to `tile`, a workgroup tile whose only
/// other use is `copy` into a view of a global array.
struct FragmentEpilogue {
  linalg::GenericOp op;
  SmallVector<memref::SubViewOp, 2> corners;
  memref::CopyOp copy;
  // The operands of `op` that read the accumulators, in the order of the
  // GEMM's products (SwiGLU's silu(gate) * up reads two).
  SmallVector<OpOperand *, 2> accInputs;
};

/// True if `op`'s body is pure scalar work that ignores the old value of
/// its output and its own indices.
bool isPureElementwiseBody(linalg::GenericOp op) {
  Block *body = op.getBody();
  if (!body->getArgument(body->getNumArguments() - 1).use_empty())
    return false;
  return llvm::all_of(body->without_terminator(), [](Operation &inner) {
    return isPure(&inner) && !isa<linalg::IndexOp>(inner) &&
           inner.getNumRegions() == 0;
  });
}

/// The precondition of the register epilogue of `gemm`.
FailureOr<FragmentEpilogue> matchFragmentEpilogue(const WarpgroupGemm &gemm) {
  auto grid = gemm.dot()->getParentOfType<scf::ForallOp>();
  Block *body = grid.getBody();
  FragmentEpilogue epilogue;
  // Each accumulator's one use after the reduce: the epilogue op (the same
  // for every accumulator) or a view of the corner that only it reads.
  SmallVector<Value, 2> accViews;
  Operation *opUser = nullptr;
  for (const WarpgroupProduct &product : gemm.products) {
    Operation *accUser = nullptr;
    for (Operation *user : product.acc.getUsers()) {
      if (gemm.reduce->isAncestor(user) || user == product.accFill)
        continue;
      if (accUser)
        return fail(user, "the accumulator has more than one reader");
      accUser = user;
    }
    if (!accUser || accUser->getBlock() != body)
      return fail(product.dot, "no epilogue op in the block");
    Value accView = product.acc;
    memref::SubViewOp corner = dyn_cast<memref::SubViewOp>(accUser);
    if (corner) {
      if (!llvm::all_of(corner.getMixedOffsets(), [](OpFoldResult o) {
            return isConstantIntValue(o, 0);
          }) ||
          !llvm::all_of(corner.getStaticStrides(),
                        [](int64_t s) { return s == 1; }) ||
          !corner->hasOneUse())
        return fail(corner, "not a view of the accumulator's corner");
      accView = corner.getResult();
      accUser = *corner->user_begin();
    }
    if (opUser && accUser != opUser)
      return fail(accUser, "the accumulators have different epilogues");
    opUser = accUser;
    epilogue.corners.push_back(corner);
    accViews.push_back(accView);
  }
  auto op = dyn_cast<linalg::GenericOp>(opUser);
  if (!op || op->getBlock() != body || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 2 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getIndexingMapsArray().back().isIdentity() ||
      !isPureElementwiseBody(op))
    return fail(opUser, "the epilogue is not one elementwise op");
  epilogue.accInputs.assign(accViews.size(), nullptr);
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return fail(op, "an epilogue input is not read elementwise");
    auto *it = llvm::find(accViews, input->get());
    if (it == accViews.end())
      continue;
    OpOperand *&accInput = epilogue.accInputs[it - accViews.begin()];
    if (accInput || !op.getMatchingIndexingMap(input).isIdentity())
      return fail(op, "an accumulator is not read once, elementwise");
    accInput = input;
  }
  if (llvm::is_contained(epilogue.accInputs, nullptr))
    return fail(op, "an accumulator is not an input of the epilogue");
  epilogue.op = op;

  // The output: a workgroup tile only copied to a global array whose rows
  // keep two adjacent 16- or 32-bit elements aligned together.
  Value tile = op.getDpsInits()[0];
  auto tileAlloc = tile.getDefiningOp<memref::AllocOp>();
  if (!tileAlloc || tileAlloc->getBlock() != body)
    return fail(op, "the epilogue does not write a tile of the block");
  for (Operation *user : tile.getUsers()) {
    if (user == op.getOperation())
      continue;
    auto copy = dyn_cast<memref::CopyOp>(user);
    if (!copy || epilogue.copy || copy.getSource() != tile ||
        copy->getBlock() != body || copy->isBeforeInBlock(op))
      return fail(user, "the epilogue's tile is used by more than a copy");
    epilogue.copy = copy;
  }
  if (!epilogue.copy)
    return fail(op, "the epilogue's tile is not copied out");
  memref::SubViewOp target = unitStrideSubview(epilogue.copy.getTarget());
  auto global =
      target ? dyn_cast<MemRefType>(target.getSourceType()) : MemRefType();
  unsigned bits = global ? global.getElementTypeBitWidth() : 0;
  if (!global || global.getMemorySpace() || !global.getLayout().isIdentity() ||
      !global.hasStaticShape() || global.getDimSize(1) % 2 != 0 ||
      (bits != 16 && bits != 32) ||
      grid->isAncestor(target.getSource().getParentBlock()->getParentOp()))
    return fail(epilogue.copy, "the epilogue's copy is not to a global "
                               "array of even rows");

  // Nothing between the reduce and the copy writes memory: every tile the
  // epilogue op reads was written before the barrier after the mainloop.
  for (Operation *inner = gemm.reduce->getNextNode();
       inner != epilogue.copy.getOperation(); inner = inner->getNextNode())
    if (inner != op.getOperation() && !isMemoryEffectFree(inner) &&
        !isa<memref::AllocOp>(inner))
      return fail(inner, "memory is written between the reduce and the "
                         "epilogue");
  return epilogue;
}

} // namespace

namespace {

/// The transformation: replaces the reduce of `gemm` with the TMA ring and
/// wgmma mainloop described at the top of this file.
class WarpgroupMatmulLowering {
public:
  WarpgroupMatmulLowering(RewriterBase &rewriter, WarpgroupGemm gemm,
                          int64_t stages, bool prologueAhead,
                          bool prologueRegisters,
                          bool oneWarpgroupRegisters, bool prologueRowScale,
                          bool prologueStatistics, int64_t splits,
                          bool producer, bool productsOneWgmma)
      : rewriter(rewriter), g(gemm), loc(gemm.dot().getLoc()),
        ctx(rewriter.getContext()), stages(stages), splits(splits),
        steps(llvm::divideCeilSigned(
                  cast<MemRefType>(gemm.a.getType()).getDimSize(1), kStepK) /
              splits),
        // The statistics leave their row factor to the accumulator: in
        // registers where A is, else from the rewritten slots (the row
        // factor then taken out of the rewrite too). A split grid combines
        // each split's sums with its partials.
        statistics(prologueStatistics && prologueRowScale && gemm.prologue
                       ? matchStatistics(gemm)
                       : std::nullopt),
        // Register A with two warpgroups; with one, a warpgroup of 128 rows
        // needs two sets of 32 A registers beside its 128 accumulators,
        // which ptxas fits in 243-255 registers and spills at partial k
        // steps (LayerNorm M1500 K2056 N2000: 4 bytes) and partial tiles
        // (RMSNorm M200 N264: 296 bytes): only `oneWarpgroupRegisters`
        // blocks of whole tiles that take the statistics in the mainloop
        // (RMSNorm's, whose A element is x * gamma: the form measured,
        // docs/performance.md session 15), else the slot rewritten in place.
        registerA(prologueRegisters && gemm.prologue &&
                  (gemm.warpgroups() > 1 ||
                   (oneWarpgroupRegisters && statistics && wholeTiles(gemm)))),
        prologueAhead(prologueAhead && gemm.prologue && !registerA),
        prologueRowScale((prologueRowScale && registerA) ||
                         statistics.has_value()),
        producer(producer),
        // The second product's B boxes follow the first's in the slot at
        // the boxes' stride, the descriptor's leading byte offset: one
        // m64n256 reads both, and its accumulator registers are the first
        // product's 64 and then the second's (registers 4 j .. 4 j + 3
        // hold columns 8 j .. 8 j + 7).
        productsOneWgmma(productsOneWgmma && registerA &&
                         gemm.accumulators() == 2 && gemm.tileN == 128),
        workgroup(
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)) {}

  /// Replaces the reduce; with `epilogue`, applies it to the fragments.
  void run(std::optional<FragmentEpilogue> epilogue);
  /// The statistics loop of `gemm`'s block that its mainloop can take
  /// over (PrologueStatistics.h), if any.
  static std::optional<PrologueStatistics>
  matchStatistics(const WarpgroupGemm &gemm) {
    FailureOr<PrologueStatistics> matched =
        matchPrologueStatistics(*gemm.prologue, gemm.reduce);
    if (failed(matched))
      return std::nullopt;
    return *matched;
  }
  /// Whether the tiles of `gemm` are all whole: M and N multiples of the
  /// tile, K of the step.
  static bool wholeTiles(const WarpgroupGemm &gemm) {
    auto a = cast<MemRefType>(gemm.a.getType());
    auto b = cast<MemRefType>(gemm.products.front().b.getType());
    return a.getDimSize(0) % kTileM == 0 && a.getDimSize(1) % kStepK == 0 &&
           b.getDimSize(1) % gemm.tileN == 0;
  }
  /// Renumbers the tiles of the grid in groups of `groupRows` rows.
  void groupTiles(scf::ForallOp grid, int64_t groupRows);
  /// The producer form on a persistent grid: `grid` (rows x columns tiles)
  /// becomes min(`blocks`, tiles) blocks, each running the old body in a
  /// loop over the tiles block, block + blocks, ... (their row and column
  /// in the grouped order of `groupRows`), or with `streamK`, where
  /// streamKPays, the last waves as ranges of k steps. Returns the new
  /// grid; run() then keeps the ring and its barriers across the tiles.
  /// With `clusterPairs` (no stream-K, an even number of rows of tiles),
  /// the grid is of clusters of two blocks, and the loop runs over pairs
  /// of tiles, two rows by one column, in the grouped order of
  /// `groupRows` / 2 pair rows: the cluster's block of rank r (its block
  /// id modulo 2) takes the pair's row r, and both load the same B.
  scf::ForallOp persist(scf::ForallOp grid, int64_t blocks, int64_t groupRows,
                        bool streamK, int64_t streamKMinWaves,
                        bool clusterPairs = false);

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  MemRefType sharedTile(ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                           workgroup);
  }
  int64_t elementBytes() { return g.elementType.getIntOrFloatBitWidth() / 8; }
  int64_t aBytes() { return kTileM * kStepK * elementBytes(); }
  int64_t bBoxBytes() { return kStepK * kSwizzleElements * elementBytes(); }
  // B's boxes of each product, side by side in a slot.
  int64_t bBoxesPerProduct() { return g.tileN / kSwizzleElements; }
  int64_t bBoxes() { return bBoxesPerProduct() * g.accumulators(); }
  int64_t slotBytes() { return aBytes() + bBoxes() * bBoxBytes(); }
  // The rows of the tile each warpgroup computes.
  int64_t warpgroupRows() { return kTileM / g.warpgroups(); }

  /// On the host: a TMA descriptor of `source` with boxes of `box`.
  Value createDescriptor(Value source, ArrayRef<int64_t> box);
  /// The ring position of k step `step` of this tile: the step itself, or
  /// on a persistent grid, counted on from the block's previous tiles.
  Value use(Value step) {
    return ringBase ? arith::AddIOp::create(rewriter, loc, ringBase, step)
                          .getResult()
                    : step;
  }
  /// The uses of the ring before the tile of `tile` (an iteration of a
  /// persistent grid's tile loop): steps times the tiles the block ran.
  Value ringBaseOf(scf::ForOp tile);
  /// The tile at the linear position `linear` of a rows x columns grid in
  /// the grouped order of `groupRows` rows.
  std::pair<Value, Value> groupedTile(Value linear, int64_t rows,
                                      int64_t columns, int64_t groupRows);
  /// A view of `shape` elements at byte `offset` of the ring.
  Value ringView(Value offset, ArrayRef<int64_t> shape);
  /// Thread 0 (where `predicate` holds) starts the copies of k step `step`
  /// into its slot.
  void issueCopies(Value step, Value predicate);
  /// After the wgmma of k step `step` left only itself in flight: the first
  /// thread of each warpgroup releases the slot of step - 1.
  void releaseSlots(Value released, Value step, Value thread);
  /// In a cluster: arrives on barrier `slot` of `group` in the partner
  /// block's shared memory.
  void arriveOnPartner(Value group, Value slot);
  /// Thread 0 (`leader`) waits until both warpgroups released the slot of
  /// step - 1, which it refills next.
  void awaitRelease(Value released, Value step, Value leader);
  /// Waits on the barrier of k step `step`'s slot in `group` for the
  /// phase of the step's round: the copies' (the slot has landed) or the
  /// releases' (both warpgroups are done with it).
  void waitForStep(Value group, Value step);
  /// The A part of k step `step`'s slot that the warpgroup whose first row
  /// is at byte `aOffset` of it multiplies.
  Value aPart(Value step, Value aOffset);
  /// The producer form's branches: the producer warpgroup (threads from
  /// 128 * warpgroups() on) lowers its registers and one of its threads
  /// fills every slot of the ring in turn, each once both consumer
  /// warpgroups released its previous use (`released`); the else branch,
  /// where the insertion point is left, is the consumers' (their registers
  /// raised). Returns the branch.
  scf::IfOp emitProducer(Value thread, Value released);
  /// A barrier of the consumer warpgroups' threads only (named barrier 1):
  /// the producer warpgroup may have left the kernel.
  void syncConsumers();
  /// A barrier of the warpgroup of `thread`: its warps' stores to shared
  /// memory are done before any of them goes on (named barrier 1 + w of
  /// 128 threads; the block's barrier with one warpgroup).
  void syncWarpgroup(Value thread);
  /// The accumulator registers of this thread and where they sit: row
  /// firstRow + 64 m + 8 i, columns firstColumn + 8 j and + 1 hold registers
  /// 4 j + 2 i and + 1 of struct m.
  struct Fragments {
    Value registers, firstRow, firstColumn, laneInQuad;
  };
  Fragments fragments(Value acc);
  /// The registers of accumulator `acc` as its NVVM lowering holds them:
  /// one struct of tileN / 2 f32 per m64 of the warpgroup
  /// (convert-nvgpu-to-nvvm gives the accumulator this type; the casts fold
  /// away there).
  Value accumulatorRegisters(Value acc);
  // The m64 wgmmas of one warpgroup per k16.
  int64_t mmas() { return warpgroupRows() / kRowsPerMma; }
  /// Stores the fragments of `acc` into the f32 workgroup tile `tile`
  /// (nvgpu.warpgroup.mma.store takes only the warpgroup's own rows as its
  /// destination, and the position of each row from the thread id).
  void storeToTile(Value acc, Value tile);
  /// Applies `epilogue` to the fragments of `accs` (one accumulator per
  /// product, read at the same positions), stored to global memory.
  void storeFragments(ValueRange accs, FragmentEpilogue epilogue);
  /// The mainloop with the prologue's A in registers: returns the
  /// accumulators after the last step. `refill(step)` releases and refills
  /// the slot of step - 1 as in the plain GEMM.
  SmallVector<Value> emitRegisterALoop(ValueRange inits, Value aOffset,
                                       function_ref<void(Value)> refill);
  /// wgmma.fence, the register-A wgmmas of k step `step` (per product, m64
  /// of the warpgroup and k16 of the step; `registers` as emitFragments
  /// orders them) on the product's B part of the step's slot, one commit
  /// for all of them, and the wait that leaves this group in flight.
  SmallVector<Value> emitRegisterAStep(ValueRange accs, ValueRange registers,
                                       Value step);
  /// The B part of k step `step`'s slot that product `product` multiplies.
  Value bPart(Value step, int64_t product = 0);
  /// `acc` with each row multiplied by the prologue's factor of the row
  /// (WarpgroupPrologueLowering::rowScales).
  Value scaleRows(Value acc, ArrayRef<Value> scales);
  /// The k step `step` of the split's mainloop, or of a stream-K work
  /// item's, is of the whole K (the producer's copies take `firstStep`,
  /// the consumers' column inputs the item's first step).
  Value kStep(Value step) {
    Value first = firstStep ? firstStep : itemBegin;
    return first ? arith::AddIOp::create(rewriter, loc, first, step).getResult()
                 : step;
  }
  /// Gives the grid its split dimension and the split its k steps; the
  /// partials buffer and the tiles' counters are allocated before the grid.
  scf::ForallOp splitGrid(scf::ForallOp grid);
  /// After the mainloop of a split grid: stores this block's accumulator
  /// registers `accs` into its partials, counts it in on the tile's
  /// counter, and leaves the insertion point in the branch of the block
  /// that counted last, where the returned accumulators are the sums of
  /// the splits' partials in split order.
  SmallVector<Value> combineSplits(ValueRange accs);
  /// After the mainloop with the statistics: the sums of the rows of the
  /// thread's accumulator registers (`statisticTotals`) from the thread's
  /// `sums`, and unsplit, the row factors from them.
  void finishStatistics(ValueRange sums);
  /// Stream-K, after the mainloop of a work item: a tile of two items
  /// (the one from its first k step, the one to its last) stores this
  /// block's accumulator registers `accs` into its partials and counts in
  /// on the tile's counter; leaves the insertion point in a branch of the
  /// blocks that finish a tile (its only item, or the second to count in)
  /// and returns the tile's accumulators there (the two partials' sum).
  SmallVector<Value> combineStreamK(ValueRange accs);
  /// The k steps of the current work item (or of every tile).
  Value stepCount() { return itemSteps ? itemSteps : index(steps); }
  /// The accumulator registers of `structs` (one per product) in the
  /// order of the partials, after `prefix`.
  SmallVector<Value> partialValues(ArrayRef<Value> structs,
                                   SmallVector<Value> prefix);
  /// Stores `values` (the thread's registers of a partial, a multiple of
  /// 4) at `first` of the partials: group r / 4 at first + 4 r / 4
  /// threads, so that consecutive threads store consecutive 16 bytes.
  void storePartial(ArrayRef<Value> values, Value first, int64_t threads);
  /// The thread's group `group` of 4 registers of the partial at `first`
  /// (as storePartial stored them).
  Value loadPartial(Value first, int64_t group, int64_t threads);
  /// `structs` (one per product) with their registers replaced by
  /// `values` from `first` on, as accumulators of the types of `accs`.
  SmallVector<Value> accumulatorsFrom(ValueRange accs,
                                      ArrayRef<Value> structs,
                                      ArrayRef<Value> values, int64_t first);
  /// The f32 values per thread that a split stores besides its
  /// accumulator registers: the statistics' sums of its rows, padded to a
  /// group of 4.
  int64_t statisticPartials() {
    return statistics ? llvm::alignTo(2 * mmas(), 4) : 0;
  }
  /// Erases the statistics loop that the mainloop took over, and its tile
  /// (once the prologue that read it is gone).
  void eraseStatistics() {
    if (!statistics)
      return;
    rewriter.eraseOp(statistics->accumulation.loop);
    rewriter.eraseOp(statistics->accumulation.fill);
    rewriter.eraseOp(statistics->tile);
  }

  RewriterBase &rewriter;
  WarpgroupGemm g;
  Location loc;
  MLIRContext *ctx;
  int64_t stages;
  // Blocks that share the k steps of one tile (the grid's split dimension),
  // and the k steps of each.
  int64_t splits, steps;
  // The split's first k step (null without splits): the mainloop counts
  // its steps from 0 (slots and phases), the copies and the prologue's
  // column inputs are at firstStep + step.
  Value firstStep;
  scf::ForallOp splitForall;
  // The statistics loop before the mainloop that the mainloop takes over
  // (the sum of squares of the rows of A).
  std::optional<PrologueStatistics> statistics;
  // The prologue computes wgmma's A fragments in registers (register-A
  // wgmma) instead of rewriting the slot.
  bool registerA;
  // The prologue rewrites step i + 1's A part while step i's wgmma runs.
  bool prologueAhead;
  // The register prologue leaves its row factor to the accumulator rows.
  bool prologueRowScale;
  // A producer warpgroup (the block's third, threads 256 to 383) issues
  // the copies; the consumers only wait, multiply and release.
  bool producer;
  // Both products of a register-A block as one m64n256 wgmma per m64 and
  // k16.
  bool productsOneWgmma;
  // On a persistent grid: the loop over the block's tiles (the old grid's
  // body), and, while a role's code for one tile is emitted, its ring
  // position before the tile and the tile's first row and column.
  scf::ForOp tileLoop;
  // Clusters of two blocks (persist's `clusterPairs`): each block's rank
  // in its cluster; the B part of every slot is loaded half by each block
  // and multicast to both, and each slot's empty barriers count both
  // blocks' consumer warpgroups.
  bool cluster = false;
  Value clusterRank;
  Value ringBase;
  Value copyRow, copyColumn;
  // Stream-K (persist's `streamK`): the tile loop runs work items, each
  // `itemSteps` k steps of a tile from its step `itemBegin`, after
  // `itemBase` uses of the ring; `itemShared` numbers the tile among the
  // stream-K tiles (their partials and counters). Null otherwise.
  Value itemBegin, itemSteps, itemBase, itemShared;
  int64_t sharedTiles = 0;
  // After the mainloop: the sums of squares of the rows of the thread's
  // accumulator registers over the block's k steps (its split's, on a
  // split grid, until the combine).
  SmallVector<Value> statisticTotals;
  // The slot rewrite's sums of the thread's chunk rows after the mainloop.
  SmallVector<Value> statisticSums;
  gpu::AddressSpaceAttr workgroup;
  Value descA, ring, barriers;
  // With splits: the f32 partials of every split and tile, in the
  // accumulator registers' order (per group of 4 registers, the block's
  // threads side by side: 16-byte stores, coalesced), and the tiles' i32
  // counters (an artifact workspace).
  Value partials, counters;
  // One descriptor per product's B.
  SmallVector<Value, 2> descB;
  std::optional<WarpgroupPrologueLowering> prologue;
};

Value WarpgroupMatmulLowering::createDescriptor(Value source,
                                                ArrayRef<int64_t> box) {
  return createTmaDescriptor(rewriter, loc, source, box);
}

Value WarpgroupMatmulLowering::ringView(Value offset, ArrayRef<int64_t> shape) {
  return memref::ViewOp::create(rewriter, loc, sharedTile(shape, g.elementType),
                                ring, offset, ValueRange{});
}

void WarpgroupMatmulLowering::issueCopies(Value step, Value predicate) {
  Value slot = arith::RemUIOp::create(rewriter, loc, use(step), index(stages));
  Value base = arith::MulIOp::create(rewriter, loc, slot, index(slotBytes()));
  auto at = [&](int64_t bytes) {
    return arith::AddIOp::create(rewriter, loc, base, index(bytes));
  };
  Value aTile = ringView(base, {kTileM, kStepK});
  nvgpu::MBarrierArriveExpectTxOp::create(rewriter, loc, barriers,
                                          index(slotBytes()), slot, predicate);
  Value k = arith::MulIOp::create(rewriter, loc, kStep(step), index(kStepK));
  Value row = copyRow ? copyRow
                      : getValueOrCreateConstantIndexOp(rewriter, loc,
                                                        g.rowOffset);
  Value col = copyColumn ? copyColumn
                         : getValueOrCreateConstantIndexOp(rewriter, loc,
                                                           g.colOffset);
  // Coordinates are innermost first.
  nvgpu::TmaAsyncLoadOp::create(rewriter, loc, aTile, barriers, descA,
                                ValueRange{k, row}, slot, Value(), predicate);
  if (cluster) {
    // Both blocks of the cluster run the same column: the block of rank r
    // loads the boxes r h .. r h + h - 1 of each product's h = boxes / 2
    // and multicasts them into both blocks' slot (the same offsets in
    // each), whose full barrier (at the same offset too) expects the whole
    // slot: its own copies' bytes and the partner's.
    int64_t half = bBoxesPerProduct() / 2;
    Value mask = arith::ConstantIntOp::create(rewriter, loc,
                                              rewriter.getI16Type(), 0b11);
    Value firstBox =
        arith::MulIOp::create(rewriter, loc, clusterRank, index(half));
    for (int64_t product = 0; product < g.accumulators(); ++product)
      for (int64_t j = 0; j < half; ++j) {
        Value inProduct =
            arith::AddIOp::create(rewriter, loc, firstBox, index(j));
        Value box = arith::AddIOp::create(rewriter, loc, inProduct,
                                          index(product * bBoxesPerProduct()));
        Value offset = arith::AddIOp::create(
            rewriter, loc, base,
            arith::AddIOp::create(
                rewriter, loc, index(aBytes()),
                arith::MulIOp::create(rewriter, loc, box, index(bBoxBytes()))));
        Value bBox = ringView(offset, {kStepK, kSwizzleElements});
        Value boxCol = arith::AddIOp::create(
            rewriter, loc, col,
            arith::MulIOp::create(rewriter, loc, inProduct,
                                  index(kSwizzleElements)));
        nvgpu::TmaAsyncLoadOp::create(rewriter, loc, bBox, barriers,
                                      descB[product], ValueRange{boxCol, k},
                                      slot, mask, predicate);
      }
    return;
  }
  // B's rows as boxes of 64 columns, side by side in the slot, product
  // after product.
  for (int64_t box = 0; box < bBoxes(); ++box) {
    Value bBox = ringView(at(aBytes() + box * bBoxBytes()),
                          {kStepK, kSwizzleElements});
    int64_t inProduct = box % bBoxesPerProduct();
    Value boxCol = inProduct ? arith::AddIOp::create(
                                   rewriter, loc, col,
                                   index(inProduct * kSwizzleElements))
                                   .getResult()
                             : col;
    nvgpu::TmaAsyncLoadOp::create(rewriter, loc, bBox, barriers,
                                  descB[box / bBoxesPerProduct()],
                                  ValueRange{boxCol, k}, slot, Value(),
                                  predicate);
  }
}

void WarpgroupMatmulLowering::releaseSlots(Value released, Value step,
                                           Value thread) {
  OpBuilder::InsertionGuard guard(rewriter);
  Value inWarpgroup = arith::RemUIOp::create(rewriter, loc, thread,
                                             index(kWarpgroupThreads));
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      inWarpgroup, index(0));
  Value notFirstStep = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ugt, step, index(0));
  Value arrives = arith::AndIOp::create(rewriter, loc, first, notFirstStep);
  auto release = scf::IfOp::create(rewriter, loc, arrives);
  rewriter.setInsertionPointToStart(&release.getThenRegion().front());
  Value previous = arith::SubIOp::create(rewriter, loc, use(step), index(1));
  Value slot = arith::RemUIOp::create(rewriter, loc, previous, index(stages));
  nvgpu::MBarrierArriveOp::create(rewriter, loc,
                                  nvgpu::MBarrierTokenType::get(ctx),
                                  released, slot);
  if (cluster)
    arriveOnPartner(released, slot);
}

void WarpgroupMatmulLowering::arriveOnPartner(Value group, Value slot) {
  // The partner's producer multicasts into this block's slot too: it may
  // refill the slot only once this block's consumers are done with it as
  // well. The barrier at the same offset of the partner's shared memory
  // (mapa), arrived on with the default semantics (release at CTA scope,
  // CUTLASS's ClusterBarrier::arrive): the wgmmas that read the slot are
  // complete (wgmma.wait_group) before the arrive. `.release.cluster`
  // would order every earlier access of the thread at cluster scope: ptxas
  // emits MEMBAR.ALL.GPU before each such arrive, once per k step in each
  // consumer warpgroup (measured 1.2-1.45x slower on the H200, session 19).
  Type i32 = rewriter.getI32Type();
  Value address = nvgpu::MBarrierGetOp::create(rewriter, loc, i32, group, slot);
  Value partner = arith::IndexCastUIOp::create(
      rewriter, loc, i32,
      arith::XOrIOp::create(rewriter, loc, clusterRank, index(1)));
  LLVM::InlineAsmOp::create(
      rewriter, loc, TypeRange{}, ValueRange{address, partner},
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, $0, $1;\n"
      " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}",
      "r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

void WarpgroupMatmulLowering::awaitRelease(Value released, Value step,
                                           Value leader) {
  OpBuilder::InsertionGuard guard(rewriter);
  // Step 0 refills a slot no step has used yet.
  Value notFirstStep = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ugt, step, index(0));
  Value waits = arith::AndIOp::create(rewriter, loc, leader, notFirstStep);
  auto wait = scf::IfOp::create(rewriter, loc, waits);
  rewriter.setInsertionPointToStart(&wait.getThenRegion().front());
  Value previous = arith::SubIOp::create(rewriter, loc, step, index(1));
  waitForStep(released, previous);
}

void WarpgroupMatmulLowering::waitForStep(Value group, Value step) {
  waitForRound(rewriter, loc, group, use(step), stages);
}

Value WarpgroupMatmulLowering::aPart(Value step, Value aOffset) {
  Value slot = arith::RemUIOp::create(rewriter, loc, use(step), index(stages));
  Value base = arith::MulIOp::create(rewriter, loc, slot, index(slotBytes()));
  return ringView(arith::AddIOp::create(rewriter, loc, base, aOffset),
                  {warpgroupRows(), kStepK});
}

Value WarpgroupMatmulLowering::bPart(Value step, int64_t product) {
  Value slot = arith::RemUIOp::create(rewriter, loc, use(step), index(stages));
  Value base = arith::MulIOp::create(rewriter, loc, slot, index(slotBytes()));
  int64_t offset = aBytes() + product * bBoxesPerProduct() * bBoxBytes();
  return ringView(arith::AddIOp::create(rewriter, loc, base, index(offset)),
                  {kStepK, g.tileN});
}

void WarpgroupMatmulLowering::syncWarpgroup(Value thread) {
  if (g.warpgroups() == 1) {
    gpu::BarrierOp::create(rewriter, loc);
    return;
  }
  Value warpgroup = arith::DivUIOp::create(rewriter, loc, thread,
                                           index(kWarpgroupThreads));
  Value id = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getI32Type(),
      arith::AddIOp::create(rewriter, loc, warpgroup, index(1)));
  Value count = arith::ConstantOp::create(
      rewriter, loc, rewriter.getI32IntegerAttr(kWarpgroupThreads));
  NVVM::BarrierOp::create(rewriter, loc, TypeRange{}, id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

scf::IfOp WarpgroupMatmulLowering::emitProducer(Value thread,
                                                Value released) {
  int64_t consumerThreads = g.warpgroups() * kWarpgroupThreads;
  Value isProducer = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::uge, thread, index(consumerThreads));
  auto branch = scf::IfOp::create(rewriter, loc, isProducer,
                                  /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
  // setmaxnreg is warpgroup-wide (.sync.aligned): every thread of the
  // producer warpgroup runs it, then only the elected one goes on.
  RegisterSplit split = tileLoop ? kPersistentRegisters : kRegisters;
  NVVM::SetMaxRegisterOp::create(rewriter, loc, split.producer,
                                 NVVM::SetMaxRegisterAction::decrease);
  Value elected = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, thread, index(consumerThreads));
  auto copier = scf::IfOp::create(rewriter, loc, elected);
  rewriter.setInsertionPointToStart(&copier.getThenRegion().front());
  // The k steps of each tile, or of the work item on a stream-K grid.
  Value count;
  if (tileLoop) {
    // The producer's own loop over the block's tiles, each tile's first
    // row and column recomputed from its linear index as the consumers'
    // loop computes them.
    auto tiles = scf::ForOp::create(rewriter, loc, tileLoop.getLowerBound(),
                                    tileLoop.getUpperBound(),
                                    tileLoop.getStep());
    rewriter.setInsertionPointToStart(tiles.getBody());
    IRMapping mapping;
    mapping.map(tileLoop.getInductionVar(), tiles.getInductionVar());
    std::function<Value(Value)> cloned = [&](Value value) -> Value {
      if (Value mapped = mapping.lookupOrNull(value))
        return mapped;
      Operation *def = value.getDefiningOp();
      if (!def || !tileLoop->isProperAncestor(def))
        return value;
      for (Value operand : def->getOperands())
        cloned(operand);
      return rewriter.clone(*def, mapping)
          ->getResult(cast<OpResult>(value).getResultNumber());
    };
    copyRow = cloned(
        getValueOrCreateConstantIndexOp(rewriter, loc, g.rowOffset));
    copyColumn = cloned(
        getValueOrCreateConstantIndexOp(rewriter, loc, g.colOffset));
    ringBase = itemBase ? cloned(itemBase) : ringBaseOf(tiles);
    if (itemBegin) {
      firstStep = cloned(itemBegin);
      count = cloned(itemSteps);
    }
  }
  auto loop = scf::ForOp::create(rewriter, loc, index(0),
                                 count ? count : index(steps), index(1));
  rewriter.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  // A use of a slot refills the one `stages` uses before: its releases
  // (one per consumer warpgroup, after the wgmma that read it completed)
  // end that use's round of the slot's second barrier.
  Value reused = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                       use(step), index(stages));
  auto wait = scf::IfOp::create(rewriter, loc, reused);
  rewriter.setInsertionPointToStart(&wait.getThenRegion().front());
  waitForRound(rewriter, loc, released,
               arith::SubIOp::create(rewriter, loc, use(step), index(stages)),
               stages);
  rewriter.setInsertionPointAfter(wait);
  issueCopies(step, Value());
  ringBase = copyRow = copyColumn = firstStep = Value();

  Block &consumers = branch.getElseRegion().front();
  rewriter.setInsertionPointToStart(&consumers);
  NVVM::SetMaxRegisterOp::create(rewriter, loc, split.consumers,
                                 NVVM::SetMaxRegisterAction::increase);
  if (tileLoop) {
    // The consumers run the old grid's body, tile by tile.
    rewriter.moveOpBefore(tileLoop, consumers.getTerminator());
    rewriter.setInsertionPoint(g.reduce);
    ringBase = itemBase ? itemBase : ringBaseOf(tileLoop);
  }
  return branch;
}

Value WarpgroupMatmulLowering::ringBaseOf(scf::ForOp tile) {
  Value iteration = arith::DivUIOp::create(
      rewriter, loc,
      arith::SubIOp::create(rewriter, loc, tile.getInductionVar(),
                            tile.getLowerBound()),
      tile.getStep());
  return arith::MulIOp::create(rewriter, loc, iteration, index(steps));
}

std::pair<Value, Value>
WarpgroupMatmulLowering::groupedTile(Value linear, int64_t rows,
                                     int64_t columns, int64_t groupRows) {
  if (groupRows <= 0)
    return {arith::DivUIOp::create(rewriter, loc, linear, index(columns)),
            arith::RemUIOp::create(rewriter, loc, linear, index(columns))};
  int64_t perGroup = groupRows * columns;
  Value group = arith::DivUIOp::create(rewriter, loc, linear, index(perGroup));
  Value inGroup =
      arith::RemUIOp::create(rewriter, loc, linear, index(perGroup));
  Value firstRow =
      arith::MulIOp::create(rewriter, loc, group, index(groupRows));
  Value size = arith::MinUIOp::create(
      rewriter, loc,
      arith::SubIOp::create(rewriter, loc, index(rows), firstRow),
      index(groupRows));
  Value newRow = arith::AddIOp::create(
      rewriter, loc, firstRow,
      arith::RemUIOp::create(rewriter, loc, inGroup, size));
  Value newColumn = arith::DivUIOp::create(rewriter, loc, inGroup, size);
  return {newRow, newColumn};
}

/// Whether stream-K shares out the last waves of `tiles` tiles over
/// `blocks` persistent blocks: only where the tiles are no whole number of
/// waves and there are at least `minWaves` waves of them. Stream-K's
/// shared tiles (the last whole wave and the partial one) pay a partial
/// sum's round trip and the grouped order's weaker L2 reuse; over many
/// waves that is a small share of the work, over few it outweighs the
/// idle blocks of the partial wave it saves (session 16 on the H200:
/// 15.5 waves at 8192^3 and 7.8 at M8192 N4096 2-5% faster, 3.9 at
/// 4096^3 2% slower; docs/performance.md).
static bool streamKPays(int64_t tiles, int64_t blocks, int64_t minWaves) {
  return tiles > blocks && tiles % blocks != 0 && tiles >= minWaves * blocks;
}

scf::ForallOp WarpgroupMatmulLowering::persist(scf::ForallOp grid,
                                               int64_t blocks,
                                               int64_t groupRows, bool streamK,
                                               int64_t streamKMinWaves,
                                               bool clusterPairs) {
  ArrayRef<int64_t> extents = grid.getStaticUpperBound();
  int64_t rows = extents[0], columns = extents[1];
  int64_t tiles = rows * columns;
  assert((!clusterPairs ||
          (rows % 2 == 0 && blocks >= 2 &&
           !(streamK && streamKPays(tiles, blocks, streamKMinWaves)))) &&
         "cluster pairs of row tiles, without stream-K");
  // In clusters of two, the blocks run pairs of tiles: an even number of
  // blocks, at most one per pair.
  blocks = clusterPairs ? 2 * std::min(blocks / 2, tiles / 2)
                        : std::min(blocks, tiles);
  // The caller chose clusters where stream-K does not pay on its blocks;
  // the even count of them must not bring it back.
  if (clusterPairs)
    streamK = false;
  // Stream-K where the tiles are no whole number of waves: the last whole
  // wave and the partial one (blocks + tiles % blocks tiles) as
  // equal ranges of their k steps, one per block. Each range is at least
  // a tile's steps long, so a tile holds at most one range boundary: it
  // is one block's, or two blocks' (one item from its first step, one to
  // its last). The blocks and the shared tiles form `groups` groups
  // (CUTLASS's sm90 stream-K groups): group r's blocks share out the
  // tiles r, r + groups, ..., so that block j of every group runs the
  // same k steps of `groups` neighbouring tiles at the same time, which
  // read the same B columns (or A rows), as a wave of whole tiles would,
  // instead of each block its own k offset (session 16 measured the
  // ungrouped order 6-13% slower at 4096^3 and M8192 N4096: L2 misses).
  streamK = streamK && streamKPays(tiles, blocks, streamKMinWaves);
  int64_t wholeWaves = tiles / blocks - (streamK ? 1 : 0);
  int64_t groups = 1;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(grid);
  if (streamK) {
    sharedTiles = tiles - wholeWaves * blocks;
    // The most groups, up to kMaxStreamKGroups, that divide both the
    // blocks and the shared tiles (each group the same work).
    for (int64_t candidate = kMaxStreamKGroups; candidate > 1; --candidate)
      if (blocks % candidate == 0 && sharedTiles % candidate == 0) {
        groups = candidate;
        break;
      }
    int64_t threads = g.warpgroups() * kWarpgroupThreads;
    int64_t registers = g.accumulators() * mmas() * g.tileN / 2;
    partials = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({2 * sharedTiles * registers * threads},
                        rewriter.getF32Type()));
    auto countersAlloc = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({sharedTiles}, rewriter.getI32Type()));
    countersAlloc->setAttr(kWorkspaceAttrName, UnitAttr::get(ctx));
    counters = countersAlloc;
  }
  auto persistent = scf::ForallOp::create(
      rewriter, grid.getLoc(),
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(blocks)}, ValueRange{},
      rewriter.getArrayAttr({gpu::GPUBlockMappingAttr::get(
          ctx, gpu::MappingId::DimX)}));
  for (NamedAttribute attr : grid->getDiscardableAttrs())
    persistent->setAttr(attr.getName(), attr.getValue());
  rewriter.setInsertionPointToStart(persistent.getBody());
  Value block = persistent.getInductionVars().front();
  Value tile;
  if (clusterPairs) {
    // The cluster's pairs c, c + clusters, ... (two blocks per cluster,
    // consecutive block ids: CUDA forms clusters along x); each pair's
    // row r is the block of rank r's.
    cluster = true;
    int64_t clusters = blocks / 2;
    clusterRank = arith::RemUIOp::create(rewriter, loc, block, index(2));
    Value first = arith::DivUIOp::create(rewriter, loc, block, index(2));
    tileLoop = scf::ForOp::create(rewriter, loc, first,
                                  index(rows / 2 * columns), index(clusters));
    rewriter.setInsertionPointToStart(tileLoop.getBody());
    auto [pairRow, column] =
        groupedTile(tileLoop.getInductionVar(), rows / 2, columns,
                    groupRows > 0 ? std::max<int64_t>(groupRows / 2, 1) : 0);
    Value row = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, pairRow, index(2)),
        clusterRank);
    Block *body = grid.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, tileLoop.getBody()->getTerminator(),
                               ValueRange{row, column});
    rewriter.eraseOp(grid);
    persistent->setAttr(kClusterBlocksAttrName, rewriter.getI64IntegerAttr(2));
    return persistent;
  }
  if (!streamK) {
    tileLoop = scf::ForOp::create(rewriter, loc, block, index(tiles),
                                  index(blocks));
    rewriter.setInsertionPointToStart(tileLoop.getBody());
    tile = tileLoop.getInductionVar();
  } else {
    // Block b runs the tiles b, b + blocks, ... of the whole waves, then,
    // as block j = b / groups of group r = b % groups, the stream-K steps
    // [j T / U, (j + 1) T / U) of its group's T steps (U blocks), tile by
    // tile: one work item per tile it touches; the group's tile x is
    // shared tile x groups + r.
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(rewriter, loc, x, y);
    };
    auto sub = [&](Value x, Value y) -> Value {
      return arith::SubIOp::create(rewriter, loc, x, y);
    };
    auto mul = [&](Value x, int64_t y) -> Value {
      return arith::MulIOp::create(rewriter, loc, x, index(y));
    };
    auto div = [&](Value x, int64_t y) -> Value {
      return arith::DivUIOp::create(rewriter, loc, x, index(y));
    };
    int64_t total = sharedTiles / groups * steps, units = blocks / groups;
    Value unit = groups > 1 ? div(block, groups) : block;
    Value group = groups > 1 ? arith::RemUIOp::create(rewriter, loc, block,
                                                      index(groups))
                                   .getResult()
                             : Value();
    Value first = div(mul(unit, total), units);
    Value end = div(mul(add(unit, index(1)), total), units);
    Value firstTile = div(first, steps);
    Value items = add(index(wholeWaves + 1),
                      sub(div(sub(end, index(1)), steps), firstTile));
    tileLoop = scf::ForOp::create(rewriter, loc, index(0), items, index(1));
    rewriter.setInsertionPointToStart(tileLoop.getBody());
    Value item = tileLoop.getInductionVar();
    Value inWaves = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, item, index(wholeWaves));
    // Past the waves (the values of wave items are not used there): the
    // shared tile x and the item's steps of it.
    Value x = add(firstTile, sub(item, index(wholeWaves)));
    Value tileFirst = mul(x, steps);
    Value from = arith::MaxUIOp::create(rewriter, loc, first, tileFirst);
    Value to = arith::MinUIOp::create(rewriter, loc, end,
                                      add(tileFirst, index(steps)));
    auto pick = [&](Value wave, Value shared) -> Value {
      return arith::SelectOp::create(rewriter, loc, inWaves, wave, shared);
    };
    Value shared = groups > 1 ? add(mul(x, groups), group) : x;
    tile = pick(add(block, mul(item, blocks)),
                add(index(wholeWaves * blocks), shared));
    itemBegin = pick(index(0), sub(from, tileFirst));
    itemSteps = pick(index(steps), sub(to, from));
    itemBase = pick(mul(item, steps),
                    add(index(wholeWaves * steps), sub(from, first)));
    itemShared = shared;
  }
  auto [row, column] = groupedTile(tile, rows, columns, groupRows);
  Block *body = grid.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, tileLoop.getBody()->getTerminator(),
                             ValueRange{row, column});
  rewriter.eraseOp(grid);
  return persistent;
}

void WarpgroupMatmulLowering::syncConsumers() {
  Value id = arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(1));
  Value count = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getI32IntegerAttr(g.warpgroups() * kWarpgroupThreads));
  NVVM::BarrierOp::create(rewriter, loc, TypeRange{}, id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

Value WarpgroupMatmulLowering::accumulatorRegisters(Value acc) {
  Type f32 = rewriter.getF32Type();
  auto perMma = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(g.tileN / 2, f32));
  auto whole = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(mmas(), perMma));
  return UnrealizedConversionCastOp::create(rewriter, loc, whole, acc)
      .getResult(0);
}

Value WarpgroupMatmulLowering::scaleRows(Value acc, ArrayRef<Value> scales) {
  Value registers = accumulatorRegisters(acc);
  for (int64_t m = 0; m < mmas(); ++m) {
    Value fragment = LLVM::ExtractValueOp::create(rewriter, loc, registers, m);
    // Register 4 j + 2 i + e sits in row r + 64 m + 8 i (see Fragments).
    for (int64_t r = 0; r < g.tileN / 2; ++r) {
      Value value = LLVM::ExtractValueOp::create(rewriter, loc, fragment, r);
      Value scaled = arith::MulFOp::create(rewriter, loc,
                                           scales[2 * m + r % 4 / 2], value);
      fragment =
          LLVM::InsertValueOp::create(rewriter, loc, fragment, scaled, r);
    }
    registers =
        LLVM::InsertValueOp::create(rewriter, loc, registers, fragment, m);
  }
  return UnrealizedConversionCastOp::create(rewriter, loc, acc.getType(),
                                            registers)
      .getResult(0);
}

WarpgroupMatmulLowering::Fragments
WarpgroupMatmulLowering::fragments(Value acc) {
  Fragments f;
  f.registers = accumulatorRegisters(acc);
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value warp = arith::DivUIOp::create(rewriter, loc, thread, index(32));
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, index(32));
  // One statement per op: the IR's order does not depend on the order in
  // which the compiler evaluates arguments. Warp w of the block holds rows
  // 16 w to 16 w + 15 of the tile (of its warpgroup's 64 rows per mma: the
  // second warpgroup's rows come after the first's).
  Value warpRow = arith::MulIOp::create(rewriter, loc, warp, index(16));
  Value laneRow = arith::DivUIOp::create(rewriter, loc, lane, index(4));
  f.firstRow = arith::AddIOp::create(rewriter, loc, warpRow, laneRow);
  f.laneInQuad = arith::RemUIOp::create(rewriter, loc, lane, index(4));
  f.firstColumn = arith::MulIOp::create(rewriter, loc, f.laneInQuad, index(2));
  return f;
}

void WarpgroupMatmulLowering::storeToTile(Value acc, Value tile) {
  Fragments f = fragments(acc);
  auto pair = VectorType::get({2}, rewriter.getF32Type());
  for (int64_t m = 0; m < mmas(); ++m) {
    Value fragment =
        LLVM::ExtractValueOp::create(rewriter, loc, f.registers, m);
    for (int64_t i = 0; i < 2; ++i) {
      Value row = arith::AddIOp::create(rewriter, loc, f.firstRow,
                                        index(m * kRowsPerMma + 8 * i));
      for (int64_t j = 0; j < g.tileN / 8; ++j) {
        Value column = arith::AddIOp::create(rewriter, loc, f.firstColumn,
                                             index(8 * j));
        int64_t first = j * 4 + i * 2;
        Value values[2] = {
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, first),
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, first + 1)};
        Value packed =
            vector::FromElementsOp::create(rewriter, loc, pair, values);
        vector::StoreOp::create(rewriter, loc, packed, tile,
                                ValueRange{row, column},
                                /*nontemporal=*/false, llvm::MaybeAlign(8));
      }
    }
  }
}

void WarpgroupMatmulLowering::storeFragments(
    ValueRange accs, FragmentEpilogue epilogue) {
  Fragments f = fragments(accs.front());
  SmallVector<Value, 2> registers = {f.registers};
  for (Value acc : accs.drop_front())
    registers.push_back(accumulatorRegisters(acc));
  Value firstRow = f.firstRow, laneInQuad = f.laneInQuad,
        firstColumn = f.firstColumn;

  linalg::GenericOp op = epilogue.op;
  Value target = epilogue.copy.getTarget();
  auto targetType = cast<MemRefType>(target.getType());
  Type element = targetType.getElementType();
  unsigned bits = targetType.getElementTypeBitWidth();
  auto pair = VectorType::get({2}, element);
  int64_t pairBytes = 2 * bits / 8;
  // 16-bit results whose rows are whole 16-byte vectors go out as 16-byte
  // stores after a transpose within each quad; others two columns at once.
  auto global = cast<MemRefType>(
      epilogue.copy.getTarget().getDefiningOp<memref::SubViewOp>()
          .getSourceType());
  bool wide = bits == 16 && global.getDimSize(1) % 8 == 0;
  // Bounds only where the target's extent is not the whole tile.
  auto bound = [&](int64_t dim, int64_t full) -> Value {
    if (targetType.getDimSize(dim) == full)
      return Value();
    return memref::DimOp::create(rewriter, loc, target, dim);
  };
  Value rows = bound(0, kTileM), columns = bound(1, g.tileN);

  // An index inside the target: at partial edge blocks the lanes outside
  // still compute (the wide stores exchange values first), from clamped
  // loads, and store nothing.
  auto clamp = [&](Value value, Value extent) -> Value {
    if (!extent)
      return value;
    Value last = arith::SubIOp::create(rewriter, loc, extent, index(1));
    return arith::MinUIOp::create(rewriter, loc, value, last);
  };
  auto isInside = [&](Value row, Value column) -> Value {
    Value inside;
    if (rows)
      inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     row, rows);
    if (columns) {
      Value columnInside = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, column, columns);
      inside = inside ? arith::AndIOp::create(rewriter, loc, inside,
                                              columnInside)
                      : columnInside;
    }
    return inside;
  };

  // The epilogue op's body at one element: the accumulators' values are
  // `values`, every other input is loaded at (row, column).
  auto apply = [&](ValueRange values, Value row, Value column) {
    IRMapping mapping;
    Block *body = op.getBody();
    Value loadRow, loadColumn;
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body->getArgument(input->getOperandNumber());
      if (auto *it = llvm::find(epilogue.accInputs, input);
          it != epilogue.accInputs.end()) {
        mapping.map(arg, values[it - epilogue.accInputs.begin()]);
        continue;
      }
      if (!loadRow) {
        loadRow = wide ? clamp(row, rows) : row;
        loadColumn = wide ? clamp(column, columns) : column;
      }
      SmallVector<Value> indices;
      for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults())
        indices.push_back(cast<AffineDimExpr>(expr).getPosition() == 0
                              ? loadRow
                              : loadColumn);
      mapping.map(arg, memref::LoadOp::create(rewriter, loc, input->get(),
                                              indices));
    }
    for (Operation &inner : body->without_terminator())
      rewriter.clone(inner, mapping);
    return mapping.lookup(body->getTerminator()->getOperand(0));
  };
  // Columns `column` and `column` + 1 of register pair `first` (of each
  // accumulator's `fragments`).
  auto applyPair = [&](ValueRange fragments, int64_t first, Value row,
                       Value column) {
    Value next = arith::AddIOp::create(rewriter, loc, column, index(1));
    auto at = [&](int64_t position) {
      SmallVector<Value, 2> values;
      for (Value fragment : fragments)
        values.push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, position));
      return values;
    };
    Value left = apply(at(first), row, column);
    Value right = apply(at(first + 1), row, next);
    Value results[2] = {left, right};
    return vector::FromElementsOp::create(rewriter, loc, pair, results)
        .getResult();
  };
  // Stores the 16 bytes of `words` (4 x i32) at (row, column) where that is
  // inside the target: at partial edge blocks a predicated store in
  // straight-line code (GlobalAccess.h), not a branch around it, so that
  // ptxas schedules the epilogue as one block, as at whole tiles (a split
  // grid's combine spilled about 1 KB at partial n tiles with branches).
  Type i32 = rewriter.getI32Type();
  auto store = [&](ValueRange words, Value row, Value column) {
    if (Value inside = isInside(row, column)) {
      storeGlobalIf(rewriter, loc, inside,
                    globalPointer(rewriter, loc, target, {row, column}),
                    words);
      return;
    }
    Value vector = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({4}, i32), words);
    Value eight = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({8}, element), vector);
    vector::StoreOp::create(rewriter, loc, eight, target,
                            ValueRange{row, column}, /*nontemporal=*/false,
                            llvm::MaybeAlign(16));
  };

  Value laneInQuad32 =
      arith::IndexCastUIOp::create(rewriter, loc, i32, laneInQuad);
  auto asI32 = [&](Value packed) -> Value {
    Value word = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({1}, i32), packed);
    return vector::ExtractOp::create(rewriter, loc, word, int64_t(0));
  };
  for (int64_t m = 0; m < mmas(); ++m) {
    SmallVector<Value, 2> fragment;
    for (Value accRegisters : registers)
      fragment.push_back(
          LLVM::ExtractValueOp::create(rewriter, loc, accRegisters, m));
    for (int64_t i = 0; i < 2; ++i) {
      Value row = arith::AddIOp::create(rewriter, loc, firstRow,
                                        index(m * kRowsPerMma + 8 * i));
      if (!wide) {
        for (int64_t j = 0; j < g.tileN / 8; ++j) {
          Value column =
              arith::AddIOp::create(rewriter, loc, firstColumn, index(8 * j));
          // Computed inside the bounds check: nothing to exchange.
          OpBuilder::InsertionGuard guard(rewriter);
          if (Value inside = isInside(row, column)) {
            auto ifInside = scf::IfOp::create(rewriter, loc, inside);
            rewriter.setInsertionPointToStart(
                &ifInside.getThenRegion().front());
          }
          vector::StoreOp::create(
              rewriter, loc, applyPair(fragment, j * 4 + i * 2, row, column),
              target, ValueRange{row, column}, /*nontemporal=*/false,
              llvm::MaybeAlign(pairBytes));
        }
        continue;
      }
      // Groups of 32 columns: lane q of each quad ends up with the 8
      // columns of group 4 b + q.
      for (int64_t b = 0; b < g.tileN / 32; ++b) {
        SmallVector<Value, 4> words;
        for (int64_t j = 4 * b; j < 4 * b + 4; ++j) {
          Value column =
              arith::AddIOp::create(rewriter, loc, firstColumn, index(8 * j));
          words.push_back(
              asI32(applyPair(fragment, j * 4 + i * 2, row, column)));
        }
        SmallVector<Value, 4> exchanged =
            transposeQuad(rewriter, loc, laneInQuad32, words);
        Value groupColumn =
            arith::MulIOp::create(rewriter, loc, laneInQuad, index(8));
        Value column = arith::AddIOp::create(rewriter, loc, groupColumn,
                                             index(32 * b));
        store(exchanged, row, column);
      }
    }
  }
}

void WarpgroupMatmulLowering::groupTiles(scf::ForallOp grid,
                                         int64_t groupRows) {
  ArrayRef<int64_t> extents = grid.getStaticUpperBound();
  if (groupRows <= 0 || grid.getRank() != 2 ||
      llvm::any_of(extents, ShapedType::isDynamic) ||
      !llvm::all_of(grid.getMixedLowerBound(),
                    [](OpFoldResult b) { return isConstantIntValue(b, 0); }) ||
      !llvm::all_of(grid.getMixedStep(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); }))
    return;
  // The hardware starts blocks in the order of their linear id, x (the
  // grid's last dimension) fastest.
  int64_t rows = extents[0], columns = extents[1];
  OpBuilder::InsertionGuard guard(rewriter);
  Block *body = grid.getBody();
  rewriter.setInsertionPointToStart(body);
  Value row = grid.getInductionVar(0), column = grid.getInductionVar(1);
  Value rowStart = arith::MulIOp::create(rewriter, loc, row, index(columns));
  Value linear = arith::AddIOp::create(rewriter, loc, rowStart, column);
  auto [newRow, newColumn] = groupedTile(linear, rows, columns, groupRows);
  Operation *lastNew = newColumn.getDefiningOp();
  // Every use but the renumbering itself takes the grouped tile.
  auto outside = [&](OpOperand &use) {
    Operation *user = body->findAncestorOpInBlock(*use.getOwner());
    return !user || lastNew->isBeforeInBlock(user);
  };
  rewriter.replaceUsesWithIf(row, newRow, outside);
  rewriter.replaceUsesWithIf(column, newColumn, outside);
}

SmallVector<Value>
WarpgroupMatmulLowering::emitRegisterAStep(ValueRange accs,
                                           ValueRange registers, Value step) {
  // Each accumulator as the LLVM struct convert-nvgpu-to-nvvm holds it (one
  // struct of tileN / 2 f32 per m64), B's descriptor as its i64: the casts
  // fold away there. Both products' wgmmas read the same A registers.
  Type i64 = rewriter.getI64Type();
  SmallVector<Value, 2> structs, bBases;
  for (auto [product, acc] : llvm::enumerate(accs)) {
    structs.push_back(accumulatorRegisters(acc));
    // One m64n256 reads both products' B from the first one's descriptor.
    if (productsOneWgmma && product > 0)
      continue;
    Value bTile = bPart(step, product);
    Value bDesc = nvgpu::WarpgroupGenerateDescriptorOp::create(
        rewriter, loc,
        nvgpu::WarpgroupMatrixDescriptorType::get(
            ctx, cast<MemRefType>(bTile.getType())),
        bTile, descB[product]);
    bBases.push_back(
        UnrealizedConversionCastOp::create(rewriter, loc, i64, bDesc)
            .getResult(0));
  }

  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  int64_t k16s = kStepK / 16;
  // The f32 registers of m64 `m` of each accumulator in `group`, side by
  // side, through the k16 wgmmas of the step on B from `bBase` (one
  // m64nN with N the group's columns), then back into the structs.
  auto multiply = [&](ArrayRef<int64_t> group, Value bBase, int64_t m) {
    SmallVector<Value> fragments, values;
    for (int64_t product : group) {
      Value fragment =
          LLVM::ExtractValueOp::create(rewriter, loc, structs[product], m);
      fragments.push_back(fragment);
      for (int64_t i = 0,
                   e = cast<LLVM::LLVMStructType>(fragment.getType())
                           .getBody()
                           .size();
           i < e; ++i)
        values.push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, i));
    }
    for (int64_t kk = 0; kk < k16s; ++kk) {
      // B stored N-major: k16 kk starts 16 kk swizzled rows of 128 bytes
      // into each box (nvgpu.warpgroup.mma's own iteration).
      Value desc = advanceMatrixDescriptor(
          rewriter, loc, bBase, 16 * kk * kSwizzleElements * elementBytes());
      values = wgmmaRegisterA(
          rewriter, loc, values,
          llvm::to_vector(registers.slice((m * k16s + kk) * 4, 4)), desc,
          g.elementType, /*transposeB=*/true);
    }
    ArrayRef<Value> rest(values);
    for (auto [product, fragment] : llvm::zip_equal(group, fragments)) {
      int64_t size =
          cast<LLVM::LLVMStructType>(fragment.getType()).getBody().size();
      for (auto [i, value] : llvm::enumerate(rest.take_front(size)))
        fragment =
            LLVM::InsertValueOp::create(rewriter, loc, fragment, value, i);
      rest = rest.drop_front(size);
      structs[product] = LLVM::InsertValueOp::create(
          rewriter, loc, structs[product], fragment, m);
    }
  };
  if (productsOneWgmma) {
    for (int64_t m = 0; m < mmas(); ++m)
      multiply({0, 1}, bBases.front(), m);
  } else {
    for (auto [product, bBase] : llvm::enumerate(bBases))
      for (int64_t m = 0; m < mmas(); ++m)
        multiply({int64_t(product)}, bBase, m);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(1));
  SmallVector<Value> results;
  for (auto [accStruct, acc] : llvm::zip_equal(structs, accs))
    results.push_back(UnrealizedConversionCastOp::create(
                          rewriter, loc, acc.getType(), accStruct)
                          .getResult(0));
  return results;
}

SmallVector<Value> WarpgroupMatmulLowering::emitRegisterALoop(
    ValueRange inits, Value aOffset, function_ref<void(Value)> refill) {
  // With the statistics in the mainloop, the thread's sums of squares so
  // far; each step's fragments add theirs.
  SmallVector<Value> sums;
  if (statistics)
    sums = prologue->initialSums();
  auto fragmentsOf = [&](Value step) {
    return prologue->emitFragments(aPart(step, aOffset), kStep(step),
                                   [&] { waitForStep(barriers, step); },
                                   statistics ? &sums : nullptr);
  };
  // One k step: its wgmmas on A registers `registers` (left in flight:
  // the previous step's group is then complete), the release and refill of
  // the previous step's slot, then `after` (the next step's A registers).
  // The refill comes first: the next step's A is read a step early, so the
  // copies have two steps to land, not three as in the plain GEMM, and the
  // kernel is sensitive to that (RMSNorm M8192 on the H100: the refill
  // after the next A 0.563 ms instead of 0.518, and with 3 slots 0.665;
  // docs/performance.md).
  auto emitStep = [&](ValueRange accs, ValueRange registers, Value step,
                      function_ref<void()> after) {
    SmallVector<Value> next = emitRegisterAStep(accs, registers, step);
    refill(step);
    if (after)
      after();
    return next;
  };

  // A wgmma reads its A registers until a wait covers it, and the loop's
  // body is one piece of code: the registers step i + 1 writes must not be
  // step i's. So two sets: the loop runs steps 2 p (set X, carried by the
  // loop) and 2 p + 1 (set Y); set Y is written once step 2 p - 1's
  // wgmma, the last that read it, is complete (after step 2 p's wait),
  // set X for step 2 p + 2 once step 2 p's is. An odd last step follows
  // the loop. A stream-K work item runs its own count of steps (at least
  // one): the pairs and the odd step are then decided at run time.
  Value count = stepCount();
  SmallVector<Value> first = fragmentsOf(index(0));
  int64_t accs = inits.size(), registers = first.size();
  SmallVector<Value> carried(inits);
  llvm::append_range(carried, first);
  llvm::append_range(carried, sums);
  Value pairs = itemSteps ? arith::DivUIOp::create(rewriter, loc, count,
                                                   index(2))
                                .getResult()
                          : index(steps / 2);
  auto loop = scf::ForOp::create(rewriter, loc, index(0), pairs, index(1),
                                 carried);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value even = arith::MulIOp::create(rewriter, loc, loop.getInductionVar(),
                                       index(2));
    Value odd = arith::AddIOp::create(rewriter, loc, even, index(1));
    ValueRange x = loop.getRegionIterArgs().slice(accs, registers);
    sums = llvm::to_vector_of<Value>(
        loop.getRegionIterArgs().drop_front(accs + registers));
    SmallVector<Value> y;
    SmallVector<Value> acc =
        emitStep(loop.getRegionIterArgs().take_front(accs), x, even,
                 [&] { y = fragmentsOf(odd); });
    // Set X for step 2 p + 2, if there is one.
    scf::IfOp nextX;
    acc = emitStep(acc, y, odd, [&] {
      Value after = arith::AddIOp::create(rewriter, loc, odd, index(1));
      Value inRange = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, after, count);
      SmallVector<Type> types = llvm::to_vector(TypeRange(x));
      llvm::append_range(types, TypeRange(sums));
      nextX = scf::IfOp::create(rewriter, loc, types, inRange,
                                /*withElseRegion=*/true);
      OpBuilder::InsertionGuard ifGuard(rewriter);
      // After the last even step no step reads set X again (and no sum
      // changes).
      rewriter.setInsertionPointToStart(&nextX.getElseRegion().front());
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getI32IntegerAttr(0));
      SmallVector<Value> none(x.size(), zero);
      llvm::append_range(none, sums);
      scf::YieldOp::create(rewriter, loc, none);
      rewriter.setInsertionPointToStart(&nextX.getThenRegion().front());
      SmallVector<Value> next = fragmentsOf(after);
      llvm::append_range(next, sums);
      scf::YieldOp::create(rewriter, loc, next);
    });
    SmallVector<Value> yielded(acc);
    llvm::append_range(yielded, nextX.getResults());
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  SmallVector<Value> acc(loop.getResults().take_front(accs));
  sums = llvm::to_vector(
      ValueRange(loop.getResults()).drop_front(accs + registers));
  ValueRange last = loop.getResults().slice(accs, registers);
  if (!itemSteps) {
    if (steps % 2)
      acc = emitStep(acc, last, index(steps - 1), {});
  } else {
    Value odd = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(rewriter, loc, count, index(2)), index(0));
    auto ifOdd = scf::IfOp::create(rewriter, loc, TypeRange(ValueRange(acc)),
                                   odd, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOdd.getElseRegion().front());
    scf::YieldOp::create(rewriter, loc, acc);
    rewriter.setInsertionPointToStart(&ifOdd.getThenRegion().front());
    scf::YieldOp::create(
        rewriter, loc,
        emitStep(acc, last,
                 arith::SubIOp::create(rewriter, loc, count, index(1)), {}));
    acc = llvm::to_vector_of<Value>(ifOdd.getResults());
  }
  if (statistics)
    finishStatistics(sums);
  return acc;
}

void WarpgroupMatmulLowering::finishStatistics(ValueRange sums) {
  statisticTotals = prologue->reduceStatistics(sums);
  // A split's sums are its k range's: the row factors come after the
  // combine.
  if (splits == 1)
    prologue->emitStatisticRows(statisticTotals);
}

scf::ForallOp WarpgroupMatmulLowering::splitGrid(scf::ForallOp grid) {
  int64_t blocks = 1;
  for (int64_t extent : grid.getStaticUpperBound())
    blocks *= extent;
  // Per thread, the accumulators' registers (128: a 64 x 128 or 64 x 256
  // tile per warpgroup, or two 64 x 128 ones), in groups of 4.
  int64_t threads = g.warpgroups() * kWarpgroupThreads;
  int64_t registers =
      g.accumulators() * mmas() * g.tileN / 2 + statisticPartials();
  rewriter.setInsertionPoint(grid);
  partials = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({splits * blocks * registers * threads},
                      rewriter.getF32Type()));
  auto countersAlloc = memref::AllocOp::create(
      rewriter, loc, MemRefType::get({blocks}, rewriter.getI32Type()));
  countersAlloc->setAttr(kWorkspaceAttrName, UnitAttr::get(ctx));
  counters = countersAlloc;
  grid = addSplitDimension(rewriter, grid, splits);
  splitForall = grid;
  rewriter.setInsertionPointToStart(grid.getBody());
  firstStep = arith::MulIOp::create(rewriter, loc,
                                    grid.getInductionVars().back(),
                                    index(steps));
  return grid;
}

SmallVector<Value>
WarpgroupMatmulLowering::partialValues(ArrayRef<Value> structs,
                                       SmallVector<Value> prefix) {
  SmallVector<Value> values = std::move(prefix);
  for (Value registersOf : structs)
    for (int64_t m = 0; m < mmas(); ++m) {
      Value fragment =
          LLVM::ExtractValueOp::create(rewriter, loc, registersOf, m);
      for (int64_t r = 0; r < g.tileN / 2; ++r)
        values.push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, r));
    }
  return values;
}

void WarpgroupMatmulLowering::storePartial(ArrayRef<Value> values,
                                           Value first, int64_t threads) {
  auto quad = VectorType::get({4}, rewriter.getF32Type());
  for (int64_t group = 0; group < int64_t(values.size()) / 4; ++group) {
    Value vector = vector::FromElementsOp::create(
        rewriter, loc, quad, values.slice(4 * group, 4));
    Value at = arith::AddIOp::create(rewriter, loc, first,
                                     index(group * 4 * threads));
    vector::StoreOp::create(rewriter, loc, vector, partials, ValueRange{at},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
}

Value WarpgroupMatmulLowering::loadPartial(Value first, int64_t group,
                                           int64_t threads) {
  auto quad = VectorType::get({4}, rewriter.getF32Type());
  Value at = arith::AddIOp::create(rewriter, loc, first,
                                   index(group * 4 * threads));
  return vector::LoadOp::create(rewriter, loc, quad, partials, ValueRange{at});
}

SmallVector<Value> WarpgroupMatmulLowering::accumulatorsFrom(
    ValueRange accs, ArrayRef<Value> structs, ArrayRef<Value> values,
    int64_t first) {
  int64_t perMma = g.tileN / 2;
  SmallVector<Value> combined;
  for (auto [product, acc] : llvm::enumerate(accs)) {
    Value registersOf = structs[product];
    for (int64_t m = 0; m < mmas(); ++m) {
      Value fragment =
          LLVM::ExtractValueOp::create(rewriter, loc, registersOf, m);
      for (int64_t r = 0; r < perMma; ++r)
        fragment = LLVM::InsertValueOp::create(
            rewriter, loc, fragment,
            values[first + (int64_t(product) * mmas() + m) * perMma + r], r);
      registersOf =
          LLVM::InsertValueOp::create(rewriter, loc, registersOf, fragment, m);
    }
    combined.push_back(UnrealizedConversionCastOp::create(
                           rewriter, loc, acc.getType(), registersOf)
                           .getResult(0));
  }
  return combined;
}

/// The f32 elements of the 4-vectors `quads`, in order.
static SmallVector<Value> quadElements(OpBuilder &b, Location loc,
                                       ArrayRef<Value> quads) {
  SmallVector<Value> elements;
  for (Value quad : quads)
    for (int64_t e = 0; e < 4; ++e)
      elements.push_back(vector::ExtractOp::create(b, loc, quad, e));
  return elements;
}

SmallVector<Value> WarpgroupMatmulLowering::combineSplits(ValueRange accs) {
  int64_t blocks = cast<MemRefType>(counters.getType()).getDimSize(0);
  int64_t threads = g.warpgroups() * kWarpgroupThreads;
  int64_t perMma = g.tileN / 2;
  int64_t accRegisters = g.accumulators() * mmas() * perMma;
  int64_t registers = accRegisters + statisticPartials();
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value block = unsplitBlockIndex(rewriter, loc, splitForall);
  Value split = splitForall.getInductionVars().back();
  // Register r of the thread's registers (accumulator after accumulator,
  // m64 after m64) is element r % 4 of the thread's vector in group r / 4
  // of the block's slot: consecutive threads store consecutive 16 bytes.
  Value threadOffset =
      arith::MulIOp::create(rewriter, loc, thread, index(4));
  auto slotOffset = [&](Value s) {
    Value tile = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, s, index(blocks)), block);
    Value first = arith::MulIOp::create(rewriter, loc, tile,
                                        index(registers * threads));
    return arith::AddIOp::create(rewriter, loc, first, threadOffset)
        .getResult();
  };

  SmallVector<Value> structs;
  for (Value acc : accs)
    structs.push_back(accumulatorRegisters(acc));
  // The split's sums of squares of the rows first (one group of 4), summed
  // in the same order as the registers: the last block knows its row
  // factors before the accumulators' sums, so that each sum's epilogue can
  // follow it (fewer registers live in the combine).
  SmallVector<Value> prefix(statisticTotals);
  if (statistics)
    prefix.resize(statisticPartials(),
                  arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getF32FloatAttr(0.0f)));
  storePartial(partialValues(structs, prefix), slotOffset(split), threads);
  // The block's stores, then its count (as gpu-split-reductions counts):
  // after the block's barrier thread 0 alone fences (createCountFence: it
  // releases the stores the barrier ordered before it) and bumps the tile's
  // counter; the block that counts last fences again (the acquire), leaves
  // the counter zeroed for the next launch and tells its threads through
  // shared memory, past a barrier that orders their reads of the partials
  // after the acquire.
  gpu::BarrierOp::create(rewriter, loc);
  Type i32 = rewriter.getI32Type();
  Value flag = memref::AllocOp::create(rewriter, loc, sharedTile({1}, i32));
  Value leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       thread, index(0));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    auto counting = scf::IfOp::create(rewriter, loc, leader);
    rewriter.setInsertionPointToStart(&counting.getThenRegion().front());
    Value isLast = countBlockIn(rewriter, loc, counters, block, splits);
    memref::StoreOp::create(rewriter, loc,
                            arith::ExtUIOp::create(rewriter, loc, i32, isLast),
                            flag, ValueRange{index(0)});
    auto reset = scf::IfOp::create(rewriter, loc, isLast);
    rewriter.setInsertionPointToStart(&reset.getThenRegion().front());
    createCountFence(rewriter, loc);
    memref::StoreOp::create(rewriter, loc,
                            arith::ConstantIntOp::create(rewriter, loc, i32, 0),
                            counters, ValueRange{block});
  }
  gpu::BarrierOp::create(rewriter, loc);
  Value last = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(rewriter, loc, flag, ValueRange{index(0)}),
      arith::ConstantIntOp::create(rewriter, loc, i32, 0));
  auto ifLast = scf::IfOp::create(rewriter, loc, last);
  rewriter.setInsertionPointToStart(&ifLast.getThenRegion().front());

  // The sums in split order, whichever block came last (its own partials
  // read back like the others': the same sum in every run).
  SmallVector<Value> slots, quads;
  for (int64_t s = 0; s < splits; ++s)
    slots.push_back(slotOffset(index(s)));
  for (int64_t group = 0; group < registers / 4; ++group) {
    Value sum;
    for (Value slot : slots) {
      Value part = loadPartial(slot, group, threads);
      sum = sum ? arith::AddFOp::create(rewriter, loc, sum, part).getResult()
                : part;
    }
    quads.push_back(sum);
  }
  SmallVector<Value> sums = quadElements(rewriter, loc, quads);
  // The rows' whole sums of squares, and the row factors from them.
  if (statistics) {
    statisticTotals.assign(sums.begin(), sums.begin() + 2 * mmas());
    prologue->emitStatisticRows(statisticTotals);
  }
  SmallVector<Value> combined =
      accumulatorsFrom(accs, structs, sums, statisticPartials());
  if (statistics)
    for (Value &product : combined)
      product = scaleRows(product, prologue->rowScales());
  return combined;
}

SmallVector<Value> WarpgroupMatmulLowering::combineStreamK(ValueRange accs) {
  int64_t threads = g.warpgroups() * kWarpgroupThreads;
  int64_t registers = g.accumulators() * mmas() * g.tileN / 2;
  Type i1 = rewriter.getI1Type(), i32 = rewriter.getI32Type();
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value threadOffset = arith::MulIOp::create(rewriter, loc, thread, index(4));
  // The partial of the tile's item that starts at its first k step (0) or
  // ends at its last (1): two per stream-K tile.
  auto partialOf = [&](Value second) {
    Value slot = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, itemShared, index(2)), second);
    Value first = arith::MulIOp::create(rewriter, loc, slot,
                                        index(registers * threads));
    return arith::AddIOp::create(rewriter, loc, first, threadOffset)
        .getResult();
  };
  SmallVector<Type> types = llvm::to_vector(TypeRange(accs));
  types.push_back(i1);
  Value shared = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                       stepCount(), index(steps));
  auto ifShared = scf::IfOp::create(rewriter, loc, types, shared,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifShared.getElseRegion().front());
    SmallVector<Value> whole(accs);
    whole.push_back(arith::ConstantIntOp::create(rewriter, loc, i1, 1));
    scf::YieldOp::create(rewriter, loc, whole);

    rewriter.setInsertionPointToStart(&ifShared.getThenRegion().front());
    SmallVector<Value> structs;
    for (Value acc : accs)
      structs.push_back(accumulatorRegisters(acc));
    Value second = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getIndexType(),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              itemBegin, index(0)));
    storePartial(partialValues(structs, {}), partialOf(second), threads);
    // Every consumer thread's stores before consumer thread 0 counts the
    // item in (its fence releases them: cumulative); the tile's second
    // item to count in sums both partials, after its fence (the acquire),
    // and leaves the counter zeroed for the next launch. Thread 0 tells
    // the consumers through shared memory past their barrier, which also
    // orders their reads of the partials after the acquire (bar.red takes
    // barrier 0 only, the whole block's). The next item writes the flag
    // only after the consumers' barrier that follows its partial's
    // stores, which every thread reaches after reading this one.
    syncConsumers();
    Value flag = memref::AllocOp::create(rewriter, loc, sharedTile({1}, i32));
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, thread, index(0));
    {
      OpBuilder::InsertionGuard inner(rewriter);
      auto counting = scf::IfOp::create(rewriter, loc, leader);
      rewriter.setInsertionPointToStart(&counting.getThenRegion().front());
      Value isLast = countBlockIn(rewriter, loc, counters, itemShared, 2);
      memref::StoreOp::create(
          rewriter, loc, arith::ExtUIOp::create(rewriter, loc, i32, isLast),
          flag, ValueRange{index(0)});
      auto reset = scf::IfOp::create(rewriter, loc, isLast);
      rewriter.setInsertionPointToStart(&reset.getThenRegion().front());
      createCountFence(rewriter, loc);
      memref::StoreOp::create(
          rewriter, loc, arith::ConstantIntOp::create(rewriter, loc, i32, 0),
          counters, ValueRange{itemShared});
    }
    syncConsumers();
    Value last = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        memref::LoadOp::create(rewriter, loc, flag, ValueRange{index(0)}),
        arith::ConstantIntOp::create(rewriter, loc, i32, 0));
    SmallVector<Type> accTypes = llvm::to_vector(TypeRange(accs));
    auto ifLast = scf::IfOp::create(rewriter, loc, accTypes, last,
                                    /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(&ifLast.getElseRegion().front());
    scf::YieldOp::create(rewriter, loc, accs);
    // The first item's partial plus the second's, whichever counted in
    // last (its own read back too): the same sum in every run.
    rewriter.setInsertionPointToStart(&ifLast.getThenRegion().front());
    Value firstItem = partialOf(index(0)), secondItem = partialOf(index(1));
    SmallVector<Value> quads;
    for (int64_t group = 0; group < registers / 4; ++group) {
      Value part = loadPartial(firstItem, group, threads);
      Value other = loadPartial(secondItem, group, threads);
      quads.push_back(arith::AddFOp::create(rewriter, loc, part, other));
    }
    scf::YieldOp::create(
        rewriter, loc,
        accumulatorsFrom(accs, structs, quadElements(rewriter, loc, quads),
                         0));
    rewriter.setInsertionPointAfter(ifLast);
    SmallVector<Value> results(ifLast.getResults());
    results.push_back(last);
    scf::YieldOp::create(rewriter, loc, results);
  }
  rewriter.setInsertionPointAfter(ifShared);
  auto finishes = scf::IfOp::create(rewriter, loc, ifShared.getResults().back());
  rewriter.setInsertionPointToStart(&finishes.getThenRegion().front());
  return SmallVector<Value>(ifShared.getResults().drop_back());
}

void WarpgroupMatmulLowering::run(std::optional<FragmentEpilogue> epilogue) {
  auto grid = g.dot()->getParentOfType<scf::ForallOp>();
  int64_t kTotal = cast<MemRefType>(g.a.getType()).getDimSize(1);
  if (splits > 1)
    grid = splitGrid(grid);

  rewriter.setInsertionPoint(grid);
  descA = createDescriptor(g.a, {kTileM, kStepK});
  for (const WarpgroupProduct &product : g.products)
    descB.push_back(createDescriptor(product.b, {kStepK, kSwizzleElements}));

  // Barriers and the ring, initialised by thread 0 and published by a
  // barrier (on a persistent grid once, before the tiles).
  if (tileLoop)
    rewriter.setInsertionPoint(tileLoop);
  else
    rewriter.setInsertionPoint(g.reduce);
  auto ringAlloc = memref::AllocOp::create(
      rewriter, loc, sharedTile({stages * slotBytes()}, rewriter.getI8Type()),
      rewriter.getI64IntegerAttr(1024));
  ring = ringAlloc;
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       thread, index(0));
  auto barrierGroup = nvgpu::MBarrierGroupType::get(ctx, workgroup, stages);
  barriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierGroup);
  for (int64_t slot = 0; slot < stages; ++slot)
    nvgpu::MBarrierInitOp::create(rewriter, loc, barriers, index(1),
                                  index(slot), leader);
  // With two warpgroups, thread 0 may refill a slot only when both are done
  // with it: one more barrier per slot, on which each warpgroup arrives
  // once it has finished the wgmma that read the slot.
  Value released;
  if (g.warpgroups() > 1 &&
      (!g.prologue || prologueAhead || registerA || producer)) {
    released = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierGroup);
    // In a cluster both blocks' consumer warpgroups release each slot of
    // each block (either block's producer writes into both).
    int64_t releasers = g.warpgroups() * (cluster ? 2 : 1);
    for (int64_t slot = 0; slot < stages; ++slot)
      nvgpu::MBarrierInitOp::create(rewriter, loc, released, index(releasers),
                                    index(slot), leader);
  }
  nvgpu::TmaPrefetchOp::create(rewriter, loc, descA, leader);
  for (Value desc : descB)
    nvgpu::TmaPrefetchOp::create(rewriter, loc, desc, leader);
  gpu::BarrierOp::create(rewriter, loc);
  if (cluster) {
    // The partner's barriers are initialised before this block arrives on
    // them or multicasts into its slots: the inits made visible at
    // cluster scope, then the cluster's barrier.
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
  }

  // Prologue: the first stages - 1 steps in flight, or the producer
  // warpgroup's branch (the rest is the consumers').
  scf::IfOp consumerBranch;
  if (producer)
    consumerBranch = emitProducer(thread, released);
  else
    for (int64_t step = 0; step < std::min(stages - 1, steps); ++step)
      issueCopies(index(step), leader);
  if (g.prologue) {
    prologue.emplace(rewriter, *g.prologue, g.reduce, warpgroupRows(), kStepK,
                     kTotal, g.warpgroups(),
                     registerA ? WarpgroupPrologueLowering::Layout::Fragments
                               : WarpgroupPrologueLowering::Layout::Chunks,
                     prologueRowScale, statistics.has_value());
    prologue->emitRowValues();
  }

  // Mainloop.
  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx,
      VectorType::get({warpgroupRows(), g.tileN}, rewriter.getF32Type()));
  // The warpgroup's first row in the A tile of a slot.
  Value aOffset = index(0);
  if (g.warpgroups() > 1) {
    Value warpgroup = arith::DivUIOp::create(rewriter, loc, thread,
                                             index(kWarpgroupThreads));
    aOffset = arith::MulIOp::create(
        rewriter, loc, warpgroup,
        index(warpgroupRows() * kStepK * elementBytes()));
  }
  // With the statistics in a rewriting mainloop, the thread's sums of
  // squares of its chunk rows so far, carried by the loop.
  SmallVector<Value> sums;
  if (statistics && !registerA)
    sums = prologue->initialSums();
  SmallVector<Value> *sumsOrNull = sums.empty() ? nullptr : &sums;
  if (prologueAhead) {
    // Step 0's A part, before the mainloop rewrites each next one.
    waitForStep(barriers, index(0));
    prologue->emitSlot(aPart(index(0), aOffset), kStep(index(0)), sumsOrNull);
    syncWarpgroup(thread);
  }
  SmallVector<Value, 2> inits;
  for (int64_t product = 0; product < g.accumulators(); ++product)
    inits.push_back(
        nvgpu::WarpgroupMmaInitAccumulatorOp::create(rewriter, loc, accType));
  // Thread 0 refills the slot step i - 1 read with step i + stages - 1
  // (with two warpgroups once both released it). A branch, not a
  // predicate: the last steps' condition folds to a constant, which the
  // PTX of a predicated copy cannot take.
  // With the prologue in registers every warp has work of its own in each
  // step, so the refill is one thread's branch (the others skip the copy
  // code instead of running it predicated off), and that thread is the
  // second warpgroup's first: its step i - 1 finishes after the first
  // warpgroup's, so it seldom waits for the other's release, while thread
  // 0 would hold up its warp's share of the first warpgroup's A registers.
  Value refiller = leader;
  if (registerA && g.warpgroups() > 1)
    refiller = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     thread, index(kWarpgroupThreads));
  auto refillPrevious = [&](Value step) {
    if (released)
      releaseSlots(released, step, thread);
    // The producer refills it.
    if (producer)
      return;
    Value next = arith::AddIOp::create(rewriter, loc, step, index(stages - 1));
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, next, index(steps));
    if (registerA)
      inRange = arith::AndIOp::create(rewriter, loc, inRange, refiller);
    auto refill = scf::IfOp::create(rewriter, loc, inRange);
    rewriter.setInsertionPointToStart(&refill.getThenRegion().front());
    Value predicate = registerA ? Value() : leader;
    if (released)
      awaitRelease(released, step, registerA ? inRange : leader);
    issueCopies(next, predicate);
    rewriter.setInsertionPointAfter(refill);
  };
  // The accumulators after the last step, one per product.
  SmallVector<Value> products;
  if (registerA) {
    products = emitRegisterALoop(inits, aOffset, refillPrevious);
  } else {
  // One product (two take the register form only).
  SmallVector<Value> carried{inits.front()};
  llvm::append_range(carried, sums);
  auto loop = scf::ForOp::create(rewriter, loc, index(0), stepCount(),
                                 index(1), carried);
  products = {loop.getResult(0)};
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    sums = llvm::to_vector_of<Value>(loop.getRegionIterArgs().drop_front());
    // Ahead, the previous step (or the code before the loop) waited for
    // this step's slot before rewriting it.
    if (!prologueAhead)
      waitForStep(barriers, step);
    Value aTile = aPart(step, aOffset);
    Value bTile = bPart(step);
    if (prologue && !prologueAhead) {
      // The A part rewritten in place while step i - 1's wgmma runs; then
      // every warp is past that wgmma (so its slot may be refilled) and
      // every rewritten chunk is visible to this step's (with two
      // warpgroups the block's barrier also stands for the slots' release
      // barriers). Each warpgroup rewrites its own rows of the A part.
      prologue->emitSlot(aTile, kStep(step), sumsOrNull);
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(0));
      gpu::BarrierOp::create(rewriter, loc);
      refillPrevious(step);
    }
    auto descriptorType = [&](Value tile) {
      return nvgpu::WarpgroupMatrixDescriptorType::get(
          ctx, cast<MemRefType>(tile.getType()));
    };
    Value aDesc = nvgpu::WarpgroupGenerateDescriptorOp::create(
        rewriter, loc, descriptorType(aTile), aTile, descA);
    Value bDesc = nvgpu::WarpgroupGenerateDescriptorOp::create(
        rewriter, loc, descriptorType(bTile), bTile, descB.front());
    // waitGroup 1: this step's wgmma group stays in flight; the previous
    // one is complete, so its slot can be refilled.
    Value acc = nvgpu::WarpgroupMmaOp::create(
        rewriter, loc, accType, aDesc, bDesc, rewriter.getI64IntegerAttr(1),
        /*transposeA=*/UnitAttr(), /*transposeB=*/rewriter.getUnitAttr(),
        loop.getRegionIterArg(0));
    if (!prologue || prologueAhead)
      refillPrevious(step);
    if (prologueAhead) {
      // Step i + 1's A part rewritten while step i's wgmma runs (step i -
      // 1's is done: its slot was just released), so that the next wgmma
      // is issued, and queued behind this one, as soon as the warpgroup's
      // warps have all written their chunks.
      Value next = arith::AddIOp::create(rewriter, loc, step, index(1));
      Value inRange = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, next, stepCount());
      // The sums pass through the branch: after the last step no slot
      // adds to them.
      auto rewrite = scf::IfOp::create(rewriter, loc, TypeRange(sums),
                                       inRange,
                                       /*withElseRegion=*/!sums.empty());
      rewriter.setInsertionPointToStart(&rewrite.getThenRegion().front());
      waitForStep(barriers, next);
      SmallVector<Value> before(sums);
      prologue->emitSlot(aPart(next, aOffset), kStep(next), sumsOrNull);
      if (!sums.empty()) {
        scf::YieldOp::create(rewriter, loc, sums);
        rewriter.setInsertionPointToStart(&rewrite.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, before);
        sums = llvm::to_vector_of<Value>(rewrite.getResults());
      }
      rewriter.setInsertionPointAfter(rewrite);
      syncWarpgroup(thread);
    }
    SmallVector<Value> yielded{acc};
    llvm::append_range(yielded, sums);
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  // The chunk rows' sums go through shared memory after the mainloop's
  // last wgmma (below): the workgroup packer may give them ring bytes.
  statisticSums = llvm::to_vector_of<Value>(loop.getResults().drop_front());
  }

  // Epilogue: every wgmma done and every warp past its reads of the ring
  // (whose bytes later tiles may reuse).
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(0));
  // On a persistent grid the producer refills the tile's last slot with a
  // later tile's step: released once its wgmma is complete, as each other.
  if (tileLoop)
    releaseSlots(released, stepCount(), thread);
  if (producer)
    syncConsumers();
  else
    gpu::BarrierOp::create(rewriter, loc);
  if (statistics && !registerA)
    finishStatistics(statisticSums);
  // The row factor the A elements left out (RMSNorm's rstd), once per
  // accumulator register instead of once per A element and k step; every
  // product reads the same A.
  if (prologue && !prologue->rowScales().empty())
    for (Value &product : products)
      product = scaleRows(product, prologue->rowScales());
  if (epilogue) {
    // The copy's target view is defined before the copy: the stores go
    // where the copy was.
    rewriter.setInsertionPoint(epilogue->copy);
    if (splits > 1)
      products = combineSplits(products);
    if (itemShared)
      products = combineStreamK(products);
    storeFragments(products, *epilogue);
    Value tile = epilogue->op.getDpsInits()[0];
    rewriter.eraseOp(epilogue->copy);
    rewriter.eraseOp(epilogue->op);
    rewriter.eraseOp(tile.getDefiningOp());
    for (memref::SubViewOp corner : epilogue->corners)
      if (corner)
        rewriter.eraseOp(corner);
    rewriter.eraseOp(g.reduce);
    if (prologue)
      prologue->eraseLeftovers();
    eraseStatistics();
    for (const WarpgroupProduct &product : g.products) {
      rewriter.eraseOp(product.accFill);
      rewriter.eraseOp(product.acc.getDefiningOp());
    }
    // The epilogue is the consumers' (it went where the copy was): the rest
    // of the block joins their branch.
    if (producer) {
      Block *body = consumerBranch->getBlock();
      Operation *yield = consumerBranch.getElseRegion().front().getTerminator();
      for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
               std::next(consumerBranch->getIterator()),
               body->getTerminator()->getIterator())))
        op.moveBefore(yield);
      if (cluster) {
        // No block leaves while its partner may still arrive on its
        // barriers: the consumers' last remote arrivals come before their
        // cluster arrive (the producers' multicasts into a block all landed
        // before its consumers' last full-barrier wait; a producer thread
        // that has exited does not hold the wait up).
        rewriter.setInsertionPoint(yield);
        NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
        NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      }
    }
    return;
  }
  assert(g.accumulators() == 1 && "two products take the fragment epilogue");
  const WarpgroupProduct &only = g.products.front();
  // Otherwise the fragments go to a fresh f32 tile (warp w stores rows 16 w
  // to 16 w + 15 of each 64: the second warpgroup's land below the first's).
  Value result = memref::AllocOp::create(
      rewriter, loc, sharedTile({kTileM, g.tileN}, rewriter.getF32Type()));
  storeToTile(products.front(), result);
  gpu::BarrierOp::create(rewriter, loc);

  auto oldAcc = only.acc.getDefiningOp<memref::AllocOp>();
  Value replacement = result;
  if (oldAcc.getType() != result.getType())
    replacement = memref::SubViewOp::create(
        rewriter, loc, result,
        SmallVector<OpFoldResult>(2, rewriter.getIndexAttr(0)),
        oldAcc.getMixedSizes(),
        SmallVector<OpFoldResult>(2, rewriter.getIndexAttr(1)));
  rewriter.eraseOp(g.reduce);
  if (prologue)
    prologue->eraseLeftovers();
  eraseStatistics();
  rewriter.eraseOp(only.accFill);
  rewriter.replaceAllUsesWith(oldAcc.getResult(), replacement);
  rewriter.eraseOp(oldAcc);
}

struct GPUWarpgroupMatmul
    : blockbuster::impl::GPUWarpgroupMatmulBase<GPUWarpgroupMatmul> {
  using Base::Base;

  static int64_t blockCount(scf::ForallOp grid) {
    int64_t blocks = 1;
    for (int64_t extent : grid.getStaticUpperBound())
      blocks *= extent;
    return blocks;
  }

  /// The splits of `gemm`'s k steps across blocks (1: none): where its
  /// grid has fewer blocks than the SMs, the rule of gpu-split-reductions
  /// (SplitFactor.h) with the blocks per SM that the ring's `slots` leave
  /// room for. Only with the epilogue on the fragments, which the partials
  /// and the combine keep in registers.
  int64_t splitFactor(const WarpgroupGemm &gemm, scf::ForallOp grid,
                      int64_t slots) {
    if (splitMaxBlocks <= 0 || grid.getRank() > 2 ||
        llvm::any_of(grid.getStaticUpperBound(), ShapedType::isDynamic))
      return 1;
    int64_t blocks = blockCount(grid);
    int64_t kTotal = cast<MemRefType>(gemm.a.getType()).getDimSize(1);
    int64_t slotBytes =
        (kTileM + gemm.tileN * gemm.accumulators()) * kStepK *
        (gemm.elementType.getIntOrFloatBitWidth() / 8);
    // The runtime's reserve of 1 KB per block besides the ring.
    int64_t perSM = std::max<int64_t>(
        1, sharedMemoryPerSM / (slots * slotBytes + 1024));
    return chooseSplitFactor(
        {blocks, llvm::divideCeilSigned(kTotal, kStepK), 0, sms * perSM},
        {sms, splitMaxBlocks, kMaxWarpgroupSplits,
         kMinWarpgroupStepsPerSplit});
  }

  /// Whether `gemm` takes the producer form: a tile of two consumer
  /// warpgroups (128 x 256, or two 128 x 128 products), A read as it is or
  /// computed by the register prologue (each consumer warpgroup's own
  /// rows, in registers: the slots stay as TMA wrote them), the epilogue
  /// on the fragments (which the consumers run in their branch; through
  /// shared memory it would be lowered later over all the block's
  /// threads), an unsplit grid, and the reduce directly in the grid's body
  /// (the ops after it join the consumers' branch).
  LogicalResult
  producerPrecondition(const WarpgroupGemm &gemm, scf::ForallOp grid,
                       const FailureOr<FragmentEpilogue> &epilogue,
                       int64_t splits) {
    if (gemm.warpgroups() != 2)
      return fail(gemm.dot(), "producer form: not two consumer warpgroups");
    if (gemm.prologue && !prologueRegisters)
      return fail(gemm.dot(),
                  "producer form: the prologue rewrites the slots");
    if (failed(epilogue) || splits > 1)
      return fail(gemm.dot(),
                  "producer form: no fragment epilogue, or a split grid");
    if (gemm.reduce->getBlock() != grid.getBody())
      return fail(gemm.dot(), "producer form: the reduce is nested");
    return success();
  }

  /// Whether the producer form of `gemm` may loop over the tiles: the
  /// block computes nothing before its reduce but indices and views (the
  /// statistics of a one-kernel norm + matmul, a loop with workgroup tiles
  /// of its own, would stay live beside the ring across the tiles: more
  /// shared memory than a block has), and a register prologue, if any,
  /// leaves its row values to the accumulator (RMSNorm's rstd): LayerNorm's
  /// body keeps each row's mean and rstd and two column inputs live across
  /// the mainloop, and with the tile loop's values ptxas spilled 40 bytes
  /// at 232 registers (84 at 224), measured slower at M2048.
  LogicalResult persistentPrecondition(const WarpgroupGemm &gemm,
                                       scf::ForallOp grid) {
    if (gemm.prologue &&
        !(prologueRowScale &&
          WarpgroupPrologueLowering::leavesRowInputToAccumulator(
              *gemm.prologue)))
      return fail(gemm.dot(), "persistent form: the prologue keeps its row "
                              "values in the mainloop");
    for (Operation &op : *grid.getBody()) {
      if (&op == gemm.reduce)
        return success();
      if (isa<LoopLikeOpInterface, linalg::GenericOp>(op))
        return fail(&op, "persistent form: the block computes before its "
                         "reduce");
    }
    return success();
  }

  /// A two-dimensional grid of static extents from 0 in steps of 1.
  static bool isStaticGrid(scf::ForallOp grid) {
    return grid.getRank() == 2 &&
           !llvm::any_of(grid.getStaticUpperBound(), ShapedType::isDynamic) &&
           llvm::all_of(grid.getMixedLowerBound(),
                        [](OpFoldResult b) { return isConstantIntValue(b, 0); }) &&
           llvm::all_of(grid.getMixedStep(),
                        [](OpFoldResult s) { return isConstantIntValue(s, 1); });
  }

  void runOnOperation() override {
    if (threads != kWarpgroupThreads)
      return;
    SmallVector<WarpgroupGemm, 2> gemms;
    getOperation().walk([&](linalg::GenericOp op) {
      FailureOr<WarpgroupGemm> gemm = matchWarpgroupGemm(op);
      if (succeeded(gemm))
        gemms.push_back(*gemm);
    });
    IRRewriter rewriter(&getContext());
    for (const WarpgroupGemm &gemm : gemms) {
      FailureOr<FragmentEpilogue> epilogue = failure();
      if (fragmentEpilogue)
        epilogue = matchFragmentEpilogue(gemm);
      // Two products run only as register-A wgmmas with the epilogue on
      // the fragments (two f32 tiles of the block beside the ring would not
      // fit); otherwise both dots stay with mma.sync.
      if (gemm.accumulators() > 1 &&
          (!prologueRegisters || failed(epilogue))) {
        LLVM_DEBUG(llvm::dbgs() << "two products without register A or a "
                                   "fragment epilogue: left to mma.sync\n");
        continue;
      }
      // 3 slots of 128 x 128 tiles (96 KB) leave room for a second block
      // on the SM; 4 slots of 128 x 256 tiles take 192 KB.
      int64_t slots = stages > 0 ? stages.getValue()
                                 : (gemm.warpgroups() > 1 ? 4 : 3);
      auto grid = gemm.dot()->getParentOfType<scf::ForallOp>();
      int64_t splits =
          succeeded(epilogue) ? splitFactor(gemm, grid, slots) : 1;
      // A split grid of at most one block per SM gives each block the room
      // of the second: a fourth slot of 128 x 128 tiles, one more step of
      // B in flight from memory (M128 K4096 N4096 on the H200: 25.1 ->
      // 23.1 us; more slots measured no faster, docs/performance.md).
      if (stages == 0 && splits > 1 && gemm.warpgroups() == 1 &&
          blockCount(grid) * splits <= sms)
        slots = 4;
      // The prologue body the lowering clones per A element, with fused
      // multiply-adds (FmaContraction.h).
      if (gemm.prologue && prologueContractFma)
        (void)contractToFma(rewriter, gemm.prologue->op);
      bool producerForm =
          producer && succeeded(producerPrecondition(gemm, grid, epilogue,
                                                     splits));
      WarpgroupMatmulLowering lowering(rewriter, gemm, slots, prologueAhead,
                                       prologueRegisters,
                                       prologueRegistersOneWarpgroup,
                                       prologueRowScale,
                                       prologueStatistics, splits,
                                       producerForm, productsOneWgmma);
      // The persistent grid takes the grouped order into its tile loop.
      if (producerForm && persistent && isStaticGrid(grid) &&
          succeeded(persistentPrecondition(gemm, grid))) {
        // Clusters of two blocks on the two row tiles of a column, which
        // share B: only where the rows of tiles pair up (no tile without
        // its partner), and not where stream-K shares out the last waves
        // (its work items would give the blocks of a cluster different k
        // steps; --wgmma-stream-k=false gives those grids clusters too).
        ArrayRef<int64_t> extents = grid.getStaticUpperBound();
        bool streamKGrid =
            streamK && gemm.accumulators() == 1 &&
            streamKPays(extents[0] * extents[1], sms, streamKMinWaves);
        // By default only where B's rows are not whole 128-byte lines:
        // there each B box straddles lines, and multicast halves what the
        // two blocks read of them (measured 5-15% faster on an H200;
        // neutral where only M or K is uneven, and on the aligned anchors).
        bool clusters = clusterMulticast ||
                        (clusterMulticastUnaligned && hasUnalignedBRows(gemm));
        bool clusterPairs =
            clusters && !streamKGrid && extents[0] % 2 == 0 && sms >= 2;
        grid = lowering.persist(grid, sms, groupRows,
                                streamK && gemm.accumulators() == 1,
                                streamKMinWaves, clusterPairs);
      } else
        lowering.groupTiles(grid, groupRows);
      if (gemm.warpgroups() > 1)
        grid->setAttr(kBlockThreadsAttrName,
                      rewriter.getI64IntegerAttr(
                          (gemm.warpgroups() + (producerForm ? 1 : 0)) *
                          kWarpgroupThreads));
      lowering.run(succeeded(epilogue) ? std::optional(*epilogue)
                                       : std::nullopt);
    }
  }
};

} // namespace
