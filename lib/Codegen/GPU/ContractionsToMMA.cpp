//===- ContractionsToMMA.cpp - f16/bf16 tile dots on tensor cores ---------===//
//
// The one place where a block.dot meets the GPU's matrix units: the block to
// Linalg conversion lowers block.dot to a contraction linalg.generic, and
// this pass rewrites every such contraction inside a block whose operands
// are f16 or bf16 and whose accumulator is f32 into warp-level mma.sync
// (m16n8k16, f32 accumulation). Contractions of other types keep the SIMT
// lowering of gpu-distribute-to-threads. A wgmma lowering would replace this
// file.
//
// For C[b.., m, n] += A[b.., m, k] * B[b.., k, n]:
//  1. A and B are staged into workgroup memory by all threads, zero-padded
//     to multiples of the mma shape (tiles at partial edge blocks have
//     dynamic extents; the padding is static, the full block). Each operand
//     is staged in the orientation whose rows are contiguous in its source,
//     in 16-byte copies (cp.async from global memory) where a group is inside
//     the tile and aligned, so the loads coalesce, and ldmatrix reads it with
//     or without .trans.
//     Rows are padded by 16 bytes so that ldmatrix's eight row addresses fall
//     into different banks.
//  2. A warp forall: each warp takes work items of 16 rows x up to 8 n
//     fragments and runs the k loop: ldmatrix.x4 for A, ldmatrix.x2 per n
//     fragment of B, nvvm.mma.sync; the accumulators stay in registers.
//  3. Each lane adds the accumulator elements it owns that lie inside the
//     tile to C (no two lanes own the same element); when C is a zero-filled
//     tile that is then added into a reduce state, to that state directly.
// Batch dimensions become sequential loops around the three steps. Mapping
// the foralls to threads puts a barrier after each step.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "LinearForalls.h"

#include "TileContractions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUCONTRACTIONSTOMMA
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

// The mma.sync shape: m16n8k16 for 16-bit operands.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
constexpr int64_t kWarpSize = 32;
// 16 bytes of padding per staged row (8 elements of 16 bits).
constexpr int64_t kRowPad = 8;
// Staging copies 16 bytes (8 elements of 16 bits) per thread and step.
constexpr int64_t kCopyElements = 8;
// n fragments per warp work item: 4 f32 accumulator registers each.
constexpr int64_t kMaxFragmentsPerItem = 8;

bool isWorkgroup(Value memref) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      cast<MemRefType>(memref.getType()).getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// A tile contraction with f16 or bf16 operands (both the same type).
struct MmaContraction : TileContraction {
  Type operandType;
};

std::optional<MmaContraction> matchMmaContraction(linalg::GenericOp op) {
  std::optional<TileContraction> contraction = matchTileContraction(op);
  if (!contraction)
    return std::nullopt;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  if (a != b || !(a.isF16() || a.isBF16()))
    return std::nullopt;
  return MmaContraction{*contraction, a};
}

/// An operand staged in workgroup memory as `rows` x `cols` elements (both
/// padded to the mma shape), `rowDim` and `colDim` being the loop
/// dimensions along its rows and columns.
struct StagedOperand {
  Value source;
  AffineMap map;
  unsigned rowDim, colDim;
  int64_t rows, cols;
  Value buffer;
};

class MmaLowering : IndexArithmetic {
public:
  MmaLowering(RewriterBase &rewriter, MmaContraction contraction,
              int64_t threads)
      : IndexArithmetic(rewriter, contraction.op.getLoc()), rewriter(rewriter),
        c(contraction), loc(contraction.op.getLoc()), threads(threads) {}

  /// Replaces the contraction; fails (leaving it alone) when a tile extent
  /// has no constant bound.
  LogicalResult run();

private:
  StagedOperand stageLayout(Value source, AffineMap map, unsigned outerDim,
                            int64_t outerRows);
  void emitStaging(StagedOperand &s, Value thread);
  void emitElementCopy(const StagedOperand &s, Value row, Value col);
  void emitWarpLoop();
  Value loadFragment(const StagedOperand &s, Value row, Value col,
                     int64_t tiles, bool transpose);
  SmallVector<Value> fragmentRegisters(Value fragment);

  RewriterBase &rewriter;
  MmaContraction c;
  Location loc;
  int64_t threads;
  DenseMap<unsigned, LoopExtent> extents;
  DenseMap<unsigned, Value> batchIvs;
  StagedOperand a, b;
  std::optional<AccumulationFold> fold;
  int64_t kPadded = 0, fragmentsPerItem = 1, chunksPerStrip = 1, strips = 1;
};

/// Stages `source` with rows along the dimension that is contiguous in
/// memory last: [outer][k] when k is its innermost dimension, else [k][outer].
StagedOperand MmaLowering::stageLayout(Value source, AffineMap map,
                                       unsigned outerDim, int64_t outerRows) {
  auto innermost = cast<AffineDimExpr>(map.getResults().back()).getPosition();
  StagedOperand s{source, map, outerDim, c.k, outerRows, kPadded, Value()};
  if (innermost != c.k)
    s = StagedOperand{source, map, c.k, outerDim, kPadded, outerRows, Value()};
  auto type = MemRefType::get(
      {s.rows, s.cols + kRowPad}, c.operandType, MemRefLayoutAttrInterface{},
      gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                 gpu::AddressSpace::Workgroup));
  s.buffer = memref::AllocOp::create(rewriter, loc, type,
                                     rewriter.getI64IntegerAttr(128));
  return s;
}

/// Copies element (row, col) of the padded operand: from the source inside
/// the tile, zero outside.
void MmaLowering::emitElementCopy(const StagedOperand &s, Value row, Value col) {
  DenseMap<unsigned, Value> dims = batchIvs;
  dims[s.rowDim] = row;
  dims[s.colDim] = col;
  Value inBounds = arith::AndIOp::create(
      rewriter, loc, below(row, extents[s.rowDim].value),
      below(col, extents[s.colDim].value));
  auto select = scf::IfOp::create(rewriter, loc, c.operandType, inBounds,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(select.thenBlock());
  Value loaded = memref::LoadOp::create(rewriter, loc, s.source,
                                        operandIndices(s.map, dims));
  scf::YieldOp::create(rewriter, loc, loaded);
  rewriter.setInsertionPointToStart(select.elseBlock());
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(c.operandType));
  scf::YieldOp::create(rewriter, loc, zero);
  rewriter.setInsertionPointAfter(select);
  memref::StoreOp::create(rewriter, loc, select.getResult(0), s.buffer,
                          ValueRange{row, col});
}

/// The threads copy the padded operand in groups of 16 bytes, group
/// thread, thread + threads, ...: consecutive threads read consecutive
/// groups of a row, which is contiguous in the source. A group that lies
/// inside the tile and starts 16-byte aligned in the source (the tile's
/// offset is only known at run time) is one vector load; others, at the
/// tile's edges, go element by element.
void MmaLowering::emitStaging(StagedOperand &s, Value thread) {
  int64_t groupsPerRow = s.cols / kCopyElements;
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, s.source);
  auto loop = scf::ForOp::create(rewriter, loc, thread,
                                 index(s.rows * groupsPerRow), index(threads));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value group = loop.getInductionVar();
  Value row = div(group, groupsPerRow);
  Value col = mul(rem(group, groupsPerRow), kCopyElements);
  DenseMap<unsigned, Value> dims = batchIvs;
  dims[s.rowDim] = row;
  dims[s.colDim] = col;
  SmallVector<Value> indices = operandIndices(s.map, dims);

  // Inside the tile (checks a full tile does not need are left out) ...
  SmallVector<Value> conditions;
  Value rowExtent = extents[s.rowDim].value;
  Value colExtent = extents[s.colDim].value;
  if (getConstantIntValue(rowExtent) != s.rows)
    conditions.push_back(below(row, rowExtent));
  if (getConstantIntValue(colExtent) != s.cols)
    conditions.push_back(arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ule,
        add(col, index(kCopyElements)), colExtent));
  // ... and aligned: the element's linear offset is a multiple of 8.
  Value linear = metadata.getOffset();
  for (auto [i, stride] : llvm::enumerate(metadata.getStrides()))
    linear = add(linear, rewriter.createOrFold<arith::MulIOp>(loc, indices[i],
                                                              stride));
  conditions.push_back(arith::CmpIOp::create(rewriter, loc,
                                             arith::CmpIPredicate::eq,
                                             rem(linear, kCopyElements),
                                             index(0)));
  Value whole = conditions.front();
  for (Value condition : llvm::drop_begin(conditions))
    whole = arith::AndIOp::create(rewriter, loc, whole, condition);

  auto copy = scf::IfOp::create(rewriter, loc, whole, /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(copy.thenBlock());
  if (isWorkgroup(s.source)) {
    auto vectorType = VectorType::get({kCopyElements}, c.operandType);
    Value vector = vector::LoadOp::create(rewriter, loc, vectorType, s.source,
                                          indices, /*nontemporal=*/false,
                                          llvm::Align(16));
    vector::StoreOp::create(rewriter, loc, vector, s.buffer,
                            ValueRange{row, col}, /*nontemporal=*/false,
                            llvm::Align(16));
  } else {
    // Global memory: cp.async, straight to shared memory without passing
    // through registers; every copy of the thread is in flight at once.
    nvgpu::DeviceAsyncCopyOp::create(
        rewriter, loc, s.buffer, ValueRange{row, col}, s.source, indices,
        rewriter.getIndexAttr(kCopyElements), /*srcElements=*/Value(),
        /*bypassL1=*/rewriter.getUnitAttr());
  }
  rewriter.setInsertionPointToStart(copy.elseBlock());
  auto elements = scf::ForOp::create(rewriter, loc, index(0),
                                     index(kCopyElements), index(1));
  rewriter.setInsertionPointToStart(elements.getBody());
  emitElementCopy(s, row, add(col, elements.getInductionVar()));
}

Value MmaLowering::loadFragment(const StagedOperand &s, Value row, Value col,
                                int64_t tiles, bool transpose) {
  auto type = VectorType::get({tiles, 2}, c.operandType);
  return nvgpu::LdMatrixOp::create(rewriter, loc, type, s.buffer,
                                   ValueRange{row, col},
                                   rewriter.getBoolAttr(transpose),
                                   rewriter.getI32IntegerAttr(tiles));
}

/// The 32-bit registers of an ldmatrix fragment, as nvvm.mma.sync takes
/// them: f16x2 vectors, or i32 for bf16.
SmallVector<Value> MmaLowering::fragmentRegisters(Value fragment) {
  SmallVector<Value> registers;
  int64_t count = cast<VectorType>(fragment.getType()).getDimSize(0);
  for (int64_t i = 0; i < count; ++i) {
    Value pair = vector::ExtractOp::create(rewriter, loc, fragment, i);
    if (c.operandType.isBF16())
      pair = LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), pair);
    registers.push_back(pair);
  }
  return registers;
}

void MmaLowering::emitWarpLoop() {
  MLIRContext *ctx = rewriter.getContext();
  int64_t warps = threads / kWarpSize;
  auto forall = createWarpForall(rewriter, loc, warps);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getBody()->getTerminator());
  Value lane = gpu::LaneIdOp::create(rewriter, loc, /*upper_bound=*/nullptr);
  Value group = div(lane, 4), inGroup = rem(lane, 4);
  Value lane16 = rem(lane, 16), lane8 = rem(lane, 8);
  Value half16 = div(lane, 16), half8 = rem(div(lane, 8), 2);

  auto items = scf::ForOp::create(rewriter, loc, forall.getInductionVar(0),
                                  index(strips * chunksPerStrip),
                                  index(warps));
  rewriter.setInsertionPointToStart(items.getBody());
  Value item = items.getInductionVar();
  Value m0 = mul(div(item, chunksPerStrip), kMmaM);
  Value n0 = mul(rem(item, chunksPerStrip), fragmentsPerItem * kMmaN);

  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getF32FloatAttr(0.0f));
  SmallVector<Value> init(4 * fragmentsPerItem, zero);
  auto kLoop = scf::ForOp::create(rewriter, loc, index(0), index(kPadded),
                                  index(kMmaK), init);
  {
    OpBuilder::InsertionGuard bodyGuard(rewriter);
    rewriter.setInsertionPointToStart(kLoop.getBody());
    Value k0 = kLoop.getInductionVar();
    // ldmatrix.x4 gives the four 8x8 quarters of the 16x16 A tile, lanes
    // 8i..8i+7 addressing the rows of quarter i: (m 0-7, k 0-7),
    // (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15).
    Value fragA;
    if (a.rowDim == c.m)
      fragA = loadFragment(a, add(m0, lane16), add(k0, mul(half16, 8)), 4,
                           /*transpose=*/false);
    else
      fragA = loadFragment(a, add(k0, add(lane8, mul(half16, 8))),
                           add(m0, mul(half8, 8)), 4, /*transpose=*/true);
    SmallVector<Value> regsA = fragmentRegisters(fragA);
    SmallVector<Value> results;
    auto accType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(4, rewriter.getF32Type()));
    NVVM::MMATypes ptxType = c.operandType.isBF16() ? NVVM::MMATypes::bf16
                                                    : NVVM::MMATypes::f16;
    for (int64_t j = 0; j < fragmentsPerItem; ++j) {
      Value nj = add(n0, index(j * kMmaN));
      // ldmatrix.x2 gives the 16x8 B fragment as (k 0-7) and (k 8-15).
      Value fragB;
      if (b.rowDim == c.n)
        fragB = loadFragment(b, add(nj, lane8), add(k0, mul(half8, 8)), 2,
                             /*transpose=*/false);
      else
        fragB = loadFragment(b, add(k0, lane16), nj, 2, /*transpose=*/true);
      SmallVector<Value> regsB = fragmentRegisters(fragB);
      ValueRange acc = kLoop.getRegionIterArgs().slice(4 * j, 4);
      auto mma = NVVM::MmaOp::create(
          rewriter, loc, accType, regsA, regsB, acc,
          ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK}, std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      for (int64_t i = 0; i < 4; ++i)
        results.push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
    }
    scf::YieldOp::create(rewriter, loc, results);
  }

  // Accumulator register q of fragment j holds element
  // (m0 + group + 8 * (q / 2), n0 + 8 * j + 2 * inGroup + q % 2).
  Value cBuffer = fold ? fold->acc : c.op.getDpsInits()[0];
  AffineMap cMap = c.op.getIndexingMapsArray()[2];
  for (int64_t j = 0; j < fragmentsPerItem; ++j) {
    for (int64_t q = 0; q < 4; ++q) {
      Value row = add(add(m0, group), index(8 * (q / 2)));
      Value col = add(add(n0, mul(inGroup, 2)), index(j * kMmaN + q % 2));
      Value inside =
          arith::AndIOp::create(rewriter, loc, below(row, extents[c.m].value),
                                below(col, extents[c.n].value));
      auto guardIf = scf::IfOp::create(rewriter, loc, inside);
      OpBuilder::InsertionGuard ifGuard(rewriter);
      rewriter.setInsertionPointToStart(guardIf.thenBlock());
      DenseMap<unsigned, Value> dims = batchIvs;
      dims[c.m] = row;
      dims[c.n] = col;
      SmallVector<Value> indices = operandIndices(cMap, dims);
      Value old = memref::LoadOp::create(rewriter, loc, cBuffer, indices);
      Value sum = arith::AddFOp::create(rewriter, loc, old,
                                        kLoop.getResult(4 * j + q));
      memref::StoreOp::create(rewriter, loc, sum, cBuffer, indices);
    }
  }
}

