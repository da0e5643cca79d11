//===- FlashAttention.cpp - Attention blocks with their tiles in registers ===//
//
// The FlashAttention-2 schedule of a fused attention block
// (docs/design/06-fast-kernels.md, section 3, shape 2). After bufferization
// such a block is a sequence of tile ops on workgroup buffers: per key tile
// of its reduce loops, S = Q K^T into a zero-filled tile, elementwise ops
// (the scale, a mask, exp(S - m), the division by l, the bf16 rounding),
// row reductions (max, sum), the update of the loop's state (copies into
// the state buffers), O += P V, and after the loops the cast and the copy
// of O to global memory. The generic path stages every tile in shared
// memory with a barrier after each op; here every tile lives in registers.
//
// Each warp owns 16 of the block's query rows (at most 16 per warp: 64 at
// the pipeline's 128 threads). A tile of the block (`Tile`: query rows x C
// columns, C a multiple of 8) is held in the layout of the m16n8k16
// mma.sync accumulator: lane l of warp w holds register 4 j + q at row
// 16 w + l / 4 + 8 (q / 2) and column 8 j + 2 (l % 4) + q % 2. A row vector
// (`Rows`: one value per query row, the softmax statistics or the query
// positions) is two registers per lane, rows 16 w + l / 4 and + 8, the same
// in the four lanes of a quad.
//
// The ops become:
//  - `linalg.fill`, `linalg.copy` between buffers: register moves;
//  - an elementwise `linalg.generic`: its body cloned per register, a row
//    vector input read at the register's row, `linalg.index` the register's
//    row or column in the tile;
//  - a row reduction (a row vector from a tile, combined by add, mul, max
//    or min): each lane folds its registers in the body, the four lanes of a
//    quad combine theirs with two xor shuffles, then the initial value;
//  - a contraction `C[m, n] += A[m, k] * B[n, k]` or `B[k, n]` with 16-bit
//    operands and an f32 C: `nvvm.mma.sync` m16n8k16 on the registers of C.
//    A is a tile of a global array (Q: its fragments loaded from global
//    memory once, where the array's view is made) or a 16-bit tile of the
//    block (P: the registers of two adjacent n8 tiles are the A fragment of
//    one k16 step, columns past the tile's end zeroed), or an f32 tile of
//    the block against a bf16 B widened in the body (PyTorch's SDPA
//    exported as is): its registers split into bf16 parts that sum to it,
//    one mma per part (splitIntoParts). B is a tile of a
//    global array in shared memory (rows padded by 16 bytes against bank
//    conflicts, rows past the end zero), read with ldmatrix.x4 (`.trans`
//    when its rows are the contracted axis: V). In a loop whose iteration
//    makes B's view, the view is recomputed for the next iteration and its
//    tile copied ahead with cp.async into the other of two slots (one copy
//    group per such operand, so a wait for all but the newest group finds
//    this iteration's tile); otherwise it is staged where it is used;
//  - a contraction whose tile has one reader that keeps it only through
//    `select(c, f(S), g)`, where c compares a column position with a row
//    position (index sums growing with linalg.index: a causal mask): its
//    loop stops before the tiles that c discards whole where that is
//    proven to leave the loop's state unchanged (maskedIterationKeeps),
//    else such a tile skips the dot (c fails at the first column and the
//    last row of the block); the mask's op runs with c true on a tile c
//    keeps whole, and compares constant column offsets with a threshold
//    per row on a tile that crosses the diagonal;
//  - f32 `math.exp`: ex2.approx of the argument times log2(e), a constant
//    factor of the argument (the softmax scale) folded into one fma; a tile
//    that an op of its own scales by positive constants (matchScale) keeps
//    its unscaled registers, which its row max folds (then scaled: the
//    scale is monotone) and the exps' fma reads, as FlashAttention does;
//  - an `scf.for` (a reduce over key tiles): the buffers it updates that
//    live across iterations become loop-carried registers;
//  - a `memref.copy` of a tile to a global array: two adjacent columns per
//    store, rows and columns bounds-checked at partial edge blocks.
// Columns past a partial key tile's end take part in no reduction and
// contribute zero to P V.
//
// The pass rebuilds the block in a new `scf.forall` while interpreting the
// old one; anything it does not know (another op, a column broadcast, a
// tile read through a view, more rows than its warps hold) drops the new
// block and the old one goes on to the generic path unchanged.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "BF16Widening.h"
#include "RowCombiners.h"
#include "RunningMaxCombine.h"
#include "TileBounds.h"
#include "TileContractions.h"
#include "TmaRing.h"
#include "WarpgroupRegisterMma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <cmath>
#include <functional>
#include <limits>

#define DEBUG_TYPE "gpu-flash-attention"

namespace blockbuster {
#define GEN_PASS_DEF_GPUFLASHATTENTION
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

constexpr int64_t kWarpSize = 32, kRowsPerWarp = 16;
// mma.sync m16n8k16: n8 tiles, k16 steps.
constexpr int64_t kTileN = 8, kStepK = 16;
// Staged rows are padded by 16 bytes: ldmatrix's 8 row addresses fall into
// different banks.
constexpr int64_t kRowPad = 8;
// Elements of one 16-byte copy.
constexpr int64_t kChunk = 8;
// wgmma: the rows of one warpgroup's accumulator, and the key tile (the
// n of S = Q K^T, the k of P V) the TMA schedule takes.
constexpr int64_t kWarpgroupRows = 64, kWgmmaKeys = 64;
// The most keys of a tile on the wgmma schedule: S's n (m64n128k16), P V's
// k; two TMA boxes of 64 rows per 64 columns.
constexpr int64_t kWgmmaMaxKeys = 128;
// A TMA box of the attention schedule: 64 rows of 64 16-bit elements (one
// 128-byte swizzle span), 8 KB; its 8-row groups are 1024 bytes apart.
constexpr int64_t kBoxBytes = 64 * 128, kSwizzleGroupBytes = 1024;

/// The k of one wgmma step: 16 for 16-bit operands, 8 for tf32 (f32
/// elements read as tf32). 32 bytes of a 128-byte row either way.
static int64_t stepKOf(Type element) { return element.isF32() ? 8 : kStepK; }

/// The dots' instructions (the pass's `mma` option).
enum class MmaKind { Sync, WgmmaQK, Wgmma, WgmmaOverlap, WgmmaPingPong };

/// The slots of a loop's TMA ring for `operands` TMA operands: one per
/// operand and one more (the next iteration's first tile lands while this
/// iteration's last is read). A pipelined loop (S issued an iteration
/// ahead) has 3 whether it reads K alone (K two iterations ahead) or K and
/// V (per iteration K_{i+2} and V_i, see FlashAttentionBuilder::awaitTma).
static int64_t ringSlots(int64_t operands, bool pipelined) {
  return pipelined ? 3 : operands + 1;
}

/// A global array whose tiles TMA copies: a function argument of 16-bit
/// elements (or f32 ones, read as tf32 by wgmma, under allow-tf32),
/// viewed (through at most one collapse_shape) as the source of the
/// block's subviews [1, .., 1, rows, D].
struct TmaArray {
  Value array;
  // Per dimension of the views' source: the dimensions of the array.
  SmallVector<ReassociationIndices> groups;
  // The box (outermost first): 64 along the innermost dimension of the
  // rows' and of the columns' group, 1 elsewhere.
  SmallVector<int64_t> box;
  // The columns of a box: one 128-byte swizzle span, 64 16-bit elements
  // or 32 f32 ones (tf32).
  int64_t boxColumns = kTmaSwizzleElements;
  // D / boxColumns (1 for a head below a box): boxes per tile.
  int64_t boxes = 0;
  // The rows of a box: kWgmmaKeys, or 32 for f32 heads over 128 columns
  // (tf32; their key tiles of 32 keep the ring within shared memory). A
  // tile's rows are groups of boxRows rows, [box][group][row] in its
  // buffer: a box of 64 rows and two of 32 lay out the same bytes.
  int64_t boxRows = kWgmmaKeys;
  int64_t boxBytes() const { return boxRows * 128; }
  // D: the array's columns, a multiple of 64 or 16, 32 or 48 (one box,
  // its columns past D zero-filled by the copy).
  int64_t columns = 0;
  Value descriptor;
};

bool isWorkgroup(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace());
}

/// The registers of one buffer of the block.
struct Fragment {
  // Tile: 4 registers per n8 tile of `columns`; Rows: 2 registers.
  SmallVector<Value> values;
};

/// A workgroup buffer of the block: a tile or a row vector.
struct BufferShape {
  bool isTile = false;
  // The dimension of the query rows; every other one but a tile's last
  // (its columns) is 1.
  int64_t rowDim = 0;
  // Columns (a multiple of 8, at least the buffer's extent) of a tile.
  int64_t columns = 0;
  // The tile's column count when it may be less than `columns`.
  Value validColumns;
  // The buffer's row count.
  Value validRows;
};

/// How an op reads one of its operands: per register of the op's output,
/// or at the register's row (a row vector along a tile).
enum class Access { Elementwise, AtRow };

/// `c` if `value` is an f32 constant.
static std::optional<float> f32Constant(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.getType().isF32())
    return std::nullopt;
  return float(attr.getValueAsDouble());
}

/// How an elementwise op scales its one f32 tile input x by the program's
/// constant factors (the softmax scale): its value is F(raw), where raw is
/// its body with the products `bypassed` (their result taken as their
/// operand) and F applies the `factors` in order, then `+ 0` where
/// `addsZero`. Exactly, for every x (infinities and NaN included), when
/// each factor c is finite and positive and the body yields
///  (a) `x c1 c2 ..` (raw = x);
///  (b) `select(k, x c1 .., K)` (either way round), K = +-inf: c K = K;
///  (c) `select(k, x c1 .. + 0, x c1 .. + -inf)`, torch-mlir's additive
///      causal mask after rule 8, every c <= 1: raw = select(k, x, x +
///      -inf), and `x c1 .. + -inf` is -inf or NaN exactly when `x + -inf`
///      is (no product of a finite x overflows), F of either the same.
struct ScaleForm {
  SmallVector<Operation *> bypassed;
  SmallVector<float> factors;
  bool addsZero = false;
};
static std::optional<ScaleForm> matchScale(linalg::GenericOp op,
                                           BlockArgument x) {
  auto no = [&](const Twine &reason) -> std::optional<ScaleForm> {
    LLVM_DEBUG(llvm::dbgs() << "scale not folded: " << reason << ": " << *op
                            << "\n");
    return std::nullopt;
  };
  ScaleForm form;
  Value y = x;
  while (y.hasOneUse()) {
    auto mul = dyn_cast<arith::MulFOp>(*y.user_begin());
    if (!mul)
      break;
    std::optional<float> c =
        f32Constant(mul.getLhs() == y ? mul.getRhs() : mul.getLhs());
    if (!c)
      return no("a product by a value that is not a constant");
    if (!(*c > 0) || !std::isfinite(*c))
      return no("a factor that is not finite and positive");
    form.bypassed.push_back(mul);
    form.factors.push_back(*c);
    y = mul.getResult();
  }
  if (form.factors.empty())
    return no("no product by a constant");
  Value yielded = op.getBody()->getTerminator()->getOperand(0);
  if (yielded == y)
    return form;
  auto select = yielded.getDefiningOp<arith::SelectOp>();
  if (!select)
    return no("the scaled tile is not the value or a mask's");
  auto isConstant = [](Value v, auto predicate) {
    std::optional<float> c = f32Constant(v);
    return c && predicate(*c);
  };
  auto infinite = [](float c) { return std::isinf(c); };
  if (y.hasOneUse() &&
      ((select.getTrueValue() == y &&
        isConstant(select.getFalseValue(), infinite)) ||
       (select.getFalseValue() == y &&
        isConstant(select.getTrueValue(), infinite))))
    return form;
  // (c): y read by exactly `y + 0` (kept) and `y + -inf` (masked).
  auto addsTo = [&](Value sum, auto predicate) -> Operation * {
    auto add = sum.getDefiningOp<arith::AddFOp>();
    if (!add || !add->hasOneUse())
      return nullptr;
    if (add.getLhs() == y && isConstant(add.getRhs(), predicate))
      return add;
    if (add.getRhs() == y && isConstant(add.getLhs(), predicate))
      return add;
    return nullptr;
  };
  Operation *kept = addsTo(select.getTrueValue(), [](float c) {
    return c == 0 && !std::signbit(c);
  });
  Operation *masked = addsTo(select.getFalseValue(), [](float c) {
    return std::isinf(c) && c < 0;
  });
  if (!kept || !masked ||
      llvm::any_of(y.getUsers(),
                   [&](Operation *user) {
                     return user != kept && user != masked;
                   }))
    return no("the scaled tile is not the value or a mask's");
  if (llvm::any_of(form.factors, [](float c) { return c > 1; }))
    return no("an additive mask on a scale above 1 (a product may overflow)");
  form.bypassed.push_back(kept);
  form.addsZero = true;
  return form;
}

//===----------------------------------------------------------------------===//
// Key tiles a causal mask discards whole
//===----------------------------------------------------------------------===//
//
// A reduce loop over key tiles whose S = Q K^T tile is read only through a
// mask `select(c, f(S), g)` (see findMask) iterates tiles whose every
// element the mask replaces by g: for a causal mask, the tiles whose first
// key comes after the block's last query. Such an iteration can be left out
// only if it leaves the loop's state (the buffers it carries: m, l, O)
// unchanged. That is proven here, per loop, by evaluating the loop body
// once on abstract values in which c is false everywhere:
//
//  - a buffer the loop reads but does not write, or a carried buffer at the
//    start of the iteration, is `Entry(buffer)`: its value then, a finite
//    number (and, where it is a divisor, not zero); an element of a global
//    array (Q, K, V) is `Finite`; a constant is `Const`;
//  - the ops of the bodies fold on these values with the identities of
//    IEEE arithmetic that hold for finite x: x - x = 0, x + 0 = x, x * 1 =
//    x, 0 * x = 0, 0 / x = 0 (x != 0), max(x, -inf) = x, -inf - x = -inf,
//    exp(-inf) = 0, exp(0) = 1, x == -inf is false; constants fold exactly;
//    anything else is `Top`. The mask's compare is false;
//  - a reduction (row max, row sum, the dot P V) whose body returns its
//    accumulator unchanged leaves its output as it was: sum += 0 and
//    max(acc, -inf) for every element.
//
// The iteration keeps the state when every carried buffer ends as it began.
// That is checked twice: (a) with the carried buffers as Entry values, which
// covers every row that had a kept key in an earlier iteration (its m is a
// finite maximum of finite scores, its l >= 1 as the maximum's own term is
// exp(0), O finite); (b) with the carried buffers at their initial fills
// (m = -inf, l = 0, O = 0), which covers every row with no kept key yet (by
// induction: each earlier tile was then masked whole for that row too, and
// by (b) left the fills in place). Both assume finite inputs: an infinite
// or NaN score already makes the program's result non-finite. A row with no
// kept key in the whole loop gives NaN in the program (exp(-inf - -inf) or
// 0 / 0); the loop keeps its first iteration, which gives that NaN too.
//
// The rows of one tile evaluate the same ops on the same kinds of values,
// so one evaluation stands for all of them.

/// The abstract value of every element of a buffer, or of a scalar.
struct Abstract {
  enum Kind { Top, Finite, Const, Entry } kind = Top;
  // Const: the value (an i1 as 0 or 1).
  float value = 0;
  // Entry: the buffer whose value at the iteration's start this is.
  Value buffer;

  static Abstract top() { return {}; }
  static Abstract finite() { return {Finite, 0, Value()}; }
  static Abstract constant(float v) { return {Const, v, Value()}; }
  static Abstract entry(Value b) { return {Entry, 0, b}; }
  bool isConst(float v) const {
    return kind == Const && (value == v || (std::isnan(v) && std::isnan(value)));
  }
  // Finite (Entry values are assumed finite).
  bool isFinite() const {
    return kind == Finite || kind == Entry ||
           (kind == Const && std::isfinite(value));
  }
  bool operator==(const Abstract &other) const {
    if (kind != other.kind)
      return false;
    if (kind == Const)
      return isConst(other.value) && std::signbit(value) == std::signbit(other.value);
    return kind != Entry || buffer == other.buffer;
  }
};

/// `op` of a generic's body on abstract operands.
static Abstract evaluateScalar(Operation *op, ArrayRef<Abstract> in,
                               Operation *falseCompare) {
  auto negInf = -std::numeric_limits<float>::infinity();
  auto fold = [&](float v) { return Abstract::constant(v); };
  bool constants = llvm::all_of(in, [](const Abstract &a) {
    return a.kind == Abstract::Const;
  });
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
      return fold(float(f.getValueAsDouble()));
    if (auto i = dyn_cast<IntegerAttr>(constant.getValue());
        i && i.getType().isInteger(1))
      return fold(i.getValue().isOne() ? 1.0f : 0.0f);
    return Abstract::top();
  }
  if (op == falseCompare)
    return fold(0.0f);
  if (isa<arith::AddFOp>(op)) {
    if (constants)
      return fold(in[0].value + in[1].value);
    for (int i = 0; i < 2; ++i) {
      if (in[i].isConst(0.0f) && in[1 - i].isFinite())
        return in[1 - i];
      // x + -inf = -inf for finite x; also for the masked value of an
      // additive mask, `S + -inf` (torch-mlir's causal SDPA), whose scores
      // are taken as finite (a Q K^T of finite inputs overflows only past
      // f32's range), as PyTorch's own causal kernels take them when they
      // leave masked tiles out.
      if (in[i].isConst(negInf) &&
          (in[1 - i].isFinite() || in[1 - i].kind == Abstract::Top))
        return fold(negInf);
    }
    return Abstract::top();
  }
  if (isa<arith::SubFOp>(op)) {
    if (constants)
      return fold(in[0].value - in[1].value);
    if (in[0].kind == Abstract::Entry && in[0] == in[1])
      return fold(0.0f);
    if (in[0].isConst(negInf) && in[1].isFinite())
      return fold(negInf);
    if (in[1].isConst(0.0f) && in[0].isFinite())
      return in[0];
    return Abstract::top();
  }
  if (isa<arith::MulFOp>(op)) {
    if (constants)
      return fold(in[0].value * in[1].value);
    for (int i = 0; i < 2; ++i) {
      if (in[i].isConst(1.0f) && in[1 - i].isFinite())
        return in[1 - i];
      if (in[i].isConst(0.0f) && in[1 - i].isFinite())
        return fold(0.0f);
    }
    return Abstract::top();
  }
  if (isa<arith::DivFOp>(op)) {
    if (constants)
      return fold(in[0].value / in[1].value);
    // 0 / x = 0: a divisor that enters the loop is not zero (l >= 1).
    if (in[0].isConst(0.0f) && in[1].kind == Abstract::Entry)
      return fold(0.0f);
    if (in[1].isConst(1.0f) && in[0].isFinite())
      return in[0];
    return Abstract::top();
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op)) {
    if (constants)
      return fold(std::max(in[0].value, in[1].value));
    for (int i = 0; i < 2; ++i)
      if (in[i].isConst(negInf) && in[1 - i].isFinite())
        return in[1 - i];
    return Abstract::top();
  }
  if (isa<math::ExpOp, math::Exp2Op>(op)) {
    if (in[0].isConst(0.0f))
      return fold(1.0f);
    if (in[0].isConst(negInf))
      return fold(0.0f);
    return Abstract::top();
  }
  if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
    // Exact in every float type: 0, 1, +-inf.
    if (in[0].kind == Abstract::Const &&
        (in[0].value == 0.0f || in[0].value == 1.0f || std::isinf(in[0].value)))
      return in[0];
    if (isa<arith::ExtFOp>(op) && in[0].kind == Abstract::Finite)
      return in[0];
    return Abstract::top();
  }
  if (auto compare = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    if (constants)
      return fold(arith::applyCmpPredicate(compare.getPredicate(),
                                           APFloat(in[0].value),
                                           APFloat(in[1].value))
                      ? 1.0f
                      : 0.0f);
    // A finite value against an infinity: never equal.
    for (int i = 0; i < 2; ++i)
      if (in[i].kind == Abstract::Const && std::isinf(in[i].value) &&
          in[1 - i].isFinite()) {
        if (llvm::is_contained({P::OEQ, P::UEQ}, compare.getPredicate()))
          return fold(0.0f);
        if (llvm::is_contained({P::ONE, P::UNE}, compare.getPredicate()))
          return fold(1.0f);
      }
    return Abstract::top();
  }
  if (isa<arith::SelectOp>(op)) {
    if (in[0].kind == Abstract::Const)
      return in[0].value != 0.0f ? in[1] : in[2];
    return in[1] == in[2] ? in[1] : Abstract::top();
  }
  return Abstract::top();
}

