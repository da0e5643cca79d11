//===- WarpgroupPrologue.h - A tiles a warpgroup GEMM computes --*- C++ -*-===//
//
// A block of LayerNorm + matmul or RMSNorm + matmul computes the A tile of
// its dot itself: in every k step an elementwise op reads the raw tile of X
// from global memory, the row statistics (loop-invariant, one value per
// row) and the feature weights (one value per column of the step), and
// writes the normalised tile, rounded to 16 bits, that the dot reads. The
// Hopper schedule of gpu-warpgroup-matmul keeps that exact: TMA stages the
// raw X tile in the ring like a plain A operand, the warpgroup rewrites the
// slot in place (the op's body per element, the same f32 arithmetic and the
// same rounding) and wgmma reads the rewritten slot. Or, by default, in
// registers: each warp loads its rows of the raw tile from the slot
// straight into wgmma's A fragment layout (ldmatrix), applies the body
// there and hands the rounded registers to a register-A wgmma
// (WarpgroupRegisterMma.h): no store back, no proxy fence, no barrier per step.
//
// In registers, a body whose rounded result is a product with factors of
// the row inputs alone (RMSNorm's `truncf(x * rstd * gamma)`) may leave
// those factors to the accumulator instead (`rowScale`): the A element is
// the rest of the product, rounded (`truncf(x * gamma)`, one 16-bit pair
// multiply where both factors are widened 16-bit values, which is exact:
// their product fits f32), and the schedule multiplies the accumulator's
// rows by the factors after the mainloop. That moves the rounding before
// the row factor, so the kernel computes `rstd * sum(round(x * gamma) * W)`
// where the program says `sum(round(x * rstd * gamma) * W)`: a different
// rounding of the same magnitude (docs/GPUPipeline.md, "Norm + matmul on
// Hopper", measures it against fp32).
//
// With that row factor in the accumulator, a row input that is the sum of
// squares of the raw rows (RMSNorm's statistics, PrologueStatistics.h) is
// needed only after the mainloop (`statistics`): each thread adds the
// squares of the raw elements of its A fragments in f32 as they pass
// (`emitFragments`), the four lanes of a quad hold the row's columns
// between them (two shuffles, `reduceStatistics`), and the row factor comes
// from those sums (`emitStatisticRows`). The slot rewrite takes the same
// form where it has the statistics (a split grid's one-warpgroup blocks,
// which have no registers for A): the A element without the row factor is
// written back, each thread adds the squares of its chunks' raw elements
// (`emitSlot`), the 8 threads of a row total them (three shuffles) and
// shared memory hands each row's sum to the threads whose accumulator
// registers hold the row. A split grid combines these sums of its k range
// with the accumulators before `emitStatisticRows`.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <vector>

namespace blockbuster {

/// The elementwise op that computes a dot's A tile in the block.
struct WarpgroupPrologue {
  mlir::linalg::GenericOp op;
  // The raw tile X[m0 : m0 + tile, k : k + step] the op reads at (m, k): a
  // unit-stride view of a global array of the tile's element type.
  mlir::memref::SubViewOp raw;
  mlir::OpOperand *rawInput = nullptr;
  // Inputs read at (m): loop-invariant, one value per row of the tile.
  llvm::SmallVector<mlir::OpOperand *, 2> rowInputs;
  // Inputs read at (k): views of rank-1 global arrays at the raw tile's k
  // offset; the lowering reads their sources at the global k.
  llvm::SmallVector<mlir::OpOperand *, 2> columnInputs;
};

/// The precondition: the dot's A operand (`dot` in the same block as the
/// op, `reduce` the loop or dot that the GEMM schedule replaces) is a
/// workgroup tile of the block written only by such an op before the dot
/// and read only by the dot; the op's body is pure scalar work that ignores
/// its output's old value and its indices, and its result has the element
/// type of the raw tile. `siblings` are further dots of the block that read
/// the same A tile (the gate and up projections of a SwiGLU FFN share it).
mlir::FailureOr<WarpgroupPrologue>
matchWarpgroupPrologue(mlir::linalg::GenericOp dot, mlir::Operation *reduce,
                       llvm::ArrayRef<mlir::Operation *> siblings = {});

/// The transformation, in the ring of gpu-warpgroup-matmul: each slot's A
/// part is a 128 x 64 tile of 16-bit elements stored with the 128-byte TMA
/// swizzle (the 16-byte chunk c of row r at chunk c ^ (r % 8)). Each
/// warpgroup computes the rows its own wgmma reads (all 128 with one
/// warpgroup, rows 64 w to 64 w + 63 for warpgroup w of two), in one of
/// two layouts:
///  - `Layout::Chunks` (the slot rewritten in place): thread t of a
///    warpgroup owns chunk t % 8 of its rows t / 8 + 16 j (j < 8 or j < 4);
///    the 8 threads of each quarter warp touch 8 different chunks of one
///    row (16-byte accesses without bank conflicts);
///  - `Layout::Fragments` (registers for wgmma's A): thread t owns rows
///    r = 16 (t % 128 / 32) + t % 32 / 4 and r + 8 of each 64 and columns
///    c, c + 1, c + 8, c + 9 of each 16 (c = 2 (t % 4)), loaded with
///    ldmatrix.x4 (whose 8 row addresses per quarter fall into 8 different
///    chunks of the swizzle: no bank conflicts).
/// The row statistics are computed once, before the mainloop.
class WarpgroupPrologueLowering {
public:
  enum class Layout { Chunks, Fragments };
  /// `reduce` is the loop or dot the schedule replaces, `tileRows` x
  /// `stepK` the A part of a slot that one of the block's `warpgroups`
  /// computes, `kTotal` the extent of K. `rowScale` leaves the body's row
  /// factor, where it has one, to the accumulator (`rowScales`); with
  /// `Layout::Chunks` only together with `statistics` (the factors are the
  /// accumulator rows', which the chunk layout's threads do not own).
  WarpgroupPrologueLowering(mlir::RewriterBase &rewriter,
                            const WarpgroupPrologue &prologue,
                            mlir::Operation *reduce, int64_t tileRows,
                            int64_t stepK, int64_t kTotal,
                            int64_t warpgroups, Layout layout,
                            bool rowScale = false, bool statistics = false);

