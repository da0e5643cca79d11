//===- DecodeGemv.cpp - Decode GEMV blocks: the weight stream in registers ===//
//
// Kernel shape 4 of docs/design/06-fast-kernels.md. A decode block (a few
// activation rows, R <= 16, against a slice of a large weight matrix) is a
// stream of weights: each weight element is used R times, so the tensor
// cores idle and the time is the bytes. The generic path staged each k step
// of the weights in shared memory (cp.async) and waited for it between two
// barriers, with the accumulator in shared memory: one tile in flight per
// block. Here each warp takes some k16 steps of every loop iteration and
// keeps its weights, activations and accumulators in registers:
//
//   - weights: lane l (group g = l / 4, q = l % 4) loads 16 bytes (8
//     columns c0 + 8 g .. + 7) of the rows k + 2q, k + 2q + 1, k + 2q + 8
//     and k + 2q + 9 of each k16 step, 8 lanes reading 128 contiguous
//     bytes of a row, one loop iteration ahead (by inline ld.global.nc on
//     grids of few blocks per SM, so that LLVM cannot fold the distance
//     away: see emit()), optionally prefetched into L2 further ahead;
//     The 8 columns a lane holds are 8 n8 tiles of one mma.sync
//     m16n8k16 each: tile j's column n = g is the weight column c0 + 8 g +
//     j, and the pairs (k + 2q, k + 2q + 1) and (k + 2q + 8, k + 2q + 9) of
//     that column are exactly the B fragment lane l supplies (two bf16 of
//     two loads packed per register: PRMT), with no shared memory and no
//     shuffle;
//   - activations: the A fragment (rows g and g + 8, the same k pairs) from
//     loads of the activation rows (L2/L1-resident: M x K x 2 bytes): with
//     one dot, the k order of the warp's steps permuted alike for A and B
//     so that a lane's elements are contiguous, 16-byte vectors an
//     iteration ahead; else 4-byte pairs; through the program's own
//     prologue (a norm's `x * rstd * gamma`, rounded as the program
//     rounds), its row-uniform part (rsqrt of the statistics) once per lane
//     and row before the loop; rows past R are zero;
//   - accumulators: mma's f32 registers across the whole loop. Lane l's
//     register 2h + e of tile j is row g + 8h, column c0 + 8 (2q + e) + j:
//     8 consecutive columns per (h, e), stored into a workgroup slot per
//     warp once the loop is done, and the slots added into the block's
//     accumulator tile in warp order after one barrier (deterministic).
//
// The row statistics before the loop (a norm's sums, tiled along k) take the
// schedule of gpu-row-kernels (RowKernels.h); the block's accumulator tile,
// a split combine (gpu-split-reductions ran before) and the epilogue stay on
// the generic path: they touch R x N elements once.
//
// Taken: a block grid with a top-level `scf.for` (step 1, no results) whose
// body is index arithmetic, subviews, workgroup tiles and 1-2 tile
// contractions C[m, n] += ext(A[m, k]) * ext(B[k, n]) of one A (16-bit, R x
// Tk, R <= 16, Tk a multiple of 16 times the warps on a column group) with
// B a static [Tk, Tn] view of a global array (Tn a multiple of 64, rows of a
// multiple of 16 bytes), each added into an f32 accumulator tile filled
// before the loop; A is a view of a global array or the output of one
// elementwise generic of views of global [R, Tk] rows, [R] row scalars and
// [Tk] columns; the block's other top-level loops, before this one, are
// tiled row reductions. Everything else keeps the generic path, and
// `-debug-only=gpu-decode-gemv` says why.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Support/RowSchedule.h"

#include "LinearForalls.h"
#include "PrologueStatistics.h"
#include "RowKernels.h"
#include "TileContractions.h"
#include "UnitRows.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUDECODEGEMV
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

#define DEBUG_TYPE "gpu-decode-gemv"

namespace {

constexpr int64_t kWarpSize = 32;
/// mma.sync m16n8k16.
constexpr int64_t kMmaM = 16, kMmaK = 16;
/// The columns of one warp's k16 step: 8 lane groups x 8 columns (16 bytes).
constexpr int64_t kGroupColumns = 64;
/// The most elements of a statistics row one lane keeps (shared with the
/// block analysis, which must know which statistics rows fit).
constexpr int64_t kPrefixPerLane = kDecodeStatisticsPerLane;
/// The bytes one L2 prefetch brings in (a cache line).
constexpr int64_t kLineBytes = 128;

bool isWorkgroup(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

/// Static shape, innermost stride 1, other strides multiples of `elements`.
bool isRowAligned(Value memref, int64_t elements) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t offset;
  SmallVector<int64_t> strides;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % elements != 0)
      return false;
  return true;
}

/// Whether the innermost offset of subview `v` is a multiple of `elements`:
/// a constant, or a product with such a constant, plus such terms.
bool offsetIsMultiple(OpFoldResult offset, int64_t elements) {
  if (std::optional<int64_t> c = getConstantIntValue(offset))
    return *c % elements == 0;
  Value v = cast<Value>(offset);
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return offsetIsMultiple(mul.getLhs(), elements) ||
           offsetIsMultiple(mul.getRhs(), elements);
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    return offsetIsMultiple(add.getLhs(), elements) &&
           offsetIsMultiple(add.getRhs(), elements);
  return false;
}

bool innerOffsetIsMultiple(Value view, int64_t elements) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview)
    return true;
  return offsetIsMultiple(subview.getMixedOffsets().back(), elements);
}

/// An op of the dot loop's body that `GemvEmitter::cloneIndexing` clones:
/// index arithmetic and views.
bool isIndexing(Operation *op) {
  return isa<memref::SubViewOp>(op) ||
         (isPure(op) && op->getNumRegions() == 0 && !isa<linalg::LinalgOp>(op));
}

/// How a prologue operand is indexed.
enum class Access { Row, RowScalar, Column };

struct Dot {
  linalg::GenericOp op;
  AccumulationFold fold;
  Value weights;
};

/// The sum of squares of a prologue row operand's rows, accumulated over
/// the loop (gpu-decode-row-factor put it there): an iteration's f32 tile
/// zero-filled, `extf(x) * extf(x)` reduced along k into it, the tile added
/// into `sums`, a tile of the block (whose factor the accumulators take
/// after the loop).
struct Squares {
  Value x, partial, sums;
  linalg::FillOp fill;
  linalg::GenericOp reduce, add;
};

/// The precondition of `lowerDotLoop`.
struct DotLoop {
  scf::ForOp loop;
  SmallVector<Dot> dots;
  /// The dots' common A operand, and the generic that computes it (null
  /// when A is a view of global memory).
  Value a;
  linalg::GenericOp prologue;
  DenseMap<Value, Access> prologueAccess;
  std::optional<Squares> squares;
  int64_t rows = 0, tileK = 0, tileN = 0;
  Type element;
  std::string reason;

  LogicalResult fail(const Twine &why) {
    reason = why.str();
    return failure();
  }
};