/// Whether an iteration of `loop` in which `maskCompare` is false leaves
/// every buffer of `carried` as it began (case (a) above when `initial` is
/// empty, case (b) with the carried buffers' initial fills otherwise).
static bool maskedIterationKeeps(scf::ForOp loop, ArrayRef<Value> carried,
                                 Operation *maskCompare,
                                 ArrayRef<float> initial) {
  DenseMap<Value, Abstract> state;
  for (auto [i, buffer] : llvm::enumerate(carried))
    state[buffer] = initial.empty() ? Abstract::entry(buffer)
                                    : Abstract::constant(initial[i]);
  auto lookup = [&](Value buffer) -> Abstract {
    auto it = state.find(buffer);
    if (it != state.end())
      return it->second;
    if (!isWorkgroup(buffer))
      return Abstract::finite();
    if (!loop->isAncestor(buffer.getParentBlock()->getParentOp()))
      return Abstract::entry(buffer);
    return Abstract::top();
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      state[alloc.getResult()] = Abstract::top();
      continue;
    }
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      Abstract value = Abstract::top();
      if (auto constant =
              fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
        value = evaluateScalar(constant, {}, nullptr);
      state[fill.getOutputs()[0]] = value;
      continue;
    }
    if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
      state[copy.getOutputs()[0]] = lookup(copy.getInputs()[0]);
      continue;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      if (generic.getNumDpsInits() != 1)
        return false;
      Block *body = generic.getBody();
      DenseMap<Value, Abstract> values;
      for (OpOperand &operand : generic->getOpOperands())
        values[body->getArgument(operand.getOperandNumber())] =
            lookup(operand.get());
      for (Operation &inner : body->without_terminator()) {
        SmallVector<Abstract> in;
        for (Value operand : inner.getOperands()) {
          auto it = values.find(operand);
          Abstract value = it != values.end() ? it->second : Abstract::top();
          if (it == values.end())
            if (auto c = operand.getDefiningOp<arith::ConstantOp>())
              value = evaluateScalar(c, {}, nullptr);
          in.push_back(value);
        }
        if (inner.getNumResults() == 1)
          values[inner.getResult(0)] =
              evaluateScalar(&inner, in, maskCompare);
      }
      Value yielded = body->getTerminator()->getOperand(0);
      Abstract result = values.count(yielded) ? values[yielded]
                                              : Abstract::top();
      Value out = generic.getDpsInits()[0];
      // A reduction folds every element alike: unchanged iff one step
      // returns the accumulator.
      if (generic.getNumReductionLoops() && !(result == lookup(out)))
        result = Abstract::top();
      state[out] = result;
      continue;
    }
    // Index arithmetic and views of global arrays.
    if (isPure(&op) && op.getNumRegions() == 0 &&
        llvm::none_of(op.getOperands(), isWorkgroup))
      continue;
    return false;
  }
  for (auto [i, buffer] : llvm::enumerate(carried))
    if (!(lookup(buffer) == (initial.empty()
                                 ? Abstract::entry(buffer)
                                 : Abstract::constant(initial[i]))))
      return false;
  return true;
}

/// Rebuilds one block grid with its tiles in registers.
class FlashAttentionBuilder : IndexArithmetic {
public:
  FlashAttentionBuilder(RewriterBase &rewriter, scf::ForallOp grid,
                        int64_t tileRank, int64_t warps, MmaKind mma)
      : IndexArithmetic(rewriter, grid.getLoc()), rewriter(rewriter),
        oldGrid(grid), loc(grid.getLoc()), ctx(grid.getContext()),
        tileRank(tileRank), warps(warps) {
    this->mma = mma;
  }

  /// The new grid, or failure (nothing left behind).
  FailureOr<scf::ForallOp> build();

  /// The iteration's V tile waited for right after S = Q K^T's wgmmas are
  /// issued, before their wait, instead of at P V (see
  /// interpretContraction).
  bool vWaitEarly = false;
  /// The bf16 parts an f32 A tile is split into against a widened bf16 B
  /// (see splitIntoParts): 3, exact; 2, within 2^-17 of each element.
  int64_t splitParts = 3;
  /// f32 dots (S = Q K^T of two f32 global tiles, P V of an f32 P and an
  /// f32 global V) on wgmma with tf32 operands (the pass's `allow-tf32`;
  /// inexact, the user's choice): Q and K by TMA read as tf32, P rounded
  /// to tf32 in registers, V transposed into shared memory (transposeV).
  bool tf32 = false;

  /// A block without a reduce loop (one key tile, its one-trip loop
  /// folded away): taken only with both dots on wgmma, K and V copied once
  /// (sharedB); on mma.sync such blocks keep the generic path.
  bool onlyOnWgmma = false;
  /// Why build() failed: the first refusal, with the op's name.
  std::string refusal;
  /// Why the wgmma schedule does not take the block's dots (planWgmma;
  /// empty where it takes them or was not asked for).
  std::string wgmmaRefusal;

private:
  /// Records the refusal (the first one is the cause: the callers only pass
  /// the failure on) and fails.
  LogicalResult fail(Operation *op, const Twine &reason) {
    LLVM_DEBUG(llvm::dbgs() << "no flash attention: " << reason << ": " << *op
                            << "\n");
    if (refusal.empty())
      refusal = (reason + " (" + op->getName().getStringRef() + ")").str();
    return failure();
  }

  // Helpers for index arithmetic.
  using IndexArithmetic::add;
  Value add(Value a, int64_t b) { return b ? add(a, index(b)) : a; }
  Value dim(Value memref, int64_t d) {
    return rewriter.createOrFold<memref::DimOp>(loc, memref, d);
  }

  /// Row of register q (tile) or h (row vector, q = 2 h) in the tile.
  Value rowOf(int64_t q) { return add(rowBase, 8 * (q / 2)); }
  /// Column of register 4 j + q of a tile.
  Value columnOf(int64_t reg) {
    return add(columnBase, kTileN * (reg / 4) + reg % 2);
  }

  LogicalResult interpretBlock(Block &block);
  LogicalResult interpretOp(Operation *op);
  LogicalResult interpretAlloc(memref::AllocOp alloc);
  LogicalResult interpretGeneric(linalg::GenericOp op);
  LogicalResult interpretElementwise(linalg::GenericOp op);
  /// An elementwise op of several outputs (the exact form's last state
  /// update fused with O's cast, once its loop is folded away): the body
  /// once per register, each output's registers from its yield; no mask or
  /// folded scale.
  LogicalResult interpretMultiOutput(linalg::GenericOp op);
  LogicalResult interpretRowReduction(linalg::GenericOp op);
  LogicalResult interpretContraction(linalg::GenericOp op);
  LogicalResult interpretLoop(scf::ForOp loop);
  LogicalResult interpretStore(memref::CopyOp copy);

  /// `body` applied to `args` (block arguments in order), `linalg.index`
  /// d giving `indices[d]`; values from outside through `mapping`.
  Value applyBody(Block *body, ArrayRef<Value> args, ArrayRef<Value> indices);
  /// applyBody's values of every operand of the body's yield.
  SmallVector<Value> applyBodyResults(Block *body, ArrayRef<Value> args,
                                      ArrayRef<Value> indices);
  /// The A fragments (4 x i32 per k16 step) of global tile `a` [.., m, k].
  SmallVector<Value> globalFragmentsA(Value oldA, int64_t steps);
  /// Stages global tile `oldB` (rows x columns) into shared memory.
  FailureOr<Value> stage(Value oldB, int64_t rows, int64_t columns);
  Value pack(Value lo, Value hi);
  /// The A registers of f32 `pairs` (the registers of one A fragment in
  /// order, two elements each) split into `parts` bf16 parts: part 0 is
  /// each element rounded to bf16, part p + 1 the rounding of what parts
  /// 0..p leave (an exact f32 difference). Part-major: part p's registers
  /// are [p pairs.size(), (p + 1) pairs.size()).
  SmallVector<Value> splitIntoParts(ArrayRef<std::pair<Value, Value>> pairs,
                                    int64_t parts);
  /// exp of the old body's `oldArg` (cloned through `local`) as ex2.approx
  /// of its argument times log2(e), the product folded into a constant
  /// factor of the argument where there is one.
  Value exp2(Value oldArg, IRMapping &local);

  /// A B operand of a dot in a loop whose view depends on the loop's
  /// induction variable: its tiles are copied one iteration ahead
  /// (cp.async, or TMA on the wgmma schedule) into two slots of one
  /// shared-memory buffer.
  struct Prefetched {
    // The view's computation in the old loop body, in order.
    SmallVector<Operation *> slice;
    Value buffer;
    int64_t rows = 0, columns = 0;
    // TMA: the array, the loop's ring and its mbarriers (one per slot),
    // and the operand's place among the loop's TMA operands.
    const TmaArray *tma = nullptr;
    Value barriers;
    int64_t operand = 0;
    // TMA: the tile's groups of 64 rows (64 or 128 keys).
    int64_t groups = 1;
  };
  /// The B operands of `loop` that can be prefetched, in the order of their
  /// dots.
  SmallVector<std::pair<Value, Prefetched>> findPrefetched(scf::ForOp loop);
  /// B's view at iteration `iv` (of the old loop's `oldIv`): its slice
  /// cloned.
  Value viewAt(Value oldB, const Prefetched &p, Value oldIv, Value iv);
  /// Starts the copies of B's tile at iteration `iv` into slot `slot`.
  void issueCopies(Value oldB, const Prefetched &p, Value oldIv, Value iv,
                   Value slot);

  // The wgmma schedule (sm_90a).
  /// The array whose tiles the global view `view` takes, if TMA can copy
  /// them: a view [1, .., 1, rows <= maxRows, D] of a collapse of (or of)
  /// a function argument of 16-bit elements, D a multiple of 64 or 16, 32
  /// or 48 (one box, its columns past D zero-filled).
  const TmaArray *tmaArray(Value view, int64_t maxRows);
  /// The TMA array (and its descriptor, made once) of the views' source
  /// `source`, whatever the view.
  const TmaArray *tmaSource(Value source);
  /// Which dots go to wgmma: S = Q K^T (and P V for MmaKind::Wgmma) when
  /// the block has 4 or 8 warps (one or two consumer warpgroups of 64 query
  /// rows) and every such dot's global operands are TMA arrays, read in
  /// loops of the block's body; makes the arrays' descriptors before the
  /// grid.
  void planWgmma();
  /// Thread 0 starts the TMA copies of the tile of `view` (a new subview of
  /// `array`) into `buffer` at byte `offset`, completing on barrier `slot`
  /// of `barriers`: `groups` groups of 64 rows (the warpgroups' rows of Q,
  /// or a key tile of 128 rows) of D / 64 boxes each, box-major: box b of
  /// group g at `offset` + (b groups + g) 8 KB, so that the rows of each
  /// 64 columns are contiguous (one wgmma operand of 128 rows, 8-row groups
  /// 1024 bytes apart).
  void issueTma(const TmaArray &array, Value view, Value buffer, Value offset,
                Value barriers, Value slot, int64_t groups = 1);
  /// The shared-memory copy of the global A tile `oldA` (Q), made once
  /// where its view is made.
  Value sharedA(Value oldA);
  /// Where a copy of the tile of `view` (a new view, or an array from
  /// outside the grid) starts: after the view, or here (the copies then
  /// start at their dot, past the mbarriers' initialisation either way).
  void setInsertionPointAfterView(Value view) {
    Operation *def = view.getDefiningOp();
    if (def && newBody->getParentOp()->isAncestor(def))
      rewriter.setInsertionPointAfter(def);
  }
  /// The shared-memory copy of the global B tile `oldB` (K or V) of a
  /// block without a reduce loop, made once where its view is made, on its
  /// slot of qBarrier's group; null if TMA cannot copy it.
  const Prefetched *sharedB(Value oldB);
  /// The wait (and the refill of the other slot) for this iteration's tile
  /// of the TMA operand `p`; returns the byte offset of its slot.
  Value awaitTma(Value oldB, const Prefetched &p);
  /// vWaitEarly, at S = Q K^T's dot (K the ring's operand 0), once its
  /// wgmmas are issued: the wait for this iteration's V (operand 1), which
  /// awaitTma then leaves out at P V. The wait is a try_wait loop, whose
  /// branch ends a basic block: at P V it split the softmax in two, and
  /// ptxas left the rescale of O by alpha (64 FMULs) and alpha's
  /// exponentials after all of P's, just before P V's issue, where here
  /// they go among P's exponentials. But V's copy (issued at the previous P
  /// V) has less time to land: measured 3-6% faster at D = 64 with 128-key
  /// tiles, 1-6% slower at D = 128 (32 KB tiles) and with 64-key tiles
  /// (docs/performance.md, session 14), so it is opt-in.
  void awaitSecondEarly(const Prefetched &p);
  /// tf32 P V: every thread of the block copies V's tile of `keys` rows
  /// and `columns` f32 columns (D), landed in `p`'s buffer at byte
  /// `slotOffset` in the TMA layout, into V^T, the K-major B operand
  /// (`groups` groups of 64 rows of D per box of 32 keys, the 128-byte
  /// swizzle), each key at its k index of the A fragment's order (see
  /// interpretContraction) and rounded to tf32; returns V^T's descriptor.
  Value transposeV(const Prefetched &p, Value slotOffset, int64_t keys,
                   int64_t columns, int64_t groups);
  /// awaitTma in a pipelined loop of two dots, S = Q K^T and P V.
  Value awaitPipelinedPair(Value oldB, const Prefetched &p);
  /// S = Q K^T's wgmmas (D / 16 k steps; tf32 D / 8) on `acc`, Q's tile in `q`, K's in
  /// the ring of `p` at byte `slotOffset`.
  SmallVector<Value> issueQK(SmallVector<Value> acc, Value q,
                             const Prefetched &p, Value slotOffset,
                             Type element);
  /// The dot of `loop` that the overlap schedule issues an iteration
  /// ahead: its only dot, S = Q K^T on wgmma with K its only TMA operand,
  /// into a tile the loop zero-fills; null otherwise.
  linalg::GenericOp pipelinedDot(scf::ForOp loop);

  MmaKind mma = MmaKind::Sync;
  bool qkOnWgmma = false, pvOnWgmma = false;
  // The wgmma schedule's consumer warpgroups (64 query rows each: 1 or 2;
  // both read each K and V tile of the ring), and the byte offset of this
  // thread's warpgroup (thread / 128).
  int64_t warpgroups = 0;
  Value warpgroup;
  // Two consumer warpgroups under MmaKind::WgmmaPingPong
  // (FlashAttention-3's ping-pong): no block barrier before a dot. The later
  // warpgroup to be done with a ring slot refills it (`releases`: per slot, one
  // increment per warpgroup and round, from zero: an odd previous count is the
  // round's second release); and the warpgroups take turns issuing their wgmmas
  // (named barriers 1 and 2 of 256 threads, `turnHeld` while this warpgroup may
  // issue), so that one's softmax runs while the other's dots do.
  bool pingPong = false, turnHeld = false;
  Value releases;
  /// Waits for this warpgroup's turn (bar.sync on its barrier, completed
  /// by the other's bar.arrive), if not held.
  void acquireTurn();
  /// Passes the turn to the other warpgroup, if held.
  void releaseTurn();
  /// Passes a held turn on in warpgroup `which` only (the block's first
  /// and last turns).
  void releaseTurnIn(int64_t which);
  // Keyed by the views' source.
  DenseMap<Value, TmaArray> tmaArrays;
  // The host ops made for the descriptors (erased if the build fails).
  SmallVector<Operation *> hostOps;
  Value leader;
  // Q in shared memory, its mbarrier, and the old views already copied.
  DenseMap<Value, Value> sharedTiles;
  Value qBarrier;
  // A block without a reduce loop (one key tile: a short sequence whose
  // one-trip loop was folded away): its K and V views, made in the block's
  // body, are copied once where they are made, like Q, each on its own
  // slot of qBarrier's group (1, 2, ..; Q's is 0), in the order of their
  // dots.
  SmallVector<Value> onceViews;
  DenseMap<Value, Prefetched> onceTiles;
  // The mbarriers of each loop's TMA ring, made at the block's start.
  DenseMap<Operation *, Value> loopBarriers;

  RewriterBase &rewriter;
  scf::ForallOp oldGrid;
  Location loc;
  MLIRContext *ctx;
  // Rank of a tile; a row vector has one dimension less.
  int64_t tileRank;
  // Warps of the block, 16 query rows each.
  int64_t warps;
  IRMapping mapping;
  DenseMap<Value, BufferShape> shapes;
  DenseMap<Value, Fragment> fragments;
  DenseMap<Value, SmallVector<Value>> aFragments;
  Block *newBody = nullptr;
  Value thread, lane, rowBase, columnBase, quadLane;
  // The loop being built: its old and new induction variables, bounds,
  // and the first copy group of its prefetched operands.
  struct LoopState {
    scf::ForOp oldLoop;
    Value upperBound, step, lowerBound, firstGroup;
    DenseMap<Value, Prefetched> prefetched;
    // The TMA ring: one slot per TMA operand (tiles of this iteration)
    // and one more (the next iteration's first tile lands while this
    // iteration's last is read), `slotBytes` each.
    int64_t tmaOperands = 0, slotBytes = 0;
    // Iterations the copies run ahead: 2 in a pipelined loop (its K; a
    // pipelined loop's V is copied in its own iteration, awaitTma).
    int64_t ahead = 1;
    int64_t slots() const {
      return ringSlots(tmaOperands, bool(pipelinedTile));
    }
    // The second TMA operand's tile (V) was waited for at the first dot
    // (vWaitEarly).
    bool vWaited = false;
    // A pipelined loop (MmaKind::WgmmaOverlap): its S = Q K^T is issued an
    // iteration ahead, its wgmma running while the iteration's softmax
    // runs on the previous S. S may be the loop's only dot (K its one TMA
    // operand) or be followed by P V (V the second; see awaitTma for the
    // ring's order). The old S tile, this iteration's S (iter_args) and
    // the next one's (in flight).
    Value pipelinedTile;
    SmallVector<Value> currentS, nextS;
    // The (old) tile whose mask bounds the loop: every iteration computes
    // it.
    Value boundingTile;
  };
  SmallVector<LoopState> loops;
  // The ring's refill that awaitTma decided on, emitted by flushRefill once
  // the dot's wgmmas are issued.
  std::function<void()> pendingRefill;
  void flushRefill() {
    if (pendingRefill)
      std::exchange(pendingRefill, nullptr)();
  }
  // Row vectors made by an elementwise op from the row index alone, and
  // that index's loop.
  DenseMap<Value, std::pair<linalg::GenericOp, int64_t>> rowFunctions;
  // While an elementwise op's body is cloned: its arguments read at the
  // register's row (row vectors), and the reciprocals of the values
  // divided by (one per row: reset where the registers' code starts).
  // A division of a tile by a row vector (P = exp(S - m) / l) becomes a
  // product with the row's correctly rounded reciprocal: within 1.5 ulp of
  // f32 of the quotient (the quotient is correctly rounded), under the
  // error of the ex2.approx that computes the dividend, and 2^-15 of the
  // bf16 spacing that P is rounded to next; the per-element division is
  // a MUFU.RCP and a slow-path check each.
  DenseSet<Value> rowDivisors;
  DenseMap<Value, Value> reciprocals;

  // The softmax scale folded into the exponent (FlashAttention's
  // exp2(s (c log2 e) - m (c log2 e)), one fma per score): a tile that an
  // elementwise op makes by scaling a tile by positive constants (see
  // matchScale) keeps the unscaled registers `raw` beside its values
  // F(raw) (`fragments`: F re-applied, dead where nothing reads them). A
  // row max or min reads `raw` and scales its result (F is monotone, so
  // max F(s) = F(max s) exactly), and exp2 folds the factor into its fma.
  // Keyed by the old buffer; dropped when the buffer is written again.
  struct ScaledTile {
    SmallVector<Value> raw;
    // F: the program's products, in order, then `+ 0` where it adds one.
    SmallVector<float> factors;
    bool addsZero = false;
    // The product of the factors (the fma's factor, with log2(e)).
    double factor() const {
      double product = 1;
      for (float c : factors)
        product *= c;
      return product;
    }
  };
  DenseMap<Value, ScaledTile> scaledTiles;
  /// F(raw), the program's value of a scaled tile's register.
  Value applyScale(const ScaledTile &scaled, Value raw);
  /// The body arguments of `op`'s inputs read elementwise that are scaled
  /// tiles, with their tiles.
  SmallVector<std::pair<BlockArgument, ScaledTile>>
  scaledInputsOf(linalg::GenericOp op, ArrayRef<Access> accesses) {
    SmallVector<std::pair<BlockArgument, ScaledTile>> inputs;
    for (auto [i, access] : llvm::enumerate(accesses))
      if (access == Access::Elementwise)
        if (auto it = scaledTiles.find(op.getDpsInputOperand(i)->get());
            it != scaledTiles.end())
          inputs.emplace_back(op.getBody()->getArgument(i), it->second);
    return inputs;
  }
  // While a body is cloned: ops whose result is their non-constant operand
  // (the scale of a tile made scaled), and the arguments that are a scaled
  // tile's register: the raw value and the factor.
  DenseSet<Operation *> bypassed;
  DenseMap<Value, std::pair<Value, double>> scaledArgs;
  // While a mask's body is cloned: its compare, and the value it takes for
  // the register at hand.
  Operation *maskCompare = nullptr;
  Value maskValue;