  /// Whether, with `rowScale`, the body uses its row inputs only in the
  /// row factor that the accumulator takes (the A elements then read no
  /// row value): RMSNorm's rstd, from the sum of squares. The precondition
  /// of `statistics`.
  static bool leavesRowInputToAccumulator(const WarpgroupPrologue &prologue);

  /// After emitRowValues: the factors that the A elements leave out, one
  /// f32 per row of the thread (rows r + 64 m + 8 i of its warpgroup's as
  /// 2 m + i, which are also the rows of its accumulator registers); the
  /// schedule multiplies each accumulator row by its factor after the
  /// mainloop. Empty where the body is applied whole.
  llvm::ArrayRef<mlir::Value> rowScales() const { return scales; }

  /// Before the mainloop: the part of the body that depends on the row
  /// inputs alone, for each of the thread's rows (in registers); with
  /// `statistics` only the thread's place (the rows come after the
  /// mainloop, emitStatisticRows).
  void emitRowValues();
  /// `statistics`: the thread's sums of squares before the first step,
  /// one f32 zero per row the thread reads (Fragments: as rowScales orders
  /// them; Chunks: its chunk's rows in order).
  llvm::SmallVector<mlir::Value> initialSums();
  /// `statistics`, after the mainloop: the sums of the rows of the thread's
  /// accumulator registers (as rowScales orders them) over the block's k
  /// steps, from each thread's `sums`: Fragments, over the four lanes of
  /// its quad; Chunks, over the 8 threads of a row, then through shared
  /// memory (a barrier of the block).
  llvm::SmallVector<mlir::Value> reduceStatistics(mlir::ValueRange sums);
  /// `statistics`: the row part of the body on each row's whole sum of
  /// squares (`totals`, as reduceStatistics returns them), and the row
  /// factors (rowScales).
  void emitStatisticRows(mlir::ValueRange totals);
  /// In the mainloop, once k step `step` has landed in `slot` (a view of
  /// the warpgroup's rows of the slot's A part): rewrites it in place with
  /// the op's body, then
  /// `fence.proxy.async` so that wgmma (the async proxy) sees the stores.
  /// Columns past K become zeros. With `statistics`, `sums` (as
  /// initialSums) become the sums with the squares of the raw elements
  /// added (zeros past K and M: TMA fills them).
  void emitSlot(mlir::Value slot, mlir::Value step,
                llvm::SmallVectorImpl<mlir::Value> *sums = nullptr);
  /// `Layout::Fragments`: once k step `step` has landed in `slot` (as in
  /// emitSlot), the thread's A registers of the step: for each m64 of the
  /// warpgroup's rows, for each k16 of the step, the four i32 registers
  /// (two 16-bit elements each) of the op's body applied to the raw tile,
  /// in wgmma's A fragment layout (WarpgroupRegisterMma.h). Columns past K are
  /// zeros. The column inputs are loaded first, so that their latency
  /// overlaps the wait for the slot, which `waitForSlot` emits. With
  /// `statistics`, `sums` (as initialSums) become the sums with the squares
  /// of the step's raw elements added (zeros past K and M: TMA fills them).
  llvm::SmallVector<mlir::Value>
  emitFragments(mlir::Value slot, mlir::Value step,
                llvm::function_ref<void()> waitForSlot,
                llvm::SmallVectorImpl<mlir::Value> *sums = nullptr);
  /// Erases the op and its tile where the schedule's erasure of `reduce`
  /// did not (a whole-k dot); call after erasing `reduce`.
  void eraseLeftovers();

