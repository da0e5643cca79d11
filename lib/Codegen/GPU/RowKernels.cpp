//===- RowKernels.cpp - Whole-row kernels with rows in registers ----------===//
//
// Kernel shape 3 of docs/design/06-fast-kernels.md: a block that covers a set
// of rows over their full width (norms, softmax, elementwise chains and their
// fusions) is a memory-bound stream; the generic path stages every tile in
// shared memory and runs each tile op as a scalar loop nest between barriers.
// Here each row of such a block gets P warps (P = 1 unless a lane would hold
// more than `max-row-elements-per-lane` of its elements):
//
//   - each lane owns the same `V` columns of every chunk of 32 x P x V
//     columns (`V` elements are 16 bytes of the narrowest global element
//     type, or fewer where the width needs it), so one chunk of a row is one
//     16-byte load per lane, coalesced across the warp, and every load of a
//     row is issued before its first use; rows of more than 4 such pieces
//     a lane are first copied into shared memory by cp.async, every copy
//     before one wait (ptxas would issue their loads in groups, each just
//     before its first use);
//   - the row stays in registers (SSA values, one per element a lane owns)
//     from its load through the statistics to its output: global memory is
//     read once and written once;
//   - a row reduction folds a lane's registers with its combiner, then a
//     butterfly of five `gpu.shuffle xor` gives every lane its warp's
//     total; the P totals meet in shared memory after one barrier;
//   - the output leaves in 16-byte stores;
//   - a block has at most 4 warps: a block of more rows becomes several
//     blocks, one of fewer rows launches fewer threads.
//
// Taken: a block grid whose body, besides index arithmetic, subviews of the
// kernel's arguments and workgroup allocations, is a sequence of
// linalg.fill, linalg.generic and memref.copy ops over [R, N] rows (maps
// (r, n), (r) and (n) with static R and N, N a multiple of 32):
// elementwise ops, row reductions (`yield combiner(out, f(...))` with an
// associative f32 combiner) and ops on row scalars. Everything else keeps
// the generic path.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "BF16Widening.h"
#include "FmaContraction.h"
#include "LinearForalls.h"
#include "RowCombiners.h"
#include "RowKernels.h"

#include "Blockbuster/Support/RowSchedule.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

#include <limits>

namespace blockbuster {
#define GEN_PASS_DEF_GPUROWKERNELS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using blockbuster::isGlobalView;

bool blockbuster::isGlobalView(Value v) {
  if (auto subview = v.getDefiningOp<memref::SubViewOp>())
    v = subview.getSource();
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa<func::FuncOp>(arg.getOwner()->getParentOp());
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  return alloc && !alloc.getType().getMemorySpace() &&
         isa<func::FuncOp>(alloc->getParentOp());
}

namespace {

constexpr int64_t kWarpSize = blockbuster::kRowWarpSize;
constexpr int64_t kVectorBytes = blockbuster::kRowVectorBytes;
/// The warps of a block. Measured on an H100 (docs/performance.md, session
/// 6): add+GELU+add+LayerNorm over rows of 4096 bf16 ran at 88% of the
/// copy bandwidth with blocks of 4 warps on one row (32 elements per
/// lane), 83% with 8 warps on two rows, 77% with 16 on four.
constexpr int64_t kMaxWarps = 4;
/// The 16-byte row loads a lane keeps as `ld.global.nc` (async-row-copies):
/// ptxas issues up to this many together before their first use (a row of
/// 32 bf16 a lane: softmax and LayerNorm over rows of 4096, whose loads
/// went through shared memory measured 0.5% slower for the LayerNorm and
/// no faster for the softmax on the H200, docs/performance.md, session 17),
/// more in groups before their uses.
constexpr int64_t kDirectRowLoads = 4;
/// The most shared memory a block's copied rows take: 8 blocks of 128
/// threads a SM, as many as a row kernel's 64 registers a thread allow,
/// still fit the SM's 228 KB (1 KB reserved a block). add + GELU + add +
/// LayerNorm's x and residual over rows of 4096 bf16: 16 KB.
constexpr int64_t kMaxStagedBytes = 24 * 1024;

/// How an operand of a row op is indexed: a whole row (r, n), one value per
/// row (r), one value per column shared by all rows (n).
enum class Access { Row, RowScalar, Column };

/// The shape of a row kernel: R rows laid out as RowLayout says.
struct RowShape : blockbuster::RowLayout {
  int64_t rows = 0;
};

std::optional<Access> classifyMap(AffineMap map, unsigned rank) {
  MLIRContext *ctx = map.getContext();
  AffineExpr r = getAffineDimExpr(0, ctx);
  if (rank == 1)
    return map.getNumResults() == 1 && map.getResult(0) == r
               ? std::optional(Access::RowScalar)
               : std::nullopt;
  AffineExpr n = getAffineDimExpr(1, ctx);
  if (map.getNumResults() == 2 && map.getResult(0) == r &&
      map.getResult(1) == n)
    return Access::Row;
  if (map.getNumResults() == 1 && map.getResult(0) == r)
    return Access::RowScalar;
  if (map.getNumResults() == 1 && map.getResult(0) == n)
    return Access::Column;
  return std::nullopt;
}

bool isWorkgroupAlloc(Value v) {
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  return alloc &&
         gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType());
}

/// Whether element (r, c) of `memref`, for c a multiple of `elements`, lies
/// on a 16-byte boundary given a 16-byte aligned argument: the innermost
/// stride is 1, the other strides and the static column offset of a subview
/// are multiples of `elements`.
bool isVectorAligned(Value memref, int64_t elements) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t offset;
  SmallVector<int64_t> strides;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % elements != 0)
      return false;
  if (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    if (!isVectorAligned(subview.getSource(), elements))
      return false;
    int64_t column = subview.getStaticOffsets().back();
    return !ShapedType::isDynamic(column) && column % elements == 0;
  }
  return offset == 0;
}

/// The checks of one block body; `reason` says why it is not a row kernel.
struct RowKernelMatcher {
  explicit RowKernelMatcher(int64_t maxPerLane) : maxPerLane(maxPerLane) {}

  int64_t maxPerLane;
  RowShape shape;
  std::string reason;
  /// What each buffer holds, from its first access on.
  DenseMap<Value, Access> kinds;
  /// The workgroup buffers written so far: the only ones that may be read.
  DenseSet<Value> written;
  int64_t narrowestBytes = 4;

  bool fail(const Twine &why) {
    reason = why.str();
    return false;
  }

