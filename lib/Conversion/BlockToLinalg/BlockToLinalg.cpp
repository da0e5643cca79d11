//===- BlockToLinalg.cpp - Block programs to per-block Linalg on tensors --===//
//
// Lowers a block program to a func.func over tensors, one block at a time:
// maps become scf.forall over the block grid, reduces scf.for over the
// blocks of their axis, tiles tensors of the current block's size, and tile
// compute ops linalg.generic ops whose indexing maps place operands by axis
// name. The lowering walks the program once with an IRMapping from block
// values to tensors and a table of the current block (offset, size) of
// every axis that an enclosing map or reduce iterates; tile shapes follow
// from that table, so partial edge blocks get their true (dynamic) size.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Conversion/BlockToLinalg/BlockToLinalg.h"
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h"
#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/IR/Combiners.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

namespace blockbuster {
#define GEN_PASS_DEF_CONVERTBLOCKTOLINALG
#include "Blockbuster/Conversion/BlockToLinalg/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::block;

/// The offset a block.load stores for an index entry `A` that is not a slice
/// (`kExactIndex` in BlockOps.cpp).
static constexpr int64_t kExactIndex = -1;

//===----------------------------------------------------------------------===//
// Scalar helpers: the bodies of the linalg.generic ops
//===----------------------------------------------------------------------===//

/// f16 and bf16 are storage formats here: arithmetic on them is done in f32
/// and rounded once per op, as GPU kernels do.
static bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

static Value createFloatConstant(OpBuilder &b, Location loc, Type type,
                                 double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// Converts a scalar between element types with the semantics of block.cast:
/// floats round to nearest even, float to integer truncates toward zero,
/// integers are signed, except i1 (a mask), which is 0 or 1; index and
/// integers convert as arith.index_cast does.
static Value createConversion(OpBuilder &b, Location loc, Value value,
                              Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (from.isIndex() || to.isIndex())
    return arith::IndexCastOp::create(b, loc, to, value);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // f16 <-> bf16: f32 holds both exactly, so this rounds once.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (toFloat) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  if (fromFloat) {
    // fptosi to i1 is poison for anything but 0 and -1: a mask is "non-zero".
    if (to.isInteger(1)) {
      Value zero = createFloatConstant(b, loc, from, 0.0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    }
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (toWidth == 1) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 zero);
  }
  if (fromWidth == 1)
    return arith::ExtUIOp::create(b, loc, to, value);
  if (fromWidth < toWidth)
    return arith::ExtSIOp::create(b, loc, to, value);
  return arith::TruncIOp::create(b, loc, to, value);
}

/// The type arithmetic on `type` elements is done in.
static Type getComputeType(Type type) {
  return isNarrowFloat(type) ? Float32Type::get(type.getContext()) : type;
}

/// The element type a sum or product of `type` elements accumulates in.
static Type getAccumulatorType(CombinerKind kind, Type type) {
  if (kind == CombinerKind::Add || kind == CombinerKind::Mul)
    return getComputeType(type);
  return type; // max and min are exact in any type.
}

/// `lhs <kind> rhs` for float, integer and index scalars of one type. On
/// i1 (masks, false < true) max is `or` and min is `and`.
static Value createScalarCombine(OpBuilder &b, Location loc,
                                 CombinerKind kind, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType())) {
    switch (kind) {
    case CombinerKind::Add:
      return arith::AddFOp::create(b, loc, lhs, rhs);
    case CombinerKind::Mul:
      return arith::MulFOp::create(b, loc, lhs, rhs);
    case CombinerKind::Max:
      // maximumf propagates NaN, as torch.maximum does.
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    case CombinerKind::Min:
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    }
  }
  if (lhs.getType().isInteger(1)) {
    if (kind == CombinerKind::Max)
      return arith::OrIOp::create(b, loc, lhs, rhs);
    if (kind == CombinerKind::Min)
      return arith::AndIOp::create(b, loc, lhs, rhs);
  }
  switch (kind) {
  case CombinerKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case CombinerKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case CombinerKind::Max:
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  case CombinerKind::Min:
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combiner kind");
}

/// The scalar form of a binary elementwise block op, on operands of the
/// compute type.
static Value createBinary(OpBuilder &b, Location loc, Operation *op, Value lhs,
                          Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        return createScalarCombine(b, loc, CombinerKind::Add, lhs, rhs);
      })
      .Case([&](MulOp) -> Value {
        return createScalarCombine(b, loc, CombinerKind::Mul, lhs, rhs);
      })
      .Case([&](MaxOp) -> Value {
        return createScalarCombine(b, loc, CombinerKind::Max, lhs, rhs);
      })
      .Case([&](MinOp) -> Value {
        return createScalarCombine(b, loc, CombinerKind::Min, lhs, rhs);
      })
      .Case([&](SubOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, lhs, rhs);
        return arith::SubIOp::create(b, loc, lhs, rhs);
      })
      .Case([&](DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, lhs, rhs);
        return arith::DivSIOp::create(b, loc, lhs, rhs);
      });
}