  /// A mask on a tile S: the one elementwise op that reads S, which keeps
  /// S's values only as the kept value of `select(compare, f(S), g)`, where
  /// `compare` compares a column position with a row position, each a sum
  /// growing with its `linalg.index` (a causal mask).
  struct Mask {
    // S, and the op that reads it.
    Value tile;
    linalg::GenericOp op;
    arith::CmpIOp compare;
    int64_t rowLoop = -1, columnLoop = -1;
    // The column position is the compare's left side (`col <= row`), else
    // its right side (`row >= col`).
    bool columnLeft = true;
    // S also reaches the masked value g (torch-mlir's additive mask, `S + 0`
    // kept and `S + -inf` masked): the dot must then run on every tile the
    // loop iterates, masked whole or not.
    bool maskedReadsTile = false;
  };
  std::optional<Mask> findMask(Value out);
  // The masks of the dots seen so far, by their elementwise op.
  DenseMap<Operation *, Mask> masks;
  /// The mask's compare at the tile's `row` and `column`.
  FailureOr<Value> maskHolds(Mask mask, Value row, Value column);
  /// The condition under which the dot into `out` must run: false when its
  /// tile's one reader is a mask that discards every element of it; null
  /// when the dot always runs.
  Value dotNeeded(Value out);
  /// For a loop whose key tiles a mask discards whole from some iteration
  /// on (causal: the tiles after the block's last query), the upper bound
  /// that leaves them out, when maskedIterationKeeps proves that they leave
  /// the loop's state unchanged; null otherwise.
  Value maskedUpperBound(scf::ForOp loop, ArrayRef<Value> carried,
                         Value &boundingTile);
  /// `value` of `op`'s body (an index built by addi from linalg.index,
  /// row-vector inputs made by rowFunctions and values from outside) with
  /// the column index `column` and the row index `row`.
  FailureOr<Value> evaluateIndex(linalg::GenericOp op, Value value,
                                 int64_t rowLoop, int64_t columnLoop, Value row,
                                 Value column);
};

Value FlashAttentionBuilder::applyBody(Block *body, ArrayRef<Value> args,
                                       ArrayRef<Value> indices) {
  return applyBodyResults(body, args, indices).front();
}

SmallVector<Value>
FlashAttentionBuilder::applyBodyResults(Block *body, ArrayRef<Value> args,
                                        ArrayRef<Value> indices) {
  IRMapping local;
  for (auto [arg, value] : llvm::zip(body->getArguments(), args))
    if (value)
      local.map(arg, value);
  for (Operation &inner : body->without_terminator()) {
    if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
      local.map(indexOp.getResult(), indices[indexOp.getDim()]);
      continue;
    }
    if (bypassed.contains(&inner)) {
      Value operand = inner.getOperand(0);
      if (f32Constant(operand))
        operand = inner.getOperand(1);
      local.map(inner.getResult(0), local.lookupOrDefault(operand));
      continue;
    }
    if (auto exp = dyn_cast<math::ExpOp>(inner);
        exp && exp.getType().isF32()) {
      local.map(exp.getResult(), exp2(exp.getOperand(), local));
      continue;
    }
    if (&inner == maskCompare) {
      local.map(inner.getResult(0), maskValue);
      continue;
    }
    // x / l with l a row vector's value (the softmax's sum): x times the
    // row's reciprocal, computed once per row (see rowDivisors).
    if (auto divide = dyn_cast<arith::DivFOp>(inner);
        divide && divide.getType().isF32() &&
        rowDivisors.contains(divide.getRhs())) {
      Value divisor = local.lookup(divide.getRhs());
      Value &reciprocal = reciprocals[divisor];
      if (!reciprocal)
        reciprocal = arith::DivFOp::create(
            rewriter, loc,
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getF32FloatAttr(1.0f)),
            divisor);
      local.map(divide.getResult(),
                arith::MulFOp::create(rewriter, loc,
                                      local.lookupOrDefault(divide.getLhs()),
                                      reciprocal)
                    .getResult());
      continue;
    }
    for (Value operand : inner.getOperands())
      if (!local.contains(operand) && mapping.contains(operand))
        local.map(operand, mapping.lookup(operand));
    rewriter.clone(inner, local);
  }
  SmallVector<Value> results;
  for (Value result : body->getTerminator()->getOperands())
    results.push_back(!local.contains(result) && mapping.contains(result)
                          ? mapping.lookup(result)
                          : local.lookupOrDefault(result));
  return results;
}

Value FlashAttentionBuilder::exp2(Value oldArg, IRMapping &local) {
  Type f32 = rewriter.getF32Type();
  auto constant = [&](float v) -> Value {
    return arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(v));
  };
  auto lookup = [&](Value old) {
    return local.contains(old) ? local.lookup(old)
                               : mapping.lookupOrDefault(old);
  };
  constexpr float log2e = 1.44269504088896340736f;
  // The product by constants, x c1 c2 ..: x times c1 c2 .. log2(e) in one
  // rounding; a scaled tile's register: its raw value times its factor.
  std::function<std::optional<std::pair<Value, double>>(Value)> product =
      [&](Value old) -> std::optional<std::pair<Value, double>> {
    if (auto it = scaledArgs.find(old); it != scaledArgs.end())
      return it->second;
    // x + 0 is x but for the sign of a zero, which exp(x - b) loses.
    if (auto add = old.getDefiningOp<arith::AddFOp>();
        add && add->getBlock() == oldArg.getParentBlock())
      for (int i = 0; i < 2; ++i)
        if (std::optional<float> c = f32Constant(add->getOperand(i));
            c && *c == 0)
          return product(add->getOperand(1 - i));
    auto mul = old.getDefiningOp<arith::MulFOp>();
    if (!mul || mul->getBlock() != oldArg.getParentBlock())
      return std::nullopt;
    for (int i = 0; i < 2; ++i)
      if (std::optional<float> c = f32Constant(mul->getOperand(i))) {
        if (auto inner = product(mul->getOperand(1 - i)))
          return std::make_pair(inner->first, inner->second * *c);
        return std::make_pair(lookup(mul->getOperand(1 - i)), double(*c));
      }
    return std::nullopt;
  };
  auto scaled = [&](Value old) -> std::optional<std::pair<Value, float>> {
    if (auto p = product(old))
      return std::make_pair(p->first, float(p->second * double(log2e)));
    return std::nullopt;
  };
  Value argument;
  // exp(x c - b) = 2^(x (c log2 e) - b log2 e): one fma before ex2; through
  // a mask's select(k, x c, -inf), whose -inf stays -inf.
  auto sub = oldArg.getDefiningOp<arith::SubFOp>();
  if (sub && sub->getBlock() == oldArg.getParentBlock()) {
    Value minuend = sub.getLhs();
    // The masked value: -inf, or a score plus -inf (torch-mlir's additive
    // mask after rule 8), taken as -inf: the scores as finite, as the
    // masked tiles' proof takes them (maskedIterationKeeps).
    auto negInf = [](Value v) {
      std::optional<float> c = f32Constant(v);
      return c && std::isinf(*c) && *c < 0;
    };
    auto select = minuend.getDefiningOp<arith::SelectOp>();
    bool masked = false;
    if (select) {
      auto add = select.getFalseValue().getDefiningOp<arith::AddFOp>();
      masked = negInf(select.getFalseValue()) ||
               (add && add->getBlock() == oldArg.getParentBlock() &&
                (negInf(add.getLhs()) || negInf(add.getRhs())));
    }
    if (auto product = scaled(masked ? select.getTrueValue() : minuend)) {
      Value shift = arith::MulFOp::create(
          rewriter, loc, lookup(sub.getRhs()), constant(-log2e));
      argument = math::FmaOp::create(rewriter, loc, product->first,
                                     constant(product->second), shift);
      if (masked)
        argument = arith::SelectOp::create(
            rewriter, loc, lookup(select.getCondition()), argument,
            constant(-std::numeric_limits<float>::infinity()));
    }
  }
  if (!argument)
    argument = arith::MulFOp::create(rewriter, loc, lookup(oldArg),
                                     constant(log2e));
  return LLVM::CallIntrinsicOp::create(
             rewriter, loc, f32,
             rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
             ValueRange{argument})
      .getResult(0);
}

Value FlashAttentionBuilder::applyScale(const ScaledTile &scaled, Value raw) {
  Value value = raw;
  for (float c : scaled.factors)
    value = arith::MulFOp::create(
        rewriter, loc, value,
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(c)));
  if (scaled.addsZero)
    value = arith::AddFOp::create(
        rewriter, loc, value,
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getF32FloatAttr(0.0f)));
  return value;
}

Value FlashAttentionBuilder::pack(Value lo, Value hi) {
  auto pair = VectorType::get({2}, lo.getType());
  Value elements[2] = {lo, hi};
  Value vector = vector::FromElementsOp::create(rewriter, loc, pair, elements);
  return LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), vector);
}

// Why the parts are exact. Let x be an f32 in [2^e, 2^(e+1)), so a multiple
// of 2^(e-23). Its rounding h0 to bf16 (8 significant bits) is within
// 2^(e-8) of x and a multiple of 2^(e-7), so r1 = x - h0 is a multiple of
// 2^(e-23) with |r1| <= 2^(e-8): at most 16 significant bits, exact in f32.
// Its rounding h1 leaves r2 = r1 - h1, a multiple of 2^(e-23) with |r2| <=
// 2^(e-17) (r1 < 2^(e-8), or r1 is a power of two and h1 = r1): at most 7
// significant bits, so h2 = bf16(r2) = r2 and x = h0 + h1 + h2 exactly,
// where r2's bits stay in bf16's range (e >= -110; bf16 has f32's
// exponents: smaller elements lose bits below 2^-133). Two parts leave r2,
// within 2^-17 |x|. The products of bf16 values are exact in f32, so each
// part's dot sums exact products into the same f32 accumulator: the dot of
// x is the f32 dot of the program, summed in the tensor cores' order.
SmallVector<Value> FlashAttentionBuilder::splitIntoParts(
    ArrayRef<std::pair<Value, Value>> pairs, int64_t parts) {
  Type f32 = rewriter.getF32Type(), bf16 = rewriter.getBF16Type();
  SmallVector<Value> registers(parts * pairs.size());
  for (auto [i, pair] : llvm::enumerate(pairs)) {
    auto [x0, x1] = pair;
    for (int64_t part = 0; part < parts; ++part) {
      // The pair rounded at once (cvt.rn.bf16x2.f32), as one register.
      Value elements[2] = {x0, x1};
      Value vector = vector::FromElementsOp::create(
          rewriter, loc, VectorType::get({2}, f32), elements);
      Value rounded = arith::TruncFOp::create(
          rewriter, loc, VectorType::get({2}, bf16), vector);
      Value word = LLVM::BitcastOp::create(rewriter, loc,
                                           rewriter.getI32Type(), rounded);
      registers[part * pairs.size() + i] = word;
      if (part + 1 == parts)
        break;
      x0 = arith::SubFOp::create(rewriter, loc, x0,
                                 widenBF16Half(rewriter, loc, word, 0));
      x1 = arith::SubFOp::create(rewriter, loc, x1,
                                 widenBF16Half(rewriter, loc, word, 1));
    }
  }
  return registers;
}

LogicalResult FlashAttentionBuilder::interpretAlloc(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  int64_t rank = type.getRank();
  BufferShape shape;
  if (rank == tileRank) {
    shape.isTile = true;
    shape.rowDim = rank - 2;
  } else {
    // A row vector: [.., 1, rows] of one rank less than a tile, or any
    // shape with one dimension other than 1 (a vector of row indices).
    shape.rowDim = tileRank - 2;
    if (rank != tileRank - 1) {
      SmallVector<int64_t> other;
      for (int64_t d = 0; d < rank; ++d)
        if (type.getDimSize(d) != 1)
          other.push_back(d);
      if (other.size() != 1)
        return fail(alloc, "neither a tile nor a row vector");
      shape.rowDim = other.front();
    }
  }
  for (int64_t d = 0; d < rank; ++d)
    if (d != shape.rowDim && !(shape.isTile && d == rank - 1) &&
        type.getDimSize(d) != 1)
      return fail(alloc, "a leading dimension is not 1");
  std::optional<int64_t> rows =
      constantUpperBound(alloc.getResult(), shape.rowDim);
  if (!rows || *rows > warps * kRowsPerWarp)
    return fail(alloc, "more rows than 16 per warp");
  if (shape.isTile) {
    std::optional<int64_t> columns =
        constantUpperBound(alloc.getResult(), rank - 1);
    if (!columns)
      return fail(alloc, "columns without a bound");
    shape.columns = llvm::alignTo(*columns, kTileN);
    if (type.isDynamicDim(rank - 1))
      shape.validColumns = mapping.lookup(
          alloc.getDynamicSizes()[type.getDynamicDimIndex(rank - 1)]);
    else if (*columns != shape.columns)
      shape.validColumns = index(*columns);
  }
  shape.validRows =
      type.isDynamicDim(shape.rowDim)
          ? mapping.lookup(
                alloc.getDynamicSizes()[type.getDynamicDimIndex(shape.rowDim)])
          : index(type.getDimSize(shape.rowDim));
  shapes[alloc.getResult()] = shape;
  return success();
}

/// The loops of `op` that run along the rows and (for a tile) the columns
/// of `buffer` read or written through `map`; failure if another loop of
/// nonunit extent indexes it.
static LogicalResult rowAndColumnLoops(linalg::GenericOp op, AffineMap map,
                                       const BufferShape &shape,
                                       int64_t &rowLoop, int64_t &columnLoop) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto dimExpr = dyn_cast<AffineDimExpr>(expr);
    if (int64_t(d) == shape.rowDim ||
        (shape.isTile && d + 1 == map.getNumResults())) {
      if (!dimExpr)
        return failure();
      (int64_t(d) == shape.rowDim ? rowLoop : columnLoop) =
          dimExpr.getPosition();
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!(constant && constant.getValue() == 0) &&
        !(dimExpr && ranges[dimExpr.getPosition()] == 1))
      return failure();
  }
  return success();
}

LogicalResult FlashAttentionBuilder::interpretGeneric(linalg::GenericOp op) {
  if (op.hasPureBufferSemantics() && op.getNumResults() == 0 &&
      op.getNumDpsInits() > 1 &&
      op.getNumParallelLoops() == op.getNumLoops())
    return interpretMultiOutput(op);
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 0)
    return fail(op, "not one output buffer");
  Value out = op.getDpsInits()[0];
  if (!shapes.count(out))
    return fail(op, "the output is not a buffer of the block");
  if (op.getNumParallelLoops() == op.getNumLoops())
    return interpretElementwise(op);
  if (linalg::isaContractionOpInterface(op))
    return interpretContraction(op);
  return interpretRowReduction(op);
}

LogicalResult
FlashAttentionBuilder::interpretMultiOutput(linalg::GenericOp op) {
  if (masks.count(op))
    return fail(op, "a mask's op of several outputs");
  Value first = op.getDpsInits()[0];
  if (!shapes.count(first))
    return fail(op, "the output is not a buffer of the block");
  const BufferShape &outShape = shapes[first];
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto it = shapes.find(init.get());
    if (it == shapes.end() || it->second.isTile != outShape.isTile ||
        it->second.columns != outShape.columns ||
        op.getMatchingIndexingMap(&init) != outMap)
      return fail(op, "outputs of different shapes");
  }
  int64_t rank = op.getNumLoops();
  int64_t rowLoop = -1, columnLoop = -1;
  if (failed(rowAndColumnLoops(op, outMap, outShape, rowLoop, columnLoop)))
    return fail(op, "the output is not written along its rows and columns");
  Block *body = op.getBody();
  for (Operation &inner : body->without_terminator())
    if (!isPure(&inner) || inner.getNumRegions())
      return fail(op, "the body has effects or regions");
  // The operands' registers: inputs read elementwise or at the row, the
  // outputs' current values where the body reads them.
  SmallVector<std::pair<Fragment *, Access>> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    bool isInit = op.isDpsInit(&operand);
    if (isInit && body->getArgument(operand.getOperandNumber()).use_empty()) {
      operands.push_back({nullptr, Access::Elementwise});
      continue;
    }
    auto it = fragments.find(operand.get());
    if (it == fragments.end())
      return fail(op, "an operand is not a computed buffer of the block");
    const BufferShape &shape = shapes[operand.get()];
    int64_t row = -1, column = -1;
    if (failed(rowAndColumnLoops(op, op.getMatchingIndexingMap(&operand),
                                 shape, row, column)) ||
        row != rowLoop || (shape.isTile && column != columnLoop) ||
        (shape.isTile && !outShape.isTile) ||
        (shape.isTile && shape.columns != outShape.columns))
      return fail(op, "an operand is not read along the output's rows");
    operands.push_back({&it->second, shape.isTile == outShape.isTile
                                         ? Access::Elementwise
                                         : Access::AtRow});
  }
  int64_t registers = outShape.isTile ? outShape.columns / kTileN * 4 : 2;
  SmallVector<Fragment> results(op.getNumDpsInits());
  for (int64_t reg = 0; reg < registers; ++reg) {
    int64_t q = outShape.isTile ? reg % 4 : 2 * reg;
    SmallVector<Value> args;
    for (auto [fragment, access] : operands)
      args.push_back(!fragment ? Value()
                               : fragment->values[access == Access::AtRow
                                                      ? q / 2
                                                      : reg]);
    SmallVector<Value> indices(rank, index(0));
    indices[rowLoop] = rowOf(q);
    if (outShape.isTile)
      indices[columnLoop] = columnOf(reg);
    for (auto [result, value] :
         llvm::zip(results, applyBodyResults(body, args, indices)))
      result.values.push_back(value);
  }
  for (auto [init, result] : llvm::zip(op.getDpsInits(), results)) {
    fragments[init] = std::move(result);
    scaledTiles.erase(init);
    rowFunctions.erase(init);
  }
  return success();
}

/// How many times `value`, a sum of `op`'s body (addi of linalg.index,
/// row vectors and values from outside), adds the linalg.index of `dim`;
/// -1 for another op.
static int64_t indexMultiplicity(linalg::GenericOp op, Value value,
                                 int64_t dim) {
  Operation *def = value.getDefiningOp();
  if (value.getParentBlock() != op.getBody() || !def)
    return 0;
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return int64_t(index.getDim()) == dim;
  if (auto sum = dyn_cast<arith::AddIOp>(def)) {
    int64_t lhs = indexMultiplicity(op, sum.getLhs(), dim);
    int64_t rhs = indexMultiplicity(op, sum.getRhs(), dim);
    return lhs < 0 || rhs < 0 ? -1 : lhs + rhs;
  }
  return -1;
}