  bool setRowShape(int64_t rows, int64_t width) {
    if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(width))
      return fail("a row operand of dynamic shape");
    if (shape.rows == 0) {
      shape.rows = rows;
      shape.width = width;
      return true;
    }
    if (shape.rows != rows || shape.width != width)
      return fail("row operands of different shapes");
    return true;
  }

  bool checkOperand(Value v, Access access) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      return fail("an operand that is not a buffer");
    if (!isWorkgroupAlloc(v) && !isGlobalView(v))
      return fail("an operand neither in workgroup memory nor a view of a "
                  "kernel argument");
    auto [it, inserted] = kinds.try_emplace(v, access);
    if (!inserted && it->second != access)
      return fail("a buffer accessed both as rows and as row scalars or "
                  "columns");
    Type element = type.getElementType();
    if (!element.isF32() && !element.isBF16() && !element.isF16())
      return fail("an element type other than f32, bf16 or f16");
    if (access == Access::Column && isWorkgroupAlloc(v))
      return fail("a column operand computed in the block");
    if (access != Access::RowScalar && isGlobalView(v))
      narrowestBytes = std::min<int64_t>(narrowestBytes,
                                         element.getIntOrFloatBitWidth() / 8);
    switch (access) {
    case Access::Row:
      if (type.getRank() != 2)
        return fail("a row operand that is not 2-D");
      return setRowShape(type.getDimSize(0), type.getDimSize(1));
    case Access::RowScalar:
    case Access::Column:
      return type.getRank() == 1 ||
             fail("a row-scalar or column operand that is not 1-D");
    }
    llvm_unreachable("all accesses handled");
  }

  bool checkReduction(linalg::GenericOp op) {
    auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
    for (auto [i, init] : llvm::enumerate(op.getDpsInits())) {
      BlockArgument out = op.getBlock()->getArgument(op.getNumDpsInputs() + i);
      Operation *combiner = yield.getOperand(i).getDefiningOp();
      if (!combiner || combiner->getBlock() != op.getBlock() ||
          !blockbuster::combinerIdentity(combiner) || !out.hasOneUse() ||
          out.getUses().begin()->getOwner() != combiner ||
          !getElementTypeOrSelf(init.getType()).isF32())
        return fail("a reduction that is not `yield combiner(out, f(...))` "
                    "with an associative f32 combiner");
    }
    return true;
  }

  bool checkGeneric(linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics())
      return fail("a linalg.generic on tensors");
    unsigned rank = op.getNumLoops();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (rank < 1 || rank > 2 || iterators[0] != utils::IteratorType::parallel)
      return fail("a linalg.generic that is not over rows, or rows and "
                  "columns");
    bool reduction =
        rank == 2 && iterators[1] == utils::IteratorType::reduction;
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<Access> access =
          classifyMap(op.getMatchingIndexingMap(&operand), rank);
      if (!access)
        return fail("an indexing map other than (r, n), (r) or (n)");
      bool isInit = op.isDpsInit(&operand);
      if (isInit && (reduction ? *access != Access::RowScalar
                               : rank == 2 && *access != Access::Row))
        return fail("an output that is not a row (elementwise) or a row "
                    "scalar (reduction)");
      if (!checkOperand(operand.get(), *access))
        return false;
      bool isRead = !isInit || reduction;
      if (isRead && isWorkgroupAlloc(operand.get()) &&
          !written.contains(operand.get()))
        return fail("a read of a workgroup buffer before it is written");
    }
    for (Value init : op.getDpsInits())
      written.insert(init);
    if (rank == 2 && !reduction)
      for (BlockArgument out : op.getRegionOutputArgs())
        if (!out.use_empty())
          return fail("an elementwise op that reads its output");
    if (rank == 1)
      for (BlockArgument out : op.getRegionOutputArgs())
        if (!out.use_empty())
          return fail("a row-scalar op that reads its output");
    for (Operation &bodyOp : op.getBlock()->without_terminator())
      if (bodyOp.getNumRegions() != 0)
        return fail("a body op with regions");
    return !reduction || checkReduction(op);
  }

  bool check(scf::ForallOp grid) {
    SmallVector<Operation *> ops;
    for (Operation &op : grid.getBody()->without_terminator())
      ops.push_back(&op);
    return check(ops);
  }

  bool check(ArrayRef<Operation *> ops) {
    for (Operation *opPtr : ops) {
      Operation &op = *opPtr;
      if (isa<memref::SubViewOp>(op)) {
        if (!isGlobalView(op.getResult(0)))
          return fail("a subview of a buffer in workgroup memory");
        continue;
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!isWorkgroupAlloc(alloc))
          return fail("an allocation outside workgroup memory");
        continue;
      }
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        if (!fill.hasPureBufferSemantics() ||
            !isWorkgroupAlloc(fill.getOutputs()[0]))
          return fail("a fill of a buffer outside workgroup memory");
        auto type = cast<MemRefType>(fill.getOutputs()[0].getType());
        if (!checkOperand(fill.getOutputs()[0], type.getRank() == 2
                                                    ? Access::Row
                                                    : Access::RowScalar))
          return false;
        written.insert(fill.getOutputs()[0]);
        continue;
      }
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        if (!checkGeneric(generic))
          return false;
        continue;
      }
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        if (!isWorkgroupAlloc(copy.getSource()) ||
            !isGlobalView(copy.getTarget()))
          return fail("a copy other than a block result to global memory");
        auto type = cast<MemRefType>(copy.getSource().getType());
        Access access = type.getRank() == 2 ? Access::Row : Access::RowScalar;
        if (!checkOperand(copy.getSource(), access) ||
            !checkOperand(copy.getTarget(), access))
          return false;
        if (!written.contains(copy.getSource()))
          return fail("a copy of a workgroup buffer before it is written");
        continue;
      }
      if (isPure(&op) && op.getNumRegions() == 0 &&
          llvm::all_of(op.getResultTypes(),
                       [](Type t) { return t.isIntOrIndexOrFloat(); }))
        continue;
      reason = ("an op that is not part of a row kernel: " +
                op.getName().getStringRef())
                   .str();
      return false;
    }
    if (shape.rows == 0)
      return fail("no row operand");
    // Row scalars and columns have the extents of the rows.
    for (auto [buffer, access] : kinds) {
      auto type = cast<MemRefType>(buffer.getType());
      int64_t expected = access == Access::Row      ? shape.rows
                         : access == Access::Column ? shape.width
                                                    : shape.rows;
      if (type.getDimSize(0) != expected)
        return fail("a row-scalar or column operand of another extent");
    }
    // The rule the block analysis applies to decode blocks' statistics too
    // (Blockbuster/Support/RowSchedule.h).
    static_cast<blockbuster::RowLayout &>(shape) =
        blockbuster::chooseFittingRowLayout(shape.width, narrowestBytes,
                                            maxPerLane);
    if (shape.width % kWarpSize != 0)
      return fail("rows of " + Twine(shape.width) +
                  " elements, not a multiple of 32");
    if (shape.perLane() > maxPerLane)
      return fail("rows of " + Twine(shape.width) + " elements, more than " +
                  Twine(maxPerLane) + " per lane");
    return true;
  }
};