/// The scalar form of a unary elementwise block op, on a float of the compute
/// type.
static Value createUnary(OpBuilder &b, Location loc, Operation *op, Value x) {
  Type type = x.getType();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) -> Value { return arith::NegFOp::create(b, loc, x); })
      .Case([&](AbsOp) -> Value { return math::AbsFOp::create(b, loc, x); })
      .Case([&](ExpOp) -> Value { return math::ExpOp::create(b, loc, x); })
      .Case([&](LogOp) -> Value { return math::LogOp::create(b, loc, x); })
      .Case([&](SqrtOp) -> Value { return math::SqrtOp::create(b, loc, x); })
      .Case([&](RsqrtOp) -> Value { return math::RsqrtOp::create(b, loc, x); })
      .Case([&](TanhOp) -> Value { return math::TanhOp::create(b, loc, x); })
      .Case([&](ErfOp) -> Value { return math::ErfOp::create(b, loc, x); })
      .Case([&](SinOp) -> Value { return math::SinOp::create(b, loc, x); })
      .Case([&](CosOp) -> Value { return math::CosOp::create(b, loc, x); })
      .Case([&](SiluOp) -> Value {
        // x * sigmoid(x) = x * (1 / (1 + exp(-x))); for x -> -inf the
        // exponential overflows to inf and the product is -0, not NaN.
        Value one = createFloatConstant(b, loc, type, 1.0);
        Value negated = arith::NegFOp::create(b, loc, x);
        Value exp = math::ExpOp::create(b, loc, negated);
        Value denominator = arith::AddFOp::create(b, loc, one, exp);
        Value sigmoid = arith::DivFOp::create(b, loc, one, denominator);
        return arith::MulFOp::create(b, loc, x, sigmoid);
      })
      .Case([&](GeluOp) -> Value {
        // The exact form: x * (1 + erf(x / sqrt(2))) / 2.
        Value half = createFloatConstant(b, loc, type, 0.5);
        Value one = createFloatConstant(b, loc, type, 1.0);
        Value invSqrt2 = createFloatConstant(b, loc, type, M_SQRT1_2);
        Value scaled = arith::MulFOp::create(b, loc, x, invSqrt2);
        Value erf = math::ErfOp::create(b, loc, scaled);
        Value onePlus = arith::AddFOp::create(b, loc, one, erf);
        Value product = arith::MulFOp::create(b, loc, x, onePlus);
        return arith::MulFOp::create(b, loc, product, half);
      });
}

static arith::CmpFPredicate getFloatPredicate(ComparePredicate predicate) {
  switch (predicate) {
  case ComparePredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case ComparePredicate::ne:
    return arith::CmpFPredicate::ONE;
  case ComparePredicate::lt:
    return arith::CmpFPredicate::OLT;
  case ComparePredicate::le:
    return arith::CmpFPredicate::OLE;
  case ComparePredicate::gt:
    return arith::CmpFPredicate::OGT;
  case ComparePredicate::ge:
    return arith::CmpFPredicate::OGE;
  case ComparePredicate::ueq:
    return arith::CmpFPredicate::UEQ;
  case ComparePredicate::une:
    return arith::CmpFPredicate::UNE;
  case ComparePredicate::ult:
    return arith::CmpFPredicate::ULT;
  case ComparePredicate::ule:
    return arith::CmpFPredicate::ULE;
  case ComparePredicate::ugt:
    return arith::CmpFPredicate::UGT;
  case ComparePredicate::uge:
    return arith::CmpFPredicate::UGE;
  }
  llvm_unreachable("unknown predicate");
}

/// On integers `eq` ... `ge` compare signed and `ult` ... `uge` unsigned
/// (as arith.cmpi's s and u predicates); the verifier keeps `ueq` and
/// `une` to floats.
static arith::CmpIPredicate getIntegerPredicate(ComparePredicate predicate) {
  switch (predicate) {
  case ComparePredicate::eq:
  case ComparePredicate::ueq:
    return arith::CmpIPredicate::eq;
  case ComparePredicate::ne:
  case ComparePredicate::une:
    return arith::CmpIPredicate::ne;
  case ComparePredicate::lt:
    return arith::CmpIPredicate::slt;
  case ComparePredicate::le:
    return arith::CmpIPredicate::sle;
  case ComparePredicate::gt:
    return arith::CmpIPredicate::sgt;
  case ComparePredicate::ge:
    return arith::CmpIPredicate::sge;
  case ComparePredicate::ult:
    return arith::CmpIPredicate::ult;
  case ComparePredicate::ule:
    return arith::CmpIPredicate::ule;
  case ComparePredicate::ugt:
    return arith::CmpIPredicate::ugt;
  case ComparePredicate::uge:
    return arith::CmpIPredicate::uge;
  }
  llvm_unreachable("unknown predicate");
}

/// The map from an iteration space over `loopAxes` to the dimensions of a
/// tile with `tileAxes`: broadcasting and transposition by name.
static AffineMap getAxisMap(ArrayRef<StringAttr> loopAxes,
                            ArrayRef<StringAttr> tileAxes,
                            MLIRContext *context) {
  SmallVector<AffineExpr> exprs;
  for (StringAttr axis : tileAxes) {
    auto *it = llvm::find(loopAxes, axis);
    assert(it != loopAxes.end() && "tile axis outside the iteration space");
    exprs.push_back(getAffineDimExpr(it - loopAxes.begin(), context));
  }
  return AffineMap::get(loopAxes.size(), /*symbolCount=*/0, exprs, context);
}