LogicalResult
FlashAttentionBuilder::interpretElementwise(linalg::GenericOp op) {
  Value out = op.getDpsInits()[0];
  const BufferShape &outShape = shapes[out];
  int64_t rank = op.getNumLoops();
  int64_t rowLoop = -1, columnLoop = -1;
  if (failed(rowAndColumnLoops(
          op, op.getMatchingIndexingMap(op.getDpsInitOperand(0)), outShape,
          rowLoop, columnLoop)))
    return fail(op, "the output is not written along its rows and columns");
  // Each input: a buffer of the output's shape read elementwise, or a row
  // vector read at the row.
  SmallVector<Fragment *> inputs;
  SmallVector<Access> accesses;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto it = fragments.find(input->get());
    if (it == fragments.end())
      return fail(op, "an input is not a computed buffer of the block");
    const BufferShape &inShape = shapes[input->get()];
    int64_t inRow = -1, inColumn = -1;
    if (failed(rowAndColumnLoops(op, op.getMatchingIndexingMap(input), inShape,
                                 inRow, inColumn)) ||
        inRow != rowLoop || (inShape.isTile && inColumn != columnLoop))
      return fail(op, "an input is not read along the output's rows");
    if (inShape.isTile != outShape.isTile && !outShape.isTile)
      return fail(op, "a tile read into a row vector");
    if (inShape.isTile && inShape.columns != outShape.columns)
      return fail(op, "tiles of different widths");
    accesses.push_back(inShape.isTile == outShape.isTile ? Access::Elementwise
                                                         : Access::AtRow);
    inputs.push_back(&it->second);
  }
  Block *body = op.getBody();
  bool readsOut = !body->getArguments().back().use_empty();
  Fragment *old = nullptr;
  if (readsOut) {
    auto it = fragments.find(out);
    if (it == fragments.end())
      return fail(op, "reads an output that holds nothing yet");
    old = &it->second;
  }
  for (Operation &inner : body->without_terminator())
    if (!isPure(&inner) || inner.getNumRegions())
      return fail(op, "the body has effects or regions");

  int64_t registers = outShape.isTile ? outShape.columns / kTileN * 4 : 2;
  // The inputs that are scaled tiles: their raw registers feed exp2's fma.
  SmallVector<std::pair<BlockArgument, ScaledTile>> scaledInputs =
      scaledInputsOf(op, accesses);
  // A tile scaled by the program's constants (matchScale): computed
  // unscaled, F applied after (where anything reads it).
  std::optional<ScaleForm> scale;
  SmallVector<BlockArgument> tileArgs;
  for (auto [i, access] : llvm::enumerate(accesses))
    if (access == Access::Elementwise && outShape.isTile)
      tileArgs.push_back(body->getArgument(i));
  if (tileArgs.size() == 1 && tileArgs.front().getType().isF32() &&
      getElementTypeOrSelf(out.getType()).isF32() && !readsOut &&
      scaledInputs.empty())
    scale = matchScale(op, tileArgs.front());
  // A mask's compare, `col(n) <= row(m)` with col adding the column index
  // once, holds at column columnBase + c (c the register's constant
  // offset) iff c <= row(m) - col(columnBase): one threshold per row of
  // the lane, computed once, against constants: per register one compare
  // with a constant instead of the 64-bit sums of both positions.
  auto maskIt = masks.find(op);
  SmallVector<Value> thresholds;
  std::optional<arith::CmpIPredicate> thresholdPredicate;
  if (maskIt != masks.end() && outShape.isTile) {
    Mask mask = maskIt->second;
    using P = arith::CmpIPredicate;
    P predicate = mask.compare.getPredicate();
    Value columnSide =
        mask.columnLeft ? mask.compare.getLhs() : mask.compare.getRhs();
    Value rowSide =
        mask.columnLeft ? mask.compare.getRhs() : mask.compare.getLhs();
    if (llvm::is_contained({P::sle, P::slt, P::sge, P::sgt}, predicate) &&
        indexMultiplicity(op, columnSide, columnLoop) == 1 &&
        indexMultiplicity(op, rowSide, columnLoop) == 0) {
      for (int64_t h = 0; h < 2 && thresholds.size() == size_t(h); ++h) {
        FailureOr<Value> column = evaluateIndex(op, columnSide, rowLoop,
                                                columnLoop, rowOf(2 * h),
                                                columnBase);
        FailureOr<Value> row = evaluateIndex(op, rowSide, rowLoop, columnLoop,
                                             rowOf(2 * h), columnBase);
        if (succeeded(column) && succeeded(row))
          thresholds.push_back(
              arith::SubIOp::create(rewriter, loc, *row, *column));
      }
      thresholdPredicate =
          llvm::is_contained({P::sle, P::sge}, predicate) ? P::sle : P::slt;
    }
    if (thresholds.size() != 2)
      thresholds.clear();
  }
  // `keptWhole`: the mask's compare is true on every register.
  // (On the wgmma schedule: the mma.sync one stays session 8's kernel,
  // whose 128 registers at 4 blocks per SM would spill the reciprocals.)
  rowDivisors.clear();
  for (auto [i, access] : llvm::enumerate(accesses))
    if (access == Access::AtRow && outShape.isTile && qkOnWgmma)
      rowDivisors.insert(body->getArgument(i));
  auto compute = [&](bool keptWhole) {
    reciprocals.clear();
    if (scale)
      bypassed.insert(scale->bypassed.begin(), scale->bypassed.end());
    SmallVector<Value> values;
    for (int64_t reg = 0; reg < registers; ++reg) {
      int64_t q = outShape.isTile ? reg % 4 : 2 * reg;
      for (auto &[arg, scaled] : scaledInputs)
        scaledArgs[arg] = {scaled.raw[reg], scaled.factor()};
      if (keptWhole || !thresholds.empty()) {
        maskCompare = maskIt->second.compare;
        maskValue =
            keptWhole
                ? arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult()
                : arith::CmpIOp::create(rewriter, loc, *thresholdPredicate,
                                        index(kTileN * (reg / 4) + reg % 2),
                                        thresholds[q / 2])
                      .getResult();
      }
      SmallVector<Value> args;
      for (auto [fragment, access] : llvm::zip(inputs, accesses))
        args.push_back(
            fragment->values[access == Access::AtRow ? q / 2 : reg]);
      args.push_back(old ? old->values[reg] : Value());
      SmallVector<Value> indices(rank, index(0));
      indices[rowLoop] = rowOf(q);
      if (outShape.isTile)
        indices[columnLoop] = columnOf(reg);
      values.push_back(applyBody(body, args, indices));
      maskCompare = nullptr;
      maskValue = Value();
    }
    bypassed.clear();
    scaledArgs.clear();
    return values;
  };
  Fragment result;
  // A mask evaluates its compare only on the tiles that cross the
  // diagonal: a tile it keeps whole (the compare holds at its last column
  // and first row) runs the body with the compare true.
  Value keptWhole;
  if (maskIt != masks.end() && outShape.isTile) {
    const BufferShape &tile = shapes[maskIt->second.tile];
    Value lastColumn = arith::SubIOp::create(
        rewriter, loc,
        tile.validColumns ? tile.validColumns : index(tile.columns), index(1));
    FailureOr<Value> kept = maskHolds(maskIt->second, index(0), lastColumn);
    if (succeeded(kept))
      keptWhole = *kept;
  }
  if (keptWhole) {
    SmallVector<Type> types(registers, getElementTypeOrSelf(out.getType()));
    auto split = scf::IfOp::create(rewriter, loc, types, keptWhole, true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(split.thenBlock());
      scf::YieldOp::create(rewriter, loc, compute(true));
      rewriter.setInsertionPointToStart(split.elseBlock());
      scf::YieldOp::create(rewriter, loc, compute(false));
    }
    result.values.assign(split.getResults().begin(), split.getResults().end());
  } else {
    result.values = compute(false);
  }
  rowDivisors.clear();
  reciprocals.clear();
  if (scale) {
    ScaledTile scaled;
    scaled.factors = scale->factors;
    scaled.addsZero = scale->addsZero;
    scaled.raw = result.values;
    for (Value &value : result.values)
      value = applyScale(scaled, value);
    scaledTiles[out] = std::move(scaled);
  }
  fragments[out] = std::move(result);
  // A row vector computed from its row index alone (the query positions of
  // a mask) can be evaluated at any row.
  if (!outShape.isTile && op.getNumDpsInputs() == 0 && !readsOut)
    rowFunctions[out] = {op, rowLoop};
  else
    rowFunctions.erase(out);
  return success();
}

LogicalResult
FlashAttentionBuilder::interpretRowReduction(linalg::GenericOp op) {
  Value out = op.getDpsInits()[0];
  int64_t rank = op.getNumLoops();
  if (shapes[out].isTile || op.getNumReductionLoops() != 1)
    return fail(op, "not a reduction of a tile's rows");
  int64_t rowLoop = -1, columnLoop = -1;
  if (failed(rowAndColumnLoops(
          op, op.getMatchingIndexingMap(op.getDpsInitOperand(0)), shapes[out],
          rowLoop, columnLoop)))
    return fail(op, "the output is not a row vector");
  auto outIt = fragments.find(out);
  if (outIt == fragments.end())
    return fail(op, "the reduction has no initial value");
  SmallVector<Fragment *> inputs;
  SmallVector<Access> accesses;
  const BufferShape *tileShape = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto it = fragments.find(input->get());
    if (it == fragments.end())
      return fail(op, "an input is not a computed buffer of the block");
    const BufferShape &shape = shapes[input->get()];
    int64_t inRow = -1, inColumn = -1;
    if (failed(rowAndColumnLoops(op, op.getMatchingIndexingMap(input), shape,
                                 inRow, inColumn)) ||
        inRow != rowLoop)
      return fail(op, "an input is not read along the rows");
    if (shape.isTile) {
      if (tileShape &&
          (tileShape->columns != shape.columns || inColumn != columnLoop))
        return fail(op, "tiles of different widths");
      tileShape = &shape;
      columnLoop = inColumn;
      accesses.push_back(Access::Elementwise);
    } else {
      accesses.push_back(Access::AtRow);
    }
    inputs.push_back(&it->second);
  }
  if (!tileShape ||
      op.getIteratorTypesArray()[columnLoop] != utils::IteratorType::reduction)
    return fail(op, "no tile is reduced along its columns");
  // The combiner: the yielded op, the only reader of the output.
  Block *body = op.getBody();
  BlockArgument outArg = body->getArguments().back();
  Operation *combiner = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || !outArg.hasOneUse() || *outArg.user_begin() != combiner ||
      combiner->getNumOperands() != 2 || !combinerIdentity(combiner) ||
      !outArg.getType().isF32())
    return fail(op, "the body is not term-then-combine");
  for (Operation &inner : body->without_terminator())
    if (!isPure(&inner) || inner.getNumRegions())
      return fail(op, "the body has effects or regions");

  // Inputs that are scaled tiles: a row max or min of one (the body's term
  // is the tile's element) folds its raw registers and scales the result,
  // F(max s) = max F(s) as F is monotone (a product by positive constants,
  // then + 0); in other bodies their raw registers feed exp2's fma.
  SmallVector<std::pair<BlockArgument, ScaledTile>> scaledInputs =
      scaledInputsOf(op, accesses);
  std::optional<ScaledTile> extremumOf;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
          arith::MinNumFOp>(combiner) &&
      scaledInputs.size() == 1 &&
      combiner->getOperand(combiner->getOperand(0) == outArg ? 1 : 0) ==
          scaledInputs.front().first)
    extremumOf = scaledInputs.front().second;

  Value identity = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getF32FloatAttr(combinerIdentity(combiner)->convertToFloat()));
  int64_t registers = tileShape->columns / kTileN * 4;
  Fragment result;
  for (int64_t h = 0; h < 2; ++h) {
    Value acc = identity;
    for (int64_t reg = 0; reg < registers; ++reg) {
      int64_t q = reg % 4;
      if (q / 2 != h)
        continue;
      SmallVector<Value> args;
      for (auto [fragment, access] : llvm::zip(inputs, accesses))
        args.push_back(fragment->values[access == Access::AtRow ? h : reg]);
      for (auto &[arg, scaled] : scaledInputs) {
        if (extremumOf)
          args[arg.getArgNumber()] = scaled.raw[reg];
        else
          scaledArgs[arg] = {scaled.raw[reg], scaled.factor()};
      }
      args.push_back(acc);
      SmallVector<Value> indices(rank, index(0));
      indices[rowLoop] = rowOf(q);
      indices[columnLoop] = columnOf(reg);
      Value next = applyBody(body, args, indices);
      if (tileShape->validColumns)
        next = arith::SelectOp::create(
            rewriter, loc, below(indices[columnLoop], tileShape->validColumns),
            next, acc);
      acc = next;
    }
    // The quad's four lanes hold the row's columns.
    Value width = arith::ConstantIntOp::create(rewriter, loc, kWarpSize, 32);
    for (int64_t offset : {1, 2}) {
      Value offsetValue =
          arith::ConstantIntOp::create(rewriter, loc, offset, 32);
      auto shuffle = gpu::ShuffleOp::create(rewriter, loc, acc, offsetValue,
                                            width, gpu::ShuffleMode::XOR);
      acc = combine(rewriter, loc, combiner, acc, shuffle.getResult(0));
    }
    if (extremumOf)
      acc = applyScale(*extremumOf, acc);
    result.values.push_back(
        combine(rewriter, loc, combiner, outIt->second.values[h], acc));
  }
  scaledArgs.clear();
  fragments[out] = std::move(result);
  return success();
}

SmallVector<Value> FlashAttentionBuilder::globalFragmentsA(Value oldA,
                                                           int64_t steps) {
  auto it = aFragments.find(oldA);
  if (it != aFragments.end())
    return it->second;
  // Loaded where the view is made (or, for a view made outside the block,
  // at its start): once per block, not per key tile.
  Value a = mapping.lookupOrDefault(oldA);
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *def = a.getDefiningOp();
  if (def && def->getBlock() == newBody)
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointAfter(columnBase.getDefiningOp());
  auto type = cast<MemRefType>(a.getType());
  int64_t rank = type.getRank();
  // Rows past the tile's end read its last row (their results are never
  // stored).
  Value lastRow =
      arith::SubIOp::create(rewriter, loc, dim(a, rank - 2), index(1));
  auto pair = VectorType::get({2}, type.getElementType());
  SmallVector<Value> registers;
  for (int64_t step = 0; step < steps; ++step) {
    for (int64_t i = 0; i < 4; ++i) {
      // a0: (row g, k 2t), a1: (row g + 8), a2: (k + 8), a3: both.
      Value row =
          arith::MinUIOp::create(rewriter, loc, rowOf(2 * (i % 2)), lastRow);
      Value column = add(mul(quadLane, 2), step * kStepK + 8 * (i / 2));
      SmallVector<Value> indices(rank, index(0));
      indices[rank - 2] = row;
      indices[rank - 1] = column;
      Value loaded = vector::LoadOp::create(rewriter, loc, pair, a, indices);
      registers.push_back(LLVM::BitcastOp::create(
          rewriter, loc, rewriter.getI32Type(), loaded));
    }
  }
  aFragments[oldA] = registers;
  return registers;
}