/// A loop of a block that reduces its rows tile by tile along the columns:
///
///   scf.for %i = 0 to S step 1 {
///     %c = arith.muli %i, T
///     %x = memref.subview %arg[%r, %c] [R, T] [1, 1]      // (or [%c] [T])
///     elementwise linalg.generic ops on [R, T] workgroup tiles,
///     reductions into [R] workgroup temporaries filled with their
///     combiner's identity, and for each temporary
///     acc = combiner(acc, tmp) into an accumulator defined before the loop
///   }
///
/// block-select gives a row-statistics kernel this form when the reduced
/// axis is tiled for a kernel that shares the program's axis table (norm +
/// matmul: the statistics kernel iterates the GEMM's k blocks of 128).
/// Over the whole row [R, S T] the same reductions accumulate straight into
/// the accumulators: the same sum in another association, which is what a
/// row kernel does with any reduction (its lanes' partials and shuffles).
struct TiledRowLoop {
  scf::ForOp loop;
  int64_t tile = 0;
  int64_t steps = 0;
  /// The column offset `%i * T`.
  Value offset;
  /// Each reduction's temporary and the accumulator it is added into.
  DenseMap<Value, Value> accumulators;
  /// The ops the flattened form drops: fills of temporaries, accumulations.
  DenseSet<Operation *> dropped;
  std::string reason;

  LogicalResult fail(const Twine &why) {
    reason = why.str();
    return failure();
  }
};

/// The `combiner(out, in)` of an elementwise rank-1 generic that only
/// combines its one input into its output, else null.
Operation *accumulationCombiner(linalg::GenericOp op) {
  if (op.getNumLoops() != 1 || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics())
    return nullptr;
  Block *body = op.getBlock();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return nullptr;
  Operation *combiner = &body->front();
  Value in = body->getArgument(0), out = body->getArgument(1);
  if (combiner->getNumOperands() != 2 ||
      body->getTerminator()->getOperand(0) != combiner->getResult(0) ||
      !blockbuster::combinerIdentity(combiner) ||
      !((combiner->getOperand(0) == out && combiner->getOperand(1) == in) ||
        (combiner->getOperand(0) == in && combiner->getOperand(1) == out)))
    return nullptr;
  return combiner;
}

/// The combiner of a reduction generic with one init, else null.
Operation *reductionCombiner(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1)
    return nullptr;
  return cast<linalg::YieldOp>(op.getBlock()->getTerminator())
      .getOperand(0)
      .getDefiningOp();
}

/// The precondition of `flattenTiledRowLoop`.
LogicalResult matchTiledRowLoop(scf::ForOp loop, TiledRowLoop &info) {
  info.loop = loop;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *lb != 0 || *step != 1 || *ub < 1 ||
      loop.getNumResults() != 0)
    return info.fail("a loop that is not 0 to S by 1 without results");
  info.steps = *ub;
  Value iv = loop.getInductionVar();
  if (!iv.hasOneUse())
    return info.fail("a loop index used other than as one column offset");
  auto mul = dyn_cast<arith::MulIOp>(*iv.getUsers().begin());
  std::optional<int64_t> tile =
      mul ? getConstantIntValue(mul.getLhs() == iv ? mul.getRhs()
                                                   : mul.getLhs())
          : std::nullopt;
  if (!tile || *tile < 1 || mul->getBlock() != loop.getBody())
    return info.fail("a loop index used other than as `index * T`");
  info.tile = *tile;
  info.offset = mul.getResult();
  Block *body = loop.getBody();
  auto inLoop = [&](Value v) { return v.getParentBlock() == body; };

  // The column offset only places column tiles of kernel arguments, whose
  // whole range the loop covers inside the argument.
  for (Operation *user : info.offset.getUsers()) {
    auto subview = dyn_cast<memref::SubViewOp>(user);
    if (!subview || !isGlobalView(subview.getResult()) ||
        subview.getSourceType().getRank() != subview.getType().getRank() ||
        !subview.hasUnitStride())
      return info.fail("a column offset used other than by a view of a "
                       "kernel argument");
    for (auto [d, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      if (dyn_cast<Value>(offset) == info.offset) {
        if (subview.getStaticSizes()[d] != info.tile ||
            subview.getSourceType().isDynamicDim(d) ||
            subview.getSourceType().getDimSize(d) < info.tile * info.steps)
          return info.fail("a column tile not of T static columns inside "
                           "the argument");
      } else if (auto v = dyn_cast<Value>(offset); v && inLoop(v)) {
        return info.fail("a view offset computed in the loop");
      }
    }
  }

  for (Operation &op : body->without_terminator()) {
    if (&op == mul)
      continue;
    if (auto subview = dyn_cast<memref::SubViewOp>(op)) {
      if (!llvm::is_contained(subview->getOperands(), info.offset))
        return info.fail("a view in the loop that does not move with it");
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!isWorkgroupAlloc(alloc) || !type.hasStaticShape() ||
          (type.getRank() == 2 && type.getDimSize(1) != info.tile) ||
          type.getRank() > 2 || !alloc.getDynamicSizes().empty())
        return info.fail("a workgroup tile in the loop that is not [R, T] "
                         "or [R]");
      continue;
    }
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      if (!fill.hasPureBufferSemantics() || !inLoop(fill.getOutputs()[0]) ||
          cast<MemRefType>(fill.getOutputs()[0].getType()).getRank() != 1)
        return info.fail("a fill in the loop other than of a temporary");
      continue; // Checked with its reduction below.
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || !generic.hasPureBufferSemantics())
      return info.fail("an op in the loop that is not a view, tile, fill "
                       "or linalg.generic on buffers: " +
                       op.getName().getStringRef());
    if (Operation *combiner = accumulationCombiner(generic);
        combiner && inLoop(generic.getDpsInputs()[0]) &&
        !inLoop(generic.getDpsInits()[0])) {
      // acc = combiner(acc, tmp): tmp must be the identity-filled output
      // of one reduction with the same combiner, and nothing else.
      Value tmp = generic.getDpsInputs()[0], acc = generic.getDpsInits()[0];
      linalg::FillOp fill;
      linalg::GenericOp reduction;
      for (Operation *user : tmp.getUsers()) {
        if (user == generic)
          continue;
        if (auto f = dyn_cast<linalg::FillOp>(user); f && !fill)
          fill = f;
        else if (auto r = dyn_cast<linalg::GenericOp>(user);
                 r && !reduction && r.getDpsInits()[0] == tmp &&
                 r.getNumDpsInits() == 1)
          reduction = r;
        else
          return info.fail("a temporary used other than by its fill, its "
                           "reduction and its accumulation");
      }
      Operation *reduced = reduction ? reductionCombiner(reduction) : nullptr;
      std::optional<APFloat> identity =
          blockbuster::combinerIdentity(combiner);
      APFloat filled(0.0f);
      if (!reduced || reduced->getName() != combiner->getName() || !fill ||
          !matchPattern(fill.getInputs()[0], m_ConstantFloat(&filled)) ||
          filled.compare(*identity) != APFloat::cmpEqual ||
          !fill->isBeforeInBlock(reduction))
        return info.fail("an accumulation whose temporary is not one "
                         "reduction from the combiner's identity");
      if (llvm::any_of(acc.getUsers(), [&](Operation *user) {
            return user != generic && user->getBlock() == body;
          }))
        return info.fail("an accumulator used otherwise in the loop");
      if (!info.accumulators.try_emplace(tmp, acc).second)
        return info.fail("a temporary accumulated twice");
      info.dropped.insert(fill);
      info.dropped.insert(generic);
      continue;
    }
    // Other generics work on the loop's tiles; what they read from before
    // the loop is one value per row.
    for (OpOperand &operand : generic->getOpOperands()) {
      if (inLoop(operand.get()))
        continue;
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      if (generic.isDpsInit(&operand) || map.getNumResults() != 1 ||
          map.getResult(0) != getAffineDimExpr(0, map.getContext()))
        return info.fail("a generic in the loop that reads a tile of its "
                         "columns from before the loop, or writes there");
    }
  }
  // Every [R] tile of the loop is a temporary, and every reduction in the
  // loop feeds an accumulation.
  for (auto alloc : body->getOps<memref::AllocOp>())
    if (alloc.getType().getRank() == 1 &&
        !info.accumulators.count(alloc.getResult()))
      return info.fail("an [R] tile in the loop that is not accumulated");
  for (auto generic : body->getOps<linalg::GenericOp>())
    if (generic.getNumReductionLoops() != 0 &&
        !info.accumulators.count(generic.getDpsInits()[0]))
      return info.fail("a reduction in the loop that is not accumulated");
  return success();
}