  // The row factor of the body, for the schedules that leave it to the
  // accumulator (here and gpu-decode-row-factor).
  enum class Part { Invariant, Row, Column, Element };
  /// The body's result as `truncf(product)` with factors of the row
  /// inputs alone: the multiplications of the product (each used once, in
  /// it) and its factors in order, split into those of the row inputs
  /// alone and the others (which depend on no row input).
  struct RowFactor {
    mlir::Operation *round = nullptr;
    llvm::SmallPtrSet<mlir::Operation *, 4> products;
    llvm::SmallVector<mlir::Value, 2> rowFactors, elementFactors;
    // Where the others are exactly extf(raw) and extf(column input) of the
    // 16-bit type widened to f32: that column input (the element is then
    // one 16-bit multiply of the raw pair and the column pair).
    mlir::OpOperand *pairColumn = nullptr;
  };
  /// The precondition of leaving a row factor to the accumulator: the
  /// body yields `truncf(p)`, p a product (multiplications each used once,
  /// in it) whose factors are either values of the row inputs alone
  /// (`parts` says Row) or values that depend on no row input, at least
  /// one of each.
  static std::optional<RowFactor>
  matchRowFactor(const WarpgroupPrologue &p,
                 const llvm::DenseMap<mlir::Operation *, Part> &parts);
  /// Each body op by what it reads: the row inputs alone, the column
  /// inputs alone, the element, or none of them (invariant).
  static llvm::DenseMap<mlir::Operation *, Part>
  classifyParts(const WarpgroupPrologue &p);

private:
  /// The body's row part for the thread's row `row` of the block's tile,
  /// its row inputs mapped to `rowValues` (loaded where null), into `rows`
  /// and, with a row factor, its value into `scales`.
  void emitRow(mlir::Value row, mlir::ValueRange rowValues);

  mlir::Value index(int64_t value);
  /// Clones the ops of `part` of the body into `mapping`, but those of
  /// the row factor's product where the A elements leave it out and those
  /// whose results `mapping` already has (widenings given by `mapWidened`).
  void cloneBody(Part part, mlir::IRMapping &mapping);
  /// Maps the body's widenings of `arg` to f32 (`arith.extf` of bf16) to
  /// element `e` of the bf16 pair `pair`, widened with one integer op: a
  /// bf16 value is the upper half of its f32 (16 bits shifted up, or the
  /// upper half of the pair kept), where a vector's `extf` costs a byte
  /// permute and a shift for the upper element.
  void mapWidened(mlir::BlockArgument arg, mlir::Value pair, int64_t e,
                  mlir::IRMapping &mapping);
  /// `factor->pairColumn`'s values at the `pairs` column pairs from global
  /// column `first` on (pair q at first + 8 q and + 1): one 4-byte load
  /// each where K is a multiple of the step, else clamped loads, with
  /// `inside[2 q + e]` whether column e of pair q is inside K.
  llvm::SmallVector<mlir::Value>
  loadColumnPairs(mlir::Value first, int64_t pairs,
                  llvm::SmallVectorImpl<mlir::Value> &inside);
  /// The column part of the body at the `count` columns from global column
  /// `first` on (one vector load per column input where all of them are
  /// inside K, else clamped loads); `inside[e]` whether column e is inside
  /// K (null where K is a multiple of the step).
  std::vector<mlir::IRMapping> loadColumns(mlir::Value first, int64_t count,
                                           llvm::SmallVectorImpl<mlir::Value> &inside);
  /// The element part of the body at `raw` (of row mapping `row`, column
  /// mapping `column`): the rounded result, zero outside K.
  mlir::Value applyElement(mlir::Value raw, const mlir::IRMapping &row,
                           const mlir::IRMapping &column, mlir::Value inside);

  mlir::RewriterBase &rewriter;
  WarpgroupPrologue p;
  mlir::Location loc;
  int64_t tileRows, stepK, kTotal, warpgroups;
  Layout layout;
  llvm::DenseMap<mlir::Operation *, Part> parts;
  // Chunks: thread t's chunk (t % 8), its first row (t / 8) in its
  // warpgroup's rows, the chunk's place in the swizzled row. Fragments:
  // the lane's first row r in its warpgroup's rows, and its first column
  // c. Both: the warpgroup's first row in the block's tile (null with one
  // warpgroup).
  mlir::Value chunk, firstRow, swizzledChunk, warpgroupRow;
  mlir::Value lane, fragmentColumn;
  // The values of the invariant part, and per row of the thread those of
  // the row part too.
  mlir::IRMapping invariant;
  std::vector<mlir::IRMapping> rows;
  // The row factor the A elements leave out, and its values per row.
  std::optional<RowFactor> factor;
  llvm::SmallVector<mlir::Value, 2> scales;
  // The row input is the sum of squares, accumulated in the mainloop; the
  // rows of the thread's accumulator registers in the block's tile, kept
  // for after it.
  bool statistics;
  llvm::SmallVector<mlir::Value, 4> statisticRows;
  // Chunks: the thread's chunk rows in the block's tile.
  llvm::SmallVector<mlir::Value, 8> chunkRows;
  // The tile the op writes; whether erasing `reduce` leaves them.
  mlir::Operation *tileAlloc;
  bool opOutsideReduce;
};

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H
