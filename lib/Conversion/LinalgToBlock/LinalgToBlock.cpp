//===- LinalgToBlock.cpp - Linalg on tensors to an unfused block program --===//
//
// Each func.func becomes a block.program with one top-level map per array
// operator. The steps:
//
//  1. normalise (NormaliseLinalg.cpp): decompose linalg.softmax, generalise
//     named Linalg ops, so that every array operator is a linalg.generic
//     (fills stay fills); move reshapes to the program's boundary and drop
//     unit dimensions;
//  2. classify every tensor value: a function argument, a result of an
//     operator, an alias (transpose/broadcast, absorbed into loads), a fill
//     of a scalar, or an empty tensor; refuse any op outside the table;
//  3. unify loop dimensions into axes (AxisUnifier);
//  4. build the program: per generic, a map over its tiled parallel axes,
//     reduces over its tiled reduction axes, and its scalar body as tile ops.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/IR/Combiners.h"

#include "AxisUnifier.h"
#include "NormaliseLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

namespace blockbuster {
#define GEN_PASS_DEF_CONVERTLINALGTOBLOCK
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::block;

namespace {

//===----------------------------------------------------------------------===//
// Refusals
//===----------------------------------------------------------------------===//

/// Why `op` is outside the operator table, for the diagnostic.
std::string getRefusalReason(Operation *op) {
  if (isa<linalg::ConvolutionOpInterface>(op))
    return "convolutions are outside the operator table";
  if (isa<tensor::ReshapeOp>(op))
    return "tensor.reshape with a shape operand is not supported (use "
           "tensor.expand_shape or tensor.collapse_shape)";
  if (isa<tensor::ExtractOp, tensor::GatherOp, tensor::ScatterOp,
          tensor::PadOp>(op))
    return "gathers, scatters and pads of tensors are outside the operator "
           "table";
  auto isTensor = [](Type type) { return isa<ShapedType>(type); };
  if (op->getNumRegions() == 0 &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      llvm::none_of(op->getOperandTypes(), isTensor) &&
      llvm::none_of(op->getResultTypes(), isTensor))
    return "scalar computations outside Linalg ops are not supported (fold "
           "them to constants first)";
  if (op->getNumRegions() > 0 && !isa<linalg::LinalgOp>(op))
    return "control flow is outside the operator table";
  if (!isMemoryEffectFree(op))
    return "ops with side effects are outside the operator table";
  return "it is not in the operator table (docs/LinalgToBlock.md)";
}

//===----------------------------------------------------------------------===//
// Step 2: classification of tensor values
//===----------------------------------------------------------------------===//

/// How one array dimension is indexed: by an axis (a loop dimension of the
/// op that reads it), or at a fixed position.
struct IndexEntry {
  StringAttr axis; // Null for a fixed index.
  int64_t fixed = 0;
  /// For an axis entry reading a sub-range of the dimension: its start.
  std::optional<int64_t> sliceOffset;
};

/// A range of one dimension of a concatenation or insert_slice result that
/// one source tensor provides.
struct Piece {
  int64_t start;
  int64_t size;
  Value source;
  /// Where the range starts in the source's dimension.
  int64_t sourceStart;
  /// Per result dimension: whether the source lacks it (a rank-reducing
  /// insert drops unit dimensions). Empty when it lacks none.
  SmallVector<bool> droppedDims = {};

  bool isDropped(unsigned dim) const {
    return !droppedDims.empty() && droppedDims[dim];
  }
  /// The source dimension that result dimension `dim` is.
  unsigned getSourceDim(unsigned dim) const {
    return dim - llvm::count(ArrayRef(droppedDims).take_front(
                                 droppedDims.empty() ? 0 : dim),
                             true);
  }
};

/// What a tensor value of the function is.
struct ValueInfo {
  enum class Kind { Argument, Produced, View, Alias, Filled, Empty, Pieces };
  Kind kind = Kind::Empty;
  // Produced: the operator and which of its results.
  linalg::GenericOp producer;
  unsigned resultNumber = 0;
  // Alias (transpose, broadcast or static slice): the source tensor, and for
  // each source dimension the alias dimension that indexes it, or a fixed
  // index; and the offset of a sliced dimension (else nullopt).
  Value source;
  SmallVector<std::optional<unsigned>> sourceDimToAliasDim;
  SmallVector<int64_t> sourceFixedIndex;
  SmallVector<std::optional<int64_t>> sourceSliceOffset;
  // View (expand_shape or collapse_shape): the source array, and for each
  // view dimension the source dimension it is, when it is one unchanged.
  SmallVector<std::optional<unsigned>> viewDimToSourceDim;
  // Filled: the scalar.
  TypedAttr fill;
  // Pieces (tensor.concat, tensor.insert_slice): consecutive ranges of
  // dimension `pieceDim`, in order, covering it; every other dimension is
  // read whole from each source.
  unsigned pieceDim = 0;
  SmallVector<Piece> pieces;
};

/// An all-parallel copy whose body yields its one input unchanged: a
/// transpose, a broadcast, or a copy. Such ops move no data in a block
/// program: their consumers load the source with permuted indices.
bool isAliasOp(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.isAllParallelLoops())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != op.getBody()->getArgument(0))
    return false;
  AffineMap outMap = op.getIndexingMapsArray()[1];
  AffineMap inMap = op.getIndexingMapsArray()[0];
  if (!outMap.isPermutation())
    return false;
  return llvm::all_of(inMap.getResults(), [](AffineExpr expr) {
    return isa<AffineDimExpr, AffineConstantExpr>(expr);
  });
}

//===----------------------------------------------------------------------===//
// Step 4: one generic to one map
//===----------------------------------------------------------------------===//

class ProgramBuilder;
struct Combine;

/// A signed max or min (maxsi, minsi) of i1 masks, on which signed order is
/// the reverse of the block dialect's false < true.
bool isSignedMaskOp(Operation *op) {
  return isa<arith::MaxSIOp, arith::MinSIOp>(op) &&
         op->getResult(0).getType().isInteger(1);
}

/// A builder at the end of `block`, which may not be in a region yet: the
/// bodies of reduces are built before their ops.
OpBuilder atEnd(MLIRContext *context, Block *block) {
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(block);
  return builder;
}

/// Builds the map of one linalg.generic. Tiles of the body live at one of
/// two levels: the map body, or (when the op reduces over tiled axes) the
/// body of the innermost reduce; a tile goes to the innermost level one of
/// its axes needs.
class GenericConverter {
public:
  GenericConverter(ProgramBuilder &program, linalg::GenericOp op)
      : program(program), op(op) {}

  LogicalResult convert(OpBuilder &builder);

private:
  /// Refuses index expressions other than loop dimensions and constants.
  LogicalResult checkIndexingMaps();
  /// The tiled parallel axes the map iterates (the first output's order);
  /// records the tiled reduction axes.
  FailureOr<SmallVector<Attribute>>
  getMapAxes(ArrayRef<unsigned> reductionDims);
  /// The outputs the map computes (those read, or all when none is) and, in
  /// `liveOps`, the body ops they need.
  SmallVector<unsigned> getLiveOutputs(DenseSet<Operation *> &liveOps);
  /// The reduction of one output's term over `reductionAxes`: a block.dot
  /// for a sum of products both factors of which iterate them, else a
  /// block.tile_reduce, built at the level its operands need.
  FailureOr<Value> reduceTerm(const Combine &combine,
                              ArrayRef<StringAttr> reductionAxes);
  /// Wraps the inner body in one block.reduce per tiled reduction axis
  /// (innermost: the last) and returns the outermost one's results.
  SmallVector<Value> wrapInReduces(ArrayRef<Value> partials, ArrayAttr kinds);
  /// Appends to `finals` each output's reduction combined with its initial
  /// value.
  LogicalResult convertReductions(ArrayRef<unsigned> outputs,
                                  const DenseSet<Operation *> &liveOps,
                                  ArrayRef<unsigned> reductionDims,
                                  SmallVectorImpl<Value> &finals);
  /// Yields `finals` in each output array's dimension order.
  LogicalResult yieldResults(ArrayRef<unsigned> outputs,
                             ArrayRef<Value> finals);
  StringAttr getAxis(unsigned loopDim) const;
  Value createLoad(OpOperand &operand);
  FailureOr<Value> convertScalar(Value scalar);
  FailureOr<Value> convertScalarOp(Operation *scalarOp,
                                   ArrayRef<Value> operands);
  /// A builder at the end of the level that tiles with `axes` need.
  OpBuilder builderFor(ArrayRef<StringAttr> axes);
  OpBuilder builderFor(ValueRange tiles);

  ProgramBuilder &program;
  linalg::GenericOp op;
  Location loc = op.getLoc();
  Block *mapBody = nullptr;
  /// Body of the innermost reduce, detached until the reduces are built.
  std::unique_ptr<Block> innerBody;
  SmallVector<StringAttr> tiledReductionAxes;
  DenseMap<Value, Value> tiles;
  /// The accumulators of reductions: reaching one outside its combine is an
  /// error.
  DenseSet<Value> accumulators;
};

/// Builds one block.program from one func.func.
class ProgramBuilder {
public:
  ProgramBuilder(func::FuncOp func, int64_t wholeThreshold,
                 bool wholeDotReducedAxes, bool tiledAttentionKeys)
      : func(func), wholeThreshold(wholeThreshold),
        wholeDotReducedAxes(wholeDotReducedAxes),
        tiledAttentionKeys(tiledAttentionKeys), context(func.getContext()) {}

  LogicalResult convert();