/// Replaces `info.loop` by its ops over whole rows of S T columns: views and
/// tiles widened, each reduction writing its accumulator.
SmallVector<Operation *> flattenTiledRowLoop(RewriterBase &rewriter,
                                             const TiledRowLoop &info) {
  SmallVector<Operation *> created;
  scf::ForOp loop = info.loop;
  rewriter.setInsertionPoint(loop);
  IRMapping mapping;
  for (auto [tmp, acc] : info.accumulators)
    mapping.map(tmp, acc);
  int64_t width = info.tile * info.steps;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == info.offset.getDefiningOp() || info.dropped.contains(&op) ||
        (op.getNumResults() == 1 &&
         info.accumulators.count(op.getResult(0))))
      continue;
    if (auto subview = dyn_cast<memref::SubViewOp>(op)) {
      SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = subview.getMixedSizes();
      for (auto [offset, size] : llvm::zip(offsets, sizes))
        if (dyn_cast<Value>(offset) == info.offset) {
          offset = rewriter.getIndexAttr(0);
          size = rewriter.getIndexAttr(width);
        }
      auto wide = memref::SubViewOp::create(rewriter, subview.getLoc(),
                                            subview.getSource(), offsets,
                                            sizes, subview.getMixedStrides());
      mapping.map(subview.getResult(), wide.getResult());
      created.push_back(wide);
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      auto wide = MemRefType::get({type.getDimSize(0), width},
                                  type.getElementType(), AffineMap(),
                                  type.getMemorySpace());
      auto tile = memref::AllocOp::create(rewriter, alloc.getLoc(), wide,
                                          alloc.getAlignmentAttr());
      mapping.map(alloc.getResult(), tile.getResult());
      created.push_back(tile);
      continue;
    }
    created.push_back(rewriter.clone(op, mapping));
  }
  rewriter.eraseOp(loop);
  return created;
}

/// Emits the row schedule of one block grid: the values of every buffer for
/// the current row live here, as SSA values, never in shared memory.
class RowEmitter {
public:
  /// `liveOut`: workgroup row-scalar buffers read after the emitted ops
  /// (by other code of the block): lane 0 of each row stores them.
  /// `contractFma`: a row sum of products (`out + a * b`, a variance)
  /// adds each product with one fma. `asyncCopies`: the rows read from
  /// global memory go through shared memory (stageRows).
  RowEmitter(RewriterBase &rewriter, Location loc, const RowShape &shape,
             const DenseMap<Value, Access> &kinds,
             const DenseSet<Value> &liveOut = {}, bool contractFma = false,
             bool asyncCopies = false)
      : b(rewriter), loc(loc), shape(shape), kinds(kinds), liveOut(liveOut),
        contractFma(contractFma), asyncCopies(asyncCopies) {}