LogicalResult MmaLowering::run() {
  rewriter.setInsertionPoint(c.op);
  SmallVector<unsigned> dims = c.batch;
  dims.append({c.m, c.n, c.k});
  for (unsigned dim : dims) {
    std::optional<LoopExtent> extent = loopExtent(rewriter, c.op, dim);
    if (!extent)
      return failure();
    extents[dim] = *extent;
  }
  int64_t mPadded = llvm::alignTo(extents[c.m].bound, kMmaM);
  kPadded = llvm::alignTo(extents[c.k].bound, kMmaK);
  int64_t fragments = llvm::divideCeilSigned(extents[c.n].bound, kMmaN);
  strips = mPadded / kMmaM;
  // Enough work items for every warp where the tile allows it.
  fragmentsPerItem = std::min(fragments, kMaxFragmentsPerItem);
  while (fragmentsPerItem > 1 &&
         strips * llvm::divideCeilSigned(fragments, fragmentsPerItem) <
             threads / kWarpSize)
    fragmentsPerItem = llvm::divideCeilSigned(fragmentsPerItem, 2);
  chunksPerStrip = llvm::divideCeilSigned(fragments, fragmentsPerItem);
  int64_t nPadded = chunksPerStrip * fragmentsPerItem * kMmaN;

  fold = findAccumulationFold(c.op);
  SmallVector<AffineMap> maps = c.op.getIndexingMapsArray();
  a = stageLayout(c.op.getDpsInputs()[0], maps[0], c.m, mPadded);
  b = stageLayout(c.op.getDpsInputs()[1], maps[1], c.n, nPadded);

  // Batch dimensions: sequential loops around staging and compute.
  for (unsigned dim : c.batch) {
    auto loop = scf::ForOp::create(rewriter, loc, index(0),
                                   extents[dim].value, index(1));
    rewriter.setInsertionPointToStart(loop.getBody());
    batchIvs[dim] = loop.getInductionVar();
  }
  auto staging = createThreadForall(rewriter, loc, threads);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(staging.getBody()->getTerminator());
    emitStaging(a, staging.getInductionVar(0));
    emitStaging(b, staging.getInductionVar(0));
    // Each thread waits for its own cp.async copies; the barrier after the
    // forall then publishes them to the block.
    if (!isWorkgroup(a.source) || !isWorkgroup(b.source)) {
      Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
          rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
          ValueRange{});
      nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, group,
                                       rewriter.getI32IntegerAttr(0));
    }
  }
  emitWarpLoop();
  eraseLoweredContraction(rewriter, c.op, fold);
  return success();
}

struct GPUContractionsToMMA
    : blockbuster::impl::GPUContractionsToMMABase<GPUContractionsToMMA> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < kWarpSize || threads % kWarpSize != 0)
      return;
    SmallVector<MmaContraction> contractions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<MmaContraction> c = matchMmaContraction(op))
        contractions.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (MmaContraction &c : contractions)
      (void)MmaLowering(rewriter, c, threads).run();
  }
};

} // namespace
