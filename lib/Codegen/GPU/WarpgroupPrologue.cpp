//===- WarpgroupPrologue.cpp - A tiles a warpgroup GEMM computes ----------===//
//
// The normalised A tile of a norm + matmul block, kept exact on the Hopper
// GEMM schedule (WarpgroupPrologue.h). The block program rounds the
// normalised rows to 16 bits before the dot (as PyTorch materialises them),
// so the dot's operand is that tile, not the raw X: the epilogue correction
// of rules 4/5 (r * (X W - mu colsum(W))) computes another function
// whenever the program says to round first. What this file adds to the
// schedule instead costs no extra global traffic: the raw X tile arrives in
// the ring by TMA as a plain A operand would, and before the slot's wgmma
// the warpgroup applies the op's body to it in place, in registers, with
// each row's statistics computed once per block instead of once per
// element and each column's weights once per k step.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupPrologue.h"
#include "BF16Widening.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpu-warpgroup-matmul"

using namespace mlir;
using namespace blockbuster;

namespace {

// The layout of a slot's A part: 16-byte chunks of 8 elements, 8 chunks per
// 128-byte swizzled row, 128 threads per warpgroup.
constexpr int64_t kChunkElements = 8, kChunksPerRow = 8, kThreads = 128;
constexpr int64_t kRowsPerPass = kThreads / kChunksPerRow;
// The rows of one wgmma (m64).
constexpr int64_t kRowsPerMma = 64;

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "no warpgroup prologue: " << reason << ": "
                          << *op << "\n");
  return failure();
}

/// True if `value` is defined outside `op` (not in its regions).
bool definedOutside(Value value, Operation *op) {
  return !op->isAncestor(value.getParentBlock()->getParentOp());
}

/// A rank-`rank` memref of global memory, static shape and identity layout.
bool isWholeGlobalArray(Value value, int64_t rank) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == rank && type.hasStaticShape() &&
         type.getLayout().isIdentity() && !type.getMemorySpace();
}

/// `value` as a unit-stride view of a whole global array of rank `rank`.
memref::SubViewOp globalView(Value value, int64_t rank) {
  auto view = value.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getType().getRank() != rank ||
      !isWholeGlobalArray(view.getSource(), rank) ||
      !llvm::all_of(view.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return nullptr;
  return view;
}

} // namespace

FailureOr<WarpgroupPrologue>
blockbuster::matchWarpgroupPrologue(linalg::GenericOp dot,
                                    Operation *reduce,
                                    ArrayRef<Operation *> siblings) {
  Value aOperand = dot.getDpsInputs()[0];
  auto tile = aOperand.getDefiningOp<memref::AllocOp>();
  if (!tile || tile.getType().getRank() != 2 ||
      !isa_and_nonnull<gpu::AddressSpaceAttr>(tile.getType().getMemorySpace()))
    return fail(dot, "A is not a workgroup tile of the block");
  Type element = tile.getType().getElementType();
  if (!element.isF16() && !element.isBF16())
    return fail(dot, "A is not a 16-bit tile");

  WarpgroupPrologue p;
  for (Operation *user : aOperand.getUsers()) {
    if (user == dot.getOperation() || llvm::is_contained(siblings, user))
      continue;
    auto writer = dyn_cast<linalg::GenericOp>(user);
    if (!writer || p.op || writer.getNumDpsInits() != 1 ||
        writer.getDpsInits()[0] != aOperand)
      return fail(user, "the A tile has another user than one writer");
    p.op = writer;
  }
  if (!p.op)
    return fail(dot, "no op writes the A tile");
  linalg::GenericOp op = p.op;
  if (op->getBlock() != dot->getBlock() || !op->isBeforeInBlock(dot))
    return fail(op, "the A tile is not written just before the dot");
  if (op.getNumLoops() != 2 || op.getNumParallelLoops() != 2 ||
      !op.getIndexingMapsArray().back().isIdentity())
    return fail(op, "not an elementwise op over the tile");

  // Pure scalar work of the inputs alone: no indices, no old output value,
  // nothing captured from inside the reduce (which the schedule erases).
  Block *body = op.getBody();
  if (!body->getArgument(body->getNumArguments() - 1).use_empty())
    return fail(op, "the body reads the tile's old value");
  for (Operation &inner : body->without_terminator())
    if (!isPure(&inner) || isa<linalg::IndexOp>(inner) ||
        inner.getNumRegions() != 0)
      return fail(&inner, "the body is not pure scalar work");
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op.getRegion(), captured);
  for (Value value : captured)
    if (!definedOutside(value, reduce))
      return fail(op, "the body captures a value of the reduce");

  MLIRContext *ctx = op.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx);
  SmallVector<OpOperand *> columns;
  for (OpOperand *input : op.getDpsInputOperands()) {
    ArrayRef<AffineExpr> results =
        op.getMatchingIndexingMap(input).getResults();
    if (results == ArrayRef<AffineExpr>{m, k}) {
      memref::SubViewOp raw = globalView(input->get(), 2);
      if (!raw || p.raw || raw.getSourceType().getElementType() != element)
        return fail(op, "the tile is not computed from one tile of a "
                        "global array of its element type");
      p.raw = raw;
      p.rawInput = input;
    } else if (results == ArrayRef<AffineExpr>{m}) {
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (!type || type.getRank() != 1 ||
          !definedOutside(input->get(), reduce))
        return fail(op, "a row input is not a loop-invariant vector");
      p.rowInputs.push_back(input);
    } else if (results == ArrayRef<AffineExpr>{k}) {
      if (!globalView(input->get(), 1))
        return fail(op, "a column input is not a view of a global vector");
      columns.push_back(input);
    } else {
      return fail(op, "an input is not read at (m, k), (m) or (k)");
    }
  }
  if (!p.raw)
    return fail(op, "the tile reads no raw tile");
  // The column inputs follow the raw tile's k offset: the lowering reads
  // them at the global k of the slot.
  OpFoldResult kOffset = p.raw.getMixedOffsets()[1];
  for (OpOperand *input : columns) {
    auto view = input->get().getDefiningOp<memref::SubViewOp>();
    if (!isEqualConstantIntOrValue(view.getMixedOffsets()[0], kOffset) ||
        !definedOutside(view.getSource(), reduce))
      return fail(op, "a column input is not at the raw tile's k offset");
    p.columnInputs.push_back(input);
  }
  return p;
}