  /// Emits `ops` (in order) for every row of the block, `slots` rows at a
  /// time (P warps each): warps w P .. w P + P - 1 take row w when there
  /// are as many slots as rows, else rows w, w + slots, ... in a loop.
  void emit(ArrayRef<Operation *> ops, int64_t slots, Value part) {
    this->slots = slots;
    auto forall =
        blockbuster::createWarpForall(b, loc, slots * shape.warpsPerRow);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getBody()->getTerminator());
    lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
    Value warp = forall.getInductionVar(0);
    slot = arith::DivUIOp::create(b, loc, warp, index(shape.warpsPerRow));
    warpInRow = arith::RemUIOp::create(b, loc, warp, index(shape.warpsPerRow));
    row = slot;
    if (part) {
      // Block `part` of a split block: rows part * slots + slot.
      row = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, part, index(slots)), slot);
    } else if (slots < shape.rows) {
      // Without a loop, the loads of column operands (weights shared by all
      // rows) are not loop-invariant: nothing hoists them to stay live, in
      // registers, beside the row.
      auto rowLoop =
          scf::ForOp::create(b, loc, row, index(shape.rows), index(slots));
      b.setInsertionPointToStart(rowLoop.getBody());
      row = rowLoop.getInductionVar();
      looping = true;
    }
    // Lane l of the row's warp p owns columns c * 32PV + (32p + l) V + v of
    // chunk c.
    Value rowLane = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, warpInRow, index(kWarpSize)),
        lane);
    laneColumn = arith::MulIOp::create(b, loc, rowLane, index(shape.vector));
    if (asyncCopies && !looping)
      stageRows(ops, forall);
    for (Operation *op : ops) {
      if (auto fill = dyn_cast<linalg::FillOp>(op))
        emitFill(fill);
      else if (auto copy = dyn_cast<memref::CopyOp>(op))
        write(copy.getTarget(), llvm::to_vector(read(copy.getSource())));
      else
        emitGeneric(cast<linalg::GenericOp>(op));
    }
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The row inputs of `ops` that stageRows copies: those in global memory
  /// (read before anything of the block writes them, in 16-byte pieces)
  /// where a lane has more than kDirectRowLoads such pieces, as many as fit
  /// kMaxStagedBytes in the order of their first use; else none. Past that
  /// many pieces ptxas issues a lane's `ld.global.nc` loads in groups, each
  /// just before its first use, whatever the registers allow: add + GELU +
  /// add + LayerNorm's x, bias and residual (12 loads a lane) went out in
  /// four groups of three, a DRAM latency each (docs/performance.md,
  /// session 17).
  SmallVector<Value> rowsToCopy(ArrayRef<Operation *> ops) {
    SmallVector<Value> inputs;
    DenseSet<Value> writtenFirst;
    for (Operation *op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic) {
        if (auto copy = dyn_cast<memref::CopyOp>(op))
          writtenFirst.insert(copy.getTarget());
        continue;
      }
      for (Value input : generic.getDpsInputs()) {
        if (kinds.lookup(input) != Access::Row || !isGlobalView(input) ||
            writtenFirst.contains(input) || llvm::is_contained(inputs, input))
          continue;
        Type element = cast<MemRefType>(input.getType()).getElementType();
        if (vectorBytes(element) == kVectorBytes &&
            isVectorAligned(input, vectorElements(element)))
          inputs.push_back(input);
      }
      writtenFirst.insert_range(generic.getDpsInits());
    }
    int64_t pieces = 0;
    for (Value input : inputs)
      pieces += shape.perLane() /
                vectorElements(cast<MemRefType>(input.getType()).getElementType());
    if (pieces <= kDirectRowLoads)
      return {};
    int64_t bytes = 0;
    llvm::erase_if(inputs, [&](Value input) {
      int64_t rowBytes =
          slots * shape.width *
          cast<MemRefType>(input.getType()).getElementTypeBitWidth() / 8;
      if (bytes + rowBytes > kMaxStagedBytes)
        return true;
      bytes += rowBytes;
      return false;
    });
    return inputs;
  }

  /// Copies the current row of each of rowsToCopy(ops) into a
  /// shared-memory row of its own by cp.async, every copy before one wait;
  /// loadVectors then reads them back from there, each lane the pieces it
  /// copied itself (no barrier). Not in row loops, where a lane's next
  /// copies could overwrite what it has not read yet.
  void stageRows(ArrayRef<Operation *> ops, scf::ForallOp warps) {
    SmallVector<Value> inputs = rowsToCopy(ops);
    if (inputs.empty())
      return;
    for (Value input : inputs) {
      Type element = cast<MemRefType>(input.getType()).getElementType();
      Value buffer;
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(warps);
        auto type = MemRefType::get(
            {slots, shape.width}, element, AffineMap(),
            gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup));
        buffer = memref::AllocOp::create(b, loc, type,
                                         b.getI64IntegerAttr(kVectorBytes));
      }
      int64_t piece = vectorElements(element);
      for (int64_t e = 0; e < shape.perLane(); e += piece)
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, buffer, ValueRange{slot, column(e)}, input,
            ValueRange{row, column(e)}, b.getIndexAttr(piece),
            /*srcElements=*/Value(), /*bypassL1=*/b.getUnitAttr());
      staged[input] = buffer;
    }
    Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()),
        ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(0));
  }

  int64_t count(Access access) const {
    return access == Access::RowScalar ? 1 : shape.perLane();
  }

  /// The column of element `e` of a lane's row.
  Value column(int64_t e) {
    int64_t chunk = e / shape.vector, within = e % shape.vector;
    return arith::AddIOp::create(b, loc, laneColumn,
                                 index(chunk * shape.chunk() + within));
  }

  /// The elements of type `element` one load or store moves: a chunk's V
  /// columns, at most 16 bytes of them.
  int64_t vectorElements(Type element) const {
    return std::min(shape.vector,
                    kVectorBytes / (element.getIntOrFloatBitWidth() / 8));
  }
  uint64_t vectorBytes(Type element) const {
    return vectorElements(element) * element.getIntOrFloatBitWidth() / 8;
  }

  /// Loads or stores a lane's elements of a row or column of `memref` in
  /// vectors of up to 16 bytes (aligned where the layout proves it).
  SmallVector<Value> loadVectors(Value memref, Access access) {
    auto type = cast<MemRefType>(memref.getType());
    Type element = type.getElementType();
    int64_t piece = vectorElements(element);
    bool aligned = isVectorAligned(memref, piece);
    auto vectorType = VectorType::get({piece}, element);
    // A row copied into shared memory (stageRows) is read from there.
    Value source = memref;
    Value rowIndex = row;
    if (Value buffer = staged.lookup(memref)) {
      source = buffer;
      rowIndex = slot;
    }
    SmallVector<Value> elements;
    for (int64_t e = 0; e < shape.perLane(); e += piece) {
      SmallVector<Value> indices;
      if (access == Access::Row)
        indices.push_back(rowIndex);
      indices.push_back(column(e));
      auto load = vector::LoadOp::create(b, loc, vectorType, source, indices);
      if (aligned)
        load.setAlignment(vectorBytes(element));
      for (int64_t i = 0; i < piece; ++i) {
        elements.push_back(vector::ExtractOp::create(b, loc, load, i));
        if (element.isBF16() && piece % 2 == 0)
          loadedBF16[elements.back()] = {load, i};
      }
    }
    return elements;
  }

  void storeVectors(Value memref, ArrayRef<Value> elements) {
    auto type = cast<MemRefType>(memref.getType());
    Type element = type.getElementType();
    int64_t piece = vectorElements(element);
    bool aligned = isVectorAligned(memref, piece);
    auto vectorType = VectorType::get({piece}, element);
    for (int64_t e = 0; e < shape.perLane(); e += piece) {
      Value vector = vector::FromElementsOp::create(b, loc, vectorType,
                                                    elements.slice(e, piece));
      auto store = vector::StoreOp::create(b, loc, vector, memref,
                                           ValueRange{row, column(e)});
      if (aligned)
        store.setAlignment(vectorBytes(element));
    }
  }

  /// The current row's elements of `buffer` (one for a row scalar).
  ArrayRef<Value> read(Value buffer) {
    auto it = values.find(buffer);
    if (it != values.end())
      return it->second;
    Access access = kinds.lookup(buffer);
    SmallVector<Value> loaded;
    if (access == Access::RowScalar)
      loaded.push_back(memref::LoadOp::create(b, loc, buffer, row));
    else
      loaded = loadVectors(buffer, access);
    return values[buffer] = std::move(loaded);
  }

  void write(Value buffer, SmallVector<Value> elements) {
    if (!isWorkgroupAlloc(buffer) ||
        (liveOut.contains(buffer) &&
         kinds.lookup(buffer) == Access::RowScalar)) {
      if (kinds.lookup(buffer) == Access::Row) {
        storeVectors(buffer, elements);
      } else {
        // Every lane holds the row scalar; one of them stores it.
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, index(0));
        auto ifOp = scf::IfOp::create(b, loc, first);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        memref::StoreOp::create(b, loc, elements.front(), buffer, row);
      }
    }
    values[buffer] = std::move(elements);
  }

  void emitFill(linalg::FillOp fill) {
    Value buffer = fill.getOutputs()[0];
    write(buffer,
          SmallVector<Value>(count(kinds.lookup(buffer)), fill.getInputs()[0]));
  }

  /// The part of `op`'s body that is the same for every element of a row,
  /// emitted once per row: row-scalar inputs, the row index and what is
  /// computed from them alone (a norm's rsqrt(var + eps)). A division by
  /// such a value becomes a multiplication by its reciprocal, one division
  /// per row instead of one per element (within 1 ulp of the quotient; the
  /// division is most of a softmax's instructions otherwise).
  struct RowPart {
    IRMapping mapping;
    DenseSet<Operation *> ops;
    DenseMap<Value, Value> reciprocals;
  };

  RowPart emitRowPart(linalg::GenericOp op) {
    RowPart part;
    Block *body = op.getBlock();
    Region *region = &op.getRegion();
    DenseSet<Value> uniform;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (classifyMap(op.getMatchingIndexingMap(input), op.getNumLoops()) !=
          Access::RowScalar)
        continue;
      Value arg = body->getArgument(input->getOperandNumber());
      uniform.insert(arg);
      part.mapping.map(arg, element(op, *input, 0));
    }
    auto isUniform = [&](Value v) {
      return uniform.contains(v) || !region->isAncestor(v.getParentRegion());
    };
    for (Operation &bodyOp : body->without_terminator()) {
      auto loopIndex = dyn_cast<linalg::IndexOp>(bodyOp);
      if (loopIndex ? loopIndex.getDim() != 0
                    : !llvm::all_of(bodyOp.getOperands(), isUniform))
        continue;
      part.ops.insert(&bodyOp);
      uniform.insert_range(bodyOp.getResults());
      if (loopIndex)
        part.mapping.map(loopIndex.getResult(), row);
      else
        b.clone(bodyOp, part.mapping);
    }
    for (Operation &bodyOp : body->without_terminator()) {
      auto div = dyn_cast<arith::DivFOp>(bodyOp);
      if (!div || part.ops.contains(div) || !isUniform(div.getRhs()) ||
          part.reciprocals.count(div.getRhs()))
        continue;
      Value one =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(div.getType(), 1.0));
      part.reciprocals[div.getRhs()] = arith::DivFOp::create(
          b, loc, one, part.mapping.lookupOrDefault(div.getRhs()),
          div.getFastmathAttr());
    }
    return part;
  }

  /// The body of `op` for element `e` besides its row part, inputs and
  /// outputs bound in `mapping`; returns the yielded values.
  SmallVector<Value> cloneBody(linalg::GenericOp op, const RowPart &part,
                               IRMapping &mapping, int64_t e,
                               const DenseMap<Operation *, arith::MulFOp>
                                   &fusedProducts =
                                       DenseMap<Operation *, arith::MulFOp>()) {
    for (Operation &bodyOp : op.getBlock()->without_terminator()) {
      if (part.ops.contains(&bodyOp))
        continue;
      if (auto mul = fusedProducts.lookup(&bodyOp)) {
        // The combiner's add of the product, as one fma.
        Value acc = bodyOp.getOperand(0) == mul.getResult()
                        ? bodyOp.getOperand(1)
                        : bodyOp.getOperand(0);
        mapping.map(bodyOp.getResult(0),
                    math::FmaOp::create(b, loc,
                                        mapping.lookupOrDefault(mul.getLhs()),
                                        mapping.lookupOrDefault(mul.getRhs()),
                                        mapping.lookupOrDefault(acc)));
        continue;
      }
      if (auto mul = dyn_cast<arith::MulFOp>(bodyOp);
          mul && llvm::any_of(fusedProducts, [&](auto &entry) {
            return entry.second == mul;
          }))
        continue;
      auto div = dyn_cast<arith::DivFOp>(bodyOp);
      auto ext = dyn_cast<arith::ExtFOp>(bodyOp);
      Value widened = ext && ext.getType().isF32()
                          ? widen(mapping.lookupOrDefault(ext.getIn()))
                          : Value();
      if (auto loopIndex = dyn_cast<linalg::IndexOp>(bodyOp))
        mapping.map(loopIndex.getResult(), column(e));
      else if (widened)
        mapping.map(ext.getResult(), widened);
      else if (div && part.reciprocals.count(div.getRhs()))
        mapping.map(div.getResult(),
                    arith::MulFOp::create(b, loc,
                                          mapping.lookupOrDefault(div.getLhs()),
                                          part.reciprocals.lookup(div.getRhs()),
                                          div.getFastmathAttr()));
      else
        b.clone(bodyOp, mapping);
    }
    SmallVector<Value> results;
    for (Value v : op.getBlock()->getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    return results;
  }

  /// The f32 of `element` where it is a bf16 of a loaded vector: one
  /// integer op on its 32-bit pair (BF16Widening.h), else null.
  Value widen(Value element) {
    auto it = loadedBF16.find(element);
    if (it == loadedBF16.end())
      return nullptr;
    auto [load, i] = it->second;
    Value &words = loadWords[load];
    if (!words) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(load.getDefiningOp());
      auto type = cast<VectorType>(load.getType());
      words = vector::BitCastOp::create(
          b, loc, VectorType::get({type.getNumElements() / 2}, b.getI32Type()),
          load);
    }
    Value word = vector::ExtractOp::create(b, loc, words, i / 2);
    return blockbuster::widenBF16Half(b, loc, word, i % 2);
  }

  /// Element `e` of operand `operand` of `op`.
  Value element(linalg::GenericOp op, OpOperand &operand, int64_t e) {
    ArrayRef<Value> elements = read(operand.get());
    return elements.size() == 1 ? elements.front() : elements[e];
  }

  void emitGeneric(linalg::GenericOp op) {
    bool reduction = op.getNumReductionLoops() == 1;
    // Row-scalar ops compute one value per row; the others one per element.
    int64_t n = op.getNumLoops() == 1 ? 1 : shape.perLane();
    Block *body = op.getBlock();
    RowPart part = emitRowPart(op);
    if (!reduction) {
      SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
      for (int64_t e = 0; e < n; ++e) {
        IRMapping mapping = part.mapping;
        for (OpOperand *input : op.getDpsInputOperands())
          mapping.map(body->getArgument(input->getOperandNumber()),
                      element(op, *input, e));
        for (auto [i, value] : llvm::enumerate(cloneBody(op, part, mapping, e)))
          results[i].push_back(value);
      }
      for (auto [init, elements] : llvm::zip(op.getDpsInits(), results))
        write(init, std::move(elements));
      return;
    }
    // A lane folds its elements into kAccumulators interleaved partial
    // results (independent chains), then the partials, then the lanes.
    constexpr int64_t kAccumulators = 4;
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    SmallVector<Operation *> combiners;
    SmallVector<SmallVector<Value>> partials;
    for (Value yielded : yield.getOperands()) {
      Operation *combiner = yielded.getDefiningOp();
      combiners.push_back(combiner);
      Value identity = arith::ConstantOp::create(
          b, loc,
          b.getF32FloatAttr(
              blockbuster::combinerIdentity(combiner)->convertToFloat()));
      partials.push_back(
          SmallVector<Value>(std::min(kAccumulators, n), identity));
    }
    DenseMap<Operation *, arith::MulFOp> fusedProducts;
    if (contractFma)
      for (auto [combiner, out] :
           llvm::zip(combiners, op.getRegionOutputArgs())) {
        auto add = dyn_cast<arith::AddFOp>(combiner);
        if (!add || !add.getType().isF32())
          continue;
        Value other = add.getLhs() == out ? add.getRhs() : add.getLhs();
        auto mul = other.getDefiningOp<arith::MulFOp>();
        if (mul && mul->getBlock() == body && mul->hasOneUse() &&
            !part.ops.contains(mul))
          fusedProducts[add] = mul;
      }
    for (int64_t e = 0; e < n; ++e) {
      IRMapping mapping = part.mapping;
      for (OpOperand *input : op.getDpsInputOperands())
        mapping.map(body->getArgument(input->getOperandNumber()),
                    element(op, *input, e));
      for (auto [i, out] : llvm::enumerate(op.getRegionOutputArgs()))
        mapping.map(out, partials[i][e % kAccumulators]);
      for (auto [i, value] :
           llvm::enumerate(cloneBody(op, part, mapping, e, fusedProducts)))
        partials[i][e % kAccumulators] = value;
    }
    for (auto [i, init] : llvm::enumerate(op.getDpsInits())) {
      Operation *combiner = combiners[i];
      Value total = partials[i].front();
      for (Value partial : ArrayRef(partials[i]).drop_front())
        total = blockbuster::combine(b, loc, combiner, total, partial);
      total = blockbuster::combineAcrossWarp(b, loc, combiner, total);
      if (shape.warpsPerRow > 1)
        total = combineAcrossRowWarps(combiner, total);
      Value old = read(init).front();
      write(init, {blockbuster::combine(b, loc, combiner, old, total)});
    }
  }

  /// The combination of a row's warp totals, in every lane of its warps:
  /// lane 0 of each writes its total to shared memory, and after a barrier
  /// every lane combines them in warp order (deterministic).
  Value combineAcrossRowWarps(Operation *combiner, Value total) {
    Value scratch;
    {
      // One buffer per reduction: no barrier needed before the next one
      // writes, except before the next row of a loop.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(
          row.getParentRegion()->getParentOfType<scf::ForallOp>());
      auto type = MemRefType::get(
          {slots, shape.warpsPerRow}, b.getF32Type(), AffineMap(),
          gpu::AddressSpaceAttr::get(b.getContext(),
                                     gpu::AddressSpace::Workgroup));
      scratch = memref::AllocOp::create(b, loc, type);
    }
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
    auto ifOp = scf::IfOp::create(b, loc, first);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(b, loc, total, scratch,
                              ValueRange{slot, warpInRow});
    }
    gpu::BarrierOp::create(b, loc);
    Value combined;
    for (int64_t p = 0; p < shape.warpsPerRow; ++p) {
      Value part =
          memref::LoadOp::create(b, loc, scratch, ValueRange{slot, index(p)});
      combined = combined
                     ? blockbuster::combine(b, loc, combiner, combined, part)
                     : part;
    }
    if (looping)
      gpu::BarrierOp::create(b, loc);
    return combined;
  }

  RewriterBase &b;
  Location loc;
  const RowShape &shape;
  const DenseMap<Value, Access> &kinds;
  DenseSet<Value> liveOut;
  int64_t slots = 1;
  bool looping = false;
  bool contractFma;
  bool asyncCopies;
  Value lane, row, slot, warpInRow, laneColumn;
  // Global rows copied into shared memory: their buffers there.
  DenseMap<Value, Value> staged;
  DenseMap<Value, SmallVector<Value>> values;
  // Each bf16 element of a loaded vector: the load and its position.
  DenseMap<Value, std::pair<Value, int64_t>> loadedBF16;
  // A loaded bf16 vector as 32-bit words (pairs).
  DenseMap<Value, Value> loadWords;
};