FailureOr<Value> FlashAttentionBuilder::stage(Value oldB, int64_t rows,
                                              int64_t columns) {
  Value b = mapping.lookup(oldB);
  auto type = cast<MemRefType>(b.getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  Value buffer;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(newBody);
    auto bufferType = MemRefType::get(
        {rows, columns + kRowPad}, element, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    buffer = memref::AllocOp::create(rewriter, loc, bufferType,
                                     rewriter.getI64IntegerAttr(16));
  }
  // Every warp is past its reads of the previous tile.
  gpu::BarrierOp::create(rewriter, loc);
  Value validRows = dim(b, rank - 2);
  auto chunkType = VectorType::get({kChunk}, element);
  int64_t chunksPerRow = columns / kChunk;
  int64_t total = rows * chunksPerRow;
  Value zero = arith::ConstantOp::create(
      rewriter, loc, chunkType,
      DenseElementsAttr::get(chunkType, rewriter.getZeroAttr(element)));
  for (int64_t first = 0; first < total; first += warps * kWarpSize) {
    Value chunk = add(thread, first);
    Value row = div(chunk, chunksPerRow);
    Value column = mul(rem(chunk, chunksPerRow), kChunk);
    auto load = scf::IfOp::create(rewriter, loc, TypeRange{chunkType},
                                  below(row, validRows), true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(load.thenBlock());
      SmallVector<Value> indices(rank, index(0));
      indices[rank - 2] = row;
      indices[rank - 1] = column;
      Value loaded =
          vector::LoadOp::create(rewriter, loc, chunkType, b, indices);
      scf::YieldOp::create(rewriter, loc, loaded);
      rewriter.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(rewriter, loc, zero);
    }
    vector::StoreOp::create(rewriter, loc, load.getResult(0), buffer,
                            ValueRange{row, column});
  }
  gpu::BarrierOp::create(rewriter, loc);
  return buffer;
}

LogicalResult
FlashAttentionBuilder::interpretContraction(linalg::GenericOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  int64_t rank = op.getNumLoops();
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || op.getNumDpsInputs() != 2)
    return fail(op, "not one m, n and k");
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  // The body: out + ext(a) * ext(b).
  Block *body = op.getBody();
  auto addOp = dyn_cast_or_null<arith::AddFOp>(
      body->getTerminator()->getOperand(0).getDefiningOp());
  if (!addOp || body->getOperations().size() > 5)
    return fail(op, "the body is not a multiply-add");
  Value outArg = body->getArgument(2);
  Value product = addOp.getLhs() == outArg ? addOp.getRhs() : addOp.getLhs();
  auto mulOp = product.getDefiningOp<arith::MulFOp>();
  auto widened = [](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  if (!mulOp || (addOp.getLhs() != outArg && addOp.getRhs() != outArg) ||
      widened(mulOp.getLhs()) != body->getArgument(0) ||
      widened(mulOp.getRhs()) != body->getArgument(1))
    return fail(op, "the body is not out + ext(a) * ext(b)");

  Value oldA = op.getDpsInputs()[0], oldB = op.getDpsInputs()[1];
  Value out = op.getDpsInits()[0];
  Type aType = getElementTypeOrSelf(oldA.getType());
  Type bType = getElementTypeOrSelf(oldB.getType());
  // An f32 tile of the block against a bf16 global tile widened in the
  // body (PyTorch's SDPA exported as is: P kept in f32, V widened): A's
  // registers split into `splitParts` bf16 parts, each a dot of its own
  // into the same accumulator (splitIntoParts).
  int64_t parts = 1;
  if (aType.isF32() && bType.isBF16() && isWorkgroup(oldA)) {
    parts = splitParts;
    aType = bType;
  }
  // Two f32 operands under allow-tf32: tf32 wgmma (both dots on it, or
  // neither: planWgmma).
  bool onTf32 = tf32 && aType.isF32() && bType.isF32() && parts == 1;
  if (!onTf32 && (aType != bType || !(aType.isBF16() || aType.isF16())))
    return fail(op, "operands are not both bf16 or both f16, nor an f32 "
                    "tile against bf16" +
                        Twine(tf32 ? "" : " (f32 ones take tf32 wgmma only "
                                          "with allow-tf32)"));
  auto outIt = fragments.find(out);
  if (outIt == fragments.end() || !shapes[out].isTile ||
      !getElementTypeOrSelf(out.getType()).isF32())
    return fail(op, "the accumulator is not an f32 tile of the block");
  for (unsigned batch : dims->batch)
    if (op.getStaticLoopRanges()[batch] != 1)
      return fail(op, "a batch dimension is not 1");
  MLIRContext *c = ctx;
  auto expr = [&](unsigned d) { return getAffineDimExpr(d, c); };
  auto lastTwo = [](AffineMap map) { return map.getResults().take_back(2); };
  if (m != tileRank - 2 || n != tileRank - 1 || k != rank - 1 ||
      lastTwo(op.getIndexingMapsArray()[2]) !=
          ArrayRef<AffineExpr>{expr(m), expr(n)})
    return fail(op, "C is not [.., m, n] with k innermost");
  // A: [.., m, k].
  if (lastTwo(op.getIndexingMapsArray()[0]) !=
      ArrayRef<AffineExpr>{expr(m), expr(k)})
    return fail(op, "A is not [.., m, k]");
  std::optional<int64_t> kBound =
      constantUpperBound(oldA, cast<MemRefType>(oldA.getType()).getRank() - 1);
  std::optional<int64_t> nBound = shapes[out].columns;
  if (!kBound || *kBound % kStepK || *nBound % (2 * kTileN))
    return fail(op, "k or n is not a multiple of 16");
  int64_t stepK = stepKOf(aType);
  int64_t steps = *kBound / stepK;

  // Both dots of an attention block go to wgmma or neither (planWgmma).
  bool onWgmma = isWorkgroup(oldA) ? pvOnWgmma : qkOnWgmma;
  if (onTf32 && !onWgmma)
    return fail(op, "f32 operands run on tf32 wgmma only" +
                        Twine(wgmmaRefusal.empty() ? "" : ", and ") +
                        wgmmaRefusal);
  // A's registers (on wgmma, Q's tile in shared memory instead).
  SmallVector<Value> aRegisters;
  Value aShared;
  if (isWorkgroup(oldA)) {
    auto it = fragments.find(oldA);
    const BufferShape &shape = shapes[oldA];
    if (it == fragments.end() || !shape.isTile || shape.columns < *kBound)
      return fail(op, "A is not a computed tile of the block");
    Type tileType = getElementTypeOrSelf(oldA.getType());
    Value zero = arith::ConstantOp::create(rewriter, loc, tileType,
                                           rewriter.getZeroAttr(tileType));
    SmallVector<Value> values = it->second.values;
    if (shape.validColumns)
      for (int64_t reg = 0; reg < int64_t(values.size()); ++reg)
        values[reg] = arith::SelectOp::create(
            rewriter, loc, below(columnOf(reg), shape.validColumns),
            values[reg], zero);
    if (onTf32) {
      // tf32 m64k8: lane l's four A registers are rows r = l / 4 and r +
      // 8 at k = l % 4 and k + 4; the accumulator tile s (keys 8 s..)
      // holds rows r, r + 8 at keys 2 (l % 4) and + 1. So step s takes
      // tile s's registers (0, 2, 1, 3): its k index j reads key 8 s + 2 j
      // for j < 4 and 8 s + 2 (j - 4) + 1 for j >= 4, and transposeV
      // stores V's keys in that order. Each rounded to tf32 (to nearest,
      // ties away: cvt.rna).
      for (int64_t step = 0; step < steps; ++step)
        for (int64_t q : {0, 2, 1, 3}) {
          Value tf32Bits = NVVM::ConvertFloatToTF32Op::create(
              rewriter, loc, rewriter.getI32Type(), values[4 * step + q],
              NVVM::FPRoundingMode::RNA, /*sat=*/NVVM::SaturationMode::NONE,
              /*relu=*/false);
          aRegisters.push_back(tf32Bits);
        }
    } else {
      // Accumulator tiles 2 s and 2 s + 1 are A's k16 step s: registers
      // (0, 1), (2, 3) of tile 2 s, then of tile 2 s + 1. With parts, the
      // registers of part p are aRegisters[p * 4 steps ..].
      SmallVector<std::pair<Value, Value>> pairs;
      for (int64_t step = 0; step < steps; ++step)
        for (int64_t first : {8 * step, 8 * step + 2, 8 * step + 4,
                              8 * step + 6})
          pairs.push_back({values[first], values[first + 1]});
      if (parts == 1) {
        for (auto [x0, x1] : pairs)
          aRegisters.push_back(pack(x0, x1));
      } else {
        aRegisters = splitIntoParts(pairs, parts);
      }
    }
  } else {
    auto aType2 = cast<MemRefType>(oldA.getType());
    if (!aType2.getLayout().isIdentity() &&
        !oldA.getDefiningOp<memref::SubViewOp>())
      return fail(op, "A is not a view of a global array");
    Operation *view = oldA.getDefiningOp();
    if (view && view->getBlock() != oldGrid.getBody() &&
        oldGrid->isAncestor(view))
      return fail(op, "A's view changes inside the block's loops");
    if (aType2.getShape().back() != *kBound)
      return fail(op, "A's rows are not whole");
    if (onWgmma)
      aShared = sharedA(oldA);
    else
      aRegisters = globalFragmentsA(oldA, steps);
  }

  // B: a global tile [.., n, k] (K) or [.., k, n] (V).
  if (isWorkgroup(oldB))
    return fail(op, "B is a tile of the block");
  ArrayRef<AffineExpr> bMap = lastTwo(op.getIndexingMapsArray()[1]);
  bool transposed;
  if (bMap == ArrayRef<AffineExpr>{expr(n), expr(k)})
    transposed = false;
  else if (bMap == ArrayRef<AffineExpr>{expr(k), expr(n)})
    transposed = true;
  else
    return fail(op, "B is not [.., n, k] or [.., k, n]");
  auto bMemref = cast<MemRefType>(oldB.getType());
  int64_t bRank = bMemref.getRank();
  std::optional<int64_t> bRows = constantUpperBound(oldB, bRank - 2);
  int64_t bColumns = bMemref.getShape().back();
  if (!bRows || ShapedType::isDynamic(bColumns) || bColumns % kChunk ||
      bColumns != (transposed ? *nBound : *kBound))
    return fail(op, "B's rows are not whole");
  int64_t paddedRows = llvm::alignTo(*bRows, 2 * kTileN);
  if (paddedRows != (transposed ? *kBound : *nBound))
    return fail(op, "B's rows are not the dot's n or k");
  for (int64_t d = 0; d < bRank - 2; ++d)
    if (bMemref.getDimSize(d) != 1)
      return fail(op, "B has a leading dimension that is not 1");
  Value staged;
  Value slotRow = index(0);
  const Prefetched *prefetched = nullptr;
  if (!loops.empty()) {
    auto it = loops.back().prefetched.find(oldB);
    if (it != loops.back().prefetched.end())
      prefetched = &it->second;
  }
  Value slotOffset;
  if (onWgmma && !prefetched && llvm::is_contained(onceViews, oldB)) {
    // Copied once where its view was made (sharedB); its slot of
    // qBarrier's group completes once.
    prefetched = sharedB(oldB);
    slotOffset = index(0);
  }
  if (onWgmma) {
    // S = Q K^T: m64 nK k16 steps over D, K's rows its n (K-major); P V:
    // m64 nD k16 steps over the K keys, V's rows its k ("transposed"); K 64
    // or 128 keys (one or two groups of 64 rows in the ring's slot).
    // A key tile below 64 (short sequences) is one group whose rows past
    // the tile are never read: S's n and P V's k are the tile's.
    if (!prefetched || !prefetched->tma ||
        (paddedRows != prefetched->groups * prefetched->tma->boxRows &&
         (prefetched->groups != 1 || paddedRows > prefetched->tma->boxRows)) ||
        transposed != isWorkgroup(oldA) ||
        (transposed ? *kBound : *nBound) != paddedRows ||
        bColumns != prefetched->tma->columns)
      return fail(op, "not a dot of the wgmma schedule");
    if (!slotOffset) {
      slotOffset = awaitTma(oldB, *prefetched);
    } else {
      int64_t slots = 1 + onceViews.size();
      waitForRound(rewriter, loc, qBarrier,
                   index(1 + llvm::find(onceViews, oldB) - onceViews.begin()),
                   slots);
    }
    if (aShared)
      waitForRound(rewriter, loc, qBarrier, index(0), 1);
    acquireTurn();
  } else if (prefetched && prefetched->rows == paddedRows &&
             prefetched->columns == bColumns) {
    // This iteration's tile has landed (only the copies issued after it,
    // one group per prefetched operand, may still be in flight) and every
    // warp is past its reads of the other slot: refill that one with the
    // next iteration's tile.
    LoopState &state = loops.back();
    int64_t groups = llvm::count_if(
        state.prefetched, [](auto &entry) { return !entry.second.tma; });
    nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, state.firstGroup,
                                     rewriter.getI32IntegerAttr(groups - 1));
    gpu::BarrierOp::create(rewriter, loc);
    Value iv = mapping.lookup(state.oldLoop.getInductionVar());
    Value iteration = rewriter.createOrFold<arith::DivUIOp>(
        loc, arith::SubIOp::create(rewriter, loc, iv, state.lowerBound),
        state.step);
    Value slot = rem(iteration, 2);
    Value next = arith::AddIOp::create(rewriter, loc, iv, state.step);
    auto more = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, next,
                              state.upperBound));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(more.thenBlock());
      issueCopies(oldB, *prefetched, state.oldLoop.getInductionVar(), next,
                  arith::SubIOp::create(rewriter, loc, index(1), slot));
    }
    // A group even when nothing was copied: the waits count groups.
    nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(ctx), ValueRange{});
    staged = prefetched->buffer;
    slotRow = mul(slot, paddedRows);
  } else {
    FailureOr<Value> synchronous = stage(oldB, paddedRows, bColumns);
    if (failed(synchronous))
      return failure();
    staged = *synchronous;
  }

  // tf32 P V: V's tile, landed in its slot, transposed into V^T (tf32
  // wgmma reads B K-major only).
  Value transposedDesc;
  int64_t transposedGroups = 0;
  if (onTf32 && isWorkgroup(oldA)) {
    transposedGroups = llvm::divideCeil(bColumns, kWarpgroupRows);
    transposedDesc = transposeV(*prefetched, slotOffset, paddedRows,
                                bColumns, transposedGroups);
  }

  // A tile the mask discards whole (a causal mask's tiles above the
  // diagonal) needs no product: the mask's result does not depend on it.
  SmallVector<Value> acc = outIt->second.values;
  scf::IfOp needed;
  if (Value condition = dotNeeded(out)) {
    // Every iteration refills the ring, also where this one's dot is
    // skipped.
    flushRefill();
    SmallVector<Type> types(acc.size(), rewriter.getF32Type());
    needed = scf::IfOp::create(rewriter, loc, types, condition, true);
    rewriter.setInsertionPointToStart(needed.elseBlock());
    scf::YieldOp::create(rewriter, loc, acc);
    rewriter.setInsertionPointToStart(needed.thenBlock());
  }
  bool pipelined =
      onWgmma && !loops.empty() && loops.back().pipelinedTile == out;
  if (pipelined && needed)
    return fail(op, "a pipelined dot that a mask may skip");
  if (pipelined) {
    // S for the next iteration, from a zero accumulator, left in flight
    // while the softmax reads this iteration's (waited for at the end of
    // the previous iteration); waited for at the end of this one (by P V's
    // wait where the loop has P V), before its registers move into the
    // loop's iter_args (a read of registers a wgmma still writes would
    // make ptxas serialize the wgmmas).
    LoopState &state = loops.back();
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    acc.assign(acc.size(), zero);
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    acc = issueQK(acc, aShared, *prefetched, slotOffset, aType);
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    flushRefill();
    state.nextS = acc;
    fragments[out].values = state.currentS;
    return success();
  }
  if (onWgmma) {
    // The warpgroup's wgmmas in one group, waited for at once: the
    // registers they write are read next.
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    if (aShared) {
      acc = issueQK(acc, aShared, *prefetched, slotOffset, aType);
    } else if (onTf32) {
      // V^T K-major (transposeV, before the fence): a k8 step is 32
      // bytes along a 128-byte row of D rows, the next 32 keys the next
      // box; n = D (K-major needs no padding of n).
      for (int64_t step = 0; step < steps; ++step) {
        int64_t box = step * stepK / 32, inBox = step % (32 / stepK);
        Value descB = advanceMatrixDescriptor(
            rewriter, loc, transposedDesc,
            box * transposedGroups * kBoxBytes + inBox * 32);
        acc = wgmmaRegisterA(rewriter, loc, acc,
                             ArrayRef<Value>(aRegisters).slice(4 * step, 4),
                             descB, aType, /*transposeB=*/false);
      }
    } else {
      // V MN-major: a k16 step is 16 rows of 128 bytes (the rows of a box
      // are contiguous, also past 64 keys); the next 64 columns (n) the
      // next box.
      // The slot's descriptor once, advanced per step (a constant add).
      Value slotDesc = sharedMatrixDescriptor(
          rewriter, loc, prefetched->buffer, slotOffset,
          prefetched->groups * prefetched->tma->boxBytes(), kSwizzleGroupBytes);
      // A head below 64 (one box, V's columns past D zero): n = 64 on
      // zero accumulator columns, which are dropped after the dot. The
      // 128-byte swizzle's canonical MN-major layout spans 64 columns; an
      // n of 16 or 32 would read part of its pattern, which the PTX ISA's
      // layouts do not describe.
      size_t headRegisters = acc.size();
      int64_t paddedHead = prefetched->tma->boxes * kTmaSwizzleElements;
      if (*nBound < paddedHead)
        acc.append(size_t(paddedHead - *nBound) / 2,
                   arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getF32FloatAttr(0.0f)));
      // A split into parts: the parts' wgmmas in turn, the largest
      // first, each over every k16 step, in the one group.
      for (int64_t part = 0; part < parts; ++part)
        for (int64_t step = 0; step < steps; ++step) {
          Value descB = advanceMatrixDescriptor(rewriter, loc, slotDesc,
                                                step * kStepK * 128);
          acc = wgmmaRegisterA(
              rewriter, loc, acc,
              ArrayRef<Value>(aRegisters).slice(4 * (part * steps + step), 4),
              descB, aType, /*transposeB=*/true);
        }
      acc.resize(headRegisters);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // Ping-pong: the turn passes once S = Q K^T is issued (the other
    // warpgroup's P V and next S then run while this one's softmax does);
    // it is held from P V to the next S. (Inside a mask's scf.if, after
    // it.)
    if (aShared && !needed)
      releaseTurn();
    flushRefill();
    if (vWaitEarly && aShared && !needed)
      awaitSecondEarly(*prefetched);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(0));
  } else {
    // ldmatrix.x4: lanes 8 i .. 8 i + 7 address the rows of matrix i.
    Value matrix = div(lane, 8), row8 = rem(lane, 8);
    auto accType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(4, rewriter.getF32Type()));
    NVVM::MMATypes ptxType =
        aType.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    auto fragmentType = VectorType::get({4, 2}, aType);
    for (int64_t step = 0; step < steps; ++step) {
      for (int64_t pair = 0; pair < *nBound / (2 * kTileN); ++pair) {
        // Matrices: (n tile 2 p, k low), (2 p, k high), (2 p + 1, k low),
        // (2 p + 1, k high).
        Value nOffset = add(mul(div(matrix, 2), kTileN), 2 * kTileN * pair);
        Value kOffset = add(mul(rem(matrix, 2), 8), kStepK * step);
        Value row, column;
        if (transposed) {
          row = add(kOffset, row8);
          column = nOffset;
        } else {
          row = add(nOffset, row8);
          column = kOffset;
        }
        row = add(row, slotRow);
        Value fragment = nvgpu::LdMatrixOp::create(
            rewriter, loc, fragmentType, staged, ValueRange{row, column},
            rewriter.getBoolAttr(transposed), rewriter.getI32IntegerAttr(4));
        SmallVector<Value> b;
        for (int64_t i = 0; i < 4; ++i)
          b.push_back(LLVM::BitcastOp::create(
              rewriter, loc, rewriter.getI32Type(),
              vector::ExtractOp::create(rewriter, loc, fragment, i)));
        // A split into parts: one mma per part on the same B registers,
        // the largest part first.
        for (int64_t half = 0; half < 2; ++half) {
          int64_t tile = 2 * pair + half;
          Value bRegs[2] = {b[2 * half], b[2 * half + 1]};
          for (int64_t part = 0; part < parts; ++part) {
            ArrayRef<Value> a = ArrayRef<Value>(aRegisters)
                                    .slice(4 * (part * steps + step), 4);
            ArrayRef<Value> c = ArrayRef<Value>(acc).slice(4 * tile, 4);
            auto mma = NVVM::MmaOp::create(
                rewriter, loc, accType, a, bRegs, c,
                ArrayRef<int64_t>{kRowsPerWarp, kTileN, kStepK}, std::nullopt,
                std::nullopt, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                               NVVM::MMALayout::col});
            for (int64_t q = 0; q < 4; ++q)
              acc[4 * tile + q] =
                  LLVM::ExtractValueOp::create(rewriter, loc, mma, q);
          }
        }
      }
    }
  }
  if (needed) {
    scf::YieldOp::create(rewriter, loc, acc);
    rewriter.setInsertionPointAfter(needed);
    acc.assign(needed.getResults().begin(), needed.getResults().end());
    if (onWgmma && aShared)
      releaseTurn();
  }
  fragments[out].values = std::move(acc);
  return success();
}

FailureOr<Value> FlashAttentionBuilder::evaluateIndex(linalg::GenericOp op,
                                                      Value value,
                                                      int64_t rowLoop,
                                                      int64_t columnLoop,
                                                      Value row, Value column) {
  Block *body = op.getBody();
  if (value.getParentBlock() != body)
    return mapping.lookupOrDefault(value);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A row vector that a row function made: that function at `row`.
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return failure();
    auto it = rowFunctions.find(op.getDpsInputs()[arg.getArgNumber()]);
    if (it == rowFunctions.end() ||
        shapes[op.getDpsInputs()[arg.getArgNumber()]].isTile)
      return failure();
    auto [producer, producerRow] = it->second;
    Value result = producer.getBody()->getTerminator()->getOperand(0);
    return evaluateIndex(producer, result, producerRow, -1, row, Value());
  }
  Operation *def = value.getDefiningOp();
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    if (int64_t(index.getDim()) == rowLoop && row)
      return row;
    if (int64_t(index.getDim()) == columnLoop && column)
      return column;
    return failure();
  }
  if (auto sum = dyn_cast<arith::AddIOp>(def)) {
    FailureOr<Value> lhs =
        evaluateIndex(op, sum.getLhs(), rowLoop, columnLoop, row, column);
    FailureOr<Value> rhs =
        evaluateIndex(op, sum.getRhs(), rowLoop, columnLoop, row, column);
    if (failed(lhs) || failed(rhs))
      return failure();
    return arith::AddIOp::create(rewriter, loc, *lhs, *rhs).getResult();
  }
  return failure();
}

/// True if `value` of `op`'s body depends on the linalg.index of `dim`.
static bool dependsOn(linalg::GenericOp op, Value value, int64_t dim) {
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second || v.getParentBlock() != op.getBody())
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(def);
        index && int64_t(index.getDim()) == dim)
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

std::optional<FlashAttentionBuilder::Mask>
FlashAttentionBuilder::findMask(Value out) {
  // The tile's readers: its fill, the dot, and one elementwise op.
  linalg::GenericOp op;
  for (Operation *user : out.getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || llvm::is_contained(generic.getDpsInits(), out))
      continue;
    // (The mask's output is allocated after the dot: no shape yet.)
    if (op || generic.getNumParallelLoops() != generic.getNumLoops() ||
        generic.getNumDpsInits() != 1 ||
        cast<MemRefType>(generic.getDpsInits()[0].getType()).getRank() !=
            tileRank)
      return std::nullopt;
    op = generic;
  }
  if (!op)
    return std::nullopt;
  OpOperand *input = nullptr;
  for (OpOperand *operand : op.getDpsInputOperands())
    if (operand->get() == out) {
      if (input)
        return std::nullopt;
      input = operand;
    }
  Mask mask;
  mask.tile = out;
  mask.op = op;
  // S is a tile: rows, then columns last.
  BufferShape tile;
  tile.isTile = true;
  tile.rowDim = tileRank - 2;
  if (failed(rowAndColumnLoops(op, op.getMatchingIndexingMap(input), tile,
                               mask.rowLoop, mask.columnLoop)))
    return std::nullopt;
  // The tile's values reach the result only through one select:
  // `select(c, f(s), g)` with c free of s (g may read s, `s + -inf`).
  Block *body = op.getBody();
  arith::SelectOp select;
  SmallVector<Value> worklist = {body->getArgument(input->getOperandNumber())};
  DenseSet<Operation *> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto s = dyn_cast<arith::SelectOp>(user)) {
        if (use.getOperandNumber() == 0 || (select && select != s))
          return std::nullopt;
        mask.maskedReadsTile |= use.getOperandNumber() == 2;
        select = s;
        continue;
      }
      if (isa<linalg::YieldOp>(user) || !isPure(user) || user->getNumRegions())
        return std::nullopt;
      if (seen.insert(user).second)
        llvm::append_range(worklist, user->getResults());
    }
  }
  mask.compare = select
                     ? select.getCondition().getDefiningOp<arith::CmpIOp>()
                     : arith::CmpIOp();
  if (!mask.compare)
    return std::nullopt;
  // c = cmpi(p, column side, row side), both sides growing with their index:
  // some element is kept iff p holds between the first column and the last
  // row, every element iff it holds between the last column and the first
  // row.
  Value lhs = mask.compare.getLhs(), rhs = mask.compare.getRhs();
  int64_t rowLoop = mask.rowLoop, columnLoop = mask.columnLoop;
  bool columnLeft =
      dependsOn(op, lhs, columnLoop) && !dependsOn(op, lhs, rowLoop);
  bool columnRight =
      dependsOn(op, rhs, columnLoop) && !dependsOn(op, rhs, rowLoop);
  using P = arith::CmpIPredicate;
  P predicate = mask.compare.getPredicate();
  bool below = llvm::is_contained({P::sle, P::slt, P::ule, P::ult}, predicate);
  bool above = llvm::is_contained({P::sge, P::sgt, P::uge, P::ugt}, predicate);
  if (columnLeft && below && !dependsOn(op, rhs, columnLoop))
    mask.columnLeft = true;
  else if (columnRight && above && !dependsOn(op, lhs, columnLoop))
    mask.columnLeft = false;
  else
    return std::nullopt;
  return mask;
}

FailureOr<Value> FlashAttentionBuilder::maskHolds(Mask mask, Value row,
                                                  Value column) {
  Value lhs = mask.compare.getLhs(), rhs = mask.compare.getRhs();
  FailureOr<Value> left = evaluateIndex(mask.op, lhs, mask.rowLoop,
                                        mask.columnLoop, row, column);
  FailureOr<Value> right = evaluateIndex(mask.op, rhs, mask.rowLoop,
                                         mask.columnLoop, row, column);
  if (failed(left) || failed(right))
    return failure();
  return arith::CmpIOp::create(rewriter, loc, mask.compare.getPredicate(),
                               *left, *right)
      .getResult();
}

Value FlashAttentionBuilder::dotNeeded(Value out) {
  std::optional<Mask> mask = findMask(out);
  if (!mask)
    return Value();
  masks[mask->op.getOperation()] = *mask;
  // The loop leaves out the tiles the mask discards whole: it computes
  // every one it runs. A masked value that reads S needs S.
  if ((!loops.empty() && loops.back().boundingTile == out) ||
      mask->maskedReadsTile)
    return Value();
  Value lastRow =
      arith::SubIOp::create(rewriter, loc, shapes[out].validRows, index(1));
  FailureOr<Value> kept = maskHolds(*mask, lastRow, index(0));
  return succeeded(kept) ? *kept : Value();
}

/// An index as a linear function of a loop's induction variable.
struct Linear {
  int64_t coefficient = 0, constant = 0;
  SmallVector<std::pair<Value, int64_t>> invariants;
  void add(const Linear &other, int64_t factor) {
    coefficient += factor * other.coefficient;
    constant += factor * other.constant;
    for (auto [value, f] : other.invariants)
      invariants.push_back({value, factor * f});
  }
};