static SmallVector<StringAttr> getAxes(Value tile) {
  return llvm::to_vector(cast<TileType>(tile.getType()).getAxes());
}

static Type getElementType(Value tile) {
  return cast<TileType>(tile.getType()).getElementType();
}

//===----------------------------------------------------------------------===//
// ProgramLowering
//===----------------------------------------------------------------------===//

namespace {
/// The block of an axis that an enclosing map or reduce is at.
struct BlockRange {
  /// Index of the block's first element along the axis.
  Value offset;
  /// Number of elements of the block: static when the block size divides
  /// the extent, else min(block, extent - offset).
  OpFoldResult size;
};

/// Lowers one program. Tile values map to tensors whose shape is fixed at
/// their definition by `ranges`.
class ProgramLowering {
public:
  explicit ProgramLowering(ProgramOp program)
      : program(program), builder(program) {}

  FailureOr<func::FuncOp> lower();

private:
  int64_t getExtent(StringAttr axis) const {
    return axisTable.lookup(axis).getExtent();
  }
  /// The bound block size, never above the extent (as BlockSizes resolves it).
  int64_t getBlockSize(StringAttr axis) const {
    AxisAttr entry = axisTable.lookup(axis);
    if (entry.isWhole())
      return entry.getExtent();
    return std::clamp<int64_t>(*entry.getBlockSize(), 1, entry.getExtent());
  }
  int64_t getNumBlocks(StringAttr axis) const {
    return llvm::divideCeil(getExtent(axis), getBlockSize(axis));
  }
  /// The size of a tile dimension along `axis` here: the current block's if
  /// an enclosing map or reduce iterates the axis, else the whole extent.
  OpFoldResult getAxisSize(StringAttr axis) {
    auto it = ranges.find(axis);
    if (it != ranges.end())
      return it->second.size;
    return builder.getIndexAttr(getExtent(axis));
  }
  SmallVector<OpFoldResult> getTileSizes(ArrayRef<StringAttr> axes) {
    return llvm::map_to_vector(
        axes, [&](StringAttr axis) { return getAxisSize(axis); });
  }
  Value createEmpty(Location loc, ArrayRef<StringAttr> axes, Type elementType) {
    return tensor::EmptyOp::create(builder, loc, getTileSizes(axes),
                                   elementType);
  }
  Value createFilled(Location loc, ArrayRef<StringAttr> axes, TypedAttr value) {
    Value empty = createEmpty(loc, axes, value.getType());
    Value scalar = arith::ConstantOp::create(builder, loc, value);
    return linalg::FillOp::create(builder, loc, ValueRange{scalar},
                                  ValueRange{empty})
        .getResult(0);
  }

  /// Records the block `blockIndex` of `axis` as the current one.
  void enterBlock(Location loc, StringAttr axis, Value blockIndex);

  /// A parallel linalg.generic over `resultAxes` that reads `inputs` (block
  /// tiles, lowered) by axis name and computes each element with `body`.
  Value createElementwise(
      Location loc, ArrayRef<StringAttr> resultAxes, ValueRange inputs,
      Type resultType,
      function_ref<Value(OpBuilder &, Location, ValueRange)> body);
  /// The same over tensors already lowered, whose axes are `inputAxes`.
  Value createElementwiseOnTensors(
      Location loc, ArrayRef<StringAttr> resultAxes, ValueRange tensors,
      ArrayRef<SmallVector<StringAttr>> inputAxes, Type resultType,
      function_ref<Value(OpBuilder &, Location, ValueRange)> body);
  /// Rounds `tensor`, a tile with `axes` of a wider type, to `elementType`.
  Value createRounding(Location loc, Value tensor, ArrayRef<StringAttr> axes,
                       Type elementType) {
    return createElementwiseOnTensors(
        loc, axes, tensor, {llvm::to_vector(axes)}, elementType,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return createConversion(b, l, args[0], elementType);
        });
  }

  Value lookup(Value value) { return mapping.lookup(value); }
  SmallVector<Value> lookup(ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return lookup(v); });
  }

  LogicalResult checkOperandBlocks(Operation *op);
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerMap(MapOp map);
  LogicalResult lowerView(ViewOp view);
  LogicalResult lowerReduce(ReduceOp reduce);
  LogicalResult lowerLoad(LoadOp load);
  LogicalResult lowerDot(DotOp dot);
  LogicalResult lowerTileReduce(TileReduceOp reduce);
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerConstant(ConstantOp constant);
  LogicalResult lowerIota(IotaOp iota);

  ProgramOp program;
  OpBuilder builder;
  IRMapping mapping;
  llvm::DenseMap<StringAttr, AxisAttr> axisTable;
  llvm::DenseMap<StringAttr, BlockRange> ranges;
};
} // namespace