struct GPURowKernels : blockbuster::impl::GPURowKernelsBase<GPURowKernels> {
  using Base::Base;

  /// Splits each block of `grid` into `parts` blocks along its x
  /// dimension; returns the new grid and, in it, the index of the part
  /// (the old block id is the new one divided by `parts`). Null where the
  /// x dimension is not static from 0 by 1.
  std::pair<scf::ForallOp, Value>
  splitBlocks(RewriterBase &rewriter, scf::ForallOp grid, int64_t parts) {
    std::optional<unsigned> x;
    for (auto [d, attr] : llvm::enumerate(*grid.getMapping()))
      if (cast<gpu::GPUBlockMappingAttr>(attr).getBlock() ==
          gpu::MappingId::DimX)
        x = d;
    if (!x || grid.getNumResults() != 0 ||
        grid.getStaticLowerBound()[*x] != 0 || grid.getStaticStep()[*x] != 1 ||
        ShapedType::isDynamic(grid.getStaticUpperBound()[*x]))
      return {nullptr, nullptr};
    Location loc = grid.getLoc();
    rewriter.setInsertionPoint(grid);
    SmallVector<OpFoldResult> ubs = grid.getMixedUpperBound();
    ubs[*x] = rewriter.getIndexAttr(grid.getStaticUpperBound()[*x] * parts);
    auto split = scf::ForallOp::create(rewriter, loc, ubs, ValueRange{},
                                       grid.getMapping());
    Block *body = split.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.setInsertionPointToStart(body);
    Value count = arith::ConstantIndexOp::create(rewriter, loc, parts);
    SmallVector<Value> ids(split.getInductionVars());
    Value part = arith::RemUIOp::create(rewriter, loc, ids[*x], count);
    ids[*x] = arith::DivUIOp::create(rewriter, loc, ids[*x], count);
    rewriter.mergeBlocks(grid.getBody(), body, ids);
    rewriter.eraseOp(grid);
    return {split, part};
  }