/// `value` (an index of `loop`'s body or of the body of `mask`, a generic
/// in it) as `coefficient * iv + sum(factor * invariant) + constant` in the
/// loop's induction variable, with the mask's column index at 0 (the tile's
/// first column); failure for anything else (a row index, a buffer).
static FailureOr<Linear> linearInIv(Value value, scf::ForOp loop,
                                    linalg::GenericOp mask,
                                    int64_t columnLoop) {
  Linear result;
  if (value == loop.getInductionVar()) {
    result.coefficient = 1;
    return result;
  }
  if (std::optional<int64_t> c = getConstantIntValue(value)) {
    result.constant = *c;
    return result;
  }
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isAncestor(def)) {
    if (isa<BlockArgument>(value) &&
        loop->isAncestor(value.getParentBlock()->getParentOp()))
      return failure();
    result.invariants.push_back({value, 1});
    return result;
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    if (index->getParentOp() != mask ||
        int64_t(index.getDim()) != columnLoop)
      return failure();
    return result;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    FailureOr<Linear> lhs =
        linearInIv(def->getOperand(0), loop, mask, columnLoop);
    FailureOr<Linear> rhs =
        linearInIv(def->getOperand(1), loop, mask, columnLoop);
    if (failed(lhs) || failed(rhs))
      return failure();
    result.add(*lhs, 1);
    result.add(*rhs, isa<arith::AddIOp>(def) ? 1 : -1);
    return result;
  }
  if (isa<arith::MulIOp>(def)) {
    for (int i = 0; i < 2; ++i)
      if (std::optional<int64_t> c = getConstantIntValue(def->getOperand(i))) {
        FailureOr<Linear> other =
            linearInIv(def->getOperand(1 - i), loop, mask, columnLoop);
        if (failed(other))
          return failure();
        result.add(*other, *c);
        return result;
      }
  }
  return failure();
}

/// True if `value` of `op`'s body reads nothing `loop` computes: the row
/// side of a mask, with row functions made before the loop.
static bool invariantIn(linalg::GenericOp op, Value value, scf::ForOp loop,
                        const DenseMap<Value, std::pair<linalg::GenericOp,
                                                        int64_t>> &rowFunctions) {
  if (value.getParentBlock() != op.getBody())
    return !loop->isAncestor(value.getParentBlock()->getParentOp());
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return false;
    auto it = rowFunctions.find(op.getDpsInputs()[arg.getArgNumber()]);
    if (it == rowFunctions.end() || loop->isAncestor(it->second.first))
      return false;
    linalg::GenericOp producer = it->second.first;
    return invariantIn(producer,
                       producer.getBody()->getTerminator()->getOperand(0),
                       loop, rowFunctions);
  }
  return llvm::all_of(value.getDefiningOp()->getOperands(), [&](Value v) {
    return invariantIn(op, v, loop, rowFunctions);
  });
}

Value FlashAttentionBuilder::maskedUpperBound(scf::ForOp loop,
                                              ArrayRef<Value> carried,
                                              Value &boundingTile) {
  // S: the first dot of the loop of two global tiles, with a mask.
  std::optional<Mask> mask;
  Value tile;
  for (auto dot : loop.getBody()->getOps<linalg::GenericOp>()) {
    if (!linalg::isaContractionOpInterface(dot) || dot.getNumDpsInputs() != 2 ||
        isWorkgroup(dot.getDpsInputs()[0]) ||
        isWorkgroup(dot.getDpsInputs()[1]))
      continue;
    tile = dot.getDpsInits()[0];
    mask = findMask(tile);
    break;
  }
  if (!mask || mask->op->getParentOp() != loop)
    return Value();
  using P = arith::CmpIPredicate;
  P predicate = mask->compare.getPredicate();
  if (!llvm::is_contained({P::sle, P::slt, P::sge, P::sgt}, predicate))
    return Value();
  Value columnSide = mask->columnLeft ? mask->compare.getLhs()
                                      : mask->compare.getRhs();
  Value rowSide = mask->columnLeft ? mask->compare.getRhs()
                                   : mask->compare.getLhs();
  // The first column's position, a iv + b with a > 0, and the row side at
  // the block's last row, which the loop does not change.
  FailureOr<Linear> first =
      linearInIv(columnSide, loop, mask->op, mask->columnLoop);
  if (failed(first) || first->coefficient <= 0 ||
      !invariantIn(mask->op, rowSide, loop, rowFunctions))
    return Value();
  auto alloc = tile.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return Value();
  MemRefType tileType = alloc.getType();
  int64_t rowDim = tileRank - 2;
  Value rows;
  if (tileType.isDynamicDim(rowDim)) {
    Value oldRows = alloc.getDynamicSizes()[tileType.getDynamicDimIndex(rowDim)];
    if (!invariantIn(mask->op, oldRows, loop, rowFunctions) ||
        !mapping.contains(oldRows))
      return Value();
    rows = mapping.lookup(oldRows);
  } else {
    rows = index(tileType.getDimSize(rowDim));
  }
  // The proof, both cases; the initial fills from the carried registers.
  SmallVector<float> initial;
  for (Value buffer : carried) {
    const SmallVector<Value> &values = fragments[buffer].values;
    FloatAttr constant;
    if (values.empty() || !matchPattern(values.front(), m_Constant(&constant)) ||
        llvm::any_of(values, [&](Value v) { return v != values.front(); }))
      return Value();
    initial.push_back(float(constant.getValueAsDouble()));
  }
  if (!maskedIterationKeeps(loop, carried, mask->compare, {}) ||
      !maskedIterationKeeps(loop, carried, mask->compare, initial))
    return Value();

  // Some element of iteration iv's tile is kept iff a iv + b <= R (R - 1
  // for a strict compare), R the row side at the last row: iv <= (R - b)
  // floordiv a. The column side grows with iv, so every later iteration is
  // masked whole. The first iteration stays (see maskedIterationKeeps).
  Value lastRow = arith::SubIOp::create(rewriter, loc, rows, index(1));
  FailureOr<Value> r = evaluateIndex(mask->op, rowSide, mask->rowLoop,
                                     mask->columnLoop, lastRow, Value());
  if (failed(r))
    return Value();
  Value limit = *r;
  int64_t constant = first->constant;
  if (llvm::is_contained({P::slt, P::sgt}, predicate))
    constant += 1;
  limit = arith::SubIOp::create(rewriter, loc, limit, index(constant));
  for (auto [value, factor] : first->invariants)
    limit = arith::SubIOp::create(
        rewriter, loc, limit,
        arith::MulIOp::create(rewriter, loc, mapping.lookupOrDefault(value),
                              index(factor)));
  Value last = arith::FloorDivSIOp::create(rewriter, loc, limit,
                                           index(first->coefficient));
  Value lower = mapping.lookupOrDefault(loop.getLowerBound());
  Value upper = mapping.lookupOrDefault(loop.getUpperBound());
  Value bound = arith::MaxSIOp::create(rewriter, loc, add(last, 1),
                                       add(lower, 1));
  boundingTile = tile;
  return arith::MinSIOp::create(rewriter, loc, bound, upper);
}

SmallVector<std::pair<Value, FlashAttentionBuilder::Prefetched>>
FlashAttentionBuilder::findPrefetched(scf::ForOp loop) {
  SmallVector<std::pair<Value, Prefetched>> found;
  Block *body = loop.getBody();
  for (auto dot : body->getOps<linalg::GenericOp>()) {
    if (!linalg::isaContractionOpInterface(dot) || dot.getNumDpsInputs() != 2)
      continue;
    Value b = dot.getDpsInputs()[1];
    auto view = b.getDefiningOp<memref::SubViewOp>();
    auto type = cast<MemRefType>(b.getType());
    int64_t rank = type.getRank();
    std::optional<int64_t> rows =
        rank >= 2 ? constantUpperBound(b, rank - 2) : std::nullopt;
    if (!view || view->getBlock() != body || isWorkgroup(b) || !rows ||
        ShapedType::isDynamic(type.getShape().back()) ||
        type.getShape().back() % kChunk ||
        llvm::any_of(found, [&](auto &entry) { return entry.first == b; }))
      continue;
    // The view's computation inside the loop: pure ops only.
    Prefetched p;
    p.rows = llvm::alignTo(*rows, 2 * kTileN);
    p.columns = type.getShape().back();
    SetVector<Operation *> slice;
    SmallVector<Operation *> worklist = {view};
    bool pure = true;
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!slice.insert(op))
        continue;
      pure &= isPure(op) && op->getNumRegions() == 0;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == body)
          worklist.push_back(def);
    }
    if (!pure)
      continue;
    if (isWorkgroup(dot.getDpsInputs()[0]) ? pvOnWgmma : qkOnWgmma) {
      p.tma = tmaArray(b, kWgmmaMaxKeys);
      if (p.tma)
        p.groups = llvm::divideCeil(*rows, p.tma->boxRows);
    }
    p.slice = slice.takeVector();
    llvm::sort(p.slice, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    found.push_back({b, std::move(p)});
  }
  return found;
}

Value FlashAttentionBuilder::viewAt(Value oldB, const Prefetched &p,
                                    Value oldIv, Value iv) {
  IRMapping local;
  local.map(oldIv, iv);
  for (Operation *op : p.slice) {
    for (Value operand : op->getOperands())
      if (!local.contains(operand) && mapping.contains(operand))
        local.map(operand, mapping.lookup(operand));
    rewriter.clone(*op, local);
  }
  return local.lookup(oldB);
}

void FlashAttentionBuilder::issueCopies(Value oldB, const Prefetched &p,
                                        Value oldIv, Value iv, Value slot) {
  Value b = viewAt(oldB, p, oldIv, iv);
  int64_t rank = cast<MemRefType>(b.getType()).getRank();
  Value validRows = dim(b, rank - 2);
  Value lastRow = arith::SubIOp::create(rewriter, loc, validRows, index(1));
  Value firstRow = mul(slot, p.rows);
  int64_t chunksPerRow = p.columns / kChunk;
  for (int64_t first = 0; first < p.rows * chunksPerRow;
       first += warps * kWarpSize) {
    Value chunk = add(thread, first);
    Value row = div(chunk, chunksPerRow);
    Value column = mul(rem(chunk, chunksPerRow), kChunk);
    // Rows past the tile's end: zeros (no bytes read from a clamped row).
    Value inside = below(row, validRows);
    Value sourceRow = arith::MinUIOp::create(rewriter, loc, row, lastRow);
    Value elements =
        arith::SelectOp::create(rewriter, loc, inside, index(kChunk), index(0));
    SmallVector<Value> indices(rank, index(0));
    indices[rank - 2] = sourceRow;
    indices[rank - 1] = column;
    nvgpu::DeviceAsyncCopyOp::create(
        rewriter, loc, p.buffer, ValueRange{add(firstRow, row), column}, b,
        indices, rewriter.getIndexAttr(kChunk), elements,
        /*bypassL1=*/rewriter.getUnitAttr());
  }
}

//===----------------------------------------------------------------------===//
// The wgmma schedule: Q, K and V by TMA
//===----------------------------------------------------------------------===//

const TmaArray *FlashAttentionBuilder::tmaArray(Value view, int64_t maxRows) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview) {
    // The array itself (a grid of one block: the tile is the whole array,
    // a batch of one collapsed into the rows), [1, .., 1, rows, D].
    auto type = cast<MemRefType>(view.getType());
    int64_t rank = type.getRank();
    const TmaArray *array = tmaSource(view);
    if (!array || rank < 2 ||
        llvm::any_of(type.getShape().drop_back(2),
                     [](int64_t size) { return size != 1; }) ||
        type.getDimSize(rank - 2) > maxRows)
      return nullptr;
    return array;
  }
  Value source = subview.getSource();
  const TmaArray *array = tmaSource(source);
  if (!array)
    return nullptr;
  // The view: unit strides, [1, .., 1, rows <= maxRows, D] at column 0 (each
  // view of the array is checked: its descriptor's boxes are 64 rows, and
  // a tile of more rows is copied as several).
  int64_t rank = subview.getSourceType().getRank();
  if (!llvm::all_of(subview.getStaticStrides(),
                    [](int64_t s) { return s == 1; }) ||
      rank != subview.getType().getRank())
    return nullptr;
  ArrayRef<int64_t> sizes = subview.getStaticSizes();
  for (int64_t d = 0; d < rank - 2; ++d)
    if (sizes[d] != 1)
      return nullptr;
  std::optional<int64_t> rows = constantUpperBound(view, rank - 2);
  int64_t columns = cast<MemRefType>(array->array.getType()).getShape().back();
  if (sizes[rank - 1] != columns || !rows || *rows > maxRows ||
      !isConstantIntValue(subview.getMixedOffsets()[rank - 1], 0))
    return nullptr;
  return array;
}

const TmaArray *FlashAttentionBuilder::tmaSource(Value source) {
  auto it = tmaArrays.find(source);
  if (it != tmaArrays.end())
    return it->second.descriptor ? &it->second : nullptr;
  // A failed match is remembered too (no descriptor).
  TmaArray &entry = tmaArrays[source];
  if (oldGrid->isAncestor(source.getParentBlock()->getParentOp()))
    return nullptr;
  auto sourceType = cast<MemRefType>(source.getType());
  int64_t rank = sourceType.getRank();
  Value array = source;
  SmallVector<ReassociationIndices> groups;
  if (auto collapse = source.getDefiningOp<memref::CollapseShapeOp>()) {
    array = collapse.getSrc();
    groups = collapse.getReassociationIndices();
  } else {
    for (int64_t d = 0; d < rank; ++d)
      groups.push_back({d});
  }
  auto arg = dyn_cast<BlockArgument>(array);
  auto arrayType = cast<MemRefType>(array.getType());
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()) ||
      !arrayType.hasStaticShape() || !arrayType.getLayout().isIdentity() ||
      !(arrayType.getElementTypeBitWidth() == 16 ||
        (tf32 && arrayType.getElementType().isF32())) ||
      rank < 2)
    return nullptr;
  int64_t columns = arrayType.getShape().back();
  // A box is one 128-byte swizzle span of each row: 64 16-bit columns or
  // 32 f32 ones. A head below a box (16, 32 or 48 columns; 8-24 of f32)
  // takes one box whose columns past D the copy fills with zeros; S's k
  // steps stop at D. f32 heads up to 256 (tf32): their ring slots (32 KB
  // per 64 keys at D = 128, per 32 keys at D = 256) and the transposed V
  // tile must fit shared memory.
  int64_t boxColumns = 128 * 8 / arrayType.getElementTypeBitWidth();
  int64_t maxColumns = 256;
  if (columns % stepKOf(arrayType.getElementType()) ||
      (columns % boxColumns && columns > boxColumns) || columns > maxColumns)
    return nullptr;
  // The rows' and the columns' groups: only their innermost dimension may
  // be longer than 1 (a box never wraps around into the next head).
  for (int64_t g = rank - 2; g < rank; ++g)
    for (int64_t d : ArrayRef<int64_t>(groups[g]).drop_back())
      if (arrayType.getDimSize(d) != 1)
        return nullptr;
  entry.array = array;
  entry.groups = groups;
  if (arrayType.getElementType().isF32() && columns > 128)
    entry.boxRows = kWgmmaKeys / 2;
  entry.box.assign(arrayType.getRank(), 1);
  entry.box[groups[rank - 2].back()] = entry.boxRows;
  entry.box[groups[rank - 1].back()] = boxColumns;
  entry.boxColumns = boxColumns;
  entry.boxes = llvm::divideCeil(columns, boxColumns);
  entry.columns = columns;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(oldGrid);
  entry.descriptor = createTmaDescriptor(rewriter, loc, array, entry.box);
  hostOps.push_back(entry.descriptor.getDefiningOp());
  hostOps.push_back(
      entry.descriptor.getDefiningOp()->getOperand(0).getDefiningOp());
  return &entry;
}

void FlashAttentionBuilder::planWgmma() {
  if (mma == MmaKind::Sync)
    return;
  if ((warps * kRowsPerWarp) % kWarpgroupRows ||
      warps * kRowsPerWarp > 2 * kWarpgroupRows) {
    wgmmaRefusal = "the block's " + std::to_string(warps) +
                   " warps are not one or two warpgroups";
    return;
  }
  warpgroups = warps * kRowsPerWarp / kWarpgroupRows;
  bool qk = true, pv = mma != MmaKind::WgmmaQK;
  bool anyQK = false;
  auto refuse = [&](bool &flag, StringRef reason) {
    if (flag && wgmmaRefusal.empty())
      wgmmaRefusal = reason.str();
    flag = false;
  };
  oldGrid.getBody()->walk([&](linalg::GenericOp dot) {
    if (!linalg::isaContractionOpInterface(dot) || dot.getNumDpsInputs() != 2)
      return;
    Value a = dot.getDpsInputs()[0], b = dot.getDpsInputs()[1];
    // B's tiles: one per iteration of a loop of the block's body (its
    // mbarriers count one round per iteration, from the block's start).
    auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
    bool inLoop = loop && loop->getParentOp() == oldGrid && b.getDefiningOp() &&
                  b.getDefiningOp()->getBlock() == loop.getBody();
    // Or copied once: a dot and B's view in the block's body (no loop),
    // or an array from outside the grid (a grid of one block).
    Operation *view = b.getDefiningOp();
    bool once = dot->getBlock() == oldGrid.getBody() &&
                (!view || view->getBlock() == oldGrid.getBody() ||
                 !oldGrid->isAncestor(view));
    if (once && !isWorkgroup(b) && !llvm::is_contained(onceViews, b))
      onceViews.push_back(b);
    inLoop |= once;
    if (!isWorkgroup(a)) {
      anyQK = true;
      // tf32's V^T copy (transposeV) is made for the plain schedule of
      // one warpgroup: its block barriers would meet neither ping-pong's
      // named barriers nor the overlap's S in flight, and two warpgroups
      // were not checked on a GPU.
      if (tf32 && getElementTypeOrSelf(a.getType()).isF32() &&
          (mma == MmaKind::WgmmaOverlap || mma == MmaKind::WgmmaPingPong ||
           warpgroups != 1))
        refuse(qk, "tf32 attention runs on the plain wgmma schedule of one "
                   "warpgroup only");
      else if (isWorkgroup(b) || !inLoop)
        refuse(qk, "K's view is not made in a reduce loop of the block");
      else if (!tmaArray(a, warpgroups * kWarpgroupRows))
        refuse(qk, "Q is not a TMA tile (a view [1, .., rows <= 64 per "
                   "warpgroup, D] of a 16-bit argument, D 16, 32, 48 or a "
                   "multiple of 64 up to 256)");
      else if (!tmaArray(b, kWgmmaMaxKeys))
        refuse(qk, "K is not a TMA tile (a view [1, .., keys <= 128, D] of "
                   "a 16-bit argument)");
    } else if (pv) {
      if (isWorkgroup(b) || !inLoop)
        refuse(pv, "V's view is not made in a reduce loop of the block");
      else if (!tmaArray(b, kWgmmaMaxKeys))
        refuse(pv, "V is not a TMA tile (a view [1, .., keys <= 128, D] of "
                   "a 16-bit argument)");
    }
  });
  if (!anyQK)
    wgmmaRefusal = "no dot of two global tiles (S = Q K^T)";
  qkOnWgmma = qk && anyQK;
  // P V on wgmma needs S on it: the TMA ring's barriers serve both.
  pvOnWgmma = qkOnWgmma && pv;
  pingPong = pvOnWgmma && warpgroups == 2 && mma == MmaKind::WgmmaPingPong;
}

void FlashAttentionBuilder::issueTma(const TmaArray &array, Value view,
                                     Value buffer, Value offset, Value barriers,
                                     Value slot, int64_t groups) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  // A whole array (tmaArray) starts at 0.
  SmallVector<OpFoldResult> offsets =
      subview ? subview.getMixedOffsets()
              : SmallVector<OpFoldResult>(
                    cast<MemRefType>(view.getType()).getRank(),
                    rewriter.getIndexAttr(0));
  auto arrayType = cast<MemRefType>(array.array.getType());
  // The array's coordinates of the view's first element: each offset of
  // the source spread over its group's dimensions, innermost last.
  SmallVector<Value> coordinates(arrayType.getRank());
  for (auto [g, group] : llvm::enumerate(array.groups)) {
    Value rest = getValueOrCreateConstantIndexOp(rewriter, loc, offsets[g]);
    for (int64_t i = group.size() - 1; i >= 0; --i) {
      int64_t size = arrayType.getDimSize(group[i]);
      if (i == 0) {
        coordinates[group[i]] = rest;
      } else if (size == 1) {
        coordinates[group[i]] = index(0);
      } else {
        coordinates[group[i]] = rem(rest, size);
        rest = div(rest, size);
      }
    }
  }
  int64_t inner = array.groups.back().back();
  // The rows' innermost dimension (the only one longer than 1 in their
  // group): a group of boxRows rows past the first starts boxRows further
  // along it;
  // rows past the array's end read as zeros.
  int64_t rowDim = array.groups[array.groups.size() - 2].back();
  nvgpu::MBarrierArriveExpectTxOp::create(
      rewriter, loc, barriers, index(groups * array.boxes * array.boxBytes()),
      slot, Value());
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto boxType = MemRefType::get(array.box, arrayType.getElementType(),
                                 MemRefLayoutAttrInterface(), workgroup);
  for (int64_t group = 0; group < groups; ++group)
    for (int64_t box = 0; box < array.boxes; ++box) {
      Value destination = memref::ViewOp::create(
          rewriter, loc, boxType, buffer,
          add(offset, (box * groups + group) * array.boxBytes()), ValueRange{});
      SmallVector<Value> at = coordinates;
      at[inner] = add(at[inner], box * array.boxColumns);
      at[rowDim] = add(at[rowDim], group * array.boxRows);
      // Coordinates are innermost first.
      std::reverse(at.begin(), at.end());
      nvgpu::TmaAsyncLoadOp::create(rewriter, loc, destination, barriers,
                                    array.descriptor, at, slot, Value(),
                                    Value());
    }
}