LogicalResult matchDotLoop(scf::ForOp loop, int64_t warps, DotLoop &info) {
  info.loop = loop;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step != 1 || loop.getNumResults() != 0)
    return info.fail("a loop with a step other than 1 or with results");
  Block *body = loop.getBody();
  auto inLoop = [&](Value v) { return v.getParentBlock() == body; };
  for (auto generic : body->getOps<linalg::GenericOp>()) {
    std::optional<TileContraction> c = matchTileContraction(generic);
    if (!c)
      continue;
    if (!c->batch.empty())
      return info.fail("a batched contraction");
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    MLIRContext *ctx = generic.getContext();
    AffineExpr m = getAffineDimExpr(c->m, ctx), n = getAffineDimExpr(c->n, ctx),
               k = getAffineDimExpr(c->k, ctx);
    if (maps[0].getResults() != ArrayRef<AffineExpr>{m, k} ||
        maps[1].getResults() != ArrayRef<AffineExpr>{k, n})
      return info.fail("a contraction other than A[m, k] * B[k, n]");
    std::optional<AccumulationFold> fold = findAccumulationFold(generic);
    if (!fold || inLoop(fold->acc) || !isWorkgroup(fold->acc))
      return info.fail("a contraction not added into an accumulator tile "
                       "of the block");
    Value a = generic.getDpsInputs()[0], w = generic.getDpsInputs()[1];
    if (info.a && info.a != a)
      return info.fail("contractions of different A operands");
    info.a = a;
    auto aType = cast<MemRefType>(a.getType());
    auto wType = cast<MemRefType>(w.getType());
    auto cType = cast<MemRefType>(fold->acc.getType());
    if (!aType.hasStaticShape() || !wType.hasStaticShape() ||
        !cType.hasStaticShape())
      return info.fail("a partial edge tile (dynamic shape)");
    Type element = aType.getElementType();
    if (!(element.isBF16() || element.isF16()) ||
        wType.getElementType() != element || !cType.getElementType().isF32())
      return info.fail("operands other than f16/bf16 into f32");
    info.element = element;
    int64_t rows = aType.getDimSize(0), tileK = aType.getDimSize(1),
            tileN = wType.getDimSize(1);
    if ((info.rows && (info.rows != rows || info.tileK != tileK ||
                       info.tileN != tileN)))
      return info.fail("contractions of different tile shapes");
    info.rows = rows;
    info.tileK = tileK;
    info.tileN = tileN;
    if (!isGlobalView(w) || !isRowAligned(w, 8) || !innerOffsetIsMultiple(w, 8))
      return info.fail("weights that are not a 16-byte aligned view of "
                       "global memory");
    info.dots.push_back({generic, *fold, w});
  }
  if (info.dots.empty())
    return info.fail("no contraction in the loop");
  if (info.rows > kMmaM)
    return info.fail("more than 16 rows");
  if (info.tileN % kGroupColumns != 0)
    return info.fail("a column tile that is not a multiple of 64");
  int64_t groups = info.tileN / kGroupColumns;
  if (warps % groups != 0 || info.tileK % (kMmaK * (warps / groups)) != 0)
    return info.fail("a k tile the warps of a column group cannot share "
                     "in k16 steps");

  // A: a global view, or one elementwise generic's output in the loop.
  if (isGlobalView(info.a)) {
    if (!isRowAligned(info.a, 2) || !innerOffsetIsMultiple(info.a, 2))
      return info.fail("an A view without 4-byte aligned pairs");
  } else {
    auto alloc = info.a.getDefiningOp<memref::AllocOp>();
    if (!alloc || !inLoop(alloc) || !isWorkgroup(alloc))
      return info.fail("an A tile that is neither global nor made in the "
                       "loop");
    for (Operation *user : info.a.getUsers()) {
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (!generic)
        return info.fail("an A tile used other than by generics");
      if (llvm::is_contained(generic.getDpsInits(), info.a)) {
        if (info.prologue)
          return info.fail("an A tile written twice");
        info.prologue = generic;
      }
    }
    linalg::GenericOp p = info.prologue;
    if (!p || p.getNumDpsInits() != 1 || p.getNumLoops() != 2 ||
        p.getNumReductionLoops() != 0 || !p.hasPureBufferSemantics() ||
        !p.getMatchingIndexingMap(p.getDpsInitOperand(0)).isIdentity() ||
        !p.getRegionOutputArgs()[0].use_empty())
      return info.fail("an A tile not written by one elementwise generic");
    MLIRContext *ctx = p.getContext();
    AffineExpr r = getAffineDimExpr(0, ctx), kk = getAffineDimExpr(1, ctx);
    for (OpOperand *input : p.getDpsInputOperands()) {
      AffineMap map = p.getMatchingIndexingMap(input);
      Value v = input->get();
      auto type = dyn_cast<MemRefType>(v.getType());
      if (!type || !type.hasStaticShape())
        return info.fail("a prologue operand of dynamic shape");
      Access access;
      if (map.getResults() == ArrayRef<AffineExpr>{r, kk}) {
        access = Access::Row;
        if (!isGlobalView(v) || !isRowAligned(v, 2) ||
            !innerOffsetIsMultiple(v, 2))
          return info.fail("a prologue row operand that is not a view of "
                           "global memory with 4-byte aligned pairs");
      } else if (map.getResults() == ArrayRef<AffineExpr>{r}) {
        access = Access::RowScalar;
        if (inLoop(v))
          return info.fail("a row-scalar operand computed in the loop");
      } else if (map.getResults() == ArrayRef<AffineExpr>{kk}) {
        access = Access::Column;
        if (!isGlobalView(v) || !isRowAligned(v, 2) ||
            !innerOffsetIsMultiple(v, 2))
          return info.fail("a column operand that is not a view of global "
                           "memory with 4-byte aligned pairs");
      } else {
        return info.fail("a prologue map other than (r, k), (r), (k)");
      }
      info.prologueAccess[v] = access;
    }
    for (Operation &op : p.getBlock()->without_terminator())
      if (op.getNumRegions() != 0)
        return info.fail("a prologue body op with regions");
  }

  // The sum of squares of a row operand of the prologue, accumulated into a
  // tile of the block.
  for (auto reduce : body->getOps<linalg::GenericOp>()) {
    Value x = sumOfSquaresInput(reduce);
    if (!x)
      continue;
    if (info.squares)
      return info.fail("two sums of squares in the loop");
    if (!info.prologue || info.prologueAccess.lookup(x) != Access::Row)
      return info.fail("a sum of squares of other than a prologue row "
                       "operand");
    Squares s{x, reduce.getDpsInits()[0], Value(), {}, reduce, {}};
    auto partial = s.partial.getDefiningOp<memref::AllocOp>();
    if (!partial || !inLoop(partial) || !isWorkgroup(partial))
      return info.fail("a sum of squares into other than a tile of the "
                       "iteration");
    for (Operation *user : s.partial.getUsers()) {
      if (user == reduce.getOperation())
        continue;
      if (auto fill = dyn_cast<linalg::FillOp>(user);
          fill && !s.fill && fill->isBeforeInBlock(reduce) &&
          matchPattern(fill.getInputs()[0], m_AnyZeroFloat())) {
        s.fill = fill;
        continue;
      }
      auto add = dyn_cast<linalg::GenericOp>(user);
      if (!add || s.add || !isRowAccumulation(add, s.partial,
                                              add.getDpsInits()[0]))
        return info.fail("a sum of squares used other than by its fill and "
                         "one accumulation");
      s.add = add;
      s.sums = add.getDpsInits()[0];
    }
    if (!s.fill || !s.add || inLoop(s.sums) || !isWorkgroup(s.sums) ||
        !reduce->isBeforeInBlock(s.add) ||
        cast<MemRefType>(s.sums.getType()).getShape() !=
            ArrayRef<int64_t>{info.rows})
      return info.fail("a sum of squares not zero-filled, then added into a "
                       "row tile of the block");
    for (Operation *user : s.sums.getUsers())
      if (user != s.add.getOperation() && loop->isAncestor(user))
        return info.fail("the sums of squares read in the loop");
    info.squares = s;
  }

  // Nothing else in the loop: index arithmetic, views, the tiles of the
  // contractions and their folds.
  DenseSet<Operation *> known;
  for (const Dot &dot : info.dots) {
    known.insert(dot.op);
    known.insert(dot.fold.fill);
    known.insert(dot.fold.add);
  }
  if (info.prologue)
    known.insert(info.prologue);
  if (info.squares)
    for (Operation *op : {info.squares->fill.getOperation(),
                          info.squares->reduce.getOperation(),
                          info.squares->add.getOperation()})
      known.insert(op);
  for (Operation &op : body->without_terminator()) {
    if (known.contains(&op) || isa<memref::SubViewOp, memref::AllocOp>(op))
      continue;
    if (isPure(&op) && op.getNumRegions() == 0 &&
        llvm::all_of(op.getResultTypes(),
                     [](Type t) { return t.isIntOrIndex(); }))
      continue;
    return info.fail("an op in the loop other than the dots, their prologue "
                     "and index arithmetic: " +
                     op.getName().getStringRef());
  }
  return success();
}