  void lower(scf::ForallOp grid, const RowKernelMatcher &matched) {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> ops;
    for (Operation &op : grid.getBody()->without_terminator())
      if (isa<linalg::FillOp, linalg::GenericOp, memref::CopyOp>(op))
        ops.push_back(&op);
    // A block of at most kMaxWarps warps: one row per warp, or fewer rows
    // at once when a row spans P warps. A block of fewer rows launches
    // fewer threads rather than idle warps; a block of more rows is split
    // into blocks of `slots` rows each where its grid allows, else loops.
    const RowShape &shape = matched.shape;
    int64_t warps = std::min(threads / kWarpSize, kMaxWarps);
    int64_t slots =
        std::max<int64_t>(1, std::min(shape.rows, warps / shape.warpsPerRow));
    Value part;
    if (shape.rows > slots && shape.rows % slots == 0) {
      auto [split, index] = splitBlocks(rewriter, grid, shape.rows / slots);
      if (split) {
        grid = split;
        part = index;
      }
    }
    rewriter.setInsertionPoint(grid.getBody()->getTerminator());
    grid->setAttr(
        blockbuster::kBlockThreadsAttrName,
        rewriter.getI64IntegerAttr(slots * shape.warpsPerRow * kWarpSize));
    // The elementwise bodies with fused multiply-adds before they are
    // cloned per element (LayerNorm's normalisation: two fmas instead of
    // four operations; the ops are erased below).
    if (contractFma)
      for (Operation *op : ops)
        if (auto generic = dyn_cast<linalg::GenericOp>(op))
          (void)blockbuster::contractToFma(rewriter, generic);
    RowEmitter(rewriter, grid.getLoc(), shape, matched.kinds, {}, contractFma,
               asyncRowCopies)
        .emit(ops, slots, part);
    for (Operation *op : llvm::reverse(ops))
      rewriter.eraseOp(op);
    // The tiles the generic path would have staged in shared memory.
    SmallVector<memref::AllocOp> allocs(
        grid.getBody()->getOps<memref::AllocOp>());
    for (memref::AllocOp alloc : allocs)
      if (alloc.use_empty())
        rewriter.eraseOp(alloc);
  }