Value FlashAttentionBuilder::sharedA(Value oldA) {
  auto it = sharedTiles.find(oldA);
  if (it != sharedTiles.end())
    return it->second;
  const TmaArray *array = tmaArray(oldA, warpgroups * kWarpgroupRows);
  Value a = mapping.lookupOrDefault(oldA);
  OpBuilder::InsertionGuard guard(rewriter);
  setInsertionPointAfterView(a);
  auto bufferType = MemRefType::get(
      {warpgroups * array->boxes * kBoxBytes}, rewriter.getI8Type(),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value buffer;
  {
    OpBuilder::InsertionGuard start(rewriter);
    rewriter.setInsertionPointAfter(leader.getDefiningOp());
    buffer = memref::AllocOp::create(rewriter, loc, bufferType,
                                     rewriter.getI64IntegerAttr(1024));
  }
  auto issue = scf::IfOp::create(rewriter, loc, leader);
  rewriter.setInsertionPointToStart(issue.thenBlock());
  issueTma(*array, a, buffer, index(0), qBarrier, index(0),
           warpgroups * kWarpgroupRows / array->boxRows);
  sharedTiles[oldA] = buffer;
  return buffer;
}

const FlashAttentionBuilder::Prefetched *
FlashAttentionBuilder::sharedB(Value oldB) {
  auto it = onceTiles.find(oldB);
  if (it != onceTiles.end())
    return &it->second;
  const TmaArray *array = tmaArray(oldB, kWgmmaMaxKeys);
  std::optional<int64_t> rows = constantUpperBound(
      oldB, cast<MemRefType>(oldB.getType()).getRank() - 2);
  if (!array || !rows)
    return nullptr;
  Prefetched p;
  p.tma = array;
  p.groups = llvm::divideCeil(*rows, array->boxRows);
  p.rows = llvm::alignTo(*rows, 2 * kTileN);
  p.columns = array->columns;
  Value b = mapping.lookupOrDefault(oldB);
  OpBuilder::InsertionGuard guard(rewriter);
  {
    OpBuilder::InsertionGuard start(rewriter);
    rewriter.setInsertionPointAfter(leader.getDefiningOp());
    p.buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(
            {p.groups * array->boxes * array->boxBytes()}, rewriter.getI8Type(),
            MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)),
        rewriter.getI64IntegerAttr(1024));
  }
  setInsertionPointAfterView(b);
  auto issue = scf::IfOp::create(rewriter, loc, leader);
  rewriter.setInsertionPointToStart(issue.thenBlock());
  int64_t slot = 1 + (llvm::find(onceViews, oldB) - onceViews.begin());
  issueTma(*array, b, p.buffer, index(0), qBarrier, index(slot), p.groups);
  return &(onceTiles[oldB] = std::move(p));
}

Value FlashAttentionBuilder::transposeV(const Prefetched &p, Value slotOffset,
                                        int64_t keys, int64_t columns,
                                        int64_t groups) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Type f32 = rewriter.getF32Type();
  int64_t bytes = llvm::divideCeil(keys, 32) * groups * kBoxBytes;
  Value buffer;
  {
    OpBuilder::InsertionGuard start(rewriter);
    rewriter.setInsertionPointAfter(leader.getDefiningOp());
    buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({bytes}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup),
        rewriter.getI64IntegerAttr(1024));
  }
  auto f32View = [&](Value bytesBuffer, Value offset, int64_t count) {
    return memref::ViewOp::create(
        rewriter, loc,
        MemRefType::get({count}, f32, MemRefLayoutAttrInterface(), workgroup),
        bytesBuffer, offset, ValueRange{});
  };
  // Every warp is past its reads of the previous V^T (its P V's wgmmas
  // waited for) before V^T is overwritten.
  gpu::BarrierOp::create(rewriter, loc);
  Value source = f32View(p.buffer, slotOffset,
                         p.groups * p.tma->boxes * p.tma->boxBytes() / 4);
  Value target = f32View(buffer, index(0), bytes / 4);
  // The 128-byte swizzle: the 16-byte chunk c of row r (128 bytes, in
  // 1024-byte aligned groups of 8 rows) is stored at chunk c ^ (r % 8).
  auto swizzled = [&](Value row, Value column) {
    Value chunk = arith::XOrIOp::create(rewriter, loc, div(column, 4),
                                        rem(row, 8));
    return add(add(mul(row, 32), mul(chunk, 4)), rem(column, 4));
  };
  auto loop = scf::ForOp::create(rewriter, loc, thread,
                                 index(keys * columns),
                                 index(warps * kWarpSize));
  {
    OpBuilder::InsertionGuard body(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    Value key = div(e, columns), d = rem(e, columns);
    // V in the slot: box d / 32 (of p.groups groups of boxRows keys), row
    // key.
    Value from = add(mul(div(d, 32), p.groups * p.tma->boxBytes() / 4),
                     swizzled(key, rem(d, 32)));
    // Its k index in the A fragment's order: key 8 s + 2 j at j, 8 s +
    // 2 j + 1 at j + 4.
    Value k = add(add(mul(div(key, 8), 8), mul(rem(key, 2), 4)),
                  div(rem(key, 8), 2));
    Value to = add(mul(div(k, 32), groups * kBoxBytes / 4),
                   swizzled(d, rem(k, 32)));
    Value value = memref::LoadOp::create(rewriter, loc, source, from);
    Value rounded = LLVM::BitcastOp::create(
        rewriter, loc, f32,
        NVVM::ConvertFloatToTF32Op::create(rewriter, loc,
                                           rewriter.getI32Type(), value,
                                           NVVM::FPRoundingMode::RNA));
    memref::StoreOp::create(rewriter, loc, rounded, target, to);
  }
  // Generic-proxy stores that wgmma reads through the async proxy.
  NVVM::FenceProxyOp::create(
      rewriter, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(rewriter, loc);
  return sharedMatrixDescriptor(rewriter, loc, buffer, index(0), 16,
                                kSwizzleGroupBytes);
}

SmallVector<Value> FlashAttentionBuilder::issueQK(SmallVector<Value> acc,
                                                  Value q, const Prefetched &p,
                                                  Value slotOffset,
                                                  Type element) {
  // Q and K K-major: a k16 step is 32 bytes along a 128-byte row, the next
  // 64 columns the next box (issueTma's layout: Q's box b holds every
  // warpgroup's rows, each warpgroup reads its own 64; K's box b holds the
  // tile's 64 or 128 keys, wgmma's n).
  // The descriptors of the warpgroup's first Q box and of the slot's first
  // K box, once; each k step's is a constant add to them.
  Value qDesc = sharedMatrixDescriptor(
      rewriter, loc, q, mul(warpgroup, kBoxBytes), 16, kSwizzleGroupBytes);
  Value kDesc = sharedMatrixDescriptor(rewriter, loc, p.buffer, slotOffset, 16,
                                       kSwizzleGroupBytes);
  // tf32: k8 steps, the same 32 bytes each.
  int64_t stepK = stepKOf(element);
  for (int64_t box = 0; box < p.tma->boxes; ++box)
    for (int64_t step = 0;
         step < std::min(p.tma->boxColumns,
                         p.tma->columns - box * p.tma->boxColumns) /
                    stepK;
         ++step) {
      int64_t at = step * 32;
      Value descA = advanceMatrixDescriptor(
          rewriter, loc, qDesc, box * warpgroups * kBoxBytes + at);
      Value descB = advanceMatrixDescriptor(
          rewriter, loc, kDesc, box * p.groups * p.tma->boxBytes() + at);
      acc = wgmmaSharedA(rewriter, loc, acc, descA, descB, element,
                         /*transposeB=*/false);
    }
  return acc;
}

void FlashAttentionBuilder::acquireTurn() {
  if (!pingPong || turnHeld)
    return;
  Value id = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                        add(warpgroup, 1));
  NVVM::BarrierOp::create(
      rewriter, loc, TypeRange{}, id,
      arith::ConstantOp::create(rewriter, loc,
                                rewriter.getI32IntegerAttr(2 * kWarpSize * 4)),
      {}, Value());
  turnHeld = true;
}

void FlashAttentionBuilder::releaseTurnIn(int64_t which) {
  auto only = scf::IfOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                            warpgroup, index(which)));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(only.thenBlock());
  releaseTurn();
}

void FlashAttentionBuilder::releaseTurn() {
  if (!pingPong || !turnHeld)
    return;
  // The other warpgroup's barrier: 2 - w.
  Value id = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getI32Type(),
      arith::SubIOp::create(rewriter, loc, index(2), warpgroup));
  NVVM::BarrierArriveOp::create(
      rewriter, loc, id,
      arith::ConstantOp::create(rewriter, loc,
                                rewriter.getI32IntegerAttr(2 * kWarpSize * 4)));
  turnHeld = false;
}

Value FlashAttentionBuilder::awaitTma(Value oldB, const Prefetched &p) {
  LoopState &state = loops.back();
  // Use u = i * n + k of the ring (iteration i, operand k of n) sits in
  // slot u % (n + 1). All wait for use u's tile; once the dot's wgmmas are
  // issued, thread 0 refills the slot of use u - 1 with use u + n (the same
  // operand's tile of the next iteration). With one warpgroup thread 0's
  // own wait for use u - 1 (before its results were read) says that the
  // warpgroup's wgmma, one operation, has finished reading the slot (as in
  // gpu-warpgroup-matmul): no block barrier (one per dot measured 2% slower
  // at B4 H32 S2048 D128, docs/performance.md, session 13). With two
  // warpgroups, a block barrier (every warp past its wait), or with
  // ping-pong each one's first thread counts its release of use u - 1's
  // slot instead, and the second to do so refills it (thread 0 alone at
  // u = 0: slot n was never filled): no block barrier, so that the
  // warpgroups may drift half an iteration apart.
  if (state.pipelinedTile && state.tmaOperands == 2)
    return awaitPipelinedPair(oldB, p);
  if (!pingPong && warpgroups > 1)
    gpu::BarrierOp::create(rewriter, loc);
  Value iv = mapping.lookup(state.oldLoop.getInductionVar());
  Value iteration = rewriter.createOrFold<arith::DivUIOp>(
      loc, arith::SubIOp::create(rewriter, loc, iv, state.lowerBound),
      state.step);
  Value use = add(mul(iteration, state.tmaOperands), p.operand);
  int64_t slots = state.slots();
  Value next = iv;
  for (int64_t i = 0; i < state.ahead; ++i)
    next = arith::AddIOp::create(rewriter, loc, next, state.step);
  Value more = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                     next, state.upperBound);
  Value refills = arith::AndIOp::create(rewriter, loc, leader, more);
  if (pingPong) {
    // Thread 0 at u = 0; at u > 0 the first thread of the warpgroup that
    // releases use u - 1's slot second.
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        use, index(0));
    Value warpgroupLeader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq,
        rem(thread, kWarpSize * kWarpgroupRows / kRowsPerWarp), index(0));
    auto count = scf::IfOp::create(
        rewriter, loc, TypeRange{rewriter.getI1Type()},
        arith::AndIOp::create(
            rewriter, loc, warpgroupLeader,
            arith::XOrIOp::create(
                rewriter, loc, first,
                arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getBoolAttr(true)))),
        true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(count.thenBlock());
      Value slot = rem(add(use, slots - 1), slots);
      Value before = memref::AtomicRMWOp::create(
          rewriter, loc, arith::AtomicRMWKind::addi,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getI32IntegerAttr(1)),
          releases, ValueRange{slot});
      Value odd = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(
              rewriter, loc, before,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getI32IntegerAttr(1))),
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getI32IntegerAttr(0)));
      scf::YieldOp::create(rewriter, loc, odd);
      rewriter.setInsertionPointToStart(count.elseBlock());
      scf::YieldOp::create(
          rewriter, loc,
          arith::AndIOp::create(rewriter, loc, leader, first).getResult());
    }
    refills = arith::AndIOp::create(rewriter, loc, count.getResult(0), more);
  }
  // The refill is issued once the dot's wgmmas are (flushRefill): thread
  // 0's copies, some 100 SASS instructions with the TMA's uniform-operand
  // loops, would otherwise delay its warp's part of the wgmma, which the
  // warpgroup's other warps wait for; after the issue they run while the
  // tensor cores do. The refilled slot is not the one the dot reads.
  const Prefetched *prefetched = &p;
  pendingRefill = [this, refills, use, next, slots, oldB, prefetched]() {
    LoopState &state = loops.back();
    auto refill = scf::IfOp::create(rewriter, loc, refills);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(refill.thenBlock());
    Value slot = rem(add(use, state.ahead * state.tmaOperands), slots);
    issueTma(*prefetched->tma,
             viewAt(oldB, *prefetched, state.oldLoop.getInductionVar(), next),
             prefetched->buffer, mul(slot, state.slotBytes),
             prefetched->barriers, slot, prefetched->groups);
  };
  if (state.pipelinedTile) {
    // The dot reads the next iteration's tile (use u + 1), when there is
    // one; the last iteration's wgmma reads a stale slot and its result is
    // never used.
    Value following = add(use, 1);
    Value exists = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt,
        arith::AddIOp::create(rewriter, loc, iv, state.step), state.upperBound);
    auto wait = scf::IfOp::create(rewriter, loc, exists);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(wait.thenBlock());
    waitForRound(rewriter, loc, p.barriers, following, slots);
    rewriter.setInsertionPointAfter(wait);
    return mul(rem(following, slots), state.slotBytes);
  }
  if (!(p.operand == 1 && state.vWaited))
    waitForRound(rewriter, loc, p.barriers, use, slots);
  return mul(rem(use, slots), state.slotBytes);
}

void FlashAttentionBuilder::awaitSecondEarly(const Prefetched &p) {
  // Only the plain ring of one warpgroup with K and V (the single pass,
  // the exact form's second loop), at K's dot.
  LoopState &state = loops.back();
  if (state.pipelinedTile || pingPong || warpgroups != 1 ||
      state.tmaOperands != 2 || p.operand != 0)
    return;
  for (auto &[oldB, other] : state.prefetched) {
    if (!other.tma || other.operand != 1)
      continue;
    Value iv = mapping.lookup(state.oldLoop.getInductionVar());
    Value iteration = rewriter.createOrFold<arith::DivUIOp>(
        loc, arith::SubIOp::create(rewriter, loc, iv, state.lowerBound),
        state.step);
    waitForRound(rewriter, loc, other.barriers,
                 add(mul(iteration, state.tmaOperands), 1), state.slots());
    state.vWaited = true;
  }
}

Value FlashAttentionBuilder::awaitPipelinedPair(Value oldB,
                                                const Prefetched &p) {
  // S_{i+1} = Q K_{i+1}^T is issued at the start of iteration i and P_i V_i
  // after its softmax, both waited for at once before P_i V_i's result is
  // read (wgmma groups complete in order: S_{i+1}, committed first, is
  // done when P_i V_i is). The ring's uses in the order of their wgmmas:
  // K_0 = use 0 (before the loop), then per iteration K_{i+1} = use
  // 2 i + 1 and V_i = use 2 i + 2, use u in slot u mod 3. At iteration i's
  // start every warp has waited for S_i and P_{i-1} V_{i-1} (uses 2 i - 1
  // and 2 i), so after one block barrier (none for one warpgroup, see
  // awaitTma) and S_{i+1}'s issue thread 0 refills their slots with
  // V_i (use 2 i + 2, the slot of 2 i - 1) and K_{i+2} (use 2 i + 3, the
  // slot of 2 i), and the iteration waits for K_{i+1}, whose copy started
  // an iteration earlier; V_i's copy runs during S_{i+1}'s issue and the
  // softmax. Three slots as without the overlap (K two tiles ahead and V
  // one would take 5, and 1 block per SM at D = 128).
  LoopState &state = loops.back();
  Value iv = mapping.lookup(state.oldLoop.getInductionVar());
  Value iteration = rewriter.createOrFold<arith::DivUIOp>(
      loc, arith::SubIOp::create(rewriter, loc, iv, state.lowerBound),
      state.step);
  Value base = mul(iteration, 2);
  int64_t slots = state.slots();
  auto slotOf = [&](Value use) {
    return mul(rem(use, slots), state.slotBytes);
  };
  auto inLoop = [&](Value at) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, at,
                                 state.upperBound);
  };
  if (p.operand == 1) {
    Value use = add(base, 2);
    waitForRound(rewriter, loc, p.barriers, use, slots);
    return slotOf(use);
  }
  // (One warpgroup: thread 0 has waited for both itself; see awaitTma.)
  if (warpgroups > 1)
    gpu::BarrierOp::create(rewriter, loc);
  Value next = arith::AddIOp::create(rewriter, loc, iv, state.step);
  Value afterNext = arith::AddIOp::create(rewriter, loc, next, state.step);
  // After S_{i+1}'s issue (flushRefill; see awaitTma).
  const Prefetched *prefetched = &p;
  pendingRefill = [this, base, iv, afterNext, slots, oldB, prefetched]() {
    LoopState &state = loops.back();
    auto slotOf = [&](Value use) {
      return mul(rem(use, slots), state.slotBytes);
    };
    auto refill = scf::IfOp::create(rewriter, loc, leader);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(refill.thenBlock());
    for (auto &[otherB, other] : state.prefetched)
      if (other.operand == 1) {
        Value use = add(base, 2);
        issueTma(*other.tma,
                 viewAt(otherB, other, state.oldLoop.getInductionVar(), iv),
                 other.buffer, slotOf(use), other.barriers, rem(use, slots),
                 other.groups);
      }
    auto ahead = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                              afterNext, state.upperBound));
    rewriter.setInsertionPointToStart(ahead.thenBlock());
    Value use = add(base, 3);
    issueTma(*prefetched->tma,
             viewAt(oldB, *prefetched, state.oldLoop.getInductionVar(),
                    afterNext),
             prefetched->buffer, slotOf(use), prefetched->barriers,
             rem(use, slots), prefetched->groups);
  };
  // The dot reads the next iteration's K (use 2 i + 1), when there is one;
  // the last iteration's wgmma reads a stale slot and its result is never
  // used.
  Value use = add(base, 1);
  auto wait = scf::IfOp::create(rewriter, loc, inLoop(next));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(wait.thenBlock());
    waitForRound(rewriter, loc, p.barriers, use, slots);
  }
  return slotOf(use);
}