/// Emits the register schedule of a matched dot loop in place of the loop.
class GemvEmitter {
public:
  GemvEmitter(RewriterBase &rewriter, DotLoop &info, int64_t warps,
              int64_t prefetchBytes, bool weightsAhead, int64_t weightsDistance,
              bool activationsAhead, bool activationVectors)
      : b(rewriter), loc(info.loop.getLoc()), info(info), warps(warps),
        ahead(prefetchIterations(info, prefetchBytes)),
        weightsAhead(weightsAhead),
        weightsDistance(std::max<int64_t>(1, weightsDistance)),
        activationsAhead(activationsAhead),
        activationVectors(activationVectors) {}

  /// The loop iterations whose weights are prefetched into L2 ahead of the
  /// loads: as many whole iterations of the block's weights as fit in
  /// `bytes`, at least one (0 where `bytes` is 0).
  static int64_t prefetchIterations(const DotLoop &info, int64_t bytes) {
    return bytes <= 0 ? 0 : wholeIterations(info, bytes);
  }

  /// As many whole iterations of the block's weights as fit in `bytes`, at
  /// least one.
  static int64_t wholeIterations(const DotLoop &info, int64_t bytes) {
    int64_t perIteration = int64_t(info.dots.size()) * info.tileK *
                           info.tileN * info.element.getIntOrFloatBitWidth() /
                           8;
    return std::max<int64_t>(1, bytes / perIteration);
  }

  /// Whether the L2 prefetch of the first iterations can be issued at
  /// `point`, a top-level op of the block before the dot loop: every value
  /// the loop's indexing reads from outside it is defined before `point`.
  bool canPrefetchAt(Operation *point);

  /// At the builder's insertion point (before the statistics): a warp
  /// forall whose threads prefetch the weights of the loop's first `ahead`
  /// iterations into L2, so that the weight stream runs from HBM while the
  /// block computes its statistics (from x, in L2). Without it each block
  /// asked HBM for nothing until its statistics were done.
  void emitPrefetchForall();

  /// The statistics stay in a warp forall of their own before this one
  /// (lowerRowPrefix), a barrier between them, unless `statistics` is that
  /// forall: then its body moves into this forall after the first
  /// iteration's loads, so that they are in flight from HBM while the
  /// statistics read x (from L2), and a barrier follows it. Measured on the
  /// H100 in session 9, before the weights were ahead, both that order (64
  /// more registers live across the statistics, 2 blocks per SM instead of
  /// 4: M3 1.3-1.8x, M128 1.5x slower, M16 no faster) and the statistics
  /// inside this forall after a barrier (RMSNorm M16 0.0309 -> 0.0349 ms)
  /// were slower; where the weights are ahead the registers are spent
  /// already, yet it measured 0.96-1.02x (the x reads and the weights
  /// share the L2-to-SM path; docs/performance.md, session 11): an option.
  void emit(scf::ForallOp statistics);

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value addc(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, index(y));
  }
  Value i32(Value vector) {
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vector);
  }

  /// The pair (k, k + 1) of `view` at row `row` (null: a column), as a
  /// vector of 2; by inline `ld.global.nc.b32` where `opaque` (a load an
  /// iteration ahead that LLVM must not fold into the iteration's own).
  Value loadPair(Value view, Value row, Value k, bool opaque) {
    auto type = VectorType::get({2}, cast<MemRefType>(view.getType())
                                         .getElementType());
    SmallVector<Value> indices;
    if (row)
      indices.push_back(row);
    indices.push_back(k);
    if (opaque) {
      auto load = LLVM::InlineAsmOp::create(
          b, loc, b.getI32Type(), ValueRange{globalPointer(view, indices)},
          "ld.global.nc.b32 $0, [$1];", "=r,l", /*has_side_effects=*/false,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr());
      return LLVM::BitcastOp::create(b, loc, type, load.getResult(0));
    }
    auto load = vector::LoadOp::create(b, loc, type, view, indices);
    load.setAlignment(4);
    return load;
  }

  /// The global address of the element at `indices` of `view`, a view of a
  /// global array.
  Value globalPointer(Value view, ValueRange indices);
  /// `words` 4-byte words (2 or 4) of `view` at `indices` by inline
  /// `ld.global.nc` (`.L1::no_allocate` where `noAllocate`: the weights,
  /// read once): a load LLVM cannot fold into another (see emit()).
  Value loadOpaque(Value view, ValueRange indices, int64_t words,
                   bool noAllocate);

  /// The loop's index arithmetic and views at iteration `iv`.
  IRMapping cloneIndexing(Value iv);
  /// Thread `thread` of the block's `prefetch.global.L2` of iteration `iv`'s
  /// weights: lines thread, thread + threads, ... of each dot's [Tk, Tn]
  /// view (Tn x 2 bytes a row: whole 128-byte lines).
  void prefetchIteration(Value iv, Value thread);
  /// Iterations [lb, min(lb + ahead, ub)) of the loop, by `thread`.
  void prefetchHead(Value thread);

  /// The row-uniform part of the prologue for row `row`, in `mapping`.
  void emitRowPart(Value row, IRMapping &mapping, DenseSet<Operation *> &ops);
  /// The loads of A fragment register h at k, with the views of `mapping`:
  /// the pair of A, or of each row and column operand of the prologue.
  SmallVector<Value> loadA(const IRMapping &mapping, int64_t h, Value k,
                           bool opaque);
  /// A fragment register: elements (row, k) and (row, k + 1) of A, from
  /// the pairs of loadA.
  Value aRegister(int64_t h, Value k, ArrayRef<Value> loaded);
  /// Whether every pair loadA loads has 16-bit elements (one b32 load).
  bool pairsAre32Bits();

  /// The operands of the A fragment's loads, in loadA's order: A, or the
  /// prologue's row and column operands.
  SmallVector<Value> pairOperands();
  /// Whether `operand` of pairOperands() has rows (A, or a row operand).
  bool hasRows(Value operand);
  /// Whether every operand of pairOperands() has rows of whole, aligned
  /// `elements`-element vectors.
  bool pairOperandsAligned(int64_t elements);
  /// Where the k order is permuted: this lane's `perLane` contiguous
  /// elements of the iteration from each operand of pairOperands() (rows g
  /// and g + 8 of a row operand), in `chunk`-element vectors from `laneK`.
  /// Where `exists` (i1) is given and false, every lane reads the same
  /// words (see `lanesOrZero`).
  SmallVector<Value> loadChunks(const IRMapping &mapping, bool opaque,
                                Value exists = {});
  /// `v`, or 0 where `exists` is given and false: the lane-dependent part
  /// of the indices of a load past the loop's end, so that the warp's
  /// lanes read one sector (the words are not used). Not a predicated
  /// load: the registers it may leave unwritten keep their old values
  /// live (RMSNorm M16: 166 -> 249 registers).
  Value lanesOrZero(Value v, Value exists) {
    return exists ? arith::SelectOp::create(b, loc, exists, v, index(0)) : v;
  }
  /// The pairs loadA would load for A fragment register h at position `p`
  /// of this lane's contiguous elements, from the vectors of loadChunks.
  SmallVector<Value> pairsAt(ArrayRef<Value> chunks, int64_t h, int64_t p);

  RewriterBase &b;
  Location loc;
  DotLoop &info;
  int64_t warps;
  int64_t ahead;
  bool weightsAhead;
  int64_t weightsDistance;
  bool activationsAhead;
  bool activationVectors;
  bool headPrefetched = false;
  /// Lane q's first k of the iteration (slot 0 of step 0); where the k
  /// order is permuted (activationVectors), its elements per operand row
  /// and their vectors'.
  Value laneK;
  int64_t perLane = 0, chunk = 0;
  IRMapping loopMapping;
  Value rows[2], valid[2];
  IRMapping rowMappings[2];
  DenseSet<Operation *> rowOps[2];
};