void ProgramLowering::enterBlock(Location loc, StringAttr axis,
                                 Value blockIndex) {
  int64_t blockSize = getBlockSize(axis);
  int64_t extent = getExtent(axis);
  Value blockValue = arith::ConstantIndexOp::create(builder, loc, blockSize);
  Value offset = arith::MulIOp::create(builder, loc, blockIndex, blockValue);
  OpFoldResult size = builder.getIndexAttr(blockSize);
  if (extent % blockSize != 0) {
    // The last block is partial: min(block, extent - offset).
    Value extentValue = arith::ConstantIndexOp::create(builder, loc, extent);
    Value rest = arith::SubIOp::create(builder, loc, extentValue, offset);
    size = arith::MinSIOp::create(builder, loc, rest, blockValue).getResult();
  }
  ranges[axis] = BlockRange{offset, size};
}

Value ProgramLowering::createElementwise(
    Location loc, ArrayRef<StringAttr> resultAxes, ValueRange inputs,
    Type resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<SmallVector<StringAttr>> inputAxes =
      llvm::map_to_vector(inputs, [](Value input) { return getAxes(input); });
  return createElementwiseOnTensors(loc, resultAxes, lookup(inputs), inputAxes,
                                    resultType, body);
}

Value ProgramLowering::createElementwiseOnTensors(
    Location loc, ArrayRef<StringAttr> resultAxes, ValueRange tensors,
    ArrayRef<SmallVector<StringAttr>> inputAxes, Type resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *context = builder.getContext();
  Value init = createEmpty(loc, resultAxes, resultType);
  SmallVector<AffineMap> maps;
  for (ArrayRef<StringAttr> axes : inputAxes)
    maps.push_back(getAxisMap(resultAxes, axes, context));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultAxes.size(), context));
  SmallVector<utils::IteratorType> iterators(resultAxes.size(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{init.getType()}, tensors, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value result = body(b, l, args.drop_back());
        linalg::YieldOp::create(b, l, result);
      });
  return generic.getResult(0);
}

/// A tile is only meaningful in the iteration context it was defined in: an
/// axis it has spans the whole extent unless an enclosing map or reduce
/// iterates it. Using a whole-extent tile where its axis is iterated would
/// mix a whole axis with one block of it.
LogicalResult ProgramLowering::checkOperandBlocks(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto tile = dyn_cast<TileType>(operand.get().getType());
    Operation *definer = operand.get().getDefiningOp();
    if (!tile || !definer)
      continue;
    SmallVector<StringAttr> definedIn = getIteratedAxes(definer);
    for (StringAttr axis : tile.getAxes())
      if (ranges.count(axis) && !llvm::is_contained(definedIn, axis))
        return op->emitOpError()
               << "cannot be lowered: operand #" << operand.getOperandNumber()
               << " spans the whole extent of axis '" << axis.getValue()
               << "' (it is defined outside the map or reduce that iterates '"
               << axis.getValue() << "') but is used inside it, where a tile "
               << "of that axis is one block";
  }
  return success();
}

LogicalResult ProgramLowering::lowerBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult ProgramLowering::lowerOp(Operation *op) {
  if (failed(checkOperandBlocks(op)))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](MapOp map) { return lowerMap(map); })
      .Case([&](ViewOp view) { return lowerView(view); })
      .Case([&](ReduceOp reduce) { return lowerReduce(reduce); })
      .Case([&](LoadOp load) { return lowerLoad(load); })
      .Case([&](DotOp dot) { return lowerDot(dot); })
      .Case([&](TileReduceOp reduce) { return lowerTileReduce(reduce); })
      .Case([&](ConstantOp constant) { return lowerConstant(constant); })
      .Case([&](IotaOp iota) { return lowerIota(iota); })
      .Case<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, NegOp, AbsOp, ExpOp,
            LogOp, SqrtOp, RsqrtOp, TanhOp, SiluOp, ErfOp, SinOp, CosOp,
            GeluOp, SelectOp, CompareOp, CastOp, BroadcastOp>(
          [&](Operation *elementwise) { return lowerElementwise(elementwise); })
      .Default([&](Operation *other) {
        return other->emitOpError()
               << "is not supported by convert-block-to-linalg";
      });
}

/// A view is a row-major reshape of a tensor: an expand_shape or a
/// collapse_shape when the shapes allow one, else a collapse to one
/// dimension followed by an expand.
LogicalResult ProgramLowering::lowerView(ViewOp view) {
  Location loc = view.getLoc();
  Value source = lookup(view.getSource());
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto array = cast<ArrayType>(view.getType());
  auto resultType =
      RankedTensorType::get(array.getShape(), array.getElementType());
  Value result;
  if (sourceType == resultType) {
    result = source;
  } else if (auto collapse =
                 getReassociationIndicesForReshape(sourceType, resultType);
             collapse && sourceType.getRank() > resultType.getRank()) {
    result = tensor::CollapseShapeOp::create(builder, loc, resultType, source,
                                             *collapse);
  } else if (auto expand =
                 getReassociationIndicesForReshape(resultType, sourceType);
             expand && resultType.getRank() > sourceType.getRank()) {
    result = tensor::ExpandShapeOp::create(builder, loc, resultType, source,
                                           *expand);
  } else {
    auto flatType = RankedTensorType::get({array.getNumElements()},
                                          array.getElementType());
    auto all = [](int64_t rank) {
      ReassociationIndices group;
      for (int64_t dim = 0; dim < rank; ++dim)
        group.push_back(dim);
      return SmallVector<ReassociationIndices>{group};
    };
    Value flat = source;
    if (sourceType.getRank() != 1)
      flat = tensor::CollapseShapeOp::create(builder, loc, flatType, source,
                                             all(sourceType.getRank()));
    result = flat;
    if (resultType.getRank() != 1)
      result = tensor::ExpandShapeOp::create(builder, loc, resultType, flat,
                                             all(resultType.getRank()));
  }
  mapping.map(view.getResult(), result);
  return success();
}