LogicalResult FlashAttentionBuilder::interpretLoop(scf::ForOp loop) {
  if (!loop.getInitArgs().empty())
    return fail(loop, "a loop with results");
  // The buffers of the block the loop writes and that live across it.
  SmallVector<Value> carried;
  WalkResult walk = loop.getBody()->walk([&](Operation *inner) {
    SmallVector<Value> written;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(inner))
      for (Value init : dps.getDpsInits())
        written.push_back(init);
    for (Value buffer : written) {
      if (!shapes.count(buffer) || loop->isAncestor(buffer.getDefiningOp()))
        continue;
      if (!fragments.count(buffer))
        return WalkResult::interrupt();
      if (!llvm::is_contained(carried, buffer))
        carried.push_back(buffer);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return fail(loop, "the loop writes a buffer that holds nothing yet");
  SmallVector<Value> inits;
  for (Value buffer : carried)
    llvm::append_range(inits, fragments[buffer].values);
  LoopState state;
  state.oldLoop = loop;
  state.lowerBound = mapping.lookupOrDefault(loop.getLowerBound());
  state.upperBound = mapping.lookupOrDefault(loop.getUpperBound());
  state.step = mapping.lookupOrDefault(loop.getStep());
  // The first iteration's tiles of the prefetched operands, one copy group
  // each, in the order of their dots. The barrier first: the buffers may
  // reuse the bytes of an earlier loop's, which a warp may still read.
  // Ping-pong: the turn passed on before it (else the other warpgroup,
  // waiting for it at its last iteration's end, never arrives).
  SmallVector<std::pair<Value, Prefetched>> prefetched = findPrefetched(loop);
  if (!prefetched.empty()) {
    releaseTurn();
    gpu::BarrierOp::create(rewriter, loc);
  }
  Value ring;
  for (auto &[oldB, p] : prefetched)
    if (p.tma) {
      p.operand = state.tmaOperands++;
      state.slotBytes = std::max(state.slotBytes,
                                 p.groups * p.tma->boxes * p.tma->boxBytes());
    }
  // The overlap schedule: the loop's S is issued an iteration ahead, its K
  // tile two (a ring of 3 slots, also with V: see awaitTma).
  linalg::GenericOp sDot = pipelinedDot(loop);
  // (S's tile is allocated in the loop: its registers from its bound.)
  int64_t sRegisters = 0;
  if (sDot) {
    Value tile = sDot.getDpsInits()[0];
    state.ahead = 2;
    state.pipelinedTile = tile;
    sRegisters =
        llvm::alignTo(*constantUpperBound(
                          tile, cast<MemRefType>(tile.getType()).getRank() - 1),
                      kTileN) /
        kTileN * 4;
    // The next S is live across the softmax, beside what the kernel
    // without the overlap fits in 128 registers: the blocks per SM are to
    // leave that many more (else ptxas spills at the shared memory's
    // occupancy: 4 blocks at D = 64).
    Operation *threadOp = thread.getDefiningOp();
    if (threadOp->hasAttr(kOccupancyBySharedMemoryAttrName)) {
      int64_t registers = 128 + sRegisters;
      if (auto earlier = threadOp->getAttrOfType<IntegerAttr>(
              kOccupancyBySharedMemoryAttrName))
        registers = std::max(registers, earlier.getInt());
      threadOp->setAttr(kOccupancyBySharedMemoryAttrName,
                        rewriter.getI64IntegerAttr(registers));
    }
  }
  // The loop's bound: before the copies in a pipelined loop (its second
  // iteration's copy is conditional on it), else after them.
  auto bound = [&] {
    if (Value upper = maskedUpperBound(loop, carried, state.boundingTile))
      state.upperBound = upper;
  };
  if (state.pipelinedTile)
    bound();
  if (state.tmaOperands) {
    auto ringType = MemRefType::get(
        {state.slots() * state.slotBytes}, rewriter.getI8Type(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    ring = memref::AllocOp::create(rewriter, loc, ringType,
                                   rewriter.getI64IntegerAttr(1024));
  }
  for (auto &[oldB, p] : prefetched) {
    if (p.tma) {
      // Thread 0 starts the first iteration's copies: operand k's tile
      // into slot k. (A pipelined loop's V: at the first iteration's
      // start, see awaitTma.)
      p.buffer = ring;
      p.barriers = loopBarriers.lookup(loop.getOperation());
      state.prefetched[oldB] = p;
      if (state.pipelinedTile && p.operand > 0)
        continue;
      auto issue = scf::IfOp::create(rewriter, loc, leader);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(issue.thenBlock());
        issueTma(*p.tma,
                 viewAt(oldB, p, loop.getInductionVar(), state.lowerBound),
                 p.buffer, index(p.operand * state.slotBytes), p.barriers,
                 index(p.operand), p.groups);
      }
      continue;
    }
    auto bufferType = MemRefType::get(
        {2 * p.rows, p.columns + kRowPad}, getElementTypeOrSelf(oldB.getType()),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    p.buffer = memref::AllocOp::create(rewriter, loc, bufferType,
                                       rewriter.getI64IntegerAttr(16));
    issueCopies(oldB, p, loop.getInductionVar(), state.lowerBound, index(0));
    Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(ctx), ValueRange{});
    if (!state.firstGroup)
      state.firstGroup = group;
    state.prefetched[oldB] = p;
  }
  if (!state.pipelinedTile)
    bound();
  if (state.pipelinedTile) {
    // The second iteration's K tile (if any) into slot 1, then the first
    // iteration's S issued before the loop.
    Value oldB = sDot.getDpsInputs()[1];
    const Prefetched &p = state.prefetched[oldB];
    Value second =
        arith::AddIOp::create(rewriter, loc, state.lowerBound, state.step);
    auto issue = scf::IfOp::create(
        rewriter, loc,
        arith::AndIOp::create(rewriter, loc, leader,
                              arith::CmpIOp::create(rewriter, loc,
                                                    arith::CmpIPredicate::slt,
                                                    second, state.upperBound)));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(issue.thenBlock());
      issueTma(*p.tma, viewAt(oldB, p, loop.getInductionVar(), second),
               p.buffer, index(state.slotBytes), p.barriers, index(1),
               p.groups);
    }
    Value q = sharedA(sDot.getDpsInputs()[0]);
    waitForRound(rewriter, loc, p.barriers, index(0), state.slots());
    waitForRound(rewriter, loc, qBarrier, index(0), 1);
    SmallVector<Value> zeros(
        sRegisters, arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getF32FloatAttr(0.0f)));
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    SmallVector<Value> first =
        issueQK(zeros, q, p, index(0),
                getElementTypeOrSelf(sDot.getDpsInputs()[0].getType()));
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(0));
    llvm::append_range(inits, first);
  }
  // Ping-pong: the turn is held at the start of every iteration (taken
  // again at its end if its last dot passed it on).
  acquireTurn();
  auto newLoop = scf::ForOp::create(rewriter, loc, state.lowerBound,
                                    state.upperBound, state.step, inits);
  loops.push_back(state);
  auto assign = [&](ValueRange values) {
    for (Value buffer : carried) {
      size_t count = fragments[buffer].values.size();
      fragments[buffer].values.assign(values.begin(), values.begin() + count);
      values = values.drop_front(count);
    }
  };
  {
    OpBuilder::InsertionGuard guard(rewriter);
    // The builder's own yield (a loop without iter_args) goes: ours ends
    // the body.
    if (newLoop.getBody()->mightHaveTerminator())
      rewriter.eraseOp(newLoop.getBody()->getTerminator());
    rewriter.setInsertionPointToEnd(newLoop.getBody());
    mapping.map(loop.getInductionVar(), newLoop.getInductionVar());
    assign(newLoop.getRegionIterArgs());
    if (state.pipelinedTile)
      loops.back().currentS.assign(newLoop.getRegionIterArgs().end() -
                                       sRegisters,
                                   newLoop.getRegionIterArgs().end());
    if (failed(interpretBlock(*loop.getBody())))
      return failure();
    acquireTurn();
    SmallVector<Value> yielded;
    for (Value buffer : carried) {
      llvm::append_range(yielded, fragments[buffer].values);
    }
    if (state.pipelinedTile) {
      // (After P V, whose wait already waited for the S committed before
      // it.)
      if (state.tmaOperands == 1)
        NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, uint64_t(0));
      llvm::append_range(yielded, loops.back().nextS);
    }
    if (yielded.size() != inits.size() ||
        llvm::any_of(llvm::zip(yielded, inits), [](auto pair) {
          return std::get<0>(pair).getType() != std::get<1>(pair).getType();
        }))
      return fail(loop, "a carried buffer changed its registers");
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  loops.pop_back();
  assign(newLoop.getResults());
  return success();
}

linalg::GenericOp FlashAttentionBuilder::pipelinedDot(scf::ForOp loop) {
  if (mma != MmaKind::WgmmaOverlap || !qkOnWgmma || pingPong)
    return {};
  SmallVector<linalg::GenericOp> dots;
  for (auto dot : loop.getBody()->getOps<linalg::GenericOp>())
    if (linalg::isaContractionOpInterface(dot))
      dots.push_back(dot);
  // S = Q K^T first, of two global operands; then at most P V, of a tile of
  // the block and a global V.
  if (dots.empty() || dots.size() > 2 ||
      llvm::any_of(dots, [](auto dot) { return dot.getNumDpsInputs() != 2; }) ||
      isWorkgroup(dots[0].getDpsInputs()[0]) ||
      isWorkgroup(dots[0].getDpsInputs()[1]))
    return {};
  if (dots.size() == 2 &&
      (!pvOnWgmma || !isWorkgroup(dots[1].getDpsInputs()[0]) ||
       isWorkgroup(dots[1].getDpsInputs()[1])))
    return {};
  linalg::GenericOp found = dots[0];
  Value out = found.getDpsInits()[0];
  // K (and V), its TMA operands in the order of their dots; S's columns
  // bounded.
  SmallVector<std::pair<Value, Prefetched>> operands = findPrefetched(loop);
  if (operands.size() != dots.size() ||
      llvm::any_of(operands, [](auto &entry) { return !entry.second.tma; }) ||
      llvm::any_of(llvm::zip(operands, dots),
                   [](auto pair) {
                     return std::get<0>(pair).first !=
                            std::get<1>(pair).getDpsInputs()[1];
                   }) ||
      !constantUpperBound(out, cast<MemRefType>(out.getType()).getRank() - 1))
    return {};
  for (auto fill : loop.getBody()->getOps<linalg::FillOp>())
    if (fill.getOutputs()[0] == out) {
      std::optional<float> value = f32Constant(fill.getInputs()[0]);
      if (value && *value == 0.0f && !std::signbit(*value))
        return found;
    }
  return {};
}

LogicalResult FlashAttentionBuilder::interpretStore(memref::CopyOp copy) {
  Value source = copy.getSource(), oldTarget = copy.getTarget();
  auto it = fragments.find(source);
  if (it == fragments.end() || !shapes[source].isTile || isWorkgroup(oldTarget))
    return fail(copy, "not a copy of a tile to global memory");
  Value target = mapping.lookupOrDefault(oldTarget);
  auto type = cast<MemRefType>(target.getType());
  int64_t rank = type.getRank();
  if (rank != tileRank ||
      type.getElementType() != it->second.values.front().getType())
    return fail(copy, "the target is not a tile of the same type");
  Value rows = dim(target, rank - 2), columns = dim(target, rank - 1);
  auto pairType = VectorType::get({2}, type.getElementType());
  const SmallVector<Value> &values = it->second.values;
  for (int64_t reg = 0; reg < int64_t(values.size()); reg += 2) {
    Value row = rowOf(reg % 4), column = columnOf(reg);
    Value inside = arith::AndIOp::create(rewriter, loc, below(row, rows),
                                         below(column, columns));
    auto store = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(store.thenBlock());
    Value elements[2] = {values[reg], values[reg + 1]};
    Value pair =
        vector::FromElementsOp::create(rewriter, loc, pairType, elements);
    SmallVector<Value> indices(rank, index(0));
    indices[rank - 2] = row;
    indices[rank - 1] = column;
    vector::StoreOp::create(rewriter, loc, pair, target, indices);
  }
  return success();
}

LogicalResult FlashAttentionBuilder::interpretOp(Operation *op) {
  // A buffer written again is no longer the scaled tile it was.
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    for (Value init : dps.getDpsInits())
      scaledTiles.erase(init);
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    if (!isWorkgroup(alloc.getResult()))
      return fail(op, "an allocation outside shared memory");
    return interpretAlloc(alloc);
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Value out = fill.getOutputs()[0];
    if (!shapes.count(out) || !fill.hasPureBufferSemantics())
      return fail(op, "a fill of something else than a buffer");
    const BufferShape &shape = shapes[out];
    Value value = mapping.lookupOrDefault(fill.getInputs()[0]);
    int64_t registers = shape.isTile ? shape.columns / kTileN * 4 : 2;
    fragments[out].values.assign(registers, value);
    return success();
  }
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    Value in = copy.getInputs()[0], out = copy.getOutputs()[0];
    auto it = fragments.find(in);
    if (it == fragments.end() || !shapes.count(out) ||
        shapes[in].isTile != shapes[out].isTile ||
        shapes[in].columns != shapes[out].columns ||
        shapes[in].validColumns != shapes[out].validColumns)
      return fail(op, "a copy between buffers of different shapes");
    Fragment copied = it->second;
    fragments[out] = std::move(copied);
    return success();
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return interpretGeneric(generic);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return interpretLoop(loop);
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return interpretStore(copy);
  if (isa<scf::YieldOp, scf::InParallelOp>(op))
    return success();
  // Index arithmetic and views of global arrays.
  if (isPure(op) && op->getNumRegions() == 0 &&
      llvm::none_of(op->getOperands(), isWorkgroup)) {
    rewriter.clone(*op, mapping);
    return success();
  }
  return fail(op, "an op the schedule does not know");
}

LogicalResult FlashAttentionBuilder::interpretBlock(Block &block) {
  for (Operation &op : block)
    if (failed(interpretOp(&op)))
      return failure();
  return success();
}

FailureOr<scf::ForallOp> FlashAttentionBuilder::build() {
  planWgmma();
  if (onlyOnWgmma && !pvOnWgmma) {
    for (Operation *op : hostOps)
      rewriter.eraseOp(op);
    hostOps.clear();
    if (refusal.empty())
      refusal = "a block without a reduce loop runs in registers only with "
                "both dots on wgmma: " +
                (wgmmaRefusal.empty() ? std::string("not asked for")
                                      : wgmmaRefusal);
    return failure();
  }
  rewriter.setInsertionPoint(oldGrid);
  auto grid = scf::ForallOp::create(
      rewriter, loc, oldGrid.getMixedLowerBound(), oldGrid.getMixedUpperBound(),
      oldGrid.getMixedStep(), ValueRange{}, oldGrid.getMapping());
  newBody = grid.getBody();
  rewriter.setInsertionPointToStart(newBody);
  for (auto [oldIv, newIv] :
       llvm::zip(oldGrid.getInductionVars(), grid.getInductionVars()))
    mapping.map(oldIv, newIv);
  thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  // Every tile is in registers and only K and V are in shared memory:
  // ptxas is to fit as many blocks as the shared memory allows. Not with
  // two consumer warpgroups: two blocks of 256 threads would leave 128
  // registers a thread (the one-warpgroup kernel takes 152 to 168), so the
  // block has the SM's registers to itself.
  if (warpgroups < 2)
    thread.getDefiningOp()->setAttr(kOccupancyBySharedMemoryAttrName,
                                    rewriter.getUnitAttr());
  Value warp = div(thread, kWarpSize);
  lane = rem(thread, kWarpSize);
  quadLane = rem(lane, 4);
  rowBase = add(mul(warp, kRowsPerWarp), div(lane, 4));
  columnBase = mul(quadLane, 2);
  leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                 thread, index(0));
  warpgroup = div(thread, kWarpSize * kWarpgroupRows / kRowsPerWarp);
  if (qkOnWgmma) {
    // The mbarriers of Q's copy and of each loop's TMA ring, initialised by
    // thread 0 and published by the block's barrier before any copy.
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto group = [&](int64_t slots) -> Value {
      Value barriers = nvgpu::MBarrierCreateOp::create(
          rewriter, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, slots));
      for (int64_t slot = 0; slot < slots; ++slot)
        nvgpu::MBarrierInitOp::create(rewriter, loc, barriers, index(1),
                                      index(slot), leader);
      return barriers;
    };
    qBarrier = group(1 + onceViews.size());
    if (pingPong) {
      // The ring slots' release counts (the most slots of a loop: its TMA
      // operands and one), zeroed by thread 0.
      int64_t most = 1;
      for (auto loop : oldGrid.getBody()->getOps<scf::ForOp>())
        most = std::max<int64_t>(
            most, 1 + llvm::count_if(findPrefetched(loop), [](auto &entry) {
                    return entry.second.tma;
                  }));
      releases = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({most}, rewriter.getI32Type(),
                          MemRefLayoutAttrInterface(), workgroup));
      auto zero = scf::IfOp::create(rewriter, loc, leader);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(zero.thenBlock());
      for (int64_t slot = 0; slot < most; ++slot)
        memref::StoreOp::create(
            rewriter, loc,
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getI32IntegerAttr(0)),
            releases, index(slot));
    }
    for (auto loop : oldGrid.getBody()->getOps<scf::ForOp>()) {
      // The ring's slots (LoopState::slots).
      int64_t operands = llvm::count_if(
          findPrefetched(loop), [](auto &entry) { return entry.second.tma; });
      if (operands)
        loopBarriers[loop.getOperation()] =
            group(ringSlots(operands, bool(pipelinedDot(loop))));
    }
    gpu::BarrierOp::create(rewriter, loc);
    if (pingPong) {
      // Warpgroup 0 takes the first turn: warpgroup 1 passes it on.
      turnHeld = true;
      releaseTurnIn(1);
    }
  }
  if (failed(interpretBlock(*oldGrid.getBody()))) {
    rewriter.eraseOp(grid);
    for (Operation *op : hostOps)
      rewriter.eraseOp(op);
    return failure();
  }
  if (turnHeld) {
    // Warpgroup 0 passes its last turn on: warpgroup 1 takes as many turns
    // (the same code), the last of them after it.
    releaseTurnIn(0);
  }
  // Descriptors made while planning that no copy uses (hostOps holds each
  // descriptor before its cast).
  for (Operation *op : hostOps)
    if (op->use_empty())
      rewriter.eraseOp(op);
  return grid;
}

/// The rank of the block's tiles: that of the output of the first dot whose
/// operands are both views of global arrays (S = Q K^T); none if the block
/// has no such dot or no loop.
/// An attention block: the rank of its tiles, and whether it has a loop
/// (a reduce over key tiles; without one, a single key tile).
struct AttentionGrid {
  int64_t rank;
  bool hasLoop;
};
std::optional<AttentionGrid> attentionGrid(scf::ForallOp grid) {
  std::optional<int64_t> rank;
  bool hasLoop = false;
  grid.getBody()->walk([&](Operation *op) {
    hasLoop |= isa<scf::ForOp>(op);
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (rank || !generic || !linalg::isaContractionOpInterface(generic) ||
        generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1)
      return;
    if (isWorkgroup(generic.getDpsInputs()[0]) ||
        isWorkgroup(generic.getDpsInputs()[1]))
      return;
    // And some dot reads a tile of the block as A (P V).
    rank = cast<MemRefType>(generic.getDpsInits()[0].getType()).getRank();
  });
  bool hasTileDot = false;
  grid.getBody()->walk([&](linalg::GenericOp generic) {
    hasTileDot |= linalg::isaContractionOpInterface(generic) &&
                  generic.getNumDpsInputs() == 2 &&
                  isWorkgroup(generic.getDpsInputs()[0]);
  });
  if (!hasTileDot || !rank || *rank < 2)
    return std::nullopt;
  return AttentionGrid{*rank, hasLoop};
}

struct GPUFlashAttention
    : blockbuster::impl::GPUFlashAttentionBase<GPUFlashAttention> {
  using Base::Base;

  void runOnOperation() override {
    if (threads <= 0 || threads % kWarpSize)
      return;
    if (!llvm::is_contained(
            {"sync", "wgmma-qk", "wgmma", "wgmma-overlap", "wgmma-pingpong"},
            mma.getValue())) {
      getOperation().emitError("gpu-flash-attention: mma must be sync, "
                               "wgmma-qk, wgmma, wgmma-overlap or "
                               "wgmma-pingpong, not '")
          << mma.getValue() << "'";
      return signalPassFailure();
    }
    if (f32OperandParts != 2 && f32OperandParts != 3) {
      getOperation().emitError("gpu-flash-attention: f32-operand-parts must "
                               "be 2 or 3, not ")
          << f32OperandParts.getValue();
      return signalPassFailure();
    }
    SmallVector<scf::ForallOp> grids;
    getOperation().walk([&](scf::ForallOp grid) {
      if (grid.getMapping() &&
          grid->getParentOfType<scf::ForallOp>() == nullptr)
        grids.push_back(grid);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids) {
      std::optional<AttentionGrid> attention = attentionGrid(grid);
      // Without a reduce loop only the wgmma schedule takes the block.
      if (!attention || (!attention->hasLoop && mma == "sync"))
        continue;
      std::optional<int64_t> rank = attention->rank;
      // FlashAttention's combine where the single pass's rounding of P is
      // the user's choice, or P is not rounded (RunningMaxCombine.h). On
      // the block's linalg ops, so a block the register schedules refuse
      // runs it on the generic path as well.
      SmallVector<scf::ForOp> loops(grid.getBody()->getOps<scf::ForOp>());
      for (scf::ForOp loop : loops)
        if (FailureOr<OnlineCombine> combine = matchOnlineCombine(loop);
            succeeded(combine))
          rewriteToRunningMax(rewriter, *combine);
      // The wgmma schedule where it applies; a block it cannot take runs
      // on mma.sync.
      MmaKind kind = mma == "wgmma"            ? MmaKind::Wgmma
                     : mma == "wgmma-overlap"  ? MmaKind::WgmmaOverlap
                     : mma == "wgmma-pingpong" ? MmaKind::WgmmaPingPong
                     : mma == "wgmma-qk"       ? MmaKind::WgmmaQK
                                               : MmaKind::Sync;
      FlashAttentionBuilder builder(rewriter, grid, *rank, threads / kWarpSize,
                                    kind);
      builder.vWaitEarly = vWaitEarly;
      builder.splitParts = f32OperandParts;
      builder.tf32 = allowTf32;
      builder.onlyOnWgmma = !attention->hasLoop;
      if (succeeded(builder.build())) {
        if (printRefusals && !builder.wgmmaRefusal.empty())
          grid->emitRemark() << "gpu-flash-attention: on mma.sync, not "
                                "wgmma: "
                             << builder.wgmmaRefusal;
        rewriter.eraseOp(grid);
        continue;
      }
      if (kind == MmaKind::Sync || !attention->hasLoop) {
        if (printRefusals)
          grid->emitRemark() << "gpu-flash-attention: not in registers: "
                             << builder.refusal;
        continue;
      }
      FlashAttentionBuilder fallback(rewriter, grid, *rank, threads / kWarpSize,
                                     MmaKind::Sync);
      fallback.splitParts = f32OperandParts;
      fallback.tf32 = allowTf32;
      bool onSync = succeeded(fallback.build());
      if (printRefusals)
        grid->emitRemark() << "gpu-flash-attention: "
                           << (onSync ? "on mma.sync" : "not in registers")
                           << ", not wgmma: " << builder.refusal
                           << (onSync ? ""
                                      : "; on mma.sync: " + fallback.refusal);
      if (onSync)
        rewriter.eraseOp(grid);
    }
  }
};

} // namespace