std::optional<WarpgroupPrologueLowering::RowFactor>
WarpgroupPrologueLowering::matchRowFactor(
    const WarpgroupPrologue &p, const DenseMap<Operation *, Part> &parts) {
  // The op is a value handle; its accessors are not const.
  linalg::GenericOp op = p.op;
  Block *body = op.getBody();
  auto round =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::TruncFOp>();
  if (!round || round->getBlock() != body || !round->hasOneUse()) {
    LLVM_DEBUG(llvm::dbgs() << "no row factor: the body does not end in a "
                               "rounding\n");
    return std::nullopt;
  }
  DenseSet<Value> rowInputs, rowDependent;
  for (OpOperand *input : p.rowInputs)
    rowInputs.insert(body->getArgument(input->getOperandNumber()));
  rowDependent = rowInputs;
  for (Operation &inner : body->without_terminator())
    if (llvm::any_of(inner.getOperands(),
                     [&](Value v) { return rowDependent.contains(v); }))
      rowDependent.insert(inner.result_begin(), inner.result_end());

  RowFactor factor;
  factor.round = round;
  // Depth first, left factor first: the order of the factors is the
  // body's.
  SmallVector<Value> worklist{round.getIn()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    auto product = value.getDefiningOp<arith::MulFOp>();
    if (product && product->getBlock() == body && product->hasOneUse()) {
      factor.products.insert(product);
      worklist.push_back(product.getRhs());
      worklist.push_back(product.getLhs());
      continue;
    }
    Operation *def = value.getDefiningOp();
    bool rowOnly = rowInputs.contains(value) ||
                   (def && def->getBlock() == body &&
                    parts.lookup(def) == Part::Row);
    if (rowOnly) {
      factor.rowFactors.push_back(value);
    } else if (rowDependent.contains(value)) {
      LLVM_DEBUG(llvm::dbgs() << "no row factor: " << value
                              << " mixes the row inputs with others\n");
      return std::nullopt;
    } else {
      factor.elementFactors.push_back(value);
    }
  }
  if (factor.products.empty() || factor.rowFactors.empty() ||
      factor.elementFactors.empty()) {
    LLVM_DEBUG(llvm::dbgs() << "no row factor in the rounded product\n");
    return std::nullopt;
  }

  // extf(raw) * extf(column) of the 16-bit type: the f32 product of two
  // 16-bit values is exact (11 or 8 significant bits each), so rounding it
  // is one 16-bit multiply.
  memref::SubViewOp rawView = p.raw;
  Type element = rawView.getSourceType().getElementType();
  auto widened = [&](Value value) -> Value {
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    if (!ext || ext->getBlock() != body || !ext.getType().isF32() ||
        ext.getIn().getType() != element)
      return Value();
    return ext.getIn();
  };
  if (factor.elementFactors.size() == 2 && round.getType() == element) {
    Value raw = body->getArgument(p.rawInput->getOperandNumber());
    Value a = widened(factor.elementFactors[0]),
          b = widened(factor.elementFactors[1]);
    if (b == raw)
      std::swap(a, b);
    if (a == raw)
      for (OpOperand *input : p.columnInputs)
        if (b && b == body->getArgument(input->getOperandNumber()))
          factor.pairColumn = input;
  }
  return factor;
}