IRMapping GemvEmitter::cloneIndexing(Value iv) {
  scf::ForOp loop = info.loop;
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation &op : loop.getBody()->without_terminator())
    if (isIndexing(&op))
      b.clone(op, mapping);
  return mapping;
}

bool GemvEmitter::canPrefetchAt(Operation *point) {
  if (!ahead)
    return false;
  Block *body = info.loop.getBody();
  for (Operation &op : body->without_terminator()) {
    if (!isIndexing(&op))
      continue;
    for (Value operand : op.getOperands()) {
      if (operand.getParentBlock() == body)
        continue;
      Operation *def = operand.getDefiningOp();
      Operation *inBlock =
          def ? point->getBlock()->findAncestorOpInBlock(*def) : nullptr;
      if (inBlock && !inBlock->isBeforeInBlock(point))
        return false;
    }
  }
  return true;
}

Value GemvEmitter::globalPointer(Value view, ValueRange indices) {
  MLIRContext *ctx = b.getContext();
  int64_t elementBytes =
      cast<MemRefType>(view.getType()).getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
  Value element = meta.getOffset();
  for (auto [i, index] : llvm::enumerate(indices))
    element = add(element,
                  arith::MulIOp::create(b, loc, index, meta.getStrides()[i]));
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), add(base, mul(element, elementBytes)));
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1),
      LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                               address));
}

Value GemvEmitter::loadOpaque(Value view, ValueRange indices, int64_t words,
                              bool noAllocate) {
  Type i32 = b.getI32Type();
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                               SmallVector<Type>(words, i32));
  std::string outputs, constraints;
  for (int64_t i = 0; i < words; ++i) {
    outputs += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  std::string asmString = std::string("ld.global.nc.") +
                          (noAllocate ? "L1::no_allocate." : "") + "v" +
                          std::to_string(words) + ".b32 {" + outputs + "}, [$" +
                          std::to_string(words) + "];";
  auto load = LLVM::InlineAsmOp::create(
      b, loc, type, ValueRange{globalPointer(view, indices)}, asmString,
      constraints + "l",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> loaded;
  for (int64_t i = 0; i < words; ++i)
    loaded.push_back(
        LLVM::ExtractValueOp::create(b, loc, load.getResult(0), i));
  Value packed = vector::FromElementsOp::create(
      b, loc, VectorType::get({words}, i32), loaded);
  Type element = cast<MemRefType>(view.getType()).getElementType();
  return LLVM::BitcastOp::create(
      b, loc,
      VectorType::get({words * 32 / element.getIntOrFloatBitWidth()}, element),
      packed);
}

void GemvEmitter::prefetchIteration(Value iv, Value thread) {
  MLIRContext *ctx = b.getContext();
  IRMapping mapping = cloneIndexing(iv);
  int64_t threads = warps * kWarpSize;
  int64_t elementBytes = info.element.getIntOrFloatBitWidth() / 8;
  int64_t linesPerRow = info.tileN * elementBytes / kLineBytes;
  int64_t lines = info.tileK * linesPerRow;
  for (const Dot &dot : info.dots) {
    Value view = mapping.lookupOrDefault(dot.weights);
    for (int64_t p = 0; p * threads < lines; ++p) {
      OpBuilder::InsertionGuard guard(b);
      Value line = addc(thread, p * threads);
      if ((p + 1) * threads > lines) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             line, index(lines));
        b.setInsertionPointToStart(
            scf::IfOp::create(b, loc, inside).thenBlock());
      }
      Value row = line, column = index(0);
      if (linesPerRow > 1) {
        row = arith::DivUIOp::create(b, loc, line, index(linesPerRow));
        column = mul(arith::RemUIOp::create(b, loc, line, index(linesPerRow)),
                     kLineBytes / elementBytes);
      }
      Value pointer = globalPointer(view, {row, column});
      NVVM::PrefetchOp::create(
          b, loc,
          NVVM::PrefetchCacheLevelAttr::get(ctx, NVVM::PrefetchCacheLevel::L2),
          /*evictPriority=*/nullptr, pointer, /*predicate=*/Value(),
          /*tensormap=*/nullptr);
    }
  }
}

void GemvEmitter::prefetchHead(Value thread) {
  OpBuilder::InsertionGuard guard(b);
  Value lb = info.loop.getLowerBound(), ub = info.loop.getUpperBound();
  Value end = arith::MinUIOp::create(b, loc, addc(lb, ahead), ub);
  auto head = scf::ForOp::create(b, loc, lb, end, index(1));
  b.setInsertionPoint(head.getBody()->getTerminator());
  prefetchIteration(head.getInductionVar(), thread);
}

void GemvEmitter::emitPrefetchForall() {
  OpBuilder::InsertionGuard guard(b);
  auto forall = createWarpForall(b, loc, warps);
  b.setInsertionPoint(forall.getBody()->getTerminator());
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  prefetchHead(add(mul(forall.getInductionVar(0), kWarpSize), lane));
  headPrefetched = true;
}

void GemvEmitter::emitRowPart(Value row, IRMapping &mapping,
                              DenseSet<Operation *> &ops) {
  linalg::GenericOp p = info.prologue;
  Block *body = p.getBlock();
  DenseSet<Value> uniform;
  for (OpOperand *input : p.getDpsInputOperands()) {
    if (info.prologueAccess.lookup(input->get()) != Access::RowScalar)
      continue;
    Value arg = body->getArgument(input->getOperandNumber());
    uniform.insert(arg);
    mapping.map(arg, memref::LoadOp::create(b, loc, input->get(), row));
  }
  auto isUniform = [&](Value v) {
    return uniform.contains(v) ||
           !p.getRegion().isAncestor(v.getParentRegion());
  };
  for (Operation &op : body->without_terminator()) {
    if (isa<linalg::IndexOp>(op) || !llvm::all_of(op.getOperands(), isUniform))
      continue;
    ops.insert(&op);
    uniform.insert_range(op.getResults());
    b.clone(op, mapping);
  }
}

SmallVector<Value> GemvEmitter::loadA(const IRMapping &mapping, int64_t h,
                                      Value k, bool opaque) {
  if (!info.prologue)
    return {loadPair(mapping.lookupOrDefault(info.a), rows[h], k, opaque)};
  SmallVector<Value> loaded;
  for (OpOperand *input : info.prologue.getDpsInputOperands()) {
    Access access = info.prologueAccess.lookup(input->get());
    Value view = mapping.lookupOrDefault(input->get());
    if (access != Access::RowScalar)
      loaded.push_back(loadPair(view, access == Access::Row ? rows[h] : nullptr,
                                k, opaque));
  }
  return loaded;
}

bool GemvEmitter::pairsAre32Bits() {
  auto is16 = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementTypeBitWidth() == 16;
  };
  if (!info.prologue)
    return is16(info.a);
  return llvm::all_of(info.prologue.getDpsInputOperands(), [&](OpOperand *in) {
    return info.prologueAccess.lookup(in->get()) == Access::RowScalar ||
           is16(in->get());
  });
}

SmallVector<Value> GemvEmitter::pairOperands() {
  if (!info.prologue)
    return {info.a};
  SmallVector<Value> operands;
  for (OpOperand *input : info.prologue.getDpsInputOperands())
    if (info.prologueAccess.lookup(input->get()) != Access::RowScalar)
      operands.push_back(input->get());
  return operands;
}

bool GemvEmitter::hasRows(Value operand) {
  return !info.prologue || info.prologueAccess.lookup(operand) == Access::Row;
}

bool GemvEmitter::pairOperandsAligned(int64_t elements) {
  return llvm::all_of(pairOperands(), [&](Value v) {
    return isRowAligned(v, elements) && innerOffsetIsMultiple(v, elements);
  });
}