  // Queries for GenericConverter.
  StringAttr getAxis(Operation *loopOwner, unsigned loopDim) const {
    return axisNames.lookup(unifier.find(unifier.getDim(loopOwner, loopDim)));
  }
  /// The `index`-th axis of extent 1: a unit dimension an output writes at
  /// a constant index (keepdim reductions).
  StringAttr getUnitAxis(unsigned index);
  /// The array a scalar function argument became, or null.
  Value getScalarArgument(Value scalar) const {
    auto arg = dyn_cast<BlockArgument>(scalar);
    if (!arg || arg.getOwner()->getParentOp() != func)
      return Value();
    return arrays.lookup(arg);
  }
  bool isTiled(StringAttr axis) const { return tiledAxes.contains(axis); }
  /// Emits the tile of `tensor` indexed by `entries` (one per dimension) at
  /// the builder's position.
  FailureOr<Value> createLoad(OpBuilder &builder, Location loc, Value tensor,
                              SmallVector<IndexEntry> entries);
  void setArray(Value tensor, Value array) { arrays[tensor] = array; }
  const ValueInfo &getInfo(Value tensor) const {
    return infos.find(tensor)->second;
  }

private:
  /// Records what each value of the function is (argument, fill, alias,
  /// view, pieces, operator result), refusing ops outside the table.
  LogicalResult classify();
  LogicalResult classifyFill(linalg::FillOp fill);
  LogicalResult classifyConstant(arith::ConstantOp constant);
  LogicalResult classifySlice(tensor::ExtractSliceOp slice);
  LogicalResult classifyConcat(tensor::ConcatOp concat);
  LogicalResult classifyInsertSlice(tensor::InsertSliceOp insert);
  template <typename ReshapeOp>
  LogicalResult classifyReshape(ReshapeOp reshape);
  LogicalResult classifyGeneric(linalg::GenericOp generic);
  /// Records `op`'s result as built from `pieces` along `dim`.
  LogicalResult classifyPieces(Operation *op, unsigned dim,
                               SmallVector<Piece> pieces);
  /// Follows aliases and views from dimension `dim` of `tensor` to the
  /// array dimension it reads. Sets `partial` when the way there reads only
  /// part of an array (a slice: an offset or a fixed index).
  std::optional<std::pair<Value, unsigned>>
  resolveDim(Value tensor, unsigned dim, bool *partial = nullptr) const;
  void unifyAxes();
  void nameAxes();
  /// Appends fresh axes for a kernel that writes an array of `shape`, one
  /// per dimension, and adds the tiled ones to `mapAxes`.
  SmallVector<StringAttr> addKernelAxes(ArrayRef<int64_t> shape,
                                        SmallVector<Attribute> &mapAxes);
  /// A kernel that writes `tensor` (an argument, alias or fill) to a new
  /// array, over fresh axes.
  FailureOr<Value> createCopy(OpBuilder &builder, Location loc, Value tensor);
  /// Whether a reader of `result` (pieces) needs it as an array: it is
  /// returned, or read by an op other than one that took its pieces.
  bool isReadDirectly(Value result) const;
  /// The array of a concatenation or insert_slice result: a kernel that
  /// stacks its pieces, and a view of that.
  FailureOr<Value> createPieces(OpBuilder &builder, Location loc,
                                Value tensor);

  func::FuncOp func;
  int64_t wholeThreshold;
  bool wholeDotReducedAxes;
  bool tiledAttentionKeys;
  MLIRContext *context;
  DenseMap<Value, ValueInfo> infos;
  SmallVector<linalg::GenericOp> generics;
  /// Concatenations and insert_slices, whose stacking kernels' loop
  /// dimensions (getStackedShape) join the axes like a generic's.
  SmallVector<Operation *> pieceOps;
  /// Operators and views, in program order: what the program is built from.
  SmallVector<Operation *> producers;
  AxisUnifier unifier;
  DenseMap<unsigned, StringAttr> axisNames; // Class representative -> name.
  DenseSet<StringAttr> tiledAxes;
  SmallVector<AxisAttr> axisTable;
  SmallVector<StringAttr> unitAxes;
  DenseMap<Value, Value> arrays; // Tensor -> program argument or map result.
};

//===----------------------------------------------------------------------===//
// ProgramBuilder
//===----------------------------------------------------------------------===//

bool isSupportedElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// The array type of a tensor (or a 0-d array for a scalar), or an error
/// naming why there is none.
FailureOr<ArrayType> getArrayType(Location loc, Type type, const Twine &what) {
  if (isSupportedElementType(type))
    return ArrayType::get(type.getContext(), {}, type);
  if (isa<BaseMemRefType>(type)) {
    emitError(loc) << what << " has type " << type
                   << "; memrefs (bufferized programs) are outside the "
                      "operator table, which takes tensors";
    return failure();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    emitError(loc) << what << " has type " << type
                   << "; only statically shaped tensors convert (dynamic "
                      "shapes are not supported)";
    return failure();
  }
  if (!isSupportedElementType(tensor.getElementType())) {
    emitError(loc) << what << " has element type " << tensor.getElementType()
                   << ", which block programs do not support";
    return failure();
  }
  if (llvm::is_contained(tensor.getShape(), 0)) {
    emitError(loc) << what << " has a zero-sized dimension";
    return failure();
  }
  return ArrayType::get(type.getContext(), tensor.getShape(),
                        tensor.getElementType());
}

/// Records a constant fill (its value) as an initial value.
LogicalResult ProgramBuilder::classifyFill(linalg::FillOp fill) {
  Attribute value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      !isa<FloatAttr, IntegerAttr>(value))
    return fill.emitOpError(
        "fills with a value that is not a scalar constant; only "
        "constant fills convert");
  ValueInfo &info = infos[fill.getResult(0)];
  info.kind = ValueInfo::Kind::Filled;
  info.fill = cast<TypedAttr>(value);
  return success();
}

/// Records a splat tensor constant as a fill; scalar constants need nothing.
LogicalResult ProgramBuilder::classifyConstant(arith::ConstantOp constant) {
  if (isa<VectorType>(constant.getType()))
    return constant.emitOpError(
        "is a vector constant; vectors are outside the operator "
        "table");
  if (!isa<ShapedType>(constant.getType()))
    return success();
  auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
  if (!splat)
    return constant.emitOpError(
        "is a tensor constant that is not a splat; block programs "
        "take arrays as arguments only (run "
        "--hoist-tensor-constants to make it one)");
  if (failed(
          getArrayType(constant.getLoc(), constant.getType(), "the constant")))
    return failure();
  ValueInfo &info = infos[constant.getResult()];
  info.kind = ValueInfo::Kind::Filled;
  info.fill = cast<TypedAttr>(splat.getSplatValue<Attribute>());
  return success();
}

/// Records a static slice as an alias of its source, read in place.
LogicalResult ProgramBuilder::classifySlice(tensor::ExtractSliceOp slice) {
  // A static slice with unit strides is read in place: its
  // consumers load the source with offsets.
  if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
      !slice.getStrides().empty() ||
      !llvm::all_of(slice.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }))
    return slice.emitOpError(
        "cannot be converted to a block program: only static "
        "slices with unit strides are in the operator table");
  if (failed(getArrayType(slice.getLoc(), slice.getType(), "the slice")))
    return failure();
  Value source = slice.getSource();
  const ValueInfo &sourceInfo = infos[source];
  ValueInfo &info = infos[slice.getResult()];
  if (sourceInfo.kind == ValueInfo::Kind::Filled ||
      sourceInfo.kind == ValueInfo::Kind::Empty) {
    info = sourceInfo;
    return success();
  }
  info.kind = ValueInfo::Kind::Alias;
  info.source = source;
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  auto sourceType = slice.getSourceType();
  unsigned aliasDim = 0;
  for (auto [dim, offset, size] :
       llvm::enumerate(slice.getStaticOffsets(), slice.getStaticSizes())) {
    if (dropped.test(dim)) {
      info.sourceDimToAliasDim.push_back(std::nullopt);
      info.sourceFixedIndex.push_back(offset);
      info.sourceSliceOffset.push_back(std::nullopt);
      continue;
    }
    info.sourceDimToAliasDim.push_back(aliasDim++);
    info.sourceFixedIndex.push_back(0);
    bool whole = offset == 0 && size == sourceType.getDimSize(dim);
    info.sourceSliceOffset.push_back(whole ? std::nullopt
                                           : std::optional<int64_t>(offset));
  }
  return success();
}

/// Records a concatenation as built from its inputs along its dimension.
LogicalResult ProgramBuilder::classifyConcat(tensor::ConcatOp concat) {
  unsigned dim = concat.getDim();
  SmallVector<Piece> pieces;
  int64_t start = 0;
  for (Value input : concat.getInputs()) {
    int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(dim);
    pieces.push_back(Piece{start, size, input, 0});
    start += size;
  }
  return classifyPieces(concat, dim, std::move(pieces));
}

/// Records an insert_slice as built from its destination and source along
/// the one dimension it replaces a range of.
LogicalResult
ProgramBuilder::classifyInsertSlice(tensor::InsertSliceOp insert) {
  // A static insert of unit strides that replaces a range of one
  // dimension: the destination before and after it, the source
  // in it.
  auto refuse = [&](const Twine &why) {
    return insert.emitOpError()
           << "cannot be converted to a block program: " << why;
  };
  if (!insert.getOffsets().empty() || !insert.getSizes().empty() ||
      !insert.getStrides().empty() ||
      !llvm::all_of(insert.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }))
    return refuse("only static inserts with unit strides are in "
                  "the operator table");
  RankedTensorType destType = insert.getDestType();
  // A rank-reducing insert drops unit dimensions of the source.
  std::optional<llvm::SmallDenseSet<unsigned>> dropped =
      computeRankReductionMask(insert.getStaticSizes(),
                               insert.getSourceType().getShape());
  if (!dropped)
    return refuse("its source shape does not match its sizes");
  SmallVector<bool> droppedDims;
  if (!dropped->empty())
    for (int64_t dim = 0; dim < destType.getRank(); ++dim)
      droppedDims.push_back(dropped->contains(dim));
  SmallVector<unsigned> partial;
  for (auto [dim, offset, size] :
       llvm::enumerate(insert.getStaticOffsets(), insert.getStaticSizes()))
    if (offset != 0 || size != destType.getDimSize(dim))
      partial.push_back(dim);
  if (partial.size() > 1)
    return refuse("it replaces a part of more than one "
                  "dimension; only inserts that cover all "
                  "dimensions but one are supported");
  unsigned dim = partial.empty() ? 0 : partial.front();
  int64_t offset = insert.getStaticOffsets()[dim];
  int64_t size = insert.getStaticSizes()[dim];
  int64_t extent = destType.getDimSize(dim);
  SmallVector<Piece> pieces;
  if (offset > 0)
    pieces.push_back(Piece{0, offset, insert.getDest(), 0});
  pieces.push_back(Piece{offset, size, insert.getSource(), 0, droppedDims});
  if (offset + size < extent)
    pieces.push_back(Piece{offset + size, extent - offset - size,
                           insert.getDest(), offset + size});
  return classifyPieces(insert, dim, std::move(pieces));
}