LogicalResult ProgramLowering::lowerMap(MapOp map) {
  Location loc = map.getLoc();
  SmallVector<StringAttr> axes = llvm::map_to_vector(
      map.getAxes(), [](Attribute axis) { return cast<StringAttr>(axis); });
  SmallVector<OpFoldResult> grid = llvm::map_to_vector(
      axes, [&](StringAttr axis) -> OpFoldResult {
        return builder.getIndexAttr(getNumBlocks(axis));
      });
  // Every instance writes its own block of each result; the shared outputs
  // start empty because together the blocks cover every element.
  SmallVector<Value> outputs;
  for (Type type : map.getResultTypes()) {
    auto array = cast<ArrayType>(type);
    outputs.push_back(tensor::EmptyOp::create(builder, loc, array.getShape(),
                                              array.getElementType()));
  }
  auto forall = scf::ForallOp::create(builder, loc, grid, outputs,
                                      /*mapping=*/std::nullopt);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(forall.getTerminator());
    for (auto [axis, index] : llvm::zip(axes, forall.getInductionVars()))
      enterBlock(loc, axis, index);
    if (failed(lowerBlock(map.getBody().front())))
      return failure();

    builder.setInsertionPointToEnd(forall.getTerminator().getBody());
    for (auto [value, output] :
         llvm::zip(map.getYield().getOperands(), forall.getRegionIterArgs())) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (StringAttr axis : getAxes(value)) {
        auto it = ranges.find(axis);
        offsets.push_back(it != ranges.end() ? OpFoldResult(it->second.offset)
                                             : builder.getIndexAttr(0));
        sizes.push_back(getAxisSize(axis));
        strides.push_back(builder.getIndexAttr(1));
      }
      tensor::ParallelInsertSliceOp::create(builder, loc, lookup(value), output,
                                            offsets, sizes, strides);
    }
    for (StringAttr axis : axes)
      ranges.erase(axis);
  }
  for (auto [result, value] : llvm::zip(map.getResults(), forall.getResults()))
    mapping.map(result, value);
  return success();
}

LogicalResult ProgramLowering::lowerReduce(ReduceOp reduce) {
  Location loc = reduce.getLoc();
  StringAttr axis = reduce.getAxisAttr();
  bool builtin = !reduce.hasRegionCombiner();
  SmallVector<CombinerKind> kinds;
  SmallVector<Value> inits;
  if (builtin) {
    for (auto [result, kindAttr] :
         llvm::zip(reduce.getResults(), *reduce.getCombiners())) {
      CombinerKind kind = cast<CombinerKindAttr>(kindAttr).getValue();
      kinds.push_back(kind);
      Type accumulator = getAccumulatorType(kind, getElementType(result));
      inits.push_back(createFilled(loc, getAxes(result),
                                   getCombinerIdentity(kind, accumulator)));
    }
  } else {
    inits = lookup(reduce.getInits());
  }

  Value lowerBound = arith::ConstantIndexOp::create(builder, loc, 0);
  Value upperBound =
      arith::ConstantIndexOp::create(builder, loc, getNumBlocks(axis));
  Value step = arith::ConstantIndexOp::create(builder, loc, 1);
  auto loop =
      scf::ForOp::create(builder, loc, lowerBound, upperBound, step, inits);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *body = loop.getBody();
    // Without iter_args the builder adds an empty scf.yield; ours replaces it.
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    builder.setInsertionPointToEnd(body);
    enterBlock(loc, axis, loop.getInductionVar());
    if (failed(lowerBlock(reduce.getBody().front())))
      return failure();
    SmallVector<Value> terms = lookup(reduce.getYield().getOperands());

    SmallVector<Value> next;
    if (builtin) {
      // Fold each term into the state in place: the state is the generic's
      // output, so bufferization updates one buffer across iterations.
      MLIRContext *context = builder.getContext();
      for (auto [index, term] : llvm::enumerate(terms)) {
        Value state = loop.getRegionIterArgs()[index];
        CombinerKind kind = kinds[index];
        auto type = cast<RankedTensorType>(state.getType());
        AffineMap identity =
            AffineMap::getMultiDimIdentityMap(type.getRank(), context);
        SmallVector<utils::IteratorType> iterators(
            type.getRank(), utils::IteratorType::parallel);
        auto generic = linalg::GenericOp::create(
            builder, loc, TypeRange{type}, ValueRange{term}, ValueRange{state},
            ArrayRef<AffineMap>{identity, identity}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = createConversion(b, l, args[0], args[1].getType());
              linalg::YieldOp::create(
                  b, l, createScalarCombine(b, l, kind, args[1], x));
            });
        next.push_back(generic.getResult(0));
      }
    } else {
      Block &combine = reduce.getCombiner().front();
      unsigned numResults = reduce.getNumResults();
      for (unsigned i = 0; i < numResults; ++i) {
        mapping.map(combine.getArgument(i), loop.getRegionIterArgs()[i]);
        mapping.map(combine.getArgument(numResults + i), terms[i]);
      }
      if (failed(lowerBlock(combine)))
        return failure();
      next = lookup(combine.getTerminator()->getOperands());
    }
    for (auto [index, pair] : llvm::enumerate(llvm::zip(next, inits)))
      if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
        return reduce.emitOpError()
               << "cannot be lowered: state #" << index << " is "
               << std::get<1>(pair).getType() << " on entry but "
               << std::get<0>(pair).getType() << " after one block";
    scf::YieldOp::create(builder, loc, next);
    ranges.erase(axis);
  }

  for (auto [index, result] : llvm::enumerate(reduce.getResults())) {
    Value state = loop.getResult(index);
    Type elementType = getElementType(result);
    // A widened sum: round once, after the last block.
    if (cast<ShapedType>(state.getType()).getElementType() != elementType)
      state = createRounding(loc, state, getAxes(result), elementType);
    mapping.map(result, state);
  }
  return success();
}