DenseMap<Operation *, WarpgroupPrologueLowering::Part>
WarpgroupPrologueLowering::classifyParts(const WarpgroupPrologue &p) {
  // Each body op by what it reads: the row inputs alone (once per row), the
  // column inputs alone (once per column and step), or the element; ops of
  // neither (constants) once per block.
  DenseMap<Operation *, Part> parts;
  linalg::GenericOp op = p.op;
  Block *body = op.getBody();
  DenseMap<Value, Part> argParts;
  for (OpOperand *input : p.rowInputs)
    argParts[body->getArgument(input->getOperandNumber())] = Part::Row;
  for (OpOperand *input : p.columnInputs)
    argParts[body->getArgument(input->getOperandNumber())] = Part::Column;
  argParts[body->getArgument(p.rawInput->getOperandNumber())] = Part::Element;
  for (Operation &inner : body->without_terminator()) {
    bool row = false, column = false, element = false;
    for (Value operand : inner.getOperands()) {
      Part part = Part::Invariant;
      if (auto it = argParts.find(operand); it != argParts.end())
        part = it->second;
      else if (Operation *def = operand.getDefiningOp();
               def && def->getBlock() == body)
        part = parts.lookup(def);
      row |= part == Part::Row;
      column |= part == Part::Column;
      element |= part == Part::Element;
    }
    parts[&inner] = element || (row && column) ? Part::Element
                    : row                      ? Part::Row
                    : column                   ? Part::Column
                                               : Part::Invariant;
  }
  return parts;
}

bool WarpgroupPrologueLowering::leavesRowInputToAccumulator(
    const WarpgroupPrologue &p) {
  DenseMap<Operation *, Part> parts = classifyParts(p);
  std::optional<RowFactor> factor = matchRowFactor(p, parts);
  if (!factor)
    return false;
  // The ops the A elements clone (all but the rounded product's) read no
  // row value: neither a row input nor the result of a row op.
  linalg::GenericOp op = p.op;
  Block *body = op.getBody();
  DenseSet<Value> rowValues;
  for (OpOperand *input : p.rowInputs)
    rowValues.insert(body->getArgument(input->getOperandNumber()));
  for (Operation &inner : body->without_terminator()) {
    if (parts.lookup(&inner) == Part::Row) {
      rowValues.insert(inner.result_begin(), inner.result_end());
      continue;
    }
    if (&inner == factor->round || factor->products.contains(&inner))
      continue;
    if (llvm::any_of(inner.getOperands(),
                     [&](Value v) { return rowValues.contains(v); }))
      return false;
  }
  return true;
}

WarpgroupPrologueLowering::WarpgroupPrologueLowering(
    RewriterBase &rewriter, const WarpgroupPrologue &prologue,
    Operation *reduce, int64_t tileRows, int64_t stepK, int64_t kTotal,
    int64_t warpgroups, Layout layout, bool rowScale, bool statistics)
    : rewriter(rewriter), p(prologue), loc(p.op.getLoc()),
      tileRows(tileRows), stepK(stepK), kTotal(kTotal),
      warpgroups(warpgroups), layout(layout), parts(classifyParts(p)),
      statistics(statistics),
      tileAlloc(p.op.getDpsInits()[0].getDefiningOp()),
      opOutsideReduce(!reduce->isAncestor(p.op)) {
  if (rowScale && (layout == Layout::Fragments || statistics))
    factor = matchRowFactor(p, parts);
  assert((!statistics || (factor && p.rowInputs.size() == 1)) &&
         "statistics in the mainloop need the row factor in the "
         "accumulator");
  assert((layout == Layout::Fragments || !rowScale || statistics) &&
         "the chunk layout leaves its row factor only with the statistics");
}

Value WarpgroupPrologueLowering::index(int64_t value) {
  return arith::ConstantIndexOp::create(rewriter, loc, value);
}

void WarpgroupPrologueLowering::cloneBody(Part part, IRMapping &mapping) {
  for (Operation &inner : p.op.getBody()->without_terminator())
    if (parts.lookup(&inner) == part &&
        !(factor && (&inner == factor->round ||
                     factor->products.contains(&inner))) &&
        !llvm::all_of(inner.getResults(),
                      [&](Value result) { return mapping.contains(result); }))
      rewriter.clone(inner, mapping);
}

void WarpgroupPrologueLowering::mapWidened(BlockArgument arg, Value pair,
                                           int64_t e, IRMapping &mapping) {
  if (!arg.getType().isBF16())
    return;
  Value word;
  for (Operation *user : arg.getUsers()) {
    auto ext = dyn_cast<arith::ExtFOp>(user);
    if (!ext || !ext.getType().isF32())
      continue;
    if (!word)
      word = LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(),
                                     pair);
    mapping.map(ext.getResult(), widenBF16Half(rewriter, loc, word, e));
  }
}

void WarpgroupPrologueLowering::emitRowValues() {
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  if (warpgroups > 1) {
    // Warpgroup w computes rows 64 w onwards: a 64-row view whose offset,
    // 8 KB, is a multiple of the swizzle's 1 KB period, so local row r is
    // swizzled as block row r is.
    Value warpgroup =
        arith::DivUIOp::create(rewriter, loc, thread, index(kThreads));
    warpgroupRow =
        arith::MulIOp::create(rewriter, loc, warpgroup, index(tileRows));
    thread = arith::RemUIOp::create(rewriter, loc, thread, index(kThreads));
  }
  // The thread's rows in its warpgroup's, in the order the lowering's
  // `rows` holds them.
  SmallVector<Value> localRows;
  if (layout == Layout::Chunks) {
    chunk =
        arith::RemUIOp::create(rewriter, loc, thread, index(kChunksPerRow));
    firstRow =
        arith::DivUIOp::create(rewriter, loc, thread, index(kChunksPerRow));
    // Rows r of one thread share r % 8 (they are 16 apart): one swizzled
    // chunk for all of them.
    Value phase = arith::RemUIOp::create(rewriter, loc, firstRow, index(8));
    swizzledChunk = arith::XOrIOp::create(rewriter, loc, chunk, phase);
    for (int64_t j = 0; j < tileRows / kRowsPerPass; ++j)
      localRows.push_back(arith::AddIOp::create(rewriter, loc, firstRow,
                                                index(j * kRowsPerPass)));
  } else {
    // Warp w of the warpgroup owns rows 16 w to 16 w + 15 of each 64; lane
    // l rows l / 4 and l / 4 + 8 of those and columns 2 (l % 4) onwards.
    Value warp = arith::DivUIOp::create(rewriter, loc, thread, index(32));
    lane = arith::RemUIOp::create(rewriter, loc, thread, index(32));
    Value warpRow = arith::MulIOp::create(rewriter, loc, warp, index(16));
    Value laneRow = arith::DivUIOp::create(rewriter, loc, lane, index(4));
    firstRow = arith::AddIOp::create(rewriter, loc, warpRow, laneRow);
    Value quad = arith::RemUIOp::create(rewriter, loc, lane, index(4));
    fragmentColumn = arith::MulIOp::create(rewriter, loc, quad, index(2));
    for (int64_t m = 0; m < tileRows / kRowsPerMma; ++m)
      for (int64_t i = 0; i < 2; ++i)
        localRows.push_back(arith::AddIOp::create(
            rewriter, loc, firstRow, index(m * kRowsPerMma + 8 * i)));
  }
  cloneBody(Part::Invariant, invariant);

  for (Value row : localRows) {
    if (warpgroupRow)
      row = arith::AddIOp::create(rewriter, loc, warpgroupRow, row);
    if (!statistics) {
      emitRow(row, {});
      continue;
    }
    // The A elements read no row value (leavesRowInputToAccumulator): the
    // rows' part waits for the sums after the mainloop.
    if (layout == Layout::Chunks)
      chunkRows.push_back(row);
    else
      statisticRows.push_back(row);
    rows.push_back(invariant);
  }
  if (!statistics || layout == Layout::Fragments)
    return;
  // The rows of the thread's accumulator registers, which take the row
  // factors: warp w of the warpgroup holds rows 16 w + l / 4 + 64 m + 8 i
  // (wgmma's accumulator layout, as the fragment layout's rows).
  Value warp = arith::DivUIOp::create(rewriter, loc, thread, index(32));
  Value laneRow = arith::DivUIOp::create(
      rewriter, loc, arith::RemUIOp::create(rewriter, loc, thread, index(32)),
      index(4));
  Value accRow = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, warp, index(16)),
      laneRow);
  if (warpgroupRow)
    accRow = arith::AddIOp::create(rewriter, loc, warpgroupRow, accRow);
  for (int64_t m = 0; m < tileRows / kRowsPerMma; ++m)
    for (int64_t i = 0; i < 2; ++i)
      statisticRows.push_back(arith::AddIOp::create(
          rewriter, loc, accRow, index(m * kRowsPerMma + 8 * i)));
}

void WarpgroupPrologueLowering::emitRow(Value row, ValueRange rowValues) {
  Block *body = p.op.getBody();
  IRMapping mapping = invariant;
  for (auto [i, input] : llvm::enumerate(p.rowInputs)) {
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    if (!rowValues.empty() && rowValues[i]) {
      mapping.map(arg, rowValues[i]);
      continue;
    }
    // At a partial edge block the rows past the array's end read row 0:
    // their products are never stored.
    Value source = input->get();
    Value at = row;
    if (cast<MemRefType>(source.getType()).getDimSize(0) <
        tileRows * warpgroups) {
      Value rowCount = memref::DimOp::create(rewriter, loc, source, 0);
      Value inside = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, row, rowCount);
      at = arith::SelectOp::create(rewriter, loc, inside, row, index(0));
    }
    mapping.map(arg, memref::LoadOp::create(rewriter, loc, source, at));
  }
  cloneBody(Part::Row, mapping);
  if (factor) {
    Value scale;
    for (Value value : factor->rowFactors) {
      Value mapped = mapping.lookupOrDefault(value);
      scale = scale ? arith::MulFOp::create(rewriter, loc, scale, mapped)
                          .getResult()
                    : mapped;
    }
    scales.push_back(scale);
  }
  rows.push_back(std::move(mapping));
}

SmallVector<Value> WarpgroupPrologueLowering::initialSums() {
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getF32FloatAttr(0.0f));
  return SmallVector<Value>(
      layout == Layout::Chunks ? chunkRows.size() : statisticRows.size(),
      zero);
}

SmallVector<Value> WarpgroupPrologueLowering::reduceStatistics(ValueRange sums) {
  assert(statistics && "the statistics' sums");
  // A butterfly over the `lanes` consecutive lanes that hold a row's
  // columns between them.
  auto total = [&](Value sum, int32_t lanes) {
    for (int32_t offset = 1; offset < lanes; offset *= 2) {
      Value other =
          gpu::ShuffleOp::create(rewriter, loc, sum, offset, 32,
                                 gpu::ShuffleMode::XOR)
              .getShuffleResult();
      sum = arith::AddFOp::create(rewriter, loc, sum, other);
    }
    return sum;
  };
  SmallVector<Value> totals;
  if (layout == Layout::Fragments) {
    // Lanes 4 q to 4 q + 3 hold the row's columns between them (2 (l % 4)
    // onwards of each 8).
    assert(sums.size() == statisticRows.size() && "one sum per row");
    for (Value sum : sums)
      totals.push_back(total(sum, 4));
    return totals;
  }
  // The 8 threads of a chunk row (consecutive lanes) hold its 8 chunks;
  // the first of them stores the row's sum, and each thread reads those of
  // its accumulator rows once every row's is stored.
  assert(sums.size() == chunkRows.size() && "one sum per chunk row");
  auto f32 = rewriter.getF32Type();
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value rowSums = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({tileRows * warpgroups}, f32,
                      MemRefLayoutAttrInterface(), workgroup));
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      chunk, index(0));
  SmallVector<Value> rowTotals;
  for (Value sum : sums)
    rowTotals.push_back(total(sum, kChunksPerRow));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    auto store = scf::IfOp::create(rewriter, loc, first);
    rewriter.setInsertionPointToStart(&store.getThenRegion().front());
    for (auto [row, sum] : llvm::zip_equal(chunkRows, rowTotals))
      memref::StoreOp::create(rewriter, loc, sum, rowSums, ValueRange{row});
  }
  gpu::BarrierOp::create(rewriter, loc);
  for (Value row : statisticRows)
    totals.push_back(
        memref::LoadOp::create(rewriter, loc, rowSums, ValueRange{row}));
  return totals;
}

void WarpgroupPrologueLowering::emitStatisticRows(ValueRange totals) {
  assert(statistics && totals.size() == statisticRows.size() &&
         "one sum per row of the thread");
  rows.clear();
  for (auto [row, total] : llvm::zip_equal(statisticRows, totals))
    emitRow(row, ValueRange{total});
}

std::vector<IRMapping>
WarpgroupPrologueLowering::loadColumns(Value first, int64_t count,
                                       SmallVectorImpl<Value> &inside) {
  Block *body = p.op.getBody();
  bool partialK = kTotal % stepK != 0;
  std::vector<IRMapping> columns(count, invariant);
  SmallVector<Value> global(count);
  inside.assign(count, Value());
  for (int64_t e = 0; e < count; ++e) {
    global[e] = e ? arith::AddIOp::create(rewriter, loc, first, index(e))
                        .getResult()
                  : first;
    if (partialK)
      inside[e] = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, global[e], index(kTotal));
  }
  for (OpOperand *input : p.columnInputs) {
    Value source =
        input->get().getDefiningOp<memref::SubViewOp>().getSource();
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    Type type = arg.getType();
    if (!partialK) {
      // `first` is a multiple of `count`: the vector is aligned to its size
      // (at most 16 bytes).
      int64_t bytes = count * type.getIntOrFloatBitWidth() / 8;
      Value values = vector::LoadOp::create(
          rewriter, loc, VectorType::get({count}, type), source,
          ValueRange{first}, /*nontemporal=*/false,
          llvm::MaybeAlign(std::min<int64_t>(bytes, 16)));
      for (int64_t e = 0; e < count; ++e)
        columns[e].map(arg,
                       vector::ExtractOp::create(rewriter, loc, values, e));
      if (count == 2)
        for (int64_t e = 0; e < count; ++e)
          mapWidened(arg, values, e, columns[e]);
      continue;
    }
    for (int64_t e = 0; e < count; ++e) {
      Value at = arith::MinUIOp::create(rewriter, loc, global[e],
                                        index(kTotal - 1));
      columns[e].map(arg, memref::LoadOp::create(rewriter, loc, source, at));
    }
  }
  for (int64_t e = 0; e < count; ++e)
    cloneBody(Part::Column, columns[e]);
  return columns;
}

SmallVector<Value>
WarpgroupPrologueLowering::loadColumnPairs(Value first, int64_t pairs,
                                           SmallVectorImpl<Value> &inside) {
  Value source =
      factor->pairColumn->get().getDefiningOp<memref::SubViewOp>().getSource();
  auto pairType = VectorType::get(
      {2}, cast<MemRefType>(source.getType()).getElementType());
  bool partialK = kTotal % stepK != 0;
  inside.clear();
  SmallVector<Value> values;
  for (int64_t pair = 0; pair < pairs; ++pair) {
    Value at = arith::AddIOp::create(rewriter, loc, first, index(8 * pair));
    if (!partialK) {
      // `first` is even: 4-byte aligned.
      values.push_back(vector::LoadOp::create(
          rewriter, loc, pairType, source, ValueRange{at},
          /*nontemporal=*/false, llvm::MaybeAlign(4)));
      continue;
    }
    SmallVector<Value, 2> elements;
    for (int64_t e = 0; e < 2; ++e) {
      Value column = e ? arith::AddIOp::create(rewriter, loc, at, index(e))
                             .getResult()
                       : at;
      inside.push_back(arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, column, index(kTotal)));
      Value clamped = arith::MinUIOp::create(rewriter, loc, column,
                                             index(kTotal - 1));
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, source, clamped));
    }
    values.push_back(
        vector::FromElementsOp::create(rewriter, loc, pairType, elements));
  }
  return values;
}

Value WarpgroupPrologueLowering::applyElement(Value raw, const IRMapping &row,
                                              const IRMapping &column,
                                              Value inside) {
  Block *body = p.op.getBody();
  IRMapping mapping = row;
  for (auto [from, to] : column.getValueMap())
    mapping.map(from, to);
  mapping.map(body->getArgument(p.rawInput->getOperandNumber()), raw);
  cloneBody(Part::Element, mapping);
  Value result;
  if (factor) {
    // The product without the row factors, then the body's rounding.
    Value product;
    for (Value value : factor->elementFactors) {
      Value mapped = mapping.lookupOrDefault(value);
      product = product
                    ? arith::MulFOp::create(rewriter, loc, product, mapped)
                          .getResult()
                    : mapped;
    }
    result = arith::TruncFOp::create(rewriter, loc,
                                     factor->round->getResult(0).getType(),
                                     product);
  } else {
    result = mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
  }
  if (!inside)
    return result;
  // TMA zero-filled the raw tile past K, but the normalisation of a zero is
  // not zero.
  Value zero = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(result.getType())));
  return arith::SelectOp::create(rewriter, loc, inside, result, zero);
}

void WarpgroupPrologueLowering::emitSlot(Value slot, Value step,
                                         SmallVectorImpl<Value> *sums) {
  assert(layout == Layout::Chunks && "the slot rewrite is the chunk layout's");
  assert((!statistics || sums) && "the statistics need their sums");
  Value stepStart = arith::MulIOp::create(rewriter, loc, step, index(stepK));
  Value chunkStart =
      arith::MulIOp::create(rewriter, loc, chunk, index(kChunkElements));
  Value firstColumn =
      arith::AddIOp::create(rewriter, loc, stepStart, chunkStart);
  // The column values of the thread's 8 columns, each loaded once per step.
  SmallVector<Value> inside;
  std::vector<IRMapping> columns =
      loadColumns(firstColumn, kChunkElements, inside);

  // Each of the thread's rows: one 16-byte load of its chunk, the body per
  // element, one 16-byte store back.
  auto slotType = cast<MemRefType>(slot.getType());
  Type element = slotType.getElementType();
  auto chunkType = VectorType::get({kChunkElements}, element);
  llvm::MaybeAlign chunkAlign(16);
  Value chunkColumn = arith::MulIOp::create(rewriter, loc, swizzledChunk,
                                            index(kChunkElements));
  for (int64_t j = 0; j < tileRows / kRowsPerPass; ++j) {
    Value row = arith::AddIOp::create(rewriter, loc, firstRow,
                                      index(j * kRowsPerPass));
    Value raw = vector::LoadOp::create(rewriter, loc, chunkType, slot,
                                       ValueRange{row, chunkColumn},
                                       /*nontemporal=*/false, chunkAlign);
    if (statistics) {
      // The squares of the raw elements, each widened with one integer op
      // from its pair (a bf16 is the upper half of its f32) and added with
      // one fma (the product is exact).
      Value words = vector::BitCastOp::create(
          rewriter, loc,
          VectorType::get({kChunkElements / 2}, rewriter.getI32Type()), raw);
      Value sum = (*sums)[j];
      for (int64_t q = 0; q < kChunkElements / 2; ++q) {
        Value word = vector::ExtractOp::create(rewriter, loc, words, q);
        for (int64_t e = 0; e < 2; ++e) {
          Value x = widenBF16Half(rewriter, loc, word, e);
          sum = math::FmaOp::create(rewriter, loc, x, x, sum);
        }
      }
      (*sums)[j] = sum;
    }
    SmallVector<Value> results;
    for (int64_t e = 0; e < kChunkElements; ++e)
      results.push_back(
          applyElement(vector::ExtractOp::create(rewriter, loc, raw, e),
                       rows[j], columns[e], inside[e]));
    Value packed =
        vector::FromElementsOp::create(rewriter, loc, chunkType, results);
    vector::StoreOp::create(rewriter, loc, packed, slot,
                            ValueRange{row, chunkColumn},
                            /*nontemporal=*/false, chunkAlign);
  }
  // The stores are generic-proxy writes that wgmma reads through the async
  // proxy (and that a later TMA copy overwrites).
  NVVM::FenceProxyOp::create(
      rewriter, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

SmallVector<Value>
WarpgroupPrologueLowering::emitFragments(Value slot, Value step,
                                         function_ref<void()> waitForSlot,
                                         SmallVectorImpl<Value> *sums) {
  assert((!statistics || sums) && "the statistics need their sums");
  assert(layout == Layout::Fragments && "fragments are the fragment layout's");
  Block *body = p.op.getBody();
  // The thread's 16 columns of the step (c, c + 1, c + 8, c + 9 of each
  // k16) as 8 pairs, loaded before the wait: column pair 2 kk + h at
  // step * 64 + 16 kk + 8 h + c.
  Value stepStart = arith::MulIOp::create(rewriter, loc, step, index(stepK));
  Value first = arith::AddIOp::create(rewriter, loc, stepStart, fragmentColumn);
  int64_t k16s = stepK / 16;
  std::vector<IRMapping> columns;
  SmallVector<Value> inside;
  // With the row factor left out of extf(x) * extf(gamma), the column
  // input's pairs as they are.
  SmallVector<Value> columnPairs;
  if (factor && factor->pairColumn)
    columnPairs = loadColumnPairs(first, 2 * k16s, inside);
  for (int64_t pair = 0; columnPairs.empty() && pair < 2 * k16s; ++pair) {
    Value at = arith::AddIOp::create(rewriter, loc, first, index(8 * pair));
    SmallVector<Value> pairInside;
    for (IRMapping &mapping : loadColumns(at, 2, pairInside))
      columns.push_back(std::move(mapping));
    llvm::append_range(inside, pairInside);
  }
  waitForSlot();

  // ldmatrix.x4 per m64 and k16: lane l addresses row l % 16 of the warp's
  // 16 and the 8 columns 8 (l / 16) of the k16, at chunk 2 kk + l / 16 of
  // the row, which the 128-byte swizzle moves to that ^ (row % 8) (the
  // warp's first row is a multiple of 8, so row % 8 = l % 8).
  auto slotType = cast<MemRefType>(slot.getType());
  Type element = slotType.getElementType();
  Type i32 = rewriter.getI32Type();
  Value warpRow = arith::SubIOp::create(
      rewriter, loc, firstRow,
      arith::DivUIOp::create(rewriter, loc, lane, index(4)));
  Value lane16 = arith::RemUIOp::create(rewriter, loc, lane, index(16));
  Value half = arith::DivUIOp::create(rewriter, loc, lane, index(16));
  Value phase = arith::RemUIOp::create(rewriter, loc, lane, index(8));
  Value ldRow = arith::AddIOp::create(rewriter, loc, warpRow, lane16);
  auto pairType = VectorType::get({2}, element);
  SmallVector<Value> registers;
  for (int64_t m = 0; m < tileRows / kRowsPerMma; ++m) {
    Value row = arith::AddIOp::create(rewriter, loc, ldRow,
                                      index(m * kRowsPerMma));
    for (int64_t kk = 0; kk < k16s; ++kk) {
      Value logical =
          arith::AddIOp::create(rewriter, loc, half, index(2 * kk));
      Value physical = arith::XOrIOp::create(rewriter, loc, logical, phase);
      Value column = arith::MulIOp::create(rewriter, loc, physical,
                                           index(kChunkElements));
      Value fragment = nvgpu::LdMatrixOp::create(
          rewriter, loc, VectorType::get({4, 2}, element), slot,
          ValueRange{row, column}, rewriter.getBoolAttr(false),
          rewriter.getI32IntegerAttr(4));
      // Register j: rows + 8 (j % 2), columns + 8 (j / 2).
      for (int64_t j = 0; j < 4; ++j) {
        if (statistics) {
          // The squares of the raw pair, widened with one integer op each
          // (a bf16 is the upper half of its f32) and added in f32.
          Value sum = (*sums)[2 * m + j % 2];
          Value word = LLVM::BitcastOp::create(
              rewriter, loc, i32,
              vector::ExtractOp::create(rewriter, loc, fragment,
                                        ArrayRef<int64_t>{j}));
          for (int64_t e = 0; e < 2; ++e) {
            Value x = widenBF16Half(rewriter, loc, word, e);
            // One fma: the product is exact, so it rounds as the add
            // after the multiply does (mul.rn and add.rn, which ptxas
            // does not contract, would take two instructions).
            sum = math::FmaOp::create(rewriter, loc, x, x, sum);
          }
          (*sums)[2 * m + j % 2] = sum;
        }
        if (!columnPairs.empty()) {
          // round(x * gamma) as one 16-bit pair multiply (exact: see
          // matchRowFactor); zeros past K.
          Value rawPair = vector::ExtractOp::create(
              rewriter, loc, fragment, ArrayRef<int64_t>{j});
          Value product = arith::MulFOp::create(
              rewriter, loc, rawPair, columnPairs[2 * kk + j / 2]);
          if (!inside.empty()) {
            SmallVector<Value, 2> results;
            Value zero = arith::ConstantOp::create(
                rewriter, loc, rewriter.getZeroAttr(element));
            for (int64_t e = 0; e < 2; ++e)
              results.push_back(arith::SelectOp::create(
                  rewriter, loc, inside[2 * (2 * kk + j / 2) + e],
                  vector::ExtractOp::create(rewriter, loc, product, e), zero));
            product = vector::FromElementsOp::create(rewriter, loc, pairType,
                                                     results);
          }
          registers.push_back(
              LLVM::BitcastOp::create(rewriter, loc, i32, product));
          continue;
        }
        const IRMapping &rowValues = rows[2 * m + j % 2];
        Value rawPair = vector::ExtractOp::create(rewriter, loc, fragment,
                                                  ArrayRef<int64_t>{j});
        SmallVector<Value, 2> results;
        for (int64_t e = 0; e < 2; ++e) {
          int64_t c = 2 * (2 * kk + j / 2) + e;
          Value raw = vector::ExtractOp::create(
              rewriter, loc, fragment, ArrayRef<int64_t>{j, e});
          IRMapping column = columns[c];
          mapWidened(body->getArgument(p.rawInput->getOperandNumber()),
                     rawPair, e, column);
          results.push_back(applyElement(raw, rowValues, column, inside[c]));
        }
        Value packed =
            vector::FromElementsOp::create(rewriter, loc, pairType, results);
        registers.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, packed));
      }
    }
  }
  return registers;
}

void WarpgroupPrologueLowering::eraseLeftovers() {
  if (!opOutsideReduce)
    return;
  rewriter.eraseOp(p.op);
  rewriter.eraseOp(tileAlloc);
}
