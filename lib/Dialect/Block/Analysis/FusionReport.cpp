//===- FusionReport.cpp - Kernels, traffic, FLOPs, local footprint --------===//
//
// Counting conventions (docs/FusionReport.md):
//
// * An op inside a body runs once per block of every axis the enclosing maps
//   and reduces iterate. Over all those runs, an op whose tile has axes T
//   touches extent(a) elements along each a in T (the blocks of an iterated
//   axis tile its extent, the last one partial; a non-iterated axis is read
//   whole), and is repeated numBlocks(a) times for each iterated axis a not
//   in T. So its element count is
//       prod_{a in T} extent(a) * prod_{a iterated, not in T} numBlocks(a).
//   This is exact with partial edge blocks.
// * Loads and map yields move that many elements through global memory.
// * A dot costs 2 FLOPs per element of the union of its operands' axes;
//   other compute costs 1 FLOP per result element (a tile_reduce, per
//   operand element). Loads, constants, iota and casts cost no FLOPs.
// * Local footprint: tiles have block-size extents along iterated axes and
//   whole extents along the others; the peak is over program points of the
//   bytes of values defined in the kernel body and still to be used. Reduce
//   results (the loop-carried state, then the final accumulators) live in
//   registers, every other tile in shared memory; each class has its own
//   peak, and local_bytes_peak is the peak of both together.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"
#include "Blockbuster/Dialect/Block/Analysis/DecodeGemv.h"
#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <set>
#include <vector>

using namespace mlir;
using namespace blockbuster::block;

//===----------------------------------------------------------------------===//
// BlockSizes
//===----------------------------------------------------------------------===//

BlockSizes::BlockSizes(ProgramOp program,
                       const llvm::StringMap<int64_t> &overrides,
                       int64_t defaultBlockSize) {
  for (AxisAttr axis : program.getAxisTable()) {
    int64_t extent = axis.getExtent();
    int64_t size = extent;
    if (axis.isTiled()) {
      auto it = overrides.find(axis.getName().getValue());
      if (it != overrides.end())
        size = it->second;
      else if (axis.getBlockSize())
        size = *axis.getBlockSize();
      else
        size = defaultBlockSize;
    }
    blockSizes[axis.getName()] = std::clamp<int64_t>(size, 1, extent);
    extents[axis.getName()] = extent;
  }
}

int64_t BlockSizes::getExtent(StringAttr axis) const {
  return extents.lookup(axis);
}

int64_t BlockSizes::getBlockSize(StringAttr axis) const {
  return blockSizes.lookup(axis);
}

int64_t BlockSizes::getNumBlocks(StringAttr axis) const {
  int64_t size = getBlockSize(axis);
  return size == 0 ? 0 : llvm::divideCeil(getExtent(axis), size);
}

//===----------------------------------------------------------------------===//
// Counting
//===----------------------------------------------------------------------===//