LogicalResult ProgramLowering::lowerLoad(LoadOp load) {
  Location loc = load.getLoc();
  auto array = cast<ArrayType>(load.getSource().getType());
  Value source = lookup(load.getSource());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<StringAttr> slicedAxes;
  SmallVector<int64_t> slicedShape;
  bool isWholeArray = true;
  for (auto [dim, entry] : llvm::enumerate(
           llvm::zip(load.getIndexAxes(), load.getOffsets()))) {
    auto axis = cast<StringAttr>(std::get<0>(entry));
    int64_t offset = std::get<1>(entry);
    strides.push_back(builder.getIndexAttr(1));
    if (axis.getValue().empty()) {
      // A fixed index: a unit dimension that the slice drops.
      offsets.push_back(builder.getIndexAttr(offset));
      sizes.push_back(builder.getIndexAttr(1));
      isWholeArray = false;
      continue;
    }
    int64_t sliceOffset = offset == kExactIndex ? 0 : offset;
    auto it = ranges.find(axis);
    if (it != ranges.end()) {
      Value start = it->second.offset;
      if (sliceOffset != 0)
        start = arith::AddIOp::create(
            builder, loc, start,
            arith::ConstantIndexOp::create(builder, loc, sliceOffset));
      offsets.push_back(start);
      isWholeArray = false;
    } else {
      offsets.push_back(builder.getIndexAttr(sliceOffset));
      if (sliceOffset != 0 || getExtent(axis) != array.getShape()[dim])
        isWholeArray = false;
    }
    OpFoldResult size = getAxisSize(axis);
    sizes.push_back(size);
    slicedAxes.push_back(axis);
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    slicedShape.push_back(staticSize ? *staticSize : ShapedType::kDynamic);
  }

  Value tile = source;
  if (!isWholeArray) {
    auto type = RankedTensorType::get(slicedShape, array.getElementType());
    // A rank-reducing slice says only which shape remains, not which unit
    // dimensions it drops. When a kept dimension has size 1 too (an axis of
    // extent or block 1 beside a fixed index), that is ambiguous, and MLIR
    // 22's canonicalizer rebuilds such a slice with permuted sizes that its
    // verifier then rejects ("slice along dimension 2 runs out-of-bounds"):
    // slice at full rank and drop the fixed dimensions by an explicit
    // collapse instead.
    bool dropsDims =
        array.getRank() != static_cast<int64_t>(slicedAxes.size());
    bool ambiguous = dropsDims && llvm::is_contained(slicedShape, 1);
    if (!ambiguous) {
      tile = tensor::ExtractSliceOp::create(builder, loc, type, source,
                                            offsets, sizes, strides);
    } else {
      tile = tensor::ExtractSliceOp::create(builder, loc, source, offsets,
                                            sizes, strides);
      // Each kept dimension takes the fixed (unit) dimensions before it;
      // the last group also those after it.
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      for (auto [dim, entry] : llvm::enumerate(load.getIndexAxes())) {
        pending.push_back(dim);
        if (!cast<StringAttr>(entry).getValue().empty()) {
          groups.push_back(pending);
          pending.clear();
        }
      }
      if (groups.empty())
        groups.push_back(pending);
      else
        llvm::append_range(groups.back(), pending);
      tile = tensor::CollapseShapeOp::create(builder, loc, type, tile, groups);
    }
  }
  SmallVector<StringAttr> tileAxes = getAxes(load.getResult());
  if (tileAxes != slicedAxes) {
    // A transposed read: result dimension i is sliced dimension perm[i].
    SmallVector<int64_t> permutation;
    for (StringAttr axis : tileAxes)
      permutation.push_back(llvm::find(slicedAxes, axis) - slicedAxes.begin());
    Value init = createEmpty(loc, tileAxes, array.getElementType());
    tile = linalg::TransposeOp::create(builder, loc, tile, init, permutation)
               ->getResult(0);
  }
  mapping.map(load.getResult(), tile);
  return success();
}