/// Records an expand_shape or collapse_shape as a view of its source.
template <typename ReshapeOp>
LogicalResult ProgramBuilder::classifyReshape(ReshapeOp reshape) {
  if (failed(getArrayType(reshape.getLoc(), reshape.getType(),
                          "the reshaped tensor")))
    return failure();
  Value source = reshape.getSrc();
  const ValueInfo &sourceInfo = infos[source];
  ValueInfo &info = infos[reshape.getResult()];
  if (sourceInfo.kind == ValueInfo::Kind::Filled ||
      sourceInfo.kind == ValueInfo::Kind::Empty) {
    info = sourceInfo; // A reshaped fill is a fill.
    return success();
  }
  info.kind = ValueInfo::Kind::View;
  info.source = source;
  // A dimension whose reassociation group has no other
  // dimension of extent > 1 is unchanged by the reshape: it
  // only gains or loses unit dimensions.
  bool expand = isa<tensor::ExpandShapeOp>(reshape);
  auto viewType = cast<RankedTensorType>(reshape.getType());
  auto sourceType = cast<RankedTensorType>(source.getType());
  // The side of the reshape whose dimensions are grouped.
  auto grouped = expand ? viewType : sourceType;
  info.viewDimToSourceDim.assign(viewType.getRank(), std::nullopt);
  for (auto [group, dims] :
       llvm::enumerate(reshape.getReassociationIndices())) {
    SmallVector<int64_t> wide;
    for (int64_t dim : dims)
      if (grouped.getDimSize(dim) != 1)
        wide.push_back(dim);
    if (wide.size() != 1)
      continue;
    if (expand)
      info.viewDimToSourceDim[wide[0]] = group;
    else
      info.viewDimToSourceDim[group] = wide[0];
  }
  producers.push_back(reshape);
  return success();
}

/// Records a generic that only copies, transposes or broadcasts as an alias
/// of its input, and any other as an operator of the program.
LogicalResult ProgramBuilder::classifyGeneric(linalg::GenericOp generic) {
  for (auto [index, result] : llvm::enumerate(generic.getResults()))
    if (failed(getArrayType(generic.getLoc(), result.getType(),
                            "result #" + Twine(index))))
      return failure();
  if (isAliasOp(generic)) {
    Value source = generic.getDpsInputs()[0];
    const ValueInfo &sourceInfo = infos[source];
    ValueInfo &info = infos[generic.getResult(0)];
    if (sourceInfo.kind == ValueInfo::Kind::Filled) {
      info = sourceInfo; // A broadcast fill is a fill.
      return success();
    }
    if (sourceInfo.kind == ValueInfo::Kind::Empty)
      return generic.emitOpError(
          "copies an uninitialised tensor (tensor.empty)");
    info.kind = ValueInfo::Kind::Alias;
    info.source = source;
    AffineMap inMap = generic.getIndexingMapsArray()[0];
    AffineMap outMap = generic.getIndexingMapsArray()[1];
    for (AffineExpr expr : inMap.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        info.sourceDimToAliasDim.push_back(*outMap.getResultPosition(dim));
        info.sourceFixedIndex.push_back(0);
        info.sourceSliceOffset.push_back(std::nullopt);
      } else {
        info.sourceDimToAliasDim.push_back(std::nullopt);
        info.sourceFixedIndex.push_back(
            cast<AffineConstantExpr>(expr).getValue());
        info.sourceSliceOffset.push_back(std::nullopt);
      }
    }
    return success();
  }
  for (auto [index, result] : llvm::enumerate(generic.getResults())) {
    ValueInfo &info = infos[result];
    info.kind = ValueInfo::Kind::Produced;
    info.producer = generic;
    info.resultNumber = index;
  }
  generics.push_back(generic);
  producers.push_back(generic);
  return success();
}

LogicalResult ProgramBuilder::classify() {
  for (BlockArgument arg : func.getArguments()) {
    if (failed(getArrayType(func.getLoc(), arg.getType(),
                            "argument #" + Twine(arg.getArgNumber()))))
      return failure();
    infos[arg].kind = ValueInfo::Kind::Argument;
  }
  for (Type type : func.getResultTypes())
    if (failed(getArrayType(func.getLoc(), type, "a result")))
      return failure();

  for (Operation &op : func.getBody().front()) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](tensor::EmptyOp empty) {
              infos[empty.getResult()].kind = ValueInfo::Kind::Empty;
              return success();
            })
            .Case([&](linalg::FillOp fill) { return classifyFill(fill); })
            .Case([&](arith::ConstantOp constant) {
              return classifyConstant(constant);
            })
            .Case([&](tensor::ExtractSliceOp slice) {
              return classifySlice(slice);
            })
            .Case(
                [&](tensor::ConcatOp concat) { return classifyConcat(concat); })
            .Case([&](tensor::InsertSliceOp insert) {
              return classifyInsertSlice(insert);
            })
            .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
                [&](auto reshape) { return classifyReshape(reshape); })
            .Case([&](linalg::GenericOp generic) {
              return classifyGeneric(generic);
            })
            .Case([&](func::ReturnOp) { return success(); })
            .Default([&](Operation *other) {
              return other->emitOpError()
                     << "cannot be converted to a block program: "
                     << getRefusalReason(other);
            });
    if (failed(result))
      return failure();
  }
  return success();
}

/// The kernel that stacks pieces cuts their dimension into groups of the
/// greatest common divisor of the piece boundaries: each group lies in one
/// piece. It writes the result with that dimension split into (number of
/// groups, group), its loop dimensions.
int64_t getPieceGroup(Value result, const ValueInfo &info) {
  int64_t group = cast<ShapedType>(result.getType()).getDimSize(info.pieceDim);
  for (const Piece &piece : info.pieces)
    group = std::gcd(group, std::gcd(piece.start, piece.size));
  return group;
}

SmallVector<int64_t> getStackedShape(Value result, const ValueInfo &info) {
  SmallVector<int64_t> shape(cast<ShapedType>(result.getType()).getShape());
  int64_t group = getPieceGroup(result, info);
  int64_t extent = shape[info.pieceDim];
  shape[info.pieceDim] = group;
  shape.insert(shape.begin() + info.pieceDim, extent / group);
  return shape;
}

LogicalResult ProgramBuilder::classifyPieces(Operation *op, unsigned dim,
                                             SmallVector<Piece> pieces) {
  Value result = op->getResult(0);
  if (failed(getArrayType(op->getLoc(), result.getType(), "the result")))
    return failure();
  // A piece of a value that is itself pieces along `dim` (an insert into an
  // insert, a concatenation of one) reads those pieces directly.
  SmallVector<Piece> flat;
  for (Piece &piece : pieces) {
    const ValueInfo &sourceInfo = infos[piece.source];
    if (sourceInfo.kind != ValueInfo::Kind::Pieces ||
        sourceInfo.pieceDim != dim || !piece.droppedDims.empty()) {
      flat.push_back(std::move(piece));
      continue;
    }
    int64_t begin = piece.sourceStart, end = begin + piece.size;
    for (const Piece &inner : sourceInfo.pieces) {
      int64_t lo = std::max(begin, inner.start);
      int64_t hi = std::min(end, inner.start + inner.size);
      if (lo < hi)
        flat.push_back(Piece{piece.start + lo - begin, hi - lo, inner.source,
                             inner.sourceStart + lo - inner.start,
                             inner.droppedDims});
    }
  }
  pieces = std::move(flat);
  ValueInfo &info = infos[result];
  if (pieces.size() == 1 && pieces.front().droppedDims.empty() &&
      pieces.front().sourceStart == 0 &&
      pieces.front().source.getType() == result.getType()) {
    // One source covers the result: it is that tensor.
    info.kind = ValueInfo::Kind::Alias;
    info.source = pieces.front().source;
    for (unsigned d = 0; d < cast<ShapedType>(result.getType()).getRank();
         ++d) {
      info.sourceDimToAliasDim.push_back(d);
      info.sourceFixedIndex.push_back(0);
      info.sourceSliceOffset.push_back(std::nullopt);
    }
    return success();
  }
  info.kind = ValueInfo::Kind::Pieces;
  info.pieceDim = dim;
  info.pieces = std::move(pieces);
  int64_t extent = cast<ShapedType>(result.getType()).getDimSize(dim);
  int64_t group = getPieceGroup(result, info);
  if (extent / group > blockbuster::kMaxStackedGroups)
    return op->emitOpError()
           << "cannot be converted to a block program: its pieces along "
              "dimension "
           << dim << " have boundaries whose greatest common divisor is "
           << group << ", which cuts the dimension into " << extent / group
           << " groups (at most " << blockbuster::kMaxStackedGroups
           << " are supported)";
  producers.push_back(op);
  pieceOps.push_back(op);
  return success();
}

/// Whether an alias reads only part of its source: a slice with an offset,
/// or a fixed index into a dimension of extent above 1.
bool isPartialAlias(const ValueInfo &info) {
  auto sourceType = cast<ShapedType>(info.source.getType());
  for (auto [dim, aliasDim, offset] : llvm::enumerate(
           info.sourceDimToAliasDim, info.sourceSliceOffset))
    if (offset || (!aliasDim && sourceType.getDimSize(dim) != 1))
      return true;
  return false;
}

/// Follows aliases from dimension `dim` of `tensor` to the dimension of an
/// argument or operator result it reads; none for a broadcast dimension or
/// a fill.
std::optional<std::pair<Value, unsigned>>
ProgramBuilder::resolveDim(Value tensor, unsigned dim, bool *partial) const {
  while (true) {
    auto it = infos.find(tensor);
    if (it == infos.end())
      return std::nullopt;
    const ValueInfo &info = it->second;
    switch (info.kind) {
    case ValueInfo::Kind::Argument:
    case ValueInfo::Kind::Produced:
    case ValueInfo::Kind::Pieces: // Its own array, written by a kernel.
      return std::make_pair(tensor, dim);
    case ValueInfo::Kind::Filled:
    case ValueInfo::Kind::Empty:
      return std::nullopt;
    case ValueInfo::Kind::View: {
      std::optional<unsigned> sourceDim = info.viewDimToSourceDim[dim];
      if (!sourceDim)
        return std::make_pair(tensor, dim); // A reshaped dimension.
      dim = *sourceDim;
      tensor = info.source;
      break;
    }
    case ValueInfo::Kind::Alias: {
      auto sourceDim = llvm::find(info.sourceDimToAliasDim, dim);
      if (sourceDim == info.sourceDimToAliasDim.end())
        return std::nullopt; // A broadcast dimension.
      if (partial && isPartialAlias(info))
        *partial = true;
      dim = std::distance(info.sourceDimToAliasDim.begin(), sourceDim);
      tensor = info.source;
      break;
    }
    }
  }
}

void ProgramBuilder::unifyAxes() {
  for (linalg::GenericOp generic : generics) {
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    for (auto [dim, extent] : llvm::enumerate(ranges))
      unifier.addDim(generic, dim, extent);
  }
  // Producer-consumer edges first (they make fusion possible), then edges
  // from readers of part of a producer's result (a slice, as q, k and v of
  // a fused projection are: fusion cannot take a producer into a reader of
  // part of it, so these must not take an axis that an exact reader
  // needs), then edges between readers of one argument dimension.
  SmallVector<std::pair<unsigned, unsigned>> strong, sliced, weak;
  DenseMap<std::pair<Value, unsigned>, unsigned> firstArgumentReader;
  // Loop dimension `reader` reads dimension `dim` of `tensor`.
  auto addRead = [&](unsigned reader, Value tensor, unsigned dim) {
    bool partial = false;
    auto resolved = resolveDim(tensor, dim, &partial);
    if (!resolved)
      return;
    auto [base, baseDim] = *resolved;
    ValueInfo &info = infos.find(base)->second;
    if (info.kind == ValueInfo::Kind::Produced) {
      AffineMap outMap =
          info.producer.getIndexingMapMatchingResult(cast<OpResult>(base));
      if (auto producerDim =
              dyn_cast<AffineDimExpr>(outMap.getResult(baseDim)))
        (partial ? sliced : strong).push_back(
            {reader,
             unifier.getDim(info.producer, producerDim.getPosition())});
      return;
    }
    auto [it, inserted] =
        firstArgumentReader.try_emplace({base, baseDim}, reader);
    if (!inserted)
      weak.push_back({reader, it->second});
  };
  for (linalg::GenericOp generic : generics) {
    for (OpOperand &operand : generic->getOpOperands()) {
      if (generic.isDpsInit(&operand) &&
          !generic.payloadUsesValueFromOperand(&operand))
        continue;
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      for (auto [position, expr] : llvm::enumerate(map.getResults()))
        if (auto dimExpr = dyn_cast<AffineDimExpr>(expr))
          addRead(unifier.getDim(generic, dimExpr.getPosition()),
                  operand.get(), position);
    }
  }
  // Pieces whose readers all took their pieces need no kernel.
  llvm::erase_if(pieceOps, [&](Operation *op) {
    return !isReadDirectly(op->getResult(0));
  });
  // A stacking kernel reads every dimension but the cut one of each piece
  // whole, and the cut one at the group's offset: its group dimension
  // reads a piece's dimension exactly where the piece is one group.
  for (Operation *op : pieceOps) {
    Value result = op->getResult(0);
    const ValueInfo &info = infos.find(result)->second;
    SmallVector<int64_t> stacked = getStackedShape(result, info);
    for (auto [dim, extent] : llvm::enumerate(stacked))
      unifier.addDim(op, dim, extent);
    int64_t group = stacked[info.pieceDim + 1];
    for (const Piece &piece : info.pieces) {
      auto sourceType = cast<RankedTensorType>(piece.source.getType());
      for (unsigned dim = 0; dim < stacked.size() - 1; ++dim) {
        if (piece.isDropped(dim))
          continue;
        unsigned sourceDim = piece.getSourceDim(dim);
        if (dim == info.pieceDim && sourceType.getDimSize(sourceDim) != group)
          continue;
        unsigned loopDim = dim < info.pieceDim ? dim : dim + 1;
        addRead(unifier.getDim(op, loopDim), piece.source, sourceDim);
      }
    }
  }
  for (auto [a, b] : strong)
    (void)unifier.unify(a, b);
  for (auto [a, b] : sliced)
    (void)unifier.unify(a, b);
  for (auto [a, b] : weak)
    (void)unifier.unify(a, b);
}

void ProgramBuilder::nameAxes() {
  // Classes are numbered by their representative, the first loop dimension
  // in program order, so names follow the program.
  SmallVector<unsigned> representatives;
  auto addRepresentative = [&](Operation *op, unsigned dim) {
    unsigned rep = unifier.find(unifier.getDim(op, dim));
    if (!axisNames.count(rep)) {
      axisNames[rep] = StringAttr();
      representatives.push_back(rep);
    }
  };
  for (linalg::GenericOp generic : generics)
    for (unsigned dim = 0; dim < generic.getNumLoops(); ++dim)
      addRepresentative(generic, dim);
  for (Operation *op : pieceOps)
    for (unsigned dim = 0;
         dim < cast<ShapedType>(op->getResult(0).getType()).getRank() + 1;
         ++dim)
      addRepresentative(op, dim);
  llvm::sort(representatives);

  // An axis' role decides whether it may be whole. A row axis (rows of a
  // matrix, queries, heads, batch) is never reduced by a row statistic and
  // never the innermost (contiguous) dimension of an operand of a
  // reduction: its blocks are independent, so tiling it only multiplies
  // instances (thread blocks), and keeping it whole would put every row in
  // one instance whatever the target's local memory. Row axes are tiled at
  // any extent above 1. Axes that a statistic reduces (sums, maxima:
  // softmax, normalisations) or that are innermost in what a reduction
  // reads (features, the key axis of S = QK^T, the reduced axis of a dot)
  // are whole up to `whole-threshold`: fusion keeps them in one tile so
  // that row statistics and dots see whole rows.
  //
  // What says nothing about rows: an operand of a statistic that lacks one
  // of its axes (the statistics [B, H, S] it writes: rows innermost). Every
  // operand of a dot counts: each lacks an axis, and each says which axes
  // are features. A dot's reduced axis that no operand holds innermost (the
  // heads of an output projection contracting [heads, 64] per row) is whole
  // with `whole-dot-reduced-axes` (the default: attention and its output
  // projection can then be one kernel per block of rows, all heads in it),
  // else a row axis (the dot accumulates over blocks of heads, and heads
  // are a grid dimension: more blocks, fewer fusions). An elementwise operator's innermost axis counts only where no
  // reduction shows the axis to be a row (a parallel axis of the reduction
  // that is not innermost in it): its innermost axis is whatever the layout
  // is (the queries of the transposed K that torch's attention scales, the
  // rows of [B, S] statistics), but in a program of elementwise operators
  // alone it is the contiguous axis, whole for wide vector accesses.
  llvm::DenseSet<unsigned> reducedOrInner, rowsOfReductions,
      innerOfElementwise;
  // With `tiled-attention-keys`: the axes a contraction makes (a parallel
  // axis of its output), a statistic reduces and another contraction
  // reduces: the keys of softmax(Q K^T) V.
  llvm::DenseSet<unsigned> madeByDots, reducedByStatistics, reducedByDots;
  for (linalg::GenericOp generic : generics) {
    bool contraction = linalg::isaContractionOpInterface(
        cast<linalg::LinalgOp>(generic.getOperation()));
    bool reduces = generic.getNumReductionLoops() > 0;
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    auto axisOf = [&](unsigned dim) {
      return unifier.find(unifier.getDim(generic, dim));
    };
    for (auto [dim, type] : llvm::enumerate(iterators)) {
      if (type == utils::IteratorType::reduction)
        (contraction ? reducedByDots : reducedByStatistics)
            .insert(axisOf(dim));
      else if (contraction)
        madeByDots.insert(axisOf(dim));
    }
    llvm::SmallDenseSet<unsigned> wholeHere;
    if (!contraction || wholeDotReducedAxes)
      for (auto [dim, type] : llvm::enumerate(iterators))
        if (type == utils::IteratorType::reduction)
          wholeHere.insert(dim);
    for (AffineMap map : generic.getIndexingMapsArray()) {
      // The innermost dimension of extent > 1 of an operand with at least two
      // such dimensions: a vector (mu[M], bias[N]) says nothing about which
      // of its axes is a row, and unit dimensions (keepdim) are layout only.
      SmallVector<unsigned> dims;
      for (AffineExpr result : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(result))
          if (ranges[dim.getPosition()] > 1)
            dims.push_back(dim.getPosition());
      if (dims.size() < 2)
        continue;
      bool partial = llvm::any_of(
          llvm::seq<unsigned>(0, generic.getNumLoops()), [&](unsigned dim) {
            return ranges[dim] > 1 && !map.isFunctionOfDim(dim);
          });
      if (!reduces)
        innerOfElementwise.insert(axisOf(dims.back()));
      else if (contraction || !partial)
        wholeHere.insert(dims.back());
    }
    for (unsigned dim : wholeHere)
      reducedOrInner.insert(axisOf(dim));
    if (reduces)
      for (auto [dim, type] : llvm::enumerate(iterators))
        if (type == utils::IteratorType::parallel && ranges[dim] > 1 &&
            !wholeHere.contains(dim))
          rowsOfReductions.insert(axisOf(dim));
  }
  for (unsigned axis : innerOfElementwise)
    if (!rowsOfReductions.contains(axis))
      reducedOrInner.insert(axis);
  // Attention's keys tiled at any extent (a reduce over key blocks, even
  // of one block): the form gpu-flash-attention runs in registers, which
  // short sequences (16 keys, whole below the threshold) otherwise never
  // reach. A candidate of its own (compileForGPU's conversions): the
  // cost model and block-select's register test choose between it and
  // the whole-keys forms.
  llvm::DenseSet<unsigned> attentionKeys;
  if (tiledAttentionKeys)
    for (unsigned axis : reducedByStatistics)
      if (madeByDots.contains(axis) && reducedByDots.contains(axis))
        attentionKeys.insert(axis);
  // A stacking kernel selects along its groups dimension (a few, at most
  // kMaxStackedGroups), so that stays whole, and so does the innermost of
  // its dimensions, as for a generic.
  for (Operation *op : pieceOps) {
    Value result = op->getResult(0);
    const ValueInfo &info = infos.find(result)->second;
    SmallVector<int64_t> stacked = getStackedShape(result, info);
    reducedOrInner.insert(
        unifier.find(unifier.getDim(op, info.pieceDim)));
    SmallVector<unsigned> dims;
    for (auto [dim, extent] : llvm::enumerate(stacked))
      if (extent > 1)
        dims.push_back(dim);
    if (dims.size() >= 2)
      reducedOrInner.insert(unifier.find(unifier.getDim(op, dims.back())));
  }

  for (auto [index, rep] : llvm::enumerate(representatives)) {
    StringAttr name = StringAttr::get(context, "a" + Twine(index));
    axisNames[rep] = name;
    int64_t extent = unifier.getExtent(rep);
    bool isRow = !reducedOrInner.contains(rep) || attentionKeys.contains(rep);
    AxisKind kind = extent > (isRow ? 1 : wholeThreshold) ? AxisKind::Tiled
                                                          : AxisKind::Whole;
    if (kind == AxisKind::Tiled)
      tiledAxes.insert(name);
    axisTable.push_back(AxisAttr::get(context, name, extent, kind,
                                      /*blockSize=*/std::nullopt));
  }
}

FailureOr<Value> ProgramBuilder::createLoad(OpBuilder &builder, Location loc,
                                            Value tensor,
                                            SmallVector<IndexEntry> entries) {
  // Follow aliases: a transposed or broadcast view reads its source.
  while (true) {
    const ValueInfo &info = infos.find(tensor)->second;
    if (info.kind == ValueInfo::Kind::Filled) {
      // A fill is the same everywhere: a scalar, broadcast by name.
      return ConstantOp::create(builder, loc, builder.getArrayAttr({}),
                                info.fill)
          .getResult();
    }
    if (info.kind == ValueInfo::Kind::Empty) {
      emitError(loc) << "reads an uninitialised tensor (tensor.empty)";
      return failure();
    }
    if (info.kind != ValueInfo::Kind::Alias)
      break;
    SmallVector<IndexEntry> sourceEntries;
    for (auto [aliasDim, fixed, sliceOffset] :
         llvm::zip(info.sourceDimToAliasDim, info.sourceFixedIndex,
                   info.sourceSliceOffset)) {
      if (!aliasDim) {
        sourceEntries.push_back(IndexEntry{StringAttr(), fixed, {}});
        continue;
      }
      IndexEntry entry = entries[*aliasDim];
      if (sliceOffset) {
        if (entry.axis)
          entry.sliceOffset = entry.sliceOffset.value_or(0) + *sliceOffset;
        else
          entry.fixed += *sliceOffset;
      }
      sourceEntries.push_back(entry);
    }
    entries = std::move(sourceEntries);
    tensor = info.source;
  }

  Value array = arrays.lookup(tensor);
  auto arrayType = cast<ArrayType>(array.getType());
  SmallVector<Attribute> indexAxes;
  SmallVector<int64_t> offsets;
  SmallVector<StringAttr> tileAxes;
  for (const IndexEntry &entry : entries) {
    if (entry.axis) {
      indexAxes.push_back(entry.axis);
      // -1: exact, the axis spans the dimension.
      offsets.push_back(entry.sliceOffset.value_or(-1));
      tileAxes.push_back(entry.axis);
    } else {
      indexAxes.push_back(builder.getStringAttr(""));
      offsets.push_back(entry.fixed);
    }
  }
  auto tileType =
      TileType::get(context, tileAxes, arrayType.getElementType());
  return LoadOp::create(builder, loc, tileType, array,
                        builder.getArrayAttr(indexAxes),
                        builder.getDenseI64ArrayAttr(offsets))
      .getResult();
}

StringAttr ProgramBuilder::getUnitAxis(unsigned index) {
  while (unitAxes.size() <= index) {
    StringAttr name =
        StringAttr::get(context, "u" + Twine(unitAxes.size()));
    unitAxes.push_back(name);
    axisTable.push_back(AxisAttr::get(context, name, /*extent=*/1,
                                      AxisKind::Whole,
                                      /*blockSize=*/std::nullopt));
  }
  return unitAxes[index];
}

SmallVector<StringAttr>
ProgramBuilder::addKernelAxes(ArrayRef<int64_t> shape,
                              SmallVector<Attribute> &mapAxes) {
  // The roles of nameAxes: the innermost dimension of extent > 1 of a
  // tensor with at least two such dimensions is a feature axis (whole up to
  // the threshold); the others are row axes (tiled above extent 1).
  std::optional<unsigned> inner;
  unsigned numNonUnit = 0;
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (extent > 1) {
      inner = dim;
      ++numNonUnit;
    }
  SmallVector<StringAttr> axes;
  for (auto [dim, extent] : llvm::enumerate(shape)) {
    StringAttr name =
        StringAttr::get(context, "a" + Twine(axisTable.size()));
    bool isFeature = numNonUnit >= 2 && dim == inner;
    AxisKind kind = extent > (isFeature ? wholeThreshold : 1)
                        ? AxisKind::Tiled
                        : AxisKind::Whole;
    axisTable.push_back(AxisAttr::get(context, name, extent, kind,
                                      /*blockSize=*/std::nullopt));
    if (kind == AxisKind::Tiled) {
      tiledAxes.insert(name);
      mapAxes.push_back(name);
    }
    axes.push_back(name);
  }
  return axes;
}

FailureOr<Value> ProgramBuilder::createCopy(OpBuilder &builder, Location loc,
                                            Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Attribute> mapAxes;
  SmallVector<StringAttr> tileAxes = addKernelAxes(type.getShape(), mapAxes);
  SmallVector<IndexEntry> entries;
  for (StringAttr axis : tileAxes)
    entries.push_back(IndexEntry{axis, 0});
  FailureOr<ArrayType> arrayType = getArrayType(loc, type, "the copy");
  if (failed(arrayType))
    return failure();
  auto map = MapOp::create(builder, loc, TypeRange{*arrayType},
                           builder.getArrayAttr(mapAxes));
  OpBuilder body = atEnd(context, &map.getBody().emplaceBlock());
  FailureOr<Value> tile = createLoad(body, loc, tensor, entries);
  if (failed(tile))
    return failure();
  auto wanted =
      TileType::get(context, tileAxes, type.getElementType());
  Value yielded = *tile;
  if (yielded.getType() != wanted)
    yielded = BroadcastOp::create(body, loc, wanted, yielded);
  YieldOp::create(body, loc, ValueRange{yielded});
  return map.getResult(0);
}

bool ProgramBuilder::isReadDirectly(Value result) const {
  return llvm::any_of(result.getUsers(), [&](Operation *user) {
    if (user->getNumResults() != 1)
      return true;
    auto it = infos.find(user->getResult(0));
    if (it == infos.end() || it->second.kind != ValueInfo::Kind::Pieces)
      return true;
    return llvm::any_of(it->second.pieces, [&](const Piece &piece) {
      return piece.source == result;
    });
  });
}

FailureOr<Value> ProgramBuilder::createPieces(OpBuilder &builder, Location loc,
                                              Value tensor) {
  const ValueInfo &info = infos.find(tensor)->second;
  auto type = cast<RankedTensorType>(tensor.getType());
  unsigned dim = info.pieceDim;
  int64_t group = getPieceGroup(tensor, info);
  int64_t numGroups = type.getDimSize(dim) / group;

  // The kernel writes the result with `dim` split into (groups, group):
  // element j of `dim` is element j % group of group j / group. Group i is
  // a slice load `A + c` of the piece that holds it, selected where the
  // groups axis is i.
  SmallVector<int64_t> stackedShape = getStackedShape(tensor, info);
  Operation *op = tensor.getDefiningOp();
  SmallVector<Attribute> mapAxes;
  SmallVector<StringAttr> axes;
  for (unsigned loopDim = 0; loopDim < stackedShape.size(); ++loopDim) {
    axes.push_back(getAxis(op, loopDim));
    if (isTiled(axes.back()))
      mapAxes.push_back(axes.back());
  }
  StringAttr groupsAxis = axes[dim];
  auto stackedType =
      ArrayType::get(context, stackedShape, type.getElementType());
  auto map = MapOp::create(builder, loc, TypeRange{stackedType},
                           builder.getArrayAttr(mapAxes));
  OpBuilder body = atEnd(context, &map.getBody().emplaceBlock());
  Value groupIndex = IotaOp::create(
      body, loc, TileType::get(context, {groupsAxis}, body.getIndexType()),
      groupsAxis);

  Value stacked;
  for (int64_t index = numGroups - 1; index >= 0; --index) {
    int64_t start = index * group;
    const Piece *piece = llvm::find_if(info.pieces, [&](const Piece &p) {
      return p.start <= start && start < p.start + p.size;
    });
    // The groups axis indexes no source dimension; neither do dimensions
    // the source lacks.
    SmallVector<IndexEntry> entries;
    for (unsigned resultDim = 0; resultDim < type.getRank(); ++resultDim) {
      if (piece->isDropped(resultDim))
        continue;
      StringAttr axis = axes[resultDim < dim ? resultDim : resultDim + 1];
      entries.push_back(IndexEntry{axis, 0});
      if (resultDim != dim)
        continue;
      int64_t sourceStart = start - piece->start + piece->sourceStart;
      int64_t sourceExtent = cast<RankedTensorType>(piece->source.getType())
                                 .getDimSize(piece->getSourceDim(dim));
      if (sourceStart != 0 || sourceExtent != group)
        entries.back().sliceOffset = sourceStart;
    }
    FailureOr<Value> tile = createLoad(body, loc, piece->source, entries);
    if (failed(tile))
      return failure();
    if (!stacked) {
      stacked = *tile;
      continue;
    }
    Value indexValue = ConstantOp::create(body, loc, body.getArrayAttr({}),
                                          body.getIndexAttr(index));
    Value isGroup = CompareOp::create(body, loc, ComparePredicate::eq,
                                      groupIndex, indexValue);
    stacked = SelectOp::create(body, loc, isGroup, *tile, stacked);
  }
  auto wanted = TileType::get(context, axes, type.getElementType());
  if (stacked.getType() != wanted)
    stacked = BroadcastOp::create(body, loc, wanted, stacked);
  YieldOp::create(body, loc, ValueRange{stacked});
  FailureOr<ArrayType> arrayType = getArrayType(loc, type, "the result");
  if (failed(arrayType))
    return failure();
  return ViewOp::create(builder, loc, *arrayType, map.getResult(0))
      .getResult();
}

LogicalResult ProgramBuilder::convert() {
  if (failed(classify()))
    return failure();
  unifyAxes();
  nameAxes();

  // Program signature.
  SmallVector<Type> inputs, results;
  for (Type type : func.getArgumentTypes())
    inputs.push_back(*getArrayType(func.getLoc(), type, "argument"));
  for (Type type : func.getResultTypes())
    results.push_back(*getArrayType(func.getLoc(), type, "result"));

  OpBuilder builder(func);
  auto program = ProgramOp::create(builder, func.getLoc(), func.getSymName(),
                                   builder.getFunctionType(inputs, results),
                                   axisTable);
  // Argument and result attributes (the keys of hoisted weights, which the
  // launch manifest names inputs by) stay with the signature.
  if (ArrayAttr argAttrs = func.getAllArgAttrs())
    program.setAllArgAttrs(argAttrs);
  if (ArrayAttr resAttrs = func.getAllResultAttrs())
    program.setAllResultAttrs(resAttrs);
  Block &body = program.getBody().front();
  for (auto [tensorArg, arrayArg] :
       llvm::zip(func.getArguments(), body.getArguments()))
    arrays[tensorArg] = arrayArg;

  builder.setInsertionPointToEnd(&body);
  for (Operation *producer : producers) {
    if (auto generic = dyn_cast<linalg::GenericOp>(producer)) {
      GenericConverter converter(*this, generic);
      if (failed(converter.convert(builder))) {
        program.erase();
        return failure();
      }
      continue;
    }
    Value result = producer->getResult(0);
    if (infos.find(result)->second.kind == ValueInfo::Kind::Pieces) {
      if (!isReadDirectly(result))
        continue; // Every reader took its pieces.
      FailureOr<Value> stacked =
          createPieces(builder, producer->getLoc(), result);
      if (failed(stacked)) {
        program.erase();
        return failure();
      }
      arrays[result] = *stacked;
      continue;
    }
    // A view of a transposed or broadcast tensor needs the tensor written
    // out first: views reinterpret arrays in memory.
    Value source = infos.find(result)->second.source;
    Value array = arrays.lookup(source);
    if (!array) {
      FailureOr<Value> copy = createCopy(builder, producer->getLoc(), source);
      if (failed(copy)) {
        program.erase();
        return failure();
      }
      array = *copy;
    }
    auto view = ViewOp::create(
        builder, producer->getLoc(),
        *getArrayType(producer->getLoc(), result.getType(), "view"), array);
    arrays[result] = view.getResult();
  }

  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  DenseSet<Value> returnedArrays;
  for (Value operand : ret.getOperands())
    if (Value array = arrays.lookup(operand))
      returnedArrays.insert(array);
  // A returned view shares memory with its source: where that source is an
  // argument or another result, the view's result needs memory of its own
  // (the GPU writes results into buffers the caller owns).
  auto isSharedView = [&](Value array) {
    auto view = array.getDefiningOp<ViewOp>();
    if (!view)
      return false;
    Value source = view.getSource();
    return isa<BlockArgument>(source) || returnedArrays.contains(source);
  };
  SmallVector<Value> returned;
  for (unsigned index = 0; index < ret.getNumOperands(); ++index) {
    // A returned argument, alias or fill, or a view of an argument or of
    // another result, gets a kernel that writes it.
    Value array = arrays.lookup(ret.getOperand(index));
    if (!array || isSharedView(array)) {
      FailureOr<Value> copy =
          createCopy(builder, ret.getLoc(), ret.getOperand(index));
      if (failed(copy)) {
        program.erase();
        return failure();
      }
      array = *copy;
    }
    returned.push_back(array);
  }
  ReturnOp::create(builder, ret.getLoc(), returned);
  // Axes of copies were appended while building.
  program.setAxesAttr(builder.getArrayAttr(
      llvm::to_vector_of<Attribute>(axisTable)));
  func.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// GenericConverter
//===----------------------------------------------------------------------===//

StringAttr GenericConverter::getAxis(unsigned loopDim) const {
  return program.getAxis(op, loopDim);
}

OpBuilder GenericConverter::builderFor(ArrayRef<StringAttr> axes) {
  bool inner = innerBody && llvm::any_of(axes, [&](StringAttr axis) {
                 return llvm::is_contained(tiledReductionAxes, axis);
               });
  return atEnd(op.getContext(), inner ? innerBody.get() : mapBody);
}

OpBuilder GenericConverter::builderFor(ValueRange operands) {
  bool inner = llvm::any_of(operands, [&](Value tile) {
    return innerBody && tile.getParentBlock() == innerBody.get();
  });
  return atEnd(op.getContext(), inner ? innerBody.get() : mapBody);
}

Value GenericConverter::createLoad(OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<IndexEntry> entries;
  SmallVector<StringAttr> axes;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      entries.push_back(IndexEntry{getAxis(dim.getPosition()), 0});
      axes.push_back(entries.back().axis);
    } else {
      entries.push_back(
          IndexEntry{StringAttr(), cast<AffineConstantExpr>(expr).getValue()});
    }
  }
  OpBuilder builder = builderFor(axes);
  FailureOr<Value> tile =
      program.createLoad(builder, loc, operand.get(), entries);
  return succeeded(tile) ? *tile : Value();
}

/// The tile of the scalar `scalar` of the generic's body, built on demand.
FailureOr<Value> GenericConverter::convertScalar(Value scalar) {
  if (Value tile = tiles.lookup(scalar))
    return tile;
  if (accumulators.contains(scalar)) {
    op.emitOpError() << "uses a reduction's accumulator outside the combine "
                        "'accumulator <op> term'; only that form converts";
    return failure();
  }
  Value tile;
  if (auto arg = dyn_cast<BlockArgument>(scalar);
      arg && arg.getOwner() == op.getBody()) {
    tile = createLoad(*op.getMatchingOpOperand(arg));
    if (!tile)
      return failure();
  } else if (Operation *definer = scalar.getDefiningOp();
             definer && definer->getBlock() == op.getBody()) {
    SmallVector<Value> operands;
    // A power's exponent is read as a constant, not converted to a tile.
    ValueRange tileOperands = definer->getOperands();
    if (isa<math::FPowIOp, math::PowFOp>(definer))
      tileOperands = tileOperands.take_front();
    for (Value operand : tileOperands) {
      FailureOr<Value> converted = convertScalar(operand);
      if (failed(converted))
        return failure();
      operands.push_back(*converted);
    }
    FailureOr<Value> converted = convertScalarOp(definer, operands);
    if (failed(converted))
      return failure();
    tile = *converted;
  } else {
    // A scalar captured from outside the body: a constant, or a scalar
    // argument of the function (a 0-d array).
    OpBuilder builder = atEnd(op.getContext(), mapBody);
    Attribute value;
    if (Value array = program.getScalarArgument(scalar)) {
      tile = LoadOp::create(
          builder, loc, TileType::get(op.getContext(), {}, scalar.getType()),
          array, builder.getArrayAttr({}), builder.getDenseI64ArrayAttr({}));
    } else if (matchPattern(scalar, m_Constant(&value)) &&
               isa<FloatAttr, IntegerAttr>(value)) {
      tile = ConstantOp::create(builder, loc, builder.getArrayAttr({}),
                                cast<TypedAttr>(value));
    } else {
      op.emitOpError("uses a scalar from outside its body that is not a "
                     "constant or a function argument");
      return failure();
    }
  }
  tiles[scalar] = tile;
  return tile;
}

/// Tile op for one scalar op of the body, given its operands' tiles.
FailureOr<Value> GenericConverter::convertScalarOp(Operation *scalarOp,
                                                   ArrayRef<Value> operands) {
  Location opLoc = scalarOp->getLoc();
  OpBuilder builder = builderFor(operands);
  auto binary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(builder, opLoc, operands[0], operands[1]);
  };
  auto unary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(builder, opLoc, operands[0]);
  };
  auto cast = [&]() -> Value {
    auto from = llvm::cast<TileType>(operands[0].getType());
    return CastOp::create(builder, opLoc,
                          from.withElementType(scalarOp->getResult(0).getType()),
                          operands[0]);
  };
  auto refuse = [&](const Twine &why) -> FailureOr<Value> {
    scalarOp->emitOpError() << "in the body of a linalg.generic cannot be "
                               "converted to a block program: "
                            << why;
    return failure();
  };

  Value result =
      llvm::TypeSwitch<Operation *, Value>(scalarOp)
          .Case<arith::AddFOp, arith::AddIOp>(
              [&](auto) { return binary(AddOp()); })
          .Case<arith::SubFOp, arith::SubIOp>(
              [&](auto) { return binary(SubOp()); })
          .Case<arith::MulFOp, arith::MulIOp>(
              [&](auto) { return binary(MulOp()); })
          .Case<arith::DivFOp, arith::DivSIOp>(
              [&](auto) { return binary(DivOp()); })
          .Case<arith::MaximumFOp, arith::MaxSIOp>([&](Operation *max) {
            // Signed i1 has true = -1 < false: maxsi of masks is `and`,
            // block.min of masks (false < true).
            return isSignedMaskOp(max) ? binary(MinOp()) : binary(MaxOp());
          })
          .Case<arith::MinimumFOp, arith::MinSIOp>([&](Operation *min) {
            return isSignedMaskOp(min) ? binary(MaxOp()) : binary(MinOp());
          })
          .Case<arith::MaxNumFOp, arith::MinNumFOp>([&](auto op) -> Value {
            // block.max and block.min propagate NaN (maximumf); maxnumf and
            // minnumf return the other operand where one is NaN (a keepdim
            // max over an axis of extent 1 becomes maxnumf(x, NaN) once
            // normalisation drops the axis).
            Value both = isa<arith::MaxNumFOp>(op.getOperation())
                             ? binary(MaxOp())
                             : binary(MinOp());
            auto isNaN = [&](Value v) -> Value {
              return CompareOp::create(builder, opLoc, ComparePredicate::une,
                                       v, v);
            };
            Value unlessRhsNaN = SelectOp::create(
                builder, opLoc, isNaN(operands[1]), operands[0], both);
            return SelectOp::create(builder, opLoc, isNaN(operands[0]),
                                    operands[1], unlessRhsNaN);
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
              [&](Operation *logic) -> Value {
                // Logic on masks: `and` is min, `or` max (false < true),
                // `xor` is `ne`. Bitwise logic on wider integers is not.
                if (!logic->getResult(0).getType().isInteger(1))
                  return Value();
                if (isa<arith::AndIOp>(logic))
                  return binary(MinOp());
                if (isa<arith::OrIOp>(logic))
                  return binary(MaxOp());
                return CompareOp::create(builder, opLoc, ComparePredicate::ne,
                                         operands[0], operands[1])
                    .getResult();
              })
          .Case([&](arith::NegFOp) { return unary(NegOp()); })
          .Case([&](math::AbsFOp) { return unary(AbsOp()); })
          .Case([&](math::ExpOp) { return unary(ExpOp()); })
          .Case([&](math::LogOp) { return unary(LogOp()); })
          .Case([&](math::SqrtOp) { return unary(SqrtOp()); })
          .Case([&](math::RsqrtOp) { return unary(RsqrtOp()); })
          .Case([&](math::TanhOp) { return unary(TanhOp()); })
          .Case([&](math::ErfOp) { return unary(ErfOp()); })
          .Case([&](math::SinOp) { return unary(SinOp()); })
          .Case([&](math::CosOp) { return unary(CosOp()); })
          .Case([&](math::FPowIOp pow) -> Value {
            // Small constant integer powers are products.
            APInt exponent;
            if (!matchPattern(pow.getRhs(), m_ConstantInt(&exponent)) ||
                exponent.getSExtValue() < 1 || exponent.getSExtValue() > 4)
              return Value();
            Value product = operands[0];
            for (int64_t i = 1; i < exponent.getSExtValue(); ++i)
              product = MulOp::create(builder, opLoc, product, operands[0]);
            return product;
          })
          .Case([&](math::PowFOp pow) -> Value {
            APFloat exponent(0.0);
            if (!matchPattern(pow.getRhs(), m_ConstantFloat(&exponent)))
              return Value();
            if (exponent.isExactlyValue(2.0))
              return MulOp::create(builder, opLoc, operands[0], operands[0]);
            if (exponent.isExactlyValue(0.5))
              return SqrtOp::create(builder, opLoc, operands[0]);
            if (exponent.isExactlyValue(-0.5))
              return RsqrtOp::create(builder, opLoc, operands[0]);
            return Value();
          })
          .Case([&](arith::SelectOp) {
            return SelectOp::create(builder, opLoc, operands[0], operands[1],
                                    operands[2])
                .getResult();
          })
          .Case([&](arith::CmpFOp cmp) -> Value {
            std::optional<ComparePredicate> predicate;
            switch (cmp.getPredicate()) {
            case arith::CmpFPredicate::OEQ: predicate = ComparePredicate::eq; break;
            case arith::CmpFPredicate::ONE: predicate = ComparePredicate::ne; break;
            case arith::CmpFPredicate::OLT: predicate = ComparePredicate::lt; break;
            case arith::CmpFPredicate::OLE: predicate = ComparePredicate::le; break;
            case arith::CmpFPredicate::OGT: predicate = ComparePredicate::gt; break;
            case arith::CmpFPredicate::OGE: predicate = ComparePredicate::ge; break;
            case arith::CmpFPredicate::UEQ: predicate = ComparePredicate::ueq; break;
            case arith::CmpFPredicate::UNE: predicate = ComparePredicate::une; break;
            case arith::CmpFPredicate::ULT: predicate = ComparePredicate::ult; break;
            case arith::CmpFPredicate::ULE: predicate = ComparePredicate::ule; break;
            case arith::CmpFPredicate::UGT: predicate = ComparePredicate::ugt; break;
            case arith::CmpFPredicate::UGE: predicate = ComparePredicate::uge; break;
            default: return Value();
            }
            return CompareOp::create(builder, opLoc, *predicate, operands[0],
                                     operands[1])
                .getResult();
          })
          .Case([&](arith::CmpIOp cmp) -> Value {
            std::optional<ComparePredicate> predicate;
            switch (cmp.getPredicate()) {
            case arith::CmpIPredicate::eq: predicate = ComparePredicate::eq; break;
            case arith::CmpIPredicate::ne: predicate = ComparePredicate::ne; break;
            case arith::CmpIPredicate::slt: predicate = ComparePredicate::lt; break;
            case arith::CmpIPredicate::sle: predicate = ComparePredicate::le; break;
            case arith::CmpIPredicate::sgt: predicate = ComparePredicate::gt; break;
            case arith::CmpIPredicate::sge: predicate = ComparePredicate::ge; break;
            case arith::CmpIPredicate::ult: predicate = ComparePredicate::ult; break;
            case arith::CmpIPredicate::ule: predicate = ComparePredicate::ule; break;
            case arith::CmpIPredicate::ugt: predicate = ComparePredicate::ugt; break;
            case arith::CmpIPredicate::uge: predicate = ComparePredicate::uge; break;
            }
            return CompareOp::create(builder, opLoc, *predicate, operands[0],
                                     operands[1])
                .getResult();
          })
          .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
                arith::FPToSIOp, arith::ExtSIOp, arith::TruncIOp,
                arith::IndexCastOp>([&](auto) { return cast(); })
          .Case([&](linalg::IndexOp index) -> Value {
            StringAttr axis = getAxis(index.getDim());
            OpBuilder at = builderFor(ArrayRef<StringAttr>{axis});
            return IotaOp::create(
                at, opLoc,
                TileType::get(scalarOp->getContext(), {axis},
                              at.getIndexType()),
                axis);
          })
          .Case([&](arith::ConstantOp constant) -> Value {
            auto value = dyn_cast<TypedAttr>(constant.getValue());
            if (!isa_and_nonnull<FloatAttr, IntegerAttr>(value))
              return Value();
            OpBuilder at = atEnd(op.getContext(), mapBody);
            return ConstantOp::create(at, opLoc, at.getArrayAttr({}), value);
          })
          .Default([](Operation *) { return Value(); });
  if (result)
    return result;
  if (isa<arith::CmpFOp>(scalarOp))
    return refuse("the predicates 'ord', 'uno', 'true' and 'false' are not "
                  "supported");
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(scalarOp))
    return refuse("bitwise logic converts on i1 masks only");
  if (isa<math::FPowIOp, math::PowFOp>(scalarOp))
    return refuse("only constant powers 1 to 4, 2.0, 0.5 and -0.5 convert");
  if (isa<tensor::ExtractOp>(scalarOp))
    return refuse("it reads a tensor at computed indices (a gather), which "
                  "is outside the operator table");
  if (isa<arith::ExtUIOp, arith::UIToFPOp, arith::FPToUIOp>(scalarOp))
    return refuse("unsigned conversions are not supported");
  return refuse("no block op computes it");
}

/// A reduction's combine `combined = kind(accumulator, term)`.
struct Combine {
  CombinerKind kind;
  Value term;
  /// maxnumf/minnumf: NaN is their identity (they ignore NaN operands).
  bool ignoresNaN = false;
};

/// Matches the combine of a reduction's yield with its accumulator, which
/// no other live op of the body may read; else says why not in `whyNot`.
std::optional<Combine> matchCombine(Value combined, Value accumulator,
                                    const DenseSet<Operation *> &liveOps,
                                    std::string &whyNot) {
  Operation *def = combined.getDefiningOp();
  if (llvm::any_of(accumulator.getUsers(), [&](Operation *user) {
        return user != def && liveOps.contains(user);
      })) {
    whyNot = "the accumulator is read outside the combine (coupled "
             "reductions such as argmax are not supported)";
    return std::nullopt;
  }
  if (!def || def->getNumOperands() != 2 ||
      llvm::count(def->getOperands(), accumulator) != 1) {
    whyNot = "it is not 'accumulator <op> term'";
    return std::nullopt;
  }
  std::optional<CombinerKind> kind =
      llvm::TypeSwitch<Operation *, std::optional<CombinerKind>>(def)
          .Case<arith::AddFOp, arith::AddIOp>(
              [](auto) { return CombinerKind::Add; })
          .Case<arith::MulFOp, arith::MulIOp>(
              [](auto) { return CombinerKind::Mul; })
          .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
              [](Operation *max) {
                return isSignedMaskOp(max) ? CombinerKind::Min
                                           : CombinerKind::Max;
              })
          .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
              [](Operation *min) {
                return isSignedMaskOp(min) ? CombinerKind::Max
                                           : CombinerKind::Min;
              })
          // all() and any() of masks.
          .Case([](arith::AndIOp op) -> std::optional<CombinerKind> {
            if (!op.getType().isInteger(1))
              return std::nullopt;
            return CombinerKind::Min;
          })
          .Case([](arith::OrIOp op) -> std::optional<CombinerKind> {
            if (!op.getType().isInteger(1))
              return std::nullopt;
            return CombinerKind::Max;
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!kind) {
    whyNot = "'" + def->getName().getStringRef().str() +
             "' is not a combiner (add, mul, max, min; and/or of i1 masks)";
    return std::nullopt;
  }
  bool ignoresNaN = isa<arith::MaxNumFOp, arith::MinNumFOp>(def);
  Value term = def->getOperand(0) == accumulator ? def->getOperand(1)
                                                 : def->getOperand(0);
  return Combine{*kind, term, ignoresNaN};
}

/// True when `value` is the identity of `combine`, so combining with it is
/// a no-op.
bool isIdentity(const Combine &combine, TypedAttr value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    if (combine.ignoresNaN && f.getValue().isNaN())
      return true;
    // -0.0 is an identity of add as much as +0.0.
    if (combine.kind == CombinerKind::Add)
      return f.getValue().isZero();
  }
  return value == getCombinerIdentity(combine.kind, value.getType());
}

/// The operand of an extf, or the value itself.
Value stripExtension(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return value;
}

LogicalResult GenericConverter::checkIndexingMaps() {
  // Every index expression must be a loop dimension or a constant.
  for (auto [index, map] : llvm::enumerate(op.getIndexingMapsArray()))
    for (AffineExpr expr : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(expr)) {
        std::string text;
        llvm::raw_string_ostream os(text);
        expr.print(os);
        return op.emitOpError()
               << "cannot be converted to a block program: indexing map #"
               << index << " uses '" << text
               << "', which is not a loop dimension or a constant (affine "
                  "index arithmetic, as in convolutions, is outside the "
                  "operator table)";
      }
  return success();
}

FailureOr<SmallVector<Attribute>>
GenericConverter::getMapAxes(ArrayRef<unsigned> reductionDims) {
  // The map iterates the tiled parallel axes, in the first output's order.
  AffineMap firstOut = op.getIndexingMapsArray()[op.getNumDpsInputs()];
  SmallVector<Attribute> mapAxes;
  for (AffineExpr expr : firstOut.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr);
        dim && program.isTiled(getAxis(dim.getPosition())))
      mapAxes.push_back(getAxis(dim.getPosition()));
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel &&
        !firstOut.isFunctionOfDim(dim))
      return op.emitOpError() << "cannot be converted to a block program: "
                                 "parallel loop dimension d"
                              << dim << " does not index the first output";
  for (unsigned dim : reductionDims)
    if (program.isTiled(getAxis(dim)))
      tiledReductionAxes.push_back(getAxis(dim));
  return mapAxes;
}

SmallVector<unsigned>
GenericConverter::getLiveOutputs(DenseSet<Operation *> &liveOps) {
  // Outputs nobody reads are dropped with the body ops only they need (the
  // unused argmax of a max-with-index reduction).
  SmallVector<unsigned> outputs;
  for (OpResult result : op->getResults())
    if (!result.use_empty())
      outputs.push_back(result.getResultNumber());
  if (outputs.empty())
    outputs = llvm::to_vector(llvm::seq<unsigned>(0, op->getNumResults()));
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  SmallVector<Value> worklist;
  for (unsigned index : outputs)
    worklist.push_back(yield.getOperand(index));
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (def && def->getBlock() == op.getBody() && liveOps.insert(def).second)
      llvm::append_range(worklist, def->getOperands());
  }
  return outputs;
}

FailureOr<Value>
GenericConverter::reduceTerm(const Combine &combine,
                             ArrayRef<StringAttr> reductionAxes) {
  CombinerKind kind = combine.kind;
  Value term = combine.term;
  // A sum of products over dimensions both factors use is a contraction.
  auto mul = term.getDefiningOp<arith::MulFOp>();
  if (kind == CombinerKind::Add && mul && !term.getType().isF64()) {
    Value lhs = stripExtension(mul.getLhs());
    Value rhs = stripExtension(mul.getRhs());
    if (lhs.getType() != rhs.getType()) {
      lhs = mul.getLhs();
      rhs = mul.getRhs();
    }
    FailureOr<Value> lhsTile = convertScalar(lhs);
    FailureOr<Value> rhsTile = convertScalar(rhs);
    if (failed(lhsTile) || failed(rhsTile))
      return failure();
    auto lhsType = cast<TileType>(lhsTile->getType());
    auto rhsType = cast<TileType>(rhsTile->getType());
    if (llvm::all_of(reductionAxes, [&](StringAttr axis) {
          return lhsType.hasAxis(axis) && rhsType.hasAxis(axis);
        })) {
      OpBuilder at = builderFor(ValueRange{*lhsTile, *rhsTile});
      return DotOp::create(
                 at, loc, *lhsTile, *rhsTile,
                 at.getArrayAttr(llvm::to_vector_of<Attribute>(reductionAxes)))
          .getResult();
    }
  }
  FailureOr<Value> tile = convertScalar(term);
  if (failed(tile))
    return failure();
  auto type = cast<TileType>(tile->getType());
  for (StringAttr axis : reductionAxes)
    if (!type.hasAxis(axis))
      return op.emitOpError() << "cannot be converted to a block program: the "
                                 "reduced value does not depend on reduction "
                                 "axis '"
                              << axis.getValue() << "'";
  OpBuilder at = builderFor(ValueRange{*tile});
  return TileReduceOp::create(
             at, loc, kind, *tile,
             at.getArrayAttr(llvm::to_vector_of<Attribute>(reductionAxes)))
      .getResult();
}

SmallVector<Value> GenericConverter::wrapInReduces(ArrayRef<Value> partials,
                                                   ArrayAttr kinds) {
  // Wrap the inner body in reduces, innermost = last tiled reduction axis.
  std::unique_ptr<Block> body = std::move(innerBody);
  SmallVector<Type> partialTypes = llvm::to_vector(
      llvm::map_range(partials, [](Value v) { return v.getType(); }));
  SmallVector<Value> results = llvm::to_vector(partials);
  for (StringAttr axis : llvm::reverse(tiledReductionAxes)) {
    OpBuilder end = atEnd(op.getContext(), body.get());
    YieldOp::create(end, loc, results);
    bool outermost = axis == tiledReductionAxes.front();
    std::unique_ptr<Block> outer =
        outermost ? nullptr : std::make_unique<Block>();
    OpBuilder at = atEnd(op.getContext(), outermost ? mapBody : outer.get());
    auto reduce =
        ReduceOp::create(at, loc, partialTypes, axis, kinds, ValueRange{});
    reduce.getBody().push_back(body.release());
    results = llvm::to_vector_of<Value>(reduce.getResults());
    body = std::move(outer);
  }
  return results;
}

LogicalResult GenericConverter::convertReductions(
    ArrayRef<unsigned> outputs, const DenseSet<Operation *> &liveOps,
    ArrayRef<unsigned> reductionDims, SmallVectorImpl<Value> &finals) {
  // Each output is `accumulator <combiner> term`: the terms are reduced
  // over the reduction axes, in-tile for whole axes and by block.reduce
  // for tiled ones, and then combined with the output's initial value.
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  SmallVector<Combine> combines;
  for (unsigned index : outputs) {
    BlockArgument accumulator = op.getRegionOutputArgs()[index];
    std::string whyNot;
    auto combine =
        matchCombine(yield.getOperand(index), accumulator, liveOps, whyNot);
    if (!combine)
      return op.emitOpError() << "cannot be converted to a block program: the "
                                 "yield of output #"
                              << index << " is not a reduction: " << whyNot;
    combines.push_back(*combine);
    accumulators.insert(accumulator);
  }

  SmallVector<StringAttr> reductionAxes;
  for (unsigned dim : reductionDims)
    reductionAxes.push_back(getAxis(dim));
  SmallVector<Value> partials;
  SmallVector<Attribute> kinds;
  for (const Combine &combine : combines) {
    FailureOr<Value> partial = reduceTerm(combine, reductionAxes);
    if (failed(partial))
      return failure();
    partials.push_back(*partial);
    kinds.push_back(CombinerKindAttr::get(op.getContext(), combine.kind));
  }
  if (innerBody) {
    OpBuilder builder(op.getContext());
    partials = wrapInReduces(partials, builder.getArrayAttr(kinds));
  }

  OpBuilder at = atEnd(op.getContext(), mapBody);
  for (auto [position, partial] : llvm::enumerate(partials)) {
    unsigned index = outputs[position];
    CombinerKind kind = combines[position].kind;
    OpOperand *init = op.getDpsInitOperand(index);
    const ValueInfo &info = program.getInfo(init->get());
    Value result = partial;
    Type outElement = getElementTypeOrSelf(init->get().getType());
    bool skipInit = info.kind == ValueInfo::Kind::Filled &&
                    isIdentity(combines[position], info.fill);
    if (!skipInit) {
      Value initTile = createLoad(*init);
      if (!initTile)
        return failure();
      auto partialType = cast<TileType>(partial.getType());
      if (partialType.getElementType() != outElement)
        initTile =
            CastOp::create(at, loc,
                           cast<TileType>(initTile.getType())
                               .withElementType(partialType.getElementType()),
                           initTile);
      result = createCombine(at, loc, kind, initTile, result);
    }
    auto resultType = cast<TileType>(result.getType());
    if (resultType.getElementType() != outElement)
      result = CastOp::create(at, loc, resultType.withElementType(outElement),
                              result);
    finals.push_back(result);
  }
  return success();
}

LogicalResult GenericConverter::yieldResults(ArrayRef<unsigned> outputs,
                                             ArrayRef<Value> finals) {
  // Yield each result in its array's dimension order.
  OpBuilder at = atEnd(op.getContext(), mapBody);
  SmallVector<Value> yielded;
  for (auto [position, final] : llvm::enumerate(finals)) {
    unsigned index = outputs[position];
    AffineMap outMap = op.getIndexingMapsArray()[op.getNumDpsInputs() + index];
    SmallVector<StringAttr> axes;
    unsigned units = 0;
    for (AffineExpr expr : outMap.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        axes.push_back(getAxis(dim.getPosition()));
        continue;
      }
      // A unit dimension written at index 0 (keepdim) gets an axis of
      // extent 1; any other constant would leave elements unwritten.
      auto constant = cast<AffineConstantExpr>(expr);
      int64_t extent = cast<RankedTensorType>(op.getResult(index).getType())
                           .getDimSize(axes.size());
      if (constant.getValue() != 0 || extent != 1)
        return op.emitOpError()
               << "cannot be converted to a block program: output #" << index
               << " writes only index " << constant.getValue()
               << " of a dimension of extent " << extent;
      axes.push_back(program.getUnitAxis(units++));
    }
    Value tile = final;
    auto wanted = TileType::get(
        op.getContext(), axes, cast<TileType>(tile.getType()).getElementType());
    if (tile.getType() != wanted)
      tile = BroadcastOp::create(at, loc, wanted, tile);
    yielded.push_back(tile);
  }
  YieldOp::create(at, loc, yielded);
  return success();
}

LogicalResult GenericConverter::convert(OpBuilder &builder) {
  if (failed(checkIndexingMaps()))
    return failure();
  SmallVector<unsigned> reductionDims;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      reductionDims.push_back(dim);
  FailureOr<SmallVector<Attribute>> mapAxes = getMapAxes(reductionDims);
  if (failed(mapAxes))
    return failure();
  DenseSet<Operation *> liveOps;
  SmallVector<unsigned> outputs = getLiveOutputs(liveOps);

  SmallVector<Type> resultTypes;
  for (unsigned index : outputs)
    resultTypes.push_back(
        *getArrayType(loc, op.getResult(index).getType(), "result"));
  auto map =
      MapOp::create(builder, loc, resultTypes, builder.getArrayAttr(*mapAxes));
  mapBody = &map.getBody().emplaceBlock();
  if (!tiledReductionAxes.empty())
    innerBody = std::make_unique<Block>();

  SmallVector<Value> finals;
  LogicalResult built = success();
  if (reductionDims.empty()) {
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    for (unsigned index : outputs) {
      FailureOr<Value> tile = convertScalar(yield.getOperand(index));
      if (failed(tile)) {
        built = failure();
        break;
      }
      finals.push_back(*tile);
    }
  } else {
    built = convertReductions(outputs, liveOps, reductionDims, finals);
  }
  if (failed(built) || failed(yieldResults(outputs, finals))) {
    map.erase();
    return failure();
  }
  for (auto [index, array] : llvm::zip(outputs, map.getResults()))
    program.setArray(op.getResult(index), array);
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertLinalgToBlockPass
    : public blockbuster::impl::ConvertLinalgToBlockBase<
          ConvertLinalgToBlockPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs =
        llvm::to_vector(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      if (failed(normaliseLinalg(func)) ||
          failed(ProgramBuilder(func, wholeThreshold, wholeDotReducedAxes,
                                tiledAttentionKeys)
                     .convert()))
        return signalPassFailure();
    }
  }
};

} // namespace