  /// The row kernel `grid` becomes once its tiled row loops (see
  /// TiledRowLoop) are flattened: a flattened copy of `grid` that the
  /// matcher takes (`matched` its result), else null. The copy is made
  /// only when every top-level loop of `grid` is such a loop, and kept only
  /// when it is a row kernel: the generic path cannot hold whole rows of
  /// f32 tiles in shared memory.
  scf::ForallOp flattenRowLoops(RewriterBase &rewriter, scf::ForallOp grid,
                                RowKernelMatcher &matched) {
    auto loops = llvm::to_vector(grid.getBody()->getOps<scf::ForOp>());
    if (loops.empty())
      return nullptr;
    for (scf::ForOp loop : loops) {
      TiledRowLoop info;
      if (failed(matchTiledRowLoop(loop, info))) {
        DEBUG_WITH_TYPE("gpu-row-kernels",
                        llvm::dbgs() << "not a tiled row loop: " << info.reason
                                     << "\n");
        return nullptr;
      }
    }
    rewriter.setInsertionPoint(grid);
    auto flat = cast<scf::ForallOp>(rewriter.clone(*grid));
    for (scf::ForOp loop :
         llvm::to_vector(flat.getBody()->getOps<scf::ForOp>())) {
      TiledRowLoop info;
      [[maybe_unused]] LogicalResult matchedLoop =
          matchTiledRowLoop(loop, info);
      assert(succeeded(matchedLoop) && "a copy matches as its original");
      flattenTiledRowLoop(rewriter, info);
    }
    if (matched.check(flat))
      return flat;
    DEBUG_WITH_TYPE("gpu-row-kernels",
                    llvm::dbgs() << "flattened, not a row kernel: "
                                 << matched.reason << "\n");
    rewriter.eraseOp(flat);
    return nullptr;
  }

  void runOnOperation() override {
    if (threads < kWarpSize || threads % kWarpSize != 0)
      return;
    SmallVector<scf::ForallOp> grids = blockbuster::collectBlockGrids(getOperation());
    IRRewriter rewriter(&getContext());
    SmallVector<std::pair<scf::ForallOp, RowKernelMatcher>> kernels;
    for (scf::ForallOp grid : grids) {
      RowKernelMatcher matcher(maxRowElementsPerLane);
      if (matcher.check(grid)) {
        kernels.emplace_back(grid, std::move(matcher));
        continue;
      }
      DEBUG_WITH_TYPE("gpu-row-kernels", llvm::dbgs() << "not a row kernel: "
                                                      << matcher.reason
                                                      << "\n");
      RowKernelMatcher flatMatcher(maxRowElementsPerLane);
      if (scf::ForallOp flat = flattenRowLoops(rewriter, grid, flatMatcher)) {
        rewriter.eraseOp(grid);
        kernels.emplace_back(flat, std::move(flatMatcher));
      }
    }
    for (auto &[grid, matched] : kernels)
      lower(grid, matched);
  }
};

} // namespace

LogicalResult blockbuster::lowerRowPrefix(RewriterBase &rewriter,
                                          ArrayRef<Operation *> ops,
                                          int64_t warps, int64_t maxPerLane,
                                          const DenseSet<Value> &liveOut,
                                          std::string &reason) {
  if (ops.empty())
    return success();
  // Every loop must flatten before anything is rewritten.
  for (Operation *op : ops) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    TiledRowLoop info;
    if (failed(matchTiledRowLoop(loop, info))) {
      reason = "a loop of the prefix that is not a tiled row loop: " +
               info.reason;
      return failure();
    }
  }
  SmallVector<Operation *> flat;
  for (Operation *op : ops) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop) {
      flat.push_back(op);
      continue;
    }
    TiledRowLoop info;
    (void)matchTiledRowLoop(loop, info);
    flat.append(flattenTiledRowLoop(rewriter, info));
  }
  // The layout is the prefix's own (choosePrefixLayout), not the one a row
  // kernel would take: no per-lane bound for the matcher.
  RowKernelMatcher matcher(std::numeric_limits<int64_t>::max());
  if (!matcher.check(flat)) {
    reason = matcher.reason;
    return failure();
  }
  SmallVector<Operation *> emitted;
  for (Operation *op : flat)
    if (isa<linalg::FillOp, linalg::GenericOp>(op))
      emitted.push_back(op);
  Operation *first = emitted.empty() ? nullptr : emitted.front();
  if (!first)
    return success();
  // Row kernels size their blocks to the warps' forall; a prefix runs in a
  // block of `warps`, every one of which must reach the barrier of a row
  // over several warps (Blockbuster/Support/RowSchedule.h, the rule the
  // block analysis applies to decode blocks' statistics too).
  RowShape shape = matcher.shape;
  std::optional<blockbuster::RowLayout> layout =
      blockbuster::choosePrefixLayout(shape.rows, shape.width,
                                      matcher.narrowestBytes, maxPerLane,
                                      warps);
  if (!layout) {
    reason = std::to_string(shape.rows) + " rows of " +
             std::to_string(shape.width) +
             " elements that no layout of at most " +
             std::to_string(maxPerLane) + " a lane spreads over the " +
             std::to_string(warps) + " warps of the block";
    return failure();
  }
  static_cast<blockbuster::RowLayout &>(shape) = *layout;
  int64_t slots =
      std::max<int64_t>(1, std::min(shape.rows, warps / shape.warpsPerRow));
  // After the last of them: the flattened loops' views are defined there.
  Operation *last = flat.front();
  for (Operation *op : flat)
    if (last->isBeforeInBlock(op))
      last = op;
  rewriter.setInsertionPointAfter(last);
  RowEmitter(rewriter, first->getLoc(), shape, matcher.kinds, liveOut)
      .emit(emitted, slots, /*part=*/nullptr);
  for (Operation *op : llvm::reverse(emitted))
    rewriter.eraseOp(op);
  for (Operation *op : llvm::reverse(flat))
    if (isa<memref::AllocOp, memref::SubViewOp>(op) && op->use_empty())
      rewriter.eraseOp(op);
  return success();
}