LogicalResult ProgramLowering::lowerDot(DotOp dot) {
  Location loc = dot.getLoc();
  MLIRContext *context = builder.getContext();
  SmallVector<StringAttr> resultAxes = getAxes(dot.getResult());
  SmallVector<StringAttr> loopAxes = resultAxes;
  for (Attribute axis : dot.getContract())
    loopAxes.push_back(cast<StringAttr>(axis));
  SmallVector<AffineMap> maps = {
      getAxisMap(loopAxes, getAxes(dot.getLhs()), context),
      getAxisMap(loopAxes, getAxes(dot.getRhs()), context),
      getAxisMap(loopAxes, resultAxes, context)};
  SmallVector<utils::IteratorType> iterators(resultAxes.size(),
                                             utils::IteratorType::parallel);
  iterators.append(dot.getContract().size(), utils::IteratorType::reduction);

  Type f32 = builder.getF32Type();
  Value init = createFilled(loc, resultAxes, builder.getFloatAttr(f32, 0.0));
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{init.getType()},
      ValueRange{lookup(dot.getLhs()), lookup(dot.getRhs())}, ValueRange{init},
      maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        // Products and sums in f32, whatever the operand type.
        Value lhs = createConversion(b, l, args[0], f32);
        Value rhs = createConversion(b, l, args[1], f32);
        Value product = arith::MulFOp::create(b, l, lhs, rhs);
        Value sum = arith::AddFOp::create(b, l, args[2], product);
        linalg::YieldOp::create(b, l, sum);
      });
  mapping.map(dot.getResult(), generic.getResult(0));
  return success();
}

LogicalResult ProgramLowering::lowerTileReduce(TileReduceOp reduce) {
  Location loc = reduce.getLoc();
  MLIRContext *context = builder.getContext();
  SmallVector<StringAttr> loopAxes = getAxes(reduce.getOperand());
  SmallVector<StringAttr> resultAxes = getAxes(reduce.getResult());
  CombinerKind kind = reduce.getKind();
  Type elementType = getElementType(reduce.getResult());
  Type accumulator = getAccumulatorType(kind, elementType);

  SmallVector<utils::IteratorType> iterators;
  for (StringAttr axis : loopAxes)
    iterators.push_back(llvm::is_contained(resultAxes, axis)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Value init = createFilled(loc, resultAxes,
                            getCombinerIdentity(kind, accumulator));
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{init.getType()},
      ValueRange{lookup(reduce.getOperand())}, ValueRange{init},
      ArrayRef<AffineMap>{getAxisMap(loopAxes, loopAxes, context),
                          getAxisMap(loopAxes, resultAxes, context)},
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = createConversion(b, l, args[0], accumulator);
        linalg::YieldOp::create(b, l,
                                createScalarCombine(b, l, kind, args[1], x));
      });
  Value result = generic.getResult(0);
  // A widened sum: round once.
  if (accumulator != elementType)
    result = createRounding(loc, result, resultAxes, elementType);
  mapping.map(reduce.getResult(), result);
  return success();
}

LogicalResult ProgramLowering::lowerElementwise(Operation *op) {
  Location loc = op->getLoc();
  Value result = op->getResult(0);
  SmallVector<StringAttr> resultAxes = getAxes(result);
  Type resultType = getElementType(result);
  auto body = [&](OpBuilder &b, Location l, ValueRange args) -> Value {
    return llvm::TypeSwitch<Operation *, Value>(op)
        .Case([&](CastOp cast) -> Value {
          Value converted = createConversion(b, l, args[0], resultType);
          // The rounding's licence to move (kRescalableRoundingAttrName).
          if (auto rounding = converted.getDefiningOp<arith::TruncFOp>();
              rounding && cast->hasAttr(block::kRescalableAttr))
            rounding->setAttr(kRescalableRoundingAttrName, b.getUnitAttr());
          return converted;
        })
        // The indexing map does the broadcast and the transposition.
        .Case([&](BroadcastOp) -> Value { return args[0]; })
        .Case([&](SelectOp) -> Value {
          return arith::SelectOp::create(b, l, args[0], args[1], args[2]);
        })
        .Case([&](CompareOp compare) -> Value {
          Type computeType = getComputeType(args[0].getType());
          Value lhs = createConversion(b, l, args[0], computeType);
          Value rhs = createConversion(b, l, args[1], computeType);
          if (isa<FloatType>(computeType))
            return arith::CmpFOp::create(
                b, l, getFloatPredicate(compare.getPredicate()), lhs, rhs);
          return arith::CmpIOp::create(
              b, l, getIntegerPredicate(compare.getPredicate()), lhs, rhs);
        })
        .Default([&](Operation *) -> Value {
          // Unary and binary arithmetic: in the compute type, rounded once.
          Type computeType = getComputeType(resultType);
          SmallVector<Value> operands = llvm::map_to_vector(
              args, [&](Value arg) {
                return createConversion(b, l, arg, computeType);
              });
          Value value = operands.size() == 1
                            ? createUnary(b, l, op, operands[0])
                            : createBinary(b, l, op, operands[0], operands[1]);
          return createConversion(b, l, value, resultType);
        });
  };
  mapping.map(result, createElementwise(loc, resultAxes, op->getOperands(),
                                        resultType, body));
  return success();
}