SmallVector<Value> GemvEmitter::loadChunks(const IRMapping &mapping,
                                           bool opaque, Value exists) {
  SmallVector<Value> chunks;
  Value k0 = lanesOrZero(laneK, exists);
  Value rowOf[2] = {lanesOrZero(rows[0], exists), lanesOrZero(rows[1], exists)};
  int64_t bits = info.element.getIntOrFloatBitWidth();
  auto vecType = VectorType::get({chunk}, info.element);
  for (Value operand : pairOperands()) {
    Value view = mapping.lookupOrDefault(operand);
    for (int64_t h = 0; h < (hasRows(operand) ? 2 : 1); ++h) {
      for (int64_t c = 0; c < perLane; c += chunk) {
        SmallVector<Value> indices;
        if (hasRows(operand))
          indices.push_back(rowOf[h]);
        indices.push_back(addc(k0, c));
        if (opaque) {
          chunks.push_back(loadOpaque(view, indices, chunk * bits / 32,
                                      /*noAllocate=*/false));
          continue;
        }
        auto load = vector::LoadOp::create(b, loc, vecType, view, indices);
        load.setAlignment(chunk * bits / 8);
        chunks.push_back(load);
      }
    }
  }
  return chunks;
}

SmallVector<Value> GemvEmitter::pairsAt(ArrayRef<Value> chunks, int64_t h,
                                        int64_t p) {
  SmallVector<Value> pairs;
  int64_t perRow = perLane / chunk;
  for (Value operand : pairOperands()) {
    int64_t row = hasRows(operand) ? h : 0;
    pairs.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, chunks[row * perRow + p / chunk], ArrayRef<int64_t>{p % chunk},
        ArrayRef<int64_t>{2}, ArrayRef<int64_t>{1}));
    chunks = chunks.drop_front((hasRows(operand) ? 2 : 1) * perRow);
  }
  return pairs;
}

Value GemvEmitter::aRegister(int64_t h, Value k, ArrayRef<Value> loaded) {
  Value row = rows[h];
  auto elements = [&](Value vector) -> SmallVector<Value> {
    return {vector::ExtractOp::create(b, loc, vector, 0),
            vector::ExtractOp::create(b, loc, vector, 1)};
  };
  SmallVector<Value> pair;
  if (!info.prologue) {
    pair = elements(loaded.front());
  } else {
    linalg::GenericOp p = info.prologue;
    Block *body = p.getBlock();
    SmallVector<SmallVector<Value>> inputs;
    for (OpOperand *input : p.getDpsInputOperands()) {
      if (info.prologueAccess.lookup(input->get()) == Access::RowScalar) {
        inputs.push_back({});
        continue;
      }
      inputs.push_back(elements(loaded.front()));
      loaded = loaded.drop_front();
    }
    for (int64_t e = 0; e < 2; ++e) {
      IRMapping mapping = rowMappings[h];
      for (auto [i, input] : llvm::enumerate(p.getDpsInputOperands()))
        if (!inputs[i].empty())
          mapping.map(body->getArgument(input->getOperandNumber()),
                      inputs[i][e]);
      for (Operation &op : body->without_terminator()) {
        if (rowOps[h].contains(&op))
          continue;
        if (auto loopIndex = dyn_cast<linalg::IndexOp>(op)) {
          mapping.map(loopIndex.getResult(),
                      loopIndex.getDim() == 0 ? row : addc(k, e));
          continue;
        }
        b.clone(op, mapping);
      }
      pair.push_back(
          mapping.lookupOrDefault(body->getTerminator()->getOperand(0)));
    }
  }
  auto type = VectorType::get({2}, info.element);
  Value packed = i32(vector::FromElementsOp::create(b, loc, type, pair));
  if (!valid[h])
    return packed;
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  return arith::SelectOp::create(b, loc, valid[h], packed, zero);
}

void GemvEmitter::emit(scf::ForallOp statistics) {
  MLIRContext *ctx = b.getContext();
  scf::ForOp loop = info.loop;
  int64_t groups = info.tileN / kGroupColumns;
  int64_t warpsK = warps / groups;
  int64_t steps = info.tileK / (kMmaK * warpsK);
  int64_t dots = info.dots.size();
  constexpr int64_t kTiles = kGroupColumns / 8;

  b.setInsertionPoint(loop);
  auto forall = createWarpForall(b, loc, warps);
  b.setInsertionPoint(forall.getBody()->getTerminator());
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  Value warp = forall.getInductionVar(0);
  Value group = arith::DivUIOp::create(b, loc, warp, index(warpsK));
  Value warpK = arith::RemUIOp::create(b, loc, warp, index(warpsK));
  Value g = arith::DivUIOp::create(b, loc, lane, index(4));
  Value q = arith::RemUIOp::create(b, loc, lane, index(4));
  // This lane's 8 weight columns and the k offset of its warp's steps.
  Value column = add(mul(group, kGroupColumns), mul(g, 8));
  Value warpK0 = mul(warpK, steps * kMmaK);
  // The k order of a warp's k16 steps. mma.sync's k is a sum's index: any
  // order taken alike by A and B gives the same sum (up to the f32
  // rounding inside the mma). Lane q supplies the fragment's k slots
  // (2q, 2q + 1, 2q + 8, 2q + 9) of each step; in the permuted order they
  // are the elements 4 (q steps + s) + 0..3 of the warp's k range, so that
  // the lane's A elements of the iteration are 4 x steps contiguous ones,
  // loaded by 16-byte vectors (2 per row at steps = 4: six loads of x and
  // gamma instead of 24 of 4 bytes at RMSNorm M16, the profile's largest
  // stall of session 10). Its weight rows move alike: per load instruction
  // 8 lanes still read 128 contiguous bytes of a row. One dot only: with
  // two (the FFN's gate/up kernel, 254 registers) the iteration's vectors
  // live beside 128 weight registers and spill (40 bytes).
  perLane = 4 * steps;
  chunk = perLane % 8 == 0 ? 8 : 4;
  bool permuted = activationVectors && dots == 1 && pairsAre32Bits() &&
                  pairOperandsAligned(chunk);
  // The lane's first k of the iteration: slot 0 of step 0.
  laneK = add(warpK0, mul(q, permuted ? perLane : 2));
  // The k of slot r of k16 step s, from `base` (laneK, or 0 for a load
  // past the loop's end: lanesOrZero).
  auto kAt = [&](int64_t s, int64_t r, Value base = {}) {
    base = base ? base : laneK;
    if (permuted)
      return addc(base, 4 * s + r);
    constexpr int64_t kSlots[] = {0, 1, 8, 9};
    return addc(base, s * kMmaK + kSlots[r]);
  };
  for (int64_t h = 0; h < 2; ++h) {
    Value row = addc(g, 8 * h);
    if (8 * h + 7 < info.rows) {
      rows[h] = row;
      continue;
    }
    // Rows past R: a clamped row is read, its fragment zeroed.
    valid[h] = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                     index(info.rows));
    rows[h] = arith::SelectOp::create(b, loc, valid[h], row,
                                      index(info.rows - 1));
  }
  if (info.prologue && !statistics)
    for (int64_t h = 0; h < 2; ++h)
      emitRowPart(rows[h], rowMappings[h], rowOps[h]);

  Value zero =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  // The loop's index arithmetic and views at iteration `iv`, and this
  // lane's weights of that iteration: steps x 4 16-byte loads per dot.
  auto vecType = VectorType::get({8}, info.element);
  auto loadWeights = [&](const IRMapping &mapping, Value exists) {
    SmallVector<Value> loaded;
    Value kBase = lanesOrZero(laneK, exists);
    Value columnOf = lanesOrZero(column, exists);
    for (int64_t d = 0; d < dots; ++d) {
      Value view = mapping.lookupOrDefault(info.dots[d].weights);
      for (int64_t s = 0; s < steps; ++s) {
        for (int64_t r = 0; r < 4; ++r) {
          Value k = kAt(s, r, kBase);
          if (weightsAhead) {
            loaded.push_back(loadOpaque(view, {k, columnOf}, /*words=*/4,
                                        /*noAllocate=*/true));
            continue;
          }
          auto load = vector::LoadOp::create(b, loc, vecType, view,
                                             ValueRange{k, columnOf});
          load.setAlignment(16);
          loaded.push_back(load);
        }
      }
    }
    return loaded;
  };
  // `distance` iterations of weights ahead, carried by the loop, keep the
  // next iterations' loads in flight while this one's mma run. ptxas
  // issues iteration i + 1's loads among iteration i's last HMMA, as their
  // registers free: at a distance of 1 they are in flight only between
  // there and the next iteration's first HMMA; at 2, iteration i + 1's are
  // in flight through all of iteration i, but the 64 more registers spill
  // (RMSNorm M16: 255 and a 16-byte spill in the loop, 0.90x on the H100).
  // So the distance is by bytes (weights-ahead-bytes, 32 KB: one iteration
  // of those blocks): the FFN's down projection at M16, whose k tiles of 64
  // are the gate/up kernel's n tiles, reads 8 KB a block an iteration and
  // goes 4 iterations ahead (94 -> 142 registers, 1.05-1.15x on the H200).
  // Loads past the loop's end read
  // one sector a warp (session 10 reloaded the last iteration's weights at
  // a clamped index instead: a quarter more L2 traffic at 4 iterations a
  // block). With vector.load LLVM undoes the distance: it folds the phi of
  // the preheader's loads and the loop's into one load of the phi of their
  // addresses, at the top of each iteration. The inline loads of
  // loadOpaque are not folded; where the grid has many blocks per SM their
  // 64 registers per iteration cost more than they buy, and the plain
  // loads stay.
  int64_t distance = weightsAhead ? weightsDistance : 1;
  Value thread = add(mul(warp, kWarpSize), lane);
  if (ahead && !headPrefetched)
    prefetchHead(thread);
  Value ub = loop.getUpperBound();
  Value lastIv = arith::SubIOp::create(b, loc, ub, index(1));
  // The A fragment's loads of an iteration (per k16 step: the registers
  // (g, k), (g + 8, k), (g, k + 8), (g + 8, k + 8), each one pair per
  // loaded operand), an iteration ahead like the weights where
  // `activationsAhead` (they come from L2, one round trip per iteration
  // otherwise: 21% of the warps' stall samples at RMSNorm M16 on the H200,
  // docs/performance.md session 10).
  // One dot only: two dots already carry 128 weight registers (the FFN's
  // gate/up kernel: 254), and their A pairs on top spill.
  bool aAhead =
      activationsAhead && weightsAhead && dots == 1 && pairsAre32Bits();
  auto loadStepA = [&](const IRMapping &mapping, int64_t s, bool opaque) {
    SmallVector<Value> loaded;
    for (int64_t f = 0; f < 4; ++f)
      loaded.append(loadA(mapping, f % 2, kAt(s, f < 2 ? 0 : 2), opaque));
    return loaded;
  };
  auto loadIterationA = [&](const IRMapping &mapping, Value exists = {}) {
    if (permuted)
      return loadChunks(mapping, /*opaque=*/true, exists);
    SmallVector<Value> loaded;
    for (int64_t s = 0; s < steps; ++s)
      loaded.append(loadStepA(mapping, s, /*opaque=*/true));
    return loaded;
  };
  SmallVector<Value> init(dots * kTiles * 4, zero);
  int64_t numAcc = init.size();
  // The loop's iteration `iv + offset` (clamped to the last), whether it
  // exists (null where `offset` is 0: the loop runs at least once), and its
  // index arithmetic and views.
  auto iterationAt = [&](Value iv, int64_t offset) {
    Value at = arith::MinUIOp::create(b, loc, addc(iv, offset), lastIv);
    Value exists =
        offset ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       addc(iv, offset), ub)
               : Value();
    return std::make_pair(exists, cloneIndexing(at));
  };
  Value lb = loop.getLowerBound();
  IRMapping first = cloneIndexing(lb);
  for (int64_t j = 0; j < distance; ++j) {
    auto [exists, mapping] = iterationAt(lb, j);
    init.append(loadWeights(mapping, dots == 1 ? exists : Value()));
  }
  int64_t numWeights = (init.size() - numAcc) / distance;
  if (aAhead)
    init.append(loadIterationA(first));
  // The lane's sums of the squares of rows g and g + 8 of the prologue's
  // row operand x over its elements (gpu-decode-row-factor): every (row,
  // k) of the block's x is one lane's of one warp per column group.
  int64_t numSquares = info.squares ? 2 : 0;
  init.append(numSquares, zero);
  int64_t squaresOperand = -1;
  if (info.squares) {
    SmallVector<Value> operands = pairOperands();
    squaresOperand = llvm::find(operands, info.squares->x) - operands.begin();
  }
  if (statistics) {
    // The statistics' warps are this forall's (one warp forall of as many
    // warps): its body, then the barrier that ended it, then the row part
    // of the prologue, which reads them.
    Block *stats = statistics.getBody();
    b.eraseOp(stats->getTerminator());
    b.inlineBlockBefore(stats, b.getInsertionBlock(), b.getInsertionPoint(),
                        ValueRange{warp});
    b.eraseOp(statistics);
    gpu::BarrierOp::create(b, loc);
    if (info.prologue)
      for (int64_t h = 0; h < 2; ++h)
        emitRowPart(rows[h], rowMappings[h], rowOps[h]);
  }
  auto kLoop = scf::ForOp::create(b, loc, loop.getLowerBound(), ub,
                                  loop.getStep(), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value iv = kLoop.getInductionVar();
    // The L2 prefetch `ahead` iterations on (within the loop's own range:
    // a split's blocks prefetch their own k ranges).
    if (ahead) {
      OpBuilder::InsertionGuard prefetchGuard(b);
      Value target = addc(iv, ahead);
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            target, ub);
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, inRange).thenBlock());
      prefetchIteration(target, thread);
    }
    loopMapping = cloneIndexing(iv);
    // The weights of iterations i + 1 .. i + distance - 1, carried on,
    // and of i + distance, loaded here.
    SmallVector<Value> prefetched(kLoop.getRegionIterArgs().slice(
        numAcc + numWeights, (distance - 1) * numWeights));
    auto [farExists, farMapping] = iterationAt(iv, distance);
    // (The plain loads keep session 9's clamped index: LLVM folds them to
    // the top of the iteration anyway; so do two dots', whose selects
    // spilled at 255 registers in the FFN's gate/up kernel.)
    prefetched.append(loadWeights(
        farMapping, weightsAhead && dots == 1 ? farExists : Value()));
    SmallVector<Value> aheadA;
    if (aAhead) {
      auto [nextExists, nextMapping] = iterationAt(iv, 1);
      prefetched.append(loadIterationA(nextMapping, nextExists));
      llvm::append_range(aheadA, kLoop.getRegionIterArgs()
                                     .drop_front(numAcc + distance * numWeights)
                                     .drop_back(numSquares));
    }
    // Permuted and not ahead: this iteration's vectors, at its top.
    SmallVector<Value> chunks;
    if (permuted && !aAhead)
      chunks = loadChunks(loopMapping, /*opaque=*/false);
    SmallVector<Value> acc(kLoop.getRegionIterArgs().take_front(numAcc));
    SmallVector<SmallVector<Value>> weights;
    for (int64_t d = 0; d < dots; ++d)
      weights.push_back(SmallVector<Value>(
          kLoop.getRegionIterArgs().slice(numAcc + d * steps * 4, steps * 4)));
    SmallVector<Value> squares(
        kLoop.getRegionIterArgs().take_back(numSquares));
    auto contract = arith::FastMathFlagsAttr::get(
        ctx, arith::FastMathFlags::contract);
    auto pairType = VectorType::get({2}, info.element);
    auto accType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(4, b.getF32Type()));
    NVVM::MMATypes ptxType =
        info.element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    for (int64_t s = 0; s < steps; ++s) {
      // A fragment: (g, slot 0), (g + 8, slot 0), (g, slot 2), (g + 8,
      // slot 2), a pair each.
      SmallVector<Value> a;
      for (int64_t f = 0; f < 4; ++f) {
        int64_t h = f % 2, slot = f < 2 ? 0 : 2;
        Value k = kAt(s, slot);
        SmallVector<Value> pairs;
        if (permuted)
          pairs = pairsAt(aAhead ? aheadA : chunks, h, 4 * s + slot);
        else if (aAhead)
          pairs = llvm::to_vector(
              ArrayRef(aheadA).slice((4 * s + f) * aheadA.size() / (4 * steps),
                                     aheadA.size() / (4 * steps)));
        else
          pairs = loadA(loopMapping, h, k, /*opaque=*/false);
        a.push_back(aRegister(h, k, pairs));
        if (info.squares) {
          for (int64_t e = 0; e < 2; ++e) {
            Value x = arith::ExtFOp::create(
                b, loc, b.getF32Type(),
                vector::ExtractOp::create(b, loc, pairs[squaresOperand], e)
                    .getResult());
            squares[h] = arith::AddFOp::create(
                b, loc, squares[h],
                arith::MulFOp::create(b, loc, x, x, contract), contract);
          }
        }
      }
      for (int64_t d = 0; d < dots; ++d) {
        ArrayRef<Value> w = ArrayRef(weights[d]).slice(4 * s, 4);
        for (int64_t j = 0; j < kTiles; ++j) {
          auto pairOf = [&](Value lo, Value hi) {
            return i32(vector::FromElementsOp::create(
                b, loc, pairType,
                ValueRange{vector::ExtractOp::create(b, loc, lo, j),
                           vector::ExtractOp::create(b, loc, hi, j)}));
          };
          Value bRegs[2] = {pairOf(w[0], w[1]), pairOf(w[2], w[3])};
          int64_t base = (d * kTiles + j) * 4;
          auto mma = NVVM::MmaOp::create(
              b, loc, accType, a, bRegs, ArrayRef(acc).slice(base, 4),
              ArrayRef<int64_t>{kMmaM, 8, kMmaK}, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t i = 0; i < 4; ++i)
            acc[base + i] = LLVM::ExtractValueOp::create(b, loc, mma, i);
        }
      }
    }
    acc.append(prefetched);
    acc.append(squares);
    scf::YieldOp::create(b, loc, acc);
  }

  // A row's sum of squares over the warp's k range: its four lanes q.
  SmallVector<Value> rowSquares(kLoop.getResults().take_back(numSquares));
  for (Value &sum : rowSquares)
    for (int32_t offset : {1, 2})
      sum = arith::AddFOp::create(
          b, loc, sum,
          gpu::ShuffleOp::create(b, loc, sum, offset, kWarpSize,
                                 gpu::ShuffleMode::XOR)
              .getShuffleResult());
  // Lane q = 0 of each row group of the first column group adds them (the
  // other groups load the same x).
  Value addsSquares;
  if (info.squares)
    addsSquares = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, q, index(0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, group,
                              index(0)));

  // The warps of a column group combine their sums into the accumulator
  // tiles in a fixed order (deterministic): tile + warp 0's + warp 1's + ...
  // Each warp first stores its sums (8 consecutive columns per row and
  // register pair) into a workgroup slot of its own, all at once; after one
  // barrier the block's threads add the slots into the tile in warp order,
  // 8 columns each. Session 12's profile of RMSNorm M16 (docs/performance.md)
  // had 11% of the warps' samples in the earlier form, where each warp added
  // into the tile in its turn, a barrier between turns: a chain of warpsK
  // read-add-write passes. One warp per column group adds in place, and so
  // do two dots' warps (the FFN's gate/up kernel, at 255 registers: the
  // slots' addresses, live across the loop, made it spill in the loop).
  auto accVecType = VectorType::get({8}, b.getF32Type());
  bool useSlots = warpsK > 1 && dots == 1;
  // slots[d]: dot d's [warpsK, R, Tn]; squareSlots: [warpsK, R].
  SmallVector<Value> slots;
  Value squareSlots;
  if (useSlots) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall);
    auto slotsOf = [&](Value tile) {
      auto type = cast<MemRefType>(tile.getType());
      SmallVector<int64_t> shape{warpsK};
      llvm::append_range(shape, type.getShape());
      return memref::AllocOp::create(
          b, loc,
          MemRefType::get(shape, type.getElementType(),
                          MemRefLayoutAttrInterface(), type.getMemorySpace()));
    };
    for (const Dot &dot : info.dots)
      slots.push_back(slotsOf(dot.fold.acc));
    if (info.squares)
      squareSlots = slotsOf(info.squares->sums);
  }
  // This warp's sums into its slots, or added into the tiles.
  auto combineWarp = [&] {
    for (int64_t h = 0; h < 2; ++h) {
      if (8 * h >= info.rows)
        continue;
      OpBuilder::InsertionGuard rowGuard(b);
      if (valid[h]) {
        auto guardRow = scf::IfOp::create(b, loc, valid[h]);
        b.setInsertionPointToStart(guardRow.thenBlock());
      }
      if (info.squares) {
        OpBuilder::InsertionGuard squaresGuard(b);
        b.setInsertionPointToStart(
            scf::IfOp::create(b, loc, addsSquares).thenBlock());
        Value sums = info.squares->sums;
        if (squareSlots) {
          memref::StoreOp::create(b, loc, rowSquares[h], squareSlots,
                                  ValueRange{warpK, rows[h]});
        } else {
          Value old = memref::LoadOp::create(b, loc, sums, rows[h]);
          memref::StoreOp::create(
              b, loc, arith::AddFOp::create(b, loc, old, rowSquares[h]), sums,
              rows[h]);
        }
      }
      for (int64_t d = 0; d < dots; ++d) {
        Value accTile = info.dots[d].fold.acc;
        for (int64_t e = 0; e < 2; ++e) {
          SmallVector<Value> sums;
          for (int64_t j = 0; j < kTiles; ++j)
            sums.push_back(kLoop.getResult((d * kTiles + j) * 4 + 2 * h + e));
          Value col = add(mul(group, kGroupColumns), addc(mul(q, 16), 8 * e));
          Value mine = vector::FromElementsOp::create(b, loc, accVecType, sums);
          if (!slots.empty()) {
            vector::StoreOp::create(b, loc, mine, slots[d],
                                    ValueRange{warpK, rows[h], col})
                .setAlignment(16);
            continue;
          }
          SmallVector<Value> at = {rows[h], col};
          auto old = vector::LoadOp::create(b, loc, accVecType, accTile, at);
          old.setAlignment(16);
          vector::StoreOp::create(b, loc,
                                  arith::AddFOp::create(b, loc, old, mine),
                                  accTile, at)
              .setAlignment(16);
        }
      }
    }
  };
  if (!useSlots) {
    // In turns, a barrier between them.
    for (int64_t p = 0; p < warpsK; ++p) {
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         warpK, index(p));
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(scf::IfOp::create(b, loc, mine).thenBlock());
        combineWarp();
      }
      if (p + 1 < warpsK)
        gpu::BarrierOp::create(b, loc);
    }
  } else {
    combineWarp();
  }
  if (useSlots) {
    gpu::BarrierOp::create(b, loc);
    int64_t threads = warps * kWarpSize;
    // Adds the slots of `tile[at]` (`type`: one element or 8) into it, in
    // warp order.
    auto addSlots = [&](Value tile, Value tileSlots, ValueRange at, Type type) {
      auto load = [&](Value from, ValueRange indices) -> Value {
        if (auto vectorType = dyn_cast<VectorType>(type)) {
          auto loaded =
              vector::LoadOp::create(b, loc, vectorType, from, indices);
          loaded.setAlignment(16);
          return loaded;
        }
        return memref::LoadOp::create(b, loc, from, indices);
      };
      Value sum = load(tile, at);
      for (int64_t p = 0; p < warpsK; ++p) {
        SmallVector<Value> indices{index(p)};
        llvm::append_range(indices, at);
        sum = arith::AddFOp::create(b, loc, sum, load(tileSlots, indices));
      }
      if (isa<VectorType>(type))
        vector::StoreOp::create(b, loc, sum, tile, at).setAlignment(16);
      else
        memref::StoreOp::create(b, loc, sum, tile, at);
    };
    // Runs `body(i)` for i = thread, thread + threads, ... below `count`.
    auto forEachOfBlock = [&](int64_t count, auto body) {
      for (int64_t first = 0; first < count; first += threads) {
        OpBuilder::InsertionGuard guard(b);
        Value i = addc(thread, first);
        if (first + threads > count)
          b.setInsertionPointToStart(
              scf::IfOp::create(b, loc,
                                arith::CmpIOp::create(
                                    b, loc, arith::CmpIPredicate::ult, i,
                                    index(count)))
                  .thenBlock());
        body(i);
      }
    };
    for (int64_t d = 0; d < dots; ++d) {
      Value accTile = info.dots[d].fold.acc;
      int64_t vectorsPerRow = info.tileN / 8;
      forEachOfBlock(info.rows * vectorsPerRow, [&](Value i) {
        Value row = arith::DivUIOp::create(b, loc, i, index(vectorsPerRow));
        Value col = mul(arith::RemUIOp::create(b, loc, i, index(vectorsPerRow)),
                        8);
        addSlots(accTile, slots[d], ValueRange{row, col}, accVecType);
      });
    }
    if (squareSlots)
      forEachOfBlock(info.rows, [&](Value row) {
        addSlots(info.squares->sums, squareSlots, ValueRange{row},
                 b.getF32Type());
      });
  }
  b.eraseOp(loop);
}

struct GPUDecodeGemv
    : blockbuster::impl::GPUDecodeGemvBase<GPUDecodeGemv> {
  using Base::Base;

  /// Lowers `grid` when it is a decode block; the reason it is not, else.
  LogicalResult lowerGrid(IRRewriter &rewriter, scf::ForallOp grid,
                          std::string &reason) {
    int64_t blockThreads = threads;
    if (auto attr = grid->getAttrOfType<IntegerAttr>(kBlockThreadsAttrName))
      blockThreads = attr.getInt();
    int64_t warps = blockThreads / kWarpSize;
    if (blockThreads % kWarpSize != 0 || warps < 1) {
      reason = "blocks of a partial warp";
      return failure();
    }
    // A vector-matrix product x[k] * W[k, n] (decode at M1: the rows
    // dimension dropped by the converter) first gets a unit rows dimension
    // back (UnitRows.h): one row, as a block of R = 1. The dot loop: the
    // last top-level loop holding a contraction.
    Block *body = grid.getBody();
    SmallVector<Operation *> rowOps = opsUpToVectorMatrixLoop(grid);
    if (!rowOps.empty() && failed(addUnitRows(rewriter, rowOps, reason)))
      return failure();
    scf::ForOp dotLoop;
    for (auto loop : body->getOps<scf::ForOp>())
      for (auto generic : loop.getBody()->getOps<linalg::GenericOp>())
        if (matchTileContraction(generic))
          dotLoop = loop;
    if (!dotLoop) {
      reason = "no loop with a contraction";
      return failure();
    }
    DotLoop info;
    if (failed(matchDotLoop(dotLoop, warps, info))) {
      reason = info.reason;
      return failure();
    }
    // The statistics before it: fills, row generics and tiled row loops
    // whose results the loop reads. Every other loop keeps the generic path
    // only if it is after the dot loop.
    SmallVector<Operation *> prefix;
    DenseSet<Value> accumulators;
    for (const Dot &dot : info.dots)
      accumulators.insert(dot.fold.acc);
    if (info.squares)
      accumulators.insert(info.squares->sums);
    for (Operation &op : *body) {
      if (&op == dotLoop)
        break;
      if (isa<scf::ForOp>(op)) {
        prefix.push_back(&op);
        continue;
      }
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        if (!accumulators.contains(fill.getOutputs()[0]))
          prefix.push_back(&op);
        continue;
      }
      if (isa<linalg::GenericOp>(op))
        prefix.push_back(&op);
      else if (op.getNumRegions() != 0) {
        reason = "an op with regions before the dot loop: " +
                 op.getName().getStringRef().str();
        return failure();
      }
    }
    // The statistics the loop reads from workgroup memory.
    DenseSet<Value> liveOut;
    for (auto [v, access] : info.prologueAccess)
      if (access == Access::RowScalar && isWorkgroup(v))
        liveOut.insert(v);
    // The next iteration's weights take 16 registers per k16 step a lane
    // loads (64 more at RMSNorm M16: 166 instead of 104): fewer blocks fit
    // on an SM. That pays where the grid has few blocks per SM anyway (M16
    // N4096, 256 blocks: 0.0311 -> 0.0289 ms on the H100) and costs where
    // it has many (M128, 512 blocks: 0.079 -> 0.115; docs/performance.md,
    // session 10).
    int64_t blocks = 1;
    for (int64_t bound : grid.getStaticUpperBound())
      blocks *= ShapedType::isDynamic(bound)
                    ? std::numeric_limits<int32_t>::max()
                    : bound;
    GemvEmitter emitter(rewriter, info, warps, prefetchBytes,
                        blocks <= weightsAheadMaxBlocks,
                        weightsAheadIterations
                            ? weightsAheadIterations
                            : GemvEmitter::wholeIterations(info,
                                                           weightsAheadBytes),
                        activationsAhead, activationVectors);
    Operation *head = prefix.empty() ? dotLoop.getOperation() : prefix.front();
    if (emitter.canPrefetchAt(head)) {
      rewriter.setInsertionPoint(head);
      emitter.emitPrefetchForall();
    }
    DenseSet<Operation *> before;
    for (auto forall : body->getOps<scf::ForallOp>())
      before.insert(forall);
    if (!prefix.empty() &&
        failed(lowerRowPrefix(rewriter, prefix, warps, kPrefixPerLane,
                              liveOut, reason)))
      return failure();
    // The statistics' forall, where the first iteration's weights are to be
    // issued before them and their warps are the GEMV's (fewer, as at M3,
    // would need a guard around a body that may hold barriers). Where the
    // weights are ahead only: elsewhere the registers live across the
    // statistics cost blocks per SM. One dot only: two dots' first weights
    // take 128 registers (the FFN's gate/up kernel is at 254 already).
    scf::ForallOp statistics;
    SmallVector<scf::ForallOp> made;
    for (auto forall : body->getOps<scf::ForallOp>())
      if (!before.contains(forall))
        made.push_back(forall);
    if (weightsBeforeStatistics && blocks <= weightsAheadMaxBlocks &&
        info.dots.size() == 1 && made.size() == 1) {
      std::optional<int64_t> count =
          getConstantIntValue(made[0].getMixedUpperBound().front());
      if (made[0].getRank() == 1 && count && *count == warps &&
          made[0].getMapping() &&
          isa<gpu::GPUWarpMappingAttr>(made[0].getMapping()->getValue()[0]))
        statistics = made[0];
    }
    emitter.emit(statistics);
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids = collectBlockGrids(getOperation());
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids) {
      // On a copy: the statistics' loops are flattened before the rest of
      // the match is known to hold.
      rewriter.setInsertionPoint(grid);
      auto copy = cast<scf::ForallOp>(rewriter.clone(*grid));
      std::string reason;
      if (succeeded(lowerGrid(rewriter, copy, reason))) {
        rewriter.eraseOp(grid);
        continue;
      }
      LLVM_DEBUG(llvm::dbgs() << "not a decode GEMV block: " << reason << "\n");
      if (printRefusals)
        grid->emitRemark() << "gpu-decode-gemv: not a decode GEMV block: "
                           << reason;
      rewriter.eraseOp(copy);
    }
  }
};

} // namespace