static int64_t getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  // i1 masks take a byte each.
  return std::max<int64_t>(1, llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

namespace {
/// Which values a footprint counts.
enum class Storage { All, Registers, Shared };

/// Reduce states are loop-carried accumulators: registers on a GPU.
bool isInStorage(Value value, Storage storage) {
  if (storage == Storage::All)
    return true;
  bool isState = isa_and_nonnull<ReduceOp>(value.getDefiningOp());
  return isState == (storage == Storage::Registers);
}

/// Counts elements and bytes of tiles in the context of one op.
class Counter {
public:
  explicit Counter(const BlockSizes &sizes) : sizes(sizes) {}

  /// Elements an op with axes `axes`, nested in `op`'s iteration context,
  /// touches over all its runs.
  int64_t countElements(Operation *op, ArrayRef<StringAttr> axes) const {
    return countElements(getIteratedAxes(op), axes);
  }

  /// The same, given the axes iterated around the op.
  int64_t countElements(ArrayRef<StringAttr> iterated,
                        ArrayRef<StringAttr> axes) const {
    int64_t count = 1;
    for (StringAttr axis : axes)
      count *= sizes.getExtent(axis);
    for (StringAttr axis : iterated)
      if (!llvm::is_contained(axes, axis))
        count *= sizes.getNumBlocks(axis);
    return count;
  }

  /// The extent of `axis` in one instance's tile in `op`'s context: its
  /// block size where iterated around `op`, else the whole axis.
  int64_t getBlockExtent(Operation *op, StringAttr axis) const {
    return llvm::is_contained(getIteratedAxes(op), axis)
               ? sizes.getBlockSize(axis)
               : sizes.getExtent(axis);
  }

  /// Bytes of one instance of tile `type` defined in `op`'s context.
  int64_t countTileBytes(Operation *op, TileType type) const {
    SmallVector<StringAttr> iterated = getIteratedAxes(op);
    int64_t bytes = getElementBytes(type.getElementType());
    for (StringAttr axis : type.getAxes())
      bytes *= llvm::is_contained(iterated, axis) ? sizes.getBlockSize(axis)
                                                  : sizes.getExtent(axis);
    return bytes;
  }

  /// Bytes of the tiles among `values` in `storage`, each in the context
  /// of its definer.
  int64_t countValueBytes(ValueRange values,
                          Storage storage = Storage::All) const {
    int64_t bytes = 0;
    for (Value value : values)
      if (auto tile = dyn_cast<TileType>(value.getType());
          tile && isInStorage(value, storage))
        bytes += countTileBytes(value.getDefiningOp() ? value.getDefiningOp()
                                                      : value.getParentBlock()
                                                            ->getParentOp(),
                                tile);
    return bytes;
  }

  /// The FLOPs of `op` that matrix units run: those of a dot whose operands
  /// are 16-bit floats (the GPU lowering's mma.sync; f32 dots run on the
  /// FMA units).
  int64_t countMatrixFlops(Operation *op) const {
    auto dot = dyn_cast<DotOp>(op);
    if (!dot)
      return 0;
    auto isHalf = [](Value operand) {
      Type element = cast<TileType>(operand.getType()).getElementType();
      return element.isF16() || element.isBF16();
    };
    return isHalf(dot.getLhs()) && isHalf(dot.getRhs()) ? countFlops(op) : 0;
  }

  /// The matrix FLOPs of `op` as the matrix units execute them, with each
  /// instance's dot padded to whole matrix tiles.
  int64_t countMatrixTileFlops(Operation *op) const {
    int64_t flops = countMatrixFlops(op);
    if (!flops)
      return 0;
    return static_cast<int64_t>(flops *
                                getMatrixTilePadding(cast<DotOp>(op)));
  }

  /// How much more a dot's instance computes on the matrix units than it
  /// needs: they work in m16 x n8 x k16 tiles (mma.sync m16n8k16; wgmma's
  /// m64nNk16 is made of them), so a block with fewer rows (M: the free
  /// axes of the lhs), columns (N: those of the rhs) or reduced elements
  /// (K) than a tile fills the rest with zeros. Without it, blocks of 8
  /// queries looked as fast on the tensor cores as blocks of 128.
  double getMatrixTilePadding(DotOp dot) const {
    SmallVector<StringAttr> iterated = getIteratedAxes(dot);
    auto blockExtent = [&](StringAttr axis) {
      return llvm::is_contained(iterated, axis) ? sizes.getBlockSize(axis)
                                                : sizes.getExtent(axis);
    };
    auto lhs = cast<TileType>(dot.getLhs().getType()).getAxes();
    auto rhs = cast<TileType>(dot.getRhs().getType()).getAxes();
    auto contracted = [&](StringAttr axis) {
      return llvm::is_contained(dot.getContract().getAsRange<StringAttr>(),
                                axis);
    };
    int64_t m = 1, n = 1, k = 1;
    for (StringAttr axis : lhs) {
      if (contracted(axis))
        k *= blockExtent(axis);
      else if (!llvm::is_contained(rhs, axis))
        m *= blockExtent(axis);
    }
    for (StringAttr axis : rhs)
      if (!contracted(axis) && !llvm::is_contained(lhs, axis))
        n *= blockExtent(axis);
    if (m < 1 || n < 1 || k < 1)
      return 1;
    auto padded = [](int64_t extent, int64_t tile) {
      return static_cast<double>(llvm::alignTo(extent, tile)) / extent;
    };
    return padded(m, 16) * padded(n, 8) * padded(k, 16);
  }

  /// FLOPs of one compute op over all its runs.
  int64_t countFlops(Operation *op) const {
    if (auto dot = dyn_cast<DotOp>(op)) {
      SmallVector<StringAttr> axes = getBroadcastAxes(
          {cast<TileType>(dot.getLhs().getType()),
           cast<TileType>(dot.getRhs().getType())});
      return 2 * countElements(op, axes);
    }
    if (auto reduce = dyn_cast<TileReduceOp>(op))
      return countElements(
          op, cast<TileType>(reduce.getOperand().getType()).getAxes());
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      // Built-in combiners fold one term per block of the reduced axis; a
      // combine region's ops are counted where they stand.
      if (reduce.hasRegionCombiner())
        return 0;
      SmallVector<StringAttr> iterated = getIteratedAxes(op);
      iterated.push_back(reduce.getAxisAttr());
      int64_t flops = 0;
      for (Type type : reduce.getResultTypes())
        flops += countElements(iterated, cast<TileType>(type).getAxes());
      return flops;
    }
    if (isa<LoadOp, ConstantOp, IotaOp, CastOp, BroadcastOp, YieldOp, MapOp>(
            op))
      return 0;
    int64_t flops = 0;
    for (Type type : op->getResultTypes())
      if (auto tile = dyn_cast<TileType>(type))
        flops += countElements(op, tile.getAxes());
    return flops;
  }

  /// Adds to `kernel` the prologue of `dot` (KernelReport::prologueFlops):
  /// the elementwise ops in its reduce's body that compute its 16-bit lhs
  /// from loads (no dot, reduction or region among them; ops already
  /// counted for another dot of the same operand count once).
  void countPrologue(DotOp dot, llvm::SmallPtrSetImpl<Operation *> &counted,
                     KernelReport &kernel) const {
    if (!countMatrixFlops(dot) || !isa<ReduceOp>(dot->getParentOp()))
      return;
    Value lhs = dot.getLhs();
    if (counted.contains(lhs.getDefiningOp()))
      return;
    llvm::SmallPtrSet<Operation *, 16> slice;
    SmallVector<Value> worklist = {lhs};
    bool loads = false;
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      // Values from outside the body: per-block inputs (statistics).
      if (!def || def->getBlock() != dot->getBlock() ||
          !slice.insert(def).second)
        continue;
      if (isa<LoadOp>(def)) {
        loads = true;
        continue;
      }
      if (isa<DotOp, TileReduceOp, ReduceOp>(def) || def->getNumRegions() ||
          def->getNumResults() != 1)
        return;
      llvm::append_range(worklist, def->getOperands());
    }
    if (!loads || isa_and_nonnull<LoadOp>(lhs.getDefiningOp()))
      return;
    for (Operation *op : slice)
      if (counted.insert(op).second)
        kernel.prologueFlops += countFlops(op);
    kernel.prologueElements +=
        countElements(dot, cast<TileType>(lhs.getType()).getAxes());
  }

  /// Peak bytes of tiles live at once while `block` runs, counting only
  /// values defined in it (the caller adds what is live around it). One pass
  /// over the block: a value is live from its definition to its last use.
  int64_t countPeakBytes(Block &block,
                         Storage storage = Storage::All) const {
    llvm::DenseMap<Operation *, unsigned> position;
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;
    // Bytes that stop being live after the op at each position.
    SmallVector<int64_t> dying(position.size(), 0);
    SmallVector<int64_t> outliving(position.size(), 0);
    llvm::DenseMap<Value, unsigned> lastUseOf;
    for (auto [index, op] : llvm::enumerate(block)) {
      for (Value result : op.getResults()) {
        unsigned lastUse = index;
        for (Operation *user : result.getUsers())
          if (Operation *ancestor = block.findAncestorOpInBlock(*user))
            lastUse = std::max(lastUse, position[ancestor]);
        lastUseOf[result] = lastUse;
        if (lastUse == index)
          continue; // Dead after its definer: counted only while it runs.
        int64_t bytes = countValueBytes(result, storage);
        outliving[index] += bytes;
        dying[lastUse] += bytes;
      }
    }

    int64_t peak = 0;
    int64_t live = 0; // Defined earlier, used here or later.
    for (auto [index, op] : llvm::enumerate(block)) {
      int64_t nested = 0;
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          nested = std::max(nested, countPeakBytes(inner, storage));
      // An op's results are live while it runs (a reduce's state, while its
      // body does). A reduce's init values become its state: those not used
      // later are not counted twice.
      int64_t consumed = 0;
      if (auto reduce = dyn_cast<ReduceOp>(op))
        for (Value init : reduce.getInits())
          if (Operation *definer = init.getDefiningOp();
              definer && definer->getBlock() == &block &&
              lastUseOf.lookup(init) == index)
            consumed += countValueBytes(init, storage);
      peak = std::max(peak, live - consumed +
                                countValueBytes(op.getResults(), storage) +
                                nested);
      live += outliving[index] - dying[index];
    }
    return peak;
  }

private:
  const BlockSizes &sizes;
};
} // namespace

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// True if `reduce` is a sum of products: built-in add combiners (on the
/// GPU, zero-filled f32 accumulators each iteration adds to) and a dot of
/// two different tiles in its body, which the GPU lowering makes a
/// contraction. gpu-split-reductions splits such a loop across blocks. A
/// dot of a tile with itself (a norm's sum of squares) becomes a one-input
/// reduction there, not a contraction: its loop runs whole in every split.
static bool isSplittableSum(ReduceOp reduce) {
  std::optional<ArrayAttr> combiners = reduce.getCombiners();
  if (reduce.hasRegionCombiner() || !combiners || combiners->empty())
    return false;
  for (Attribute kind : *combiners)
    if (cast<CombinerKindAttr>(kind).getValue() != CombinerKind::Add)
      return false;
  return reduce.getBody()
      .walk([](DotOp dot) {
        return dot.getLhs() != dot.getRhs() ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Fills the split figures of `kernel` (`map`'s): the model of what
/// gpu-split-reductions finds in the kernel's block body, its top-level
/// loops.
static void countSplitCandidate(MapOp map, const BlockSizes &sizes,
                                KernelReport &kernel) {
  Block &body = map.getBody().front();
  SmallVector<ReduceOp> sums;
  int64_t tripCount = 0, otherIterations = 0;
  for (auto reduce : body.getOps<ReduceOp>()) {
    int64_t blocks = sizes.getNumBlocks(reduce.getAxisAttr());
    if (!isSplittableSum(reduce)) {
      otherIterations += blocks;
      continue;
    }
    if (tripCount && tripCount != blocks)
      return; // The split pass needs one trip count.
    tripCount = blocks;
    sums.push_back(reduce);
  }
  if (sums.empty())
    return;
  // The pass splits only accumulators of a static shape: a grid axis with
  // a partial edge block gives the tile a dynamic size.
  for (ReduceOp sum : sums) {
    SmallVector<StringAttr> iterated = getIteratedAxes(sum);
    for (Type type : sum.getResultTypes())
      for (StringAttr axis : cast<TileType>(type).getAxes())
        if (llvm::is_contained(iterated, axis) &&
            sizes.getExtent(axis) % sizes.getBlockSize(axis) != 0)
          return;
  }
  kernel.splitTripCount = tripCount;
  kernel.splitOtherIterations = otherIterations;
}

/// Threads of the generic GPU lowering over a tile op's two innermost
/// dimensions (gpu-distribute-to-threads at 128 threads: 4 rows x 32
/// columns; a tile of one dimension spreads over all 128).
constexpr int64_t kLoopThreadRows = 4, kLoopThreadColumns = 32;

/// Whether `operand` of `dot` has only contracted axes: the vector of a
/// matrix-vector product (the M1 GEMV's x[k] in x[k] * W[k, n]).
static bool isContractedOnly(DotOp dot, TileType operand) {
  return llvm::all_of(operand.getAxes(), [&](StringAttr axis) {
    return llvm::is_contained(dot.getContract().getAsRange<StringAttr>(),
                              axis);
  });
}

/// Elements one thread computes per run of reduce body `body`: each tile
/// shape computed there (elementwise chains over one shape become one loop
/// nest, gpu-fuse-elementwise-tile-ops) is laid over the threads. Loads,
/// constants and the dots of two matrices (the matrix units; their
/// operands stream as whole 16-byte copies) are not counted; the square of
/// a norm's statistics (a dot of a tile with itself) counts its operand,
/// like a tile_reduce, and a matrix-vector product the column of its
/// matrix each thread walks (gpu-distribute-to-threads: one thread per
/// column, the contracted elements one after another), unless `map` runs
/// on gpu-decode-gemv's schedule (`decodeGemv`), which gives the product of
/// a decode GEMV dot (x[k] * W[k, n] at M1) a unit rows dimension and puts
/// it on the matrix units like the dots of two matrices.
static int64_t countThreadElements(MapOp map, Block &body,
                                   const Counter &counter, bool decodeGemv) {
  // One entry per shape: the tile's extents in one instance, element types
  // apart.
  std::set<std::vector<int64_t>> shapes;
  auto extentsOf = [&](Type type) {
    std::vector<int64_t> extents;
    for (StringAttr axis : cast<TileType>(type).getAxes())
      extents.push_back(counter.getBlockExtent(&body.front(), axis));
    return extents;
  };
  auto addShape = [&](Type type) { shapes.insert(extentsOf(type)); };
  // A matrix-vector product's matrix, walked by one thread per free
  // element (a column of W[k, n]) over the contracted ones.
  int64_t columnWalks = 0;
  for (Operation &op : body) {
    if (isa<LoadOp, ConstantOp, IotaOp, BroadcastOp, YieldOp, ReduceOp>(op))
      continue;
    if (auto dot = dyn_cast<DotOp>(op)) {
      if (decodeGemv && matchGemvDot(map, dot))
        continue;
      // A matrix-vector product (an operand with only contracted axes, the
      // M1 GEMV's x[k] * W[k, n]) runs on the threads, not the matrix
      // units: one thread per column walks the matrix operand.
      auto lhs = cast<TileType>(dot.getLhs().getType());
      auto rhs = cast<TileType>(dot.getRhs().getType());
      auto walk = [&](TileType matrix) {
        int64_t contracted = 1, free = 1;
        for (auto [axis, extent] :
             llvm::zip(matrix.getAxes(), extentsOf(matrix))) {
          if (llvm::is_contained(dot.getContract().getAsRange<StringAttr>(),
                                 axis))
            contracted *= extent;
          else
            free *= extent;
        }
        columnWalks += contracted *
                       llvm::divideCeil(free, kLoopThreadRows *
                                                  kLoopThreadColumns);
      };
      if (dot.getLhs() == dot.getRhs())
        addShape(lhs);
      else if (isContractedOnly(dot, lhs))
        walk(rhs);
      else if (isContractedOnly(dot, rhs))
        walk(lhs);
      continue;
    }
    if (auto reduce = dyn_cast<TileReduceOp>(op)) {
      addShape(reduce.getOperand().getType());
      continue;
    }
    for (Type type : op.getResultTypes())
      if (isa<TileType>(type))
        addShape(type);
  }
  int64_t elements = columnWalks;
  for (const std::vector<int64_t> &extents : shapes) {
    if (extents.empty()) {
      elements += 1;
    } else if (extents.size() == 1) {
      elements +=
          llvm::divideCeil(extents[0], kLoopThreadRows * kLoopThreadColumns);
    } else {
      int64_t rows = 1;
      for (int64_t extent : ArrayRef(extents).drop_back())
        rows *= extent;
      elements += llvm::divideCeil(rows, kLoopThreadRows) *
                  llvm::divideCeil(extents.back(), kLoopThreadColumns);
    }
  }
  return elements;
}

/// The fused multiply-adds one thread runs in one iteration of `body` for
/// its dots of two matrices off the matrix units (f32 operands:
/// gpu-contractions-to-fma's register tiles): the block's products, each
/// output's contracted elements, spread over the generic lowering's
/// threads. A 32 x 64 x 256 f32 block of a small projection runs 4096 a
/// thread per iteration, where its loop's barriers cost a few hundred
/// cycles: without this count, long reduction blocks looked free.
static int64_t countThreadFmas(Block &body, const Counter &counter) {
  int64_t fmas = 0;
  for (auto dot : body.getOps<DotOp>()) {
    if (dot.getLhs() == dot.getRhs() || counter.countMatrixFlops(dot))
      continue;
    auto lhs = cast<TileType>(dot.getLhs().getType());
    auto rhs = cast<TileType>(dot.getRhs().getType());
    llvm::SetVector<StringAttr> axes;
    axes.insert_range(lhs.getAxes());
    axes.insert_range(rhs.getAxes());
    // A matrix-vector product is counted as its column walks
    // (countThreadElements).
    if (isContractedOnly(dot, lhs) || isContractedOnly(dot, rhs))
      continue;
    int64_t products = 1;
    for (StringAttr axis : axes)
      products *= counter.getBlockExtent(&body.front(), axis);
    fmas += llvm::divideCeil(products, kLoopThreadRows * kLoopThreadColumns);
  }
  return fmas;
}

/// Fills the serial work of `kernel` (`map`'s): its top-level reduces, one
/// iteration per block of their axes (kernel.decodeGemv set: the schedule
/// decides how a decode GEMV dot counts).
static void countSerialWork(MapOp map, const BlockSizes &sizes,
                            const Counter &counter, KernelReport &kernel) {
  for (auto reduce : map.getBody().front().getOps<ReduceOp>()) {
    int64_t trips = sizes.getNumBlocks(reduce.getAxisAttr());
    int64_t elements = countThreadElements(map, reduce.getBody().front(),
                                           counter, kernel.decodeGemv);
    int64_t walk = countThreadElements(map, reduce.getBody().front(), counter,
                                       /*decodeGemv=*/false) -
                   elements;
    int64_t fmas = countThreadFmas(reduce.getBody().front(), counter);
    kernel.serialIterations += trips;
    kernel.serialThreadElements += trips * elements;
    kernel.serialColumnWalkElements += trips * walk;
    kernel.serialThreadFmas += trips * fmas;
    if (kernel.splitTripCount > 0 && isSplittableSum(reduce)) {
      kernel.splitIterationThreadElements += elements;
      kernel.splitIterationColumnWalkElements += walk;
      kernel.splitIterationThreadFmas += fmas;
    }
  }
}

FusionReport blockbuster::block::computeFusionReport(ProgramOp program,
                                                     const BlockSizes &sizes) {
  Counter counter(sizes);
  FusionReport report;
  report.program = program.getSymName().str();
  report.blockSizes = sizes.getTable();

  SmallVector<MapOp> maps = llvm::to_vector(program.getOps<MapOp>());
  llvm::DenseSet<Value> returned;
  for (Operation &op : program.getBody().front())
    if (auto ret = dyn_cast<ReturnOp>(op))
      returned.insert(ret.getOperands().begin(), ret.getOperands().end());

  for (MapOp map : maps) {
    KernelReport kernel;
    for (Attribute axis : map.getAxes()) {
      kernel.grid.push_back(cast<StringAttr>(axis).getValue().str());
      kernel.gridExtents.push_back(sizes.getExtent(cast<StringAttr>(axis)));
    }
    kernel.instances = 1;
    for (Attribute axis : map.getAxes())
      kernel.instances *= sizes.getNumBlocks(cast<StringAttr>(axis));

    llvm::MapVector<Value, int64_t> bytesPerArray;
    llvm::SmallPtrSet<Operation *, 16> prologueOps;
    map.getBody().walk([&](Operation *op) {
      if (auto dot = dyn_cast<DotOp>(op))
        counter.countPrologue(dot, prologueOps, kernel);
      if (auto load = dyn_cast<LoadOp>(op)) {
        auto tile = cast<TileType>(load.getType());
        int64_t bytes = counter.countElements(op, tile.getAxes()) *
                        getElementBytes(tile.getElementType());
        kernel.globalBytesRead += bytes;
        bytesPerArray[load.getSource()] += bytes;
      }
      kernel.flops += counter.countFlops(op);
      kernel.matrixFlops += counter.countMatrixFlops(op);
      kernel.matrixTileFlops += counter.countMatrixTileFlops(op);
    });
    for (auto [source, bytes] : bytesPerArray) {
      auto array = cast<ArrayType>(source.getType());
      kernel.globalBytesFirstRead += std::min(
          bytes,
          array.getNumElements() * getElementBytes(array.getElementType()));
    }
    for (Value result : map.getResults()) {
      auto array = cast<ArrayType>(result.getType());
      kernel.globalBytesWritten +=
          array.getNumElements() * getElementBytes(array.getElementType());
    }
    Block &body = map.getBody().front();
    kernel.localBytesPeak = counter.countPeakBytes(body);
    kernel.registerBytesPeak =
        counter.countPeakBytes(body, Storage::Registers);
    kernel.sharedBytesPeak = counter.countPeakBytes(body, Storage::Shared);
    countSplitCandidate(map, sizes, kernel);
    kernel.decodeGemv = runsDecodeGemv(map, sizes);
    countSerialWork(map, sizes, counter, kernel);

    report.globalBytes += kernel.globalBytesRead + kernel.globalBytesWritten;
    report.flops += kernel.flops;
    report.takePeaks(kernel);
    report.perKernel.push_back(std::move(kernel));

    // Buffered edges: each other kernel that loads one of this map's arrays,
    // directly or through views.
    for (Value result : map.getResults()) {
      llvm::SetVector<Operation *> readers;
      SmallVector<Value> worklist = {result};
      bool isReturned = false;
      while (!worklist.empty()) {
        Value array = worklist.pop_back_val();
        isReturned |= returned.contains(array);
        for (Operation *user : array.getUsers()) {
          if (isa<LoadOp>(user))
            readers.insert(user->getParentOfType<MapOp>());
          else if (auto view = dyn_cast<ViewOp>(user))
            worklist.push_back(view.getResult());
        }
      }
      report.bufferedEdges += readers.size();
      if (readers.empty() || isReturned)
        continue;
      auto array = cast<ArrayType>(result.getType());
      IntermediateArray intermediate;
      intermediate.shape.assign(array.getShape().begin(),
                                array.getShape().end());
      intermediate.elementType = printType(array.getElementType());
      intermediate.bytes =
          array.getNumElements() * getElementBytes(array.getElementType());
      intermediate.readers = readers.size();
      report.intermediates.push_back(std::move(intermediate));
    }
  }
  report.kernels = maps.size();
  return report;
}

/// Seconds as whole nanoseconds: exact in JSON and in FileCheck patterns.
static int64_t toNanoseconds(double seconds) {
  return static_cast<int64_t>(std::llround(seconds * 1e9));
}

void blockbuster::block::writeFusionReport(llvm::json::OStream &json,
                                           const FusionReport &report,
                                           const TargetDescription *target,
                                           bool serialBound) {
  json.object([&] {
    json.attribute("program", report.program);
    json.attributeObject("block_sizes", [&] {
      for (auto [axis, size] : report.blockSizes)
        json.attribute(axis.getValue(), size);
    });
    json.attribute("kernels", report.kernels);
    json.attribute("buffered_edges", report.bufferedEdges);
    json.attribute("global_bytes", report.globalBytes);
    json.attribute("flops", report.flops);
    json.attribute("local_bytes_peak", report.localBytesPeak);
    json.attribute("register_bytes_peak", report.registerBytesPeak);
    json.attribute("shared_bytes_peak", report.sharedBytesPeak);
    json.attributeArray("intermediates", [&] {
      for (const IntermediateArray &array : report.intermediates)
        json.object([&] {
          json.attributeArray("shape", [&] {
            for (int64_t extent : array.shape)
              json.value(extent);
          });
          json.attribute("element_type", array.elementType);
          json.attribute("bytes", array.bytes);
          json.attribute("readers", array.readers);
        });
    });
    json.attributeArray("per_kernel", [&] {
      for (const KernelReport &kernel : report.perKernel)
        json.object([&] {
          json.attributeArray("grid", [&] {
            for (const std::string &axis : kernel.grid)
              json.value(axis);
          });
          json.attribute("instances", kernel.instances);
          json.attribute("global_bytes_read", kernel.globalBytesRead);
          json.attribute("global_bytes_written", kernel.globalBytesWritten);
          json.attribute("global_bytes_first_read",
                         kernel.globalBytesFirstRead);
          json.attribute("flops", kernel.flops);
          json.attribute("matrix_flops", kernel.matrixFlops);
          json.attribute("matrix_tile_flops", kernel.matrixTileFlops);
          json.attribute("prologue_flops", kernel.prologueFlops);
          json.attribute("prologue_elements", kernel.prologueElements);
          json.attribute("local_bytes_peak", kernel.localBytesPeak);
          json.attribute("register_bytes_peak", kernel.registerBytesPeak);
          json.attribute("shared_bytes_peak", kernel.sharedBytesPeak);
          json.attribute("serial_iterations", kernel.serialIterations);
          json.attribute("serial_thread_elements",
                         kernel.serialThreadElements);
          json.attribute("serial_thread_fmas", kernel.serialThreadFmas);
          json.attribute("decode_gemv", kernel.decodeGemv);
          if (!target)
            return;
          KernelEstimate estimate = estimateKernel(kernel, *target,
                                                   serialBound);
          json.attributeObject("estimate", [&] {
            json.attribute("blocks_per_sm", estimate.blocksPerProcessor);
            json.attribute("splits", estimate.splits);
            json.attribute("waves", estimate.waves);
            json.attribute("memory_ns", toNanoseconds(estimate.memorySeconds));
            json.attribute("compute_ns",
                           toNanoseconds(estimate.computeSeconds));
            json.attribute("latency_ns",
                           toNanoseconds(estimate.latencySeconds));
            json.attribute("prologue_ns",
                           toNanoseconds(estimate.prologueSeconds));
            json.attribute("ns", toNanoseconds(estimate.seconds));
          });
        });
    });
    if (!target)
      return;
    json.attribute("target", target->name);
    json.attribute("estimated_ns",
                   toNanoseconds(estimateSeconds(report, *target, serialBound)));
  });
}