LogicalResult ProgramLowering::lowerConstant(ConstantOp constant) {
  mapping.map(constant.getResult(),
              createFilled(constant.getLoc(), getAxes(constant.getResult()),
                           constant.getValue()));
  return success();
}

LogicalResult ProgramLowering::lowerIota(IotaOp iota) {
  Location loc = iota.getLoc();
  StringAttr axis = iota.getAxisAttr();
  Type elementType = getElementType(iota.getResult());
  // Global index = position in the block + the block's offset.
  Value offset;
  if (auto it = ranges.find(axis); it != ranges.end())
    offset = it->second.offset;
  mapping.map(iota.getResult(),
              createElementwise(
                  loc, {axis}, ValueRange{}, elementType,
                  [&](OpBuilder &b, Location l, ValueRange) -> Value {
                    Value index = linalg::IndexOp::create(b, l, 0);
                    if (offset)
                      index = arith::AddIOp::create(b, l, index, offset);
                    if (elementType.isIndex())
                      return index;
                    return arith::IndexCastOp::create(b, l, elementType, index);
                  }));
  return success();
}

FailureOr<func::FuncOp> ProgramLowering::lower() {
  bool missing = false;
  for (AxisAttr axis : program.getAxisTable()) {
    axisTable[axis.getName()] = axis;
    if (axis.isTiled() && !axis.getBlockSize()) {
      program.emitOpError()
          << "tiled axis '" << axis.getName().getValue() << "' of @"
          << program.getSymName()
          << " has no block size; run block-select first";
      missing = true;
    }
  }
  if (missing)
    return failure();

  auto toTensor = [](Type type) -> Type {
    auto array = cast<ArrayType>(type);
    return RankedTensorType::get(array.getShape(), array.getElementType());
  };
  FunctionType programType = program.getFunctionType();
  auto type = FunctionType::get(
      builder.getContext(),
      llvm::map_to_vector(programType.getInputs(), toTensor),
      llvm::map_to_vector(programType.getResults(), toTensor));
  auto func = func::FuncOp::create(builder, program.getLoc(),
                                   program.getSymName(), type);
  if (ArrayAttr argAttrs = program.getArgAttrsAttr())
    func.setArgAttrsAttr(argAttrs);
  if (ArrayAttr resAttrs = program.getResAttrsAttr())
    func.setResAttrsAttr(resAttrs);
  Block *entry = func.addEntryBlock();
  for (auto [argument, tensor] :
       llvm::zip(program.getArguments(), entry->getArguments()))
    mapping.map(argument, tensor);

  builder.setInsertionPointToStart(entry);
  for (Operation &op : program.getBody().front()) {
    if (auto ret = dyn_cast<ReturnOp>(op)) {
      // A tensor returned twice is copied for its second place into a new
      // allocation (alloc_tensor never aliases; a copy into tensor.empty
      // would be made in place): each result needs a buffer of its own when
      // results become out-parameters, and buffer-results-to-out-params
      // crashes on a repeated one.
      SmallVector<Value> results = lookup(ret.getOperands());
      for (auto [index, result] : llvm::enumerate(results)) {
        if (!llvm::is_contained(ArrayRef(results).take_front(index), result))
          continue;
        result = bufferization::AllocTensorOp::create(
            builder, ret.getLoc(), cast<RankedTensorType>(result.getType()),
            ValueRange{}, result);
      }
      func::ReturnOp::create(builder, ret.getLoc(), results);
      continue;
    }
    if (failed(lowerOp(&op))) {
      func.erase();
      return failure();
    }
  }
  return func;
}

FailureOr<func::FuncOp>
blockbuster::convertProgramToLinalg(block::ProgramOp program) {
  return ProgramLowering(program).lower();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertBlockToLinalgPass
    : public blockbuster::impl::ConvertBlockToLinalgBase<
          ConvertBlockToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    bool anyFailed = false;
    for (ProgramOp program :
         llvm::make_early_inc_range(getOperation().getOps<ProgramOp>())) {
      FailureOr<func::FuncOp> func = convertProgramToLinalg(program);
      if (failed(func)) {
        anyFailed = true;
        continue;
      }
      // The attribute func-to-llvm reads to emit `_mlir_ciface_<name>`.
      if (emitCInterface)
        (*func)->setAttr("llvm.emit_c_interface",
                         UnitAttr::get(&getContext()));
      program.erase();
    }
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace
