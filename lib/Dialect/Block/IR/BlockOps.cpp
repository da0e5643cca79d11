//===- BlockOps.cpp - Operations of the block dialect ---------------------===//
//
// Verifiers check the invariants of docs/BlockPrograms.md; each message names
// the operand or attribute at fault and the rule it breaks.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace blockbuster::block;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Prints `[A, B]` as a comma-separated list of axis names.
static void printAxisNames(raw_ostream &os, ArrayRef<StringAttr> axes) {
  os << '[';
  llvm::interleaveComma(axes, os,
                        [&](StringAttr axis) { os << axis.getValue(); });
  os << ']';
}

static SmallVector<StringAttr> toAxisNames(ArrayAttr axes) {
  return llvm::to_vector(llvm::map_range(
      axes, [](Attribute axis) { return cast<StringAttr>(axis); }));
}

static void printAxisName(AsmPrinter &printer, StringRef name) {
  if (isBareAxisName(name))
    printer << name;
  else
    printer.printString(name);
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseAxisName(OpAsmParser &parser, StringAttr &axis) {
  std::string name;
  if (parser.parseKeywordOrString(&name))
    return failure();
  axis = parser.getBuilder().getStringAttr(name);
  return success();
}

static void printAxisName(OpAsmPrinter &printer, Operation *,
                          StringAttr axis) {
  printAxisName(printer, axis.getValue());
}

/// `[X, Y, ...]`, each element parsed by `parseElement`.
template <typename ElementAttr>
static ParseResult
parseAttrList(OpAsmParser &parser, ArrayAttr &list,
              ParseResult (*parseElement)(OpAsmParser &, ElementAttr &)) {
  SmallVector<Attribute> elements;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            ElementAttr element;
            if (parseElement(parser, element))
              return failure();
            elements.push_back(element);
            return success();
          }))
    return failure();
  list = parser.getBuilder().getArrayAttr(elements);
  return success();
}

// `[A, B, ...]`
static ParseResult parseAxisList(OpAsmParser &parser, ArrayAttr &axes) {
  return parseAttrList<StringAttr>(parser, axes, parseAxisName);
}

static void printAxisList(OpAsmPrinter &printer, Operation *, ArrayAttr axes) {
  printer << '[';
  llvm::interleaveComma(axes, printer, [&](Attribute axis) {
    printAxisName(printer, cast<StringAttr>(axis).getValue());
  });
  printer << ']';
}

/// Parses an enum attribute written as a keyword (or a string); `expected`
/// names its values in the error.
template <typename EnumAttr, typename Enum>
static ParseResult parseEnumKeyword(OpAsmParser &parser, EnumAttr &attr,
                                    std::optional<Enum> (*symbolize)(StringRef),
                                    StringRef expected) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name))
    return failure();
  std::optional<Enum> value = symbolize(name);
  if (!value)
    return parser.emitError(loc)
           << "expected " << expected << ", got '" << name << "'";
  attr = EnumAttr::get(parser.getContext(), *value);
  return success();
}

static ParseResult parseCombinerKind(OpAsmParser &parser,
                                     CombinerKindAttr &kind) {
  return parseEnumKeyword<CombinerKindAttr, CombinerKind>(
      parser, kind, symbolizeCombinerKind,
      "a combiner (add, mul, max, min)");
}

static void printCombinerKind(OpAsmPrinter &printer, Operation *,
                              CombinerKindAttr kind) {
  printer << stringifyCombinerKind(kind.getValue());
}

static ParseResult parseComparePredicate(OpAsmParser &parser,
                                         ComparePredicateAttr &predicate) {
  return parseEnumKeyword<ComparePredicateAttr, ComparePredicate>(
      parser, predicate, symbolizeComparePredicate,
      "a predicate (eq, ne, lt, le, gt, ge, or ueq ... uge)");
}

static void printComparePredicate(OpAsmPrinter &printer, Operation *,
                                  ComparePredicateAttr predicate) {
  printer << stringifyComparePredicate(predicate.getValue());
}

// `[add, max]`
static ParseResult parseCombinerKinds(OpAsmParser &parser, ArrayAttr &kinds) {
  return parseAttrList<CombinerKindAttr>(parser, kinds, parseCombinerKind);
}

static void printCombinerKinds(OpAsmPrinter &printer, Operation *op,
                               ArrayAttr kinds) {
  printer << '[';
  llvm::interleaveComma(kinds, printer, [&](Attribute kind) {
    printCombinerKind(printer, op, cast<CombinerKindAttr>(kind));
  });
  printer << ']';
}

// Load indices: `[A, B + 128, 0]`. An axis entry without an offset is stored
// with offset kExactIndex; a fixed index has the empty axis name.
static constexpr int64_t kExactIndex = -1;

static ParseResult parseLoadIndices(OpAsmParser &parser, ArrayAttr &indexAxes,
                                    DenseI64ArrayAttr &offsets) {
  SmallVector<Attribute> axes;
  SmallVector<int64_t> offsetValues;
  Builder &builder = parser.getBuilder();
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t fixed = 0;
            OptionalParseResult integer = parser.parseOptionalInteger(fixed);
            if (integer.has_value()) {
              if (failed(*integer))
                return failure();
              axes.push_back(builder.getStringAttr(""));
              offsetValues.push_back(fixed);
              return success();
            }
            StringAttr axis;
            if (parseAxisName(parser, axis))
              return failure();
            int64_t offset = kExactIndex;
            if (succeeded(parser.parseOptionalPlus())) {
              SMLoc offsetLoc = parser.getCurrentLocation();
              if (parser.parseInteger(offset))
                return failure();
              // A negative offset is out of range, and -1 would read back as
              // kExactIndex: an exact index with no slice at all.
              if (offset < 0)
                return parser.emitError(offsetLoc)
                       << "slice offset " << offset << " of axis '"
                       << axis.getValue()
                       << "' is negative; a slice starts inside the dimension";
            }
            axes.push_back(axis);
            offsetValues.push_back(offset);
            return success();
          }))
    return failure();
  indexAxes = builder.getArrayAttr(axes);
  offsets = builder.getDenseI64ArrayAttr(offsetValues);
  return success();
}

static void printLoadIndices(OpAsmPrinter &printer, Operation *,
                             ArrayAttr indexAxes, DenseI64ArrayAttr offsets) {
  printer << '[';
  llvm::interleaveComma(
      llvm::zip(indexAxes, offsets.asArrayRef()), printer, [&](auto entry) {
        auto [axisAttr, offset] = entry;
        StringRef axis = cast<StringAttr>(axisAttr).getValue();
        if (axis.empty()) {
          printer << offset;
          return;
        }
        printAxisName(printer, axis);
        if (offset != kExactIndex)
          printer << " + " << offset;
      });
  printer << ']';
}

//===----------------------------------------------------------------------===//
// DeclaredAxes trait
//===----------------------------------------------------------------------===//

LogicalResult blockbuster::block::detail::verifyDeclaredAxes(Operation *op) {
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return op->emitOpError(
        "must be nested in a 'block.program', whose axis table declares the "
        "axes it uses");
  auto check = [&](StringAttr axis, const Twine &where) -> LogicalResult {
    // The empty name marks a fixed index in a load's index list; anywhere
    // else it is an undeclared axis like any other.
    if ((axis.getValue().empty() && isa<LoadOp>(op)) ||
        program.lookupAxis(axis))
      return success();
    return op->emitOpError()
           << where << " names axis '" << axis.getValue()
           << "', which the axis table of @" << program.getSymName()
           << " does not declare";
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (auto tile = dyn_cast<TileType>(type))
      for (StringAttr axis : tile.getAxes())
        if (failed(check(axis, "operand #" + Twine(index))))
          return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (auto tile = dyn_cast<TileType>(type))
      for (StringAttr axis : tile.getAxes())
        if (failed(check(axis, "result #" + Twine(index))))
          return failure();
  // The string-valued inherent attributes of ops with this trait are all axis
  // names (axis, axes, contract, reduced, indexAxes). Discardable attributes
  // belong to whoever attached them and are not axis names.
  for (StringAttr attrName : op->getName().getAttributeNames()) {
    std::optional<Attribute> value = op->getInherentAttr(attrName.getValue());
    if (!value || !*value)
      continue;
    if (auto name = dyn_cast<StringAttr>(*value)) {
      if (failed(check(name, "attribute '" + attrName.getValue() + "'")))
        return failure();
    } else if (auto array = dyn_cast<ArrayAttr>(*value)) {
      for (Attribute element : array)
        if (auto name = dyn_cast<StringAttr>(element))
          if (failed(check(name, "attribute '" + attrName.getValue() + "'")))
            return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                      FunctionType type, ArrayRef<AxisAttr> axes) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getAxesAttrName(state.name),
                     builder.getArrayAttr(SmallVector<Attribute>(axes)));
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs())
    entry->addArgument(input, state.location);
}

AxisAttr ProgramOp::lookupAxis(StringAttr name) {
  for (AxisAttr axis : getAxisTable())
    if (axis.getName() == name)
      return axis;
  return {};
}

// block.program @name axes(AXIS, ...) (ARGS) -> RESULTS attributes {..} {..}
ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<Attribute> axes;
  if (parser.parseKeyword("axes") ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            AxisAttr axis = AxisAttr::parseBody(parser);
            if (!axis)
              return failure();
            axes.push_back(axis);
            return success();
          }))
    return failure();
  result.addAttribute(getAxesAttrName(result.name), builder.getArrayAttr(axes));

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argumentTypes = llvm::to_vector(llvm::map_range(
      arguments, [](const OpAsmParser::Argument &a) { return a.type; }));
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argumentTypes, resultTypes)));
  call_interface_impl::addArgAndResultAttrs(
      builder, result, arguments, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), arguments,
                            /*enableNameShadowing=*/false);
}

void ProgramOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << " axes(";
  llvm::interleaveComma(getAxisTable(), printer,
                        [&](AxisAttr axis) { axis.printBody(printer); });
  printer << ") ";
  function_interface_impl::printFunctionSignature(
      printer, *this, getArgumentTypes(), /*isVariadic=*/false,
      getResultTypes());
  function_interface_impl::printFunctionAttributes(
      printer, *this,
      {getAxesAttrName(), getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

LogicalResult ProgramOp::verify() {
  SmallVector<StringAttr> seen;
  for (auto [index, attr] : llvm::enumerate(getAxes())) {
    auto axis = dyn_cast<AxisAttr>(attr);
    if (!axis)
      return emitOpError() << "axis table entry #" << index
                           << " is not a #block.axis";
    if (llvm::is_contained(seen, axis.getName()))
      return emitOpError() << "axis table declares '"
                           << axis.getName().getValue() << "' twice";
    seen.push_back(axis.getName());
  }
  for (auto [index, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<ArrayType>(type))
      return emitOpError() << "argument #" << index << " has type " << type
                           << "; program arguments are buffered arrays";
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (!isa<ArrayType>(type))
      return emitOpError() << "result #" << index << " has type " << type
                           << "; program results are buffered arrays";
  for (Operation &op : getBody().front())
    if (!isa<MapOp, ViewOp, ReturnOp>(op))
      return op.emitOpError()
             << "is not allowed at the top level of a block program: only "
                "block.map (a kernel), block.view and block.return may "
                "appear there";
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto program = cast<ProgramOp>((*this)->getParentOp());
  ArrayRef<Type> expected = program.getResultTypes();
  if (getNumOperands() != expected.size())
    return emitOpError() << "returns " << getNumOperands()
                         << " values but @" << program.getSymName()
                         << " declares " << expected.size() << " results";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), expected))) {
    auto [actual, declared] = pair;
    if (actual != declared)
      return emitOpError() << "operand #" << index << " has type " << actual
                           << " but @" << program.getSymName()
                           << " declares result type " << declared;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::verify() {
  auto source = cast<ArrayType>(getSource().getType());
  auto result = cast<ArrayType>(getResult().getType());
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "changes the element type from "
                         << source.getElementType() << " to "
                         << result.getElementType()
                         << "; a view only reshapes";
  if (source.getNumElements() != result.getNumElements())
    return emitOpError() << "views " << source.getNumElements()
                         << " elements as " << result.getNumElements()
                         << "; a view keeps the number of elements";
  return success();
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

// Both parsers add their regions to the operation state before parsing
// them: a region the parser frees on an error could still hold the
// definition of a value that a forward reference outside it resolved to.
ParseResult MapOp::parse(OpAsmParser &parser, OperationState &result) {
  ArrayAttr axes;
  SmallVector<Type> resultTypes;
  Region *body = result.addRegion();
  if (parseAxisList(parser, axes))
    return failure();
  result.getOrAddProperties<MapOp::Properties>().axes = axes;
  if (succeeded(parser.parseOptionalArrow()) &&
      parser.parseTypeList(resultTypes))
    return failure();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  result.addTypes(resultTypes);
  return success();
}

void MapOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printAxisList(printer, *this, getAxesAttr());
  if (!getResults().empty())
    printer << " -> " << getResults().getTypes();
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {"axes"});
  printer << ' ';
  printer.printRegion(getBody());
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr axis;
  ArrayAttr combiners;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> initTypes, resultTypes;
  Region *body = result.addRegion();
  Region *combiner = result.addRegion();
  if (parseAxisName(parser, axis))
    return failure();
  result.getOrAddProperties<ReduceOp::Properties>().axis = axis;
  if (succeeded(parser.parseOptionalKeyword("combiners"))) {
    if (parseCombinerKinds(parser, combiners))
      return failure();
    result.getOrAddProperties<ReduceOp::Properties>().combiners = combiners;
  }
  SMLoc initsLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("init"))) {
    initsLoc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseOperandList(inits) ||
        parser.parseColon() || parser.parseTypeList(initTypes) ||
        parser.parseRParen())
      return failure();
  }
  if (parser.parseArrow() || parser.parseTypeList(resultTypes) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("combine")) &&
      parser.parseRegion(*combiner))
    return failure();
  result.addTypes(resultTypes);
  return parser.resolveOperands(inits, initTypes, initsLoc, result.operands);
}

void ReduceOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printAxisName(printer, *this, getAxisAttr());
  if (getCombinersAttr()) {
    printer << " combiners ";
    printCombinerKinds(printer, *this, getCombinersAttr());
  }
  if (!getInits().empty())
    printer << " init(" << getInits() << " : " << getInits().getTypes()
            << ")";
  printer << " -> " << getResults().getTypes();
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {"axis", "combiners"});
  printer << ' ';
  printer.printRegion(getBody());
  if (!getCombiner().empty()) {
    printer << " combine ";
    printer.printRegion(getCombiner());
  }
}

YieldOp MapOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult MapOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  SmallVector<StringAttr> mapAxes = toAxisNames(getAxes());
  for (auto [index, axis] : llvm::enumerate(mapAxes)) {
    if (llvm::is_contained(ArrayRef(mapAxes).take_front(index), axis))
      return emitOpError() << "iterates axis '" << axis.getValue()
                           << "' twice";
    AxisAttr entry = program.lookupAxis(axis);
    if (entry && entry.isWhole())
      return emitOpError() << "iterates axis '" << axis.getValue()
                           << "', which is whole; maps iterate tiled axes";
  }
  // The body is verified after the map: its last op (SingleBlock makes the
  // block non-empty) may not be a terminator yet.
  Block &body = getBody().front();
  auto yield = dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end with block.yield");
  if (body.getNumArguments() != 0)
    return emitOpError("body takes no block arguments; block indices are "
                       "implicit in the axes");
  if (yield.getNumOperands() != getNumResults())
    return emitOpError() << "yields " << yield.getNumOperands()
                         << " tiles but has " << getNumResults() << " results";

  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(yield.getOperandTypes(), getResultTypes()))) {
    // The yield, verified after the map, reports operands that are not tiles.
    auto tile = dyn_cast<TileType>(std::get<0>(pair));
    if (!tile)
      continue;
    auto array = cast<ArrayType>(std::get<1>(pair));
    // Invariant 3: each instance writes its own block.
    for (StringAttr axis : mapAxes)
      if (!tile.hasAxis(axis))
        return emitOpError()
               << "yielded tile #" << index << " lacks map axis '"
               << axis.getValue()
               << "'; every instance must write its own block of the result";
    for (StringAttr axis : tile.getAxes()) {
      AxisAttr entry = program.lookupAxis(axis);
      if (entry && entry.isTiled() && !llvm::is_contained(mapAxes, axis))
        return emitOpError()
               << "yielded tile #" << index << " has tiled axis '"
               << axis.getValue()
               << "' that the map does not iterate; the yield's axes must be "
                  "the map's axes plus whole axes";
    }
    if (tile.getElementType() != array.getElementType())
      return emitOpError() << "result #" << index << " has element type "
                           << array.getElementType()
                           << " but the yielded tile has "
                           << tile.getElementType();
    if (array.getRank() != tile.getRank())
      return emitOpError() << "result #" << index << " has rank "
                           << array.getRank() << " but the yielded tile has "
                           << tile.getRank() << " axes";
    for (auto [dim, axis] : llvm::enumerate(tile.getAxes())) {
      AxisAttr entry = program.lookupAxis(axis);
      if (entry && entry.getExtent() != array.getShape()[dim])
        return emitOpError()
               << "result #" << index << " dimension " << dim << " has extent "
               << array.getShape()[dim] << " but the yielded axis '"
               << axis.getValue() << "' has extent " << entry.getExtent();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

YieldOp ReduceOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult ReduceOp::verify() {
  StringAttr axis = getAxisAttr();
  if (llvm::is_contained(getIteratedAxes(*this), axis))
    return emitOpError() << "reduces over axis '" << axis.getValue()
                         << "', which an enclosing map or reduce already "
                            "iterates";
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (cast<TileType>(type).hasAxis(axis))
      return emitOpError() << "result #" << index << " has the reduced axis '"
                           << axis.getValue()
                           << "'; the fold combines blocks at different "
                              "positions of that axis, so its state cannot "
                              "be indexed by it";
  if (std::optional<ArrayAttr> combiners = getCombiners()) {
    if (hasRegionCombiner() || !getInits().empty())
      return emitOpError("has both built-in combiners and a combine region; "
                         "use one or the other");
    if (combiners->size() != getNumResults())
      return emitOpError() << "has " << combiners->size()
                           << " combiners for " << getNumResults()
                           << " results";
    return success();
  }
  if (!hasRegionCombiner())
    return emitOpError("needs built-in 'combiners' or a 'combine' region");
  if (getInits().size() != getNumResults())
    return emitOpError() << "has " << getInits().size() << " init values for "
                         << getNumResults() << " results";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(getInits().getTypes(), getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "init #" << index << " has type "
                           << std::get<0>(pair) << " but result #" << index
                           << " has type " << std::get<1>(pair);
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  Block &body = getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with block.yield");
  if (body.getNumArguments() != 0)
    return emitOpError("body takes no block arguments; block indices are "
                       "implicit in the axes");
  if (yield.getNumOperands() != getNumResults())
    return emitOpError() << "body yields " << yield.getNumOperands()
                         << " terms for " << getNumResults() << " results";

  if (!hasRegionCombiner()) {
    for (auto [index, pair] : llvm::enumerate(
             llvm::zip(yield.getOperandTypes(), getResultTypes())))
      if (std::get<0>(pair) != std::get<1>(pair))
        return emitOpError() << "term #" << index << " has type "
                             << std::get<0>(pair) << " but result #" << index
                             << " has type " << std::get<1>(pair)
                             << "; built-in combiners fold like with like";
    return success();
  }

  Block &combine = getCombiner().front();
  unsigned numResults = getNumResults();
  if (combine.getNumArguments() != 2 * numResults)
    return emitOpError() << "combine region takes "
                         << combine.getNumArguments()
                         << " arguments; it takes the state (" << numResults
                         << " values) followed by the terms (" << numResults
                         << " values)";
  for (unsigned i = 0; i < numResults; ++i) {
    if (combine.getArgument(i).getType() != getResult(i).getType())
      return emitOpError() << "combine argument #" << i << " has type "
                           << combine.getArgument(i).getType()
                           << " but state #" << i << " has type "
                           << getResult(i).getType();
    if (combine.getArgument(numResults + i).getType() !=
        yield.getOperand(i).getType())
      return emitOpError() << "combine argument #" << numResults + i
                           << " has type "
                           << combine.getArgument(numResults + i).getType()
                           << " but term #" << i << " has type "
                           << yield.getOperand(i).getType();
  }
  auto combineYield = dyn_cast<YieldOp>(combine.getTerminator());
  if (!combineYield)
    return emitOpError("combine region must end with block.yield");
  if (combineYield.getOperandTypes() != getResultTypes())
    return emitOpError("combine region must yield the new state, with the "
                       "result types");
  WalkResult walk = getCombiner().walk([&](Operation *op) {
    if (isa<LoadOp, ReduceOp>(op)) {
      op->emitOpError("is not allowed in a combine region, which folds tiles "
                      "already in local memory");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  ArrayType source = cast<ArrayType>(getSource().getType());
  TileType result = cast<TileType>(getResult().getType());
  ArrayRef<int64_t> offsets = getOffsets();
  if (getIndexAxes().size() != static_cast<size_t>(source.getRank()) ||
      offsets.size() != static_cast<size_t>(source.getRank()))
    return emitOpError() << "has " << getIndexAxes().size()
                         << " index entries for a source of rank "
                         << source.getRank()
                         << "; give one per array dimension";
  SmallVector<StringAttr> indexing;
  for (auto [dim, pair] :
       llvm::enumerate(llvm::zip(getIndexAxes(), offsets))) {
    auto axis = cast<StringAttr>(std::get<0>(pair));
    int64_t offset = std::get<1>(pair);
    int64_t extent = source.getShape()[dim];
    if (axis.getValue().empty()) {
      if (offset < 0 || offset >= extent)
        return emitOpError() << "fixed index " << offset << " of dimension "
                             << dim << " is outside [0, " << extent << ")";
      continue;
    }
    if (llvm::is_contained(indexing, axis))
      return emitOpError() << "indexes two dimensions with axis '"
                           << axis.getValue() << "'";
    indexing.push_back(axis);
    AxisAttr entry = program.lookupAxis(axis);
    if (!entry)
      continue; // Reported by DeclaredAxes.
    if (offset == kExactIndex && entry.getExtent() != extent)
      return emitOpError() << "axis '" << axis.getValue() << "' (extent "
                           << entry.getExtent() << ") indexes dimension "
                           << dim << " of extent " << extent
                           << "; extents must match, or write '"
                           << axis.getValue() << " + OFFSET' for a slice";
    if (offset != kExactIndex &&
        (offset < 0 || offset + entry.getExtent() > extent))
      return emitOpError() << "slice '" << axis.getValue() << " + " << offset
                           << "' (extent " << entry.getExtent()
                           << ") runs past dimension " << dim << " of extent "
                           << extent;
  }
  if (!std::is_permutation(indexing.begin(), indexing.end(),
                           result.getAxes().begin(), result.getAxes().end())) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "result axes ";
    printAxisNames(os, result.getAxes());
    os << " must be a permutation of the indexing axes ";
    printAxisNames(os, indexing);
    return emitOpError() << message;
  }
  if (result.getElementType() != source.getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the source's "
                         << source.getElementType()
                         << "; loads do not convert, use block.cast";
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

/// The attribute `name` of an op being built: from its properties when set,
/// else from the attribute dictionary (the PDL interpreter and the generic
/// builder infer result types before attributes become properties).
template <typename AttrTy>
static AttrTy getBuildAttr(AttrTy fromProperties, DictionaryAttr attributes,
                           StringRef name) {
  if (fromProperties)
    return fromProperties;
  return attributes ? attributes.getAs<AttrTy>(name) : AttrTy();
}

LogicalResult DotOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  DotOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto lhs = dyn_cast<TileType>(adaptor.getLhs().getType());
  auto rhs = dyn_cast<TileType>(adaptor.getRhs().getType());
  ArrayAttr contractAttr =
      getBuildAttr(adaptor.getContractAttr(), attributes, "contract");
  if (!lhs || !rhs)
    return emitOptionalError(location, "'block.dot' operands must be tiles");
  if (!contractAttr)
    return emitOptionalError(location, "'block.dot' needs 'contract'");
  SmallVector<StringAttr> contract = toAxisNames(contractAttr);
  SmallVector<StringAttr> axes;
  for (TileType tile : {lhs, rhs})
    for (StringAttr axis : tile.getAxes())
      if (!llvm::is_contained(contract, axis) && !llvm::is_contained(axes, axis))
        axes.push_back(axis);
  inferredReturnTypes.push_back(
      TileType::get(context, axes, Float32Type::get(context)));
  return success();
}

LogicalResult DotOp::verify() {
  auto lhs = cast<TileType>(getLhs().getType());
  auto rhs = cast<TileType>(getRhs().getType());
  if (getContract().empty())
    return emitOpError("contracts no axis; write an outer product as block.mul");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError() << "operand element types differ ("
                         << lhs.getElementType() << " and "
                         << rhs.getElementType() << "); insert a block.cast";
  SmallVector<StringAttr> contract = toAxisNames(getContract());
  for (auto [index, axis] : llvm::enumerate(contract)) {
    if (llvm::is_contained(ArrayRef(contract).take_front(index), axis))
      return emitOpError() << "contracts axis '" << axis.getValue()
                           << "' twice";
    for (auto [name, tile] : {std::pair<StringRef, TileType>{"lhs", lhs},
                              std::pair<StringRef, TileType>{"rhs", rhs}}) {
      if (tile.hasAxis(axis))
        continue;
      std::string axes;
      llvm::raw_string_ostream os(axes);
      printAxisNames(os, tile.getAxes());
      return emitOpError() << "contraction axis '" << axis.getValue()
                           << "' is missing from " << name << " " << axes;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// Result type of a name-broadcasting op whose operands are `operands`; the
/// element type is `elementType`, or that of the first operand when null.
static LogicalResult inferBroadcastType(std::optional<Location> location,
                                        StringRef opName, ValueRange operands,
                                        Type elementType,
                                        SmallVectorImpl<Type> &inferred) {
  SmallVector<TileType> tiles;
  for (Value operand : operands) {
    auto tile = dyn_cast_or_null<TileType>(operand ? operand.getType() : Type());
    if (!tile)
      return emitOptionalError(location, "'", opName,
                               "' operands must be unbuffered tiles");
    tiles.push_back(tile);
  }
  if (tiles.empty())
    return emitOptionalError(location, "'", opName, "' has no operands");
  if (!elementType)
    elementType = tiles.front().getElementType();
  inferred.push_back(TileType::get(elementType.getContext(),
                                   getBroadcastAxes(tiles), elementType));
  return success();
}

static LogicalResult verifySameElementType(Operation *op, Value lhs, Value rhs,
                                           StringRef lhsName,
                                           StringRef rhsName) {
  Type lhsElement = cast<TileType>(lhs.getType()).getElementType();
  Type rhsElement = cast<TileType>(rhs.getType()).getElementType();
  if (lhsElement == rhsElement)
    return success();
  return op->emitOpError() << lhsName << " has element type " << lhsElement
                           << " but " << rhsName << " has " << rhsElement
                           << "; elementwise ops do not convert, insert a "
                              "block.cast";
}

#define BLOCK_BINARY_OP(OP)                                                    \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> location, ValueRange operands,    \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &inferred) {                                       \
    return inferBroadcastType(location, getOperationName(), operands, Type(),  \
                              inferred);                                       \
  }                                                                            \
  LogicalResult OP::verify() {                                                 \
    return verifySameElementType(*this, getLhs(), getRhs(), "lhs", "rhs");     \
  }
BLOCK_BINARY_OP(AddOp)
BLOCK_BINARY_OP(SubOp)
BLOCK_BINARY_OP(MulOp)
BLOCK_BINARY_OP(DivOp)
BLOCK_BINARY_OP(MaxOp)
BLOCK_BINARY_OP(MinOp)
#undef BLOCK_BINARY_OP

LogicalResult SelectOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  if (operands.size() != 3)
    return emitOptionalError(location, "'block.select' takes 3 operands");
  auto trueTile = dyn_cast<TileType>(operands[1].getType());
  if (!trueTile)
    return emitOptionalError(location,
                             "'block.select' operands must be unbuffered tiles");
  return inferBroadcastType(location, getOperationName(), operands,
                            trueTile.getElementType(), inferred);
}

LogicalResult SelectOp::verify() {
  return verifySameElementType(*this, getTrueValue(), getFalseValue(),
                               "true_value", "false_value");
}

LogicalResult CompareOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  return inferBroadcastType(location, getOperationName(), operands,
                            IntegerType::get(context, 1), inferred);
}

LogicalResult CompareOp::verify() {
  if (failed(verifySameElementType(*this, getLhs(), getRhs(), "lhs", "rhs")))
    return failure();
  // On integers the `u` predicates compare unsigned, except `ueq` and `une`,
  // which would only repeat `eq` and `ne`.
  bool equality = getPredicate() == ComparePredicate::ueq ||
                  getPredicate() == ComparePredicate::une;
  Type element = cast<TileType>(getLhs().getType()).getElementType();
  if (equality && !isa<FloatType>(element))
    return emitOpError() << "predicate '"
                         << stringifyComparePredicate(getPredicate())
                         << "' is unordered, which only floats are; compare "
                         << element << " with 'eq' or 'ne'";
  return success();
}

//===----------------------------------------------------------------------===//
// TileReduceOp
//===----------------------------------------------------------------------===//

LogicalResult TileReduceOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  TileReduceOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto tile = dyn_cast<TileType>(adaptor.getOperand().getType());
  ArrayAttr reducedAttr =
      getBuildAttr(adaptor.getReducedAttr(), attributes, "reduced");
  if (!tile)
    return emitOptionalError(location,
                             "'block.tile_reduce' operand must be a tile");
  if (!reducedAttr)
    return emitOptionalError(location, "'block.tile_reduce' needs 'reduced'");
  SmallVector<StringAttr> reduced = toAxisNames(reducedAttr);
  SmallVector<StringAttr> kept;
  for (StringAttr axis : tile.getAxes())
    if (!llvm::is_contained(reduced, axis))
      kept.push_back(axis);
  inferred.push_back(TileType::get(context, kept, tile.getElementType()));
  return success();
}

LogicalResult TileReduceOp::verify() {
  auto tile = cast<TileType>(getOperand().getType());
  if (getReduced().empty())
    return emitOpError("reduces no axis");
  SmallVector<StringAttr> reduced = toAxisNames(getReduced());
  for (auto [index, axis] : llvm::enumerate(reduced)) {
    if (llvm::is_contained(ArrayRef(reduced).take_front(index), axis))
      return emitOpError() << "reduces axis '" << axis.getValue() << "' twice";
    if (!tile.hasAxis(axis)) {
      std::string axes;
      llvm::raw_string_ostream os(axes);
      printAxisNames(os, tile.getAxes());
      return emitOpError() << "reduced axis '" << axis.getValue()
                           << "' is missing from the operand " << axes;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp, ConstantOp, IotaOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  auto from = cast<TileType>(getOperand().getType());
  auto to = cast<TileType>(getResult().getType());
  if (from.getElementType() != to.getElementType())
    return emitOpError("changes the element type; use block.cast");
  for (StringAttr axis : from.getAxes())
    if (!to.hasAxis(axis))
      return emitOpError() << "drops axis '" << axis.getValue()
                           << "' of its operand; reduce it with "
                              "block.tile_reduce instead";
  return success();
}

LogicalResult CastOp::verify() {
  auto from = cast<TileType>(getOperand().getType());
  auto to = cast<TileType>(getResult().getType());
  if (from.getAxes() != to.getAxes())
    return emitOpError("changes the axes of its operand; a cast converts "
                       "elements only");
  // Index elements (global positions from block.iota) convert to and from
  // integers, as arith.index_cast does; there is no float view of a position.
  Type fromElement = from.getElementType(), toElement = to.getElementType();
  if ((fromElement.isIndex() && isa<FloatType>(toElement)) ||
      (toElement.isIndex() && isa<FloatType>(fromElement)))
    return emitOpError() << "cannot convert between index and "
                         << (fromElement.isIndex() ? toElement : fromElement)
                         << "; cast the index to an integer first";
  return success();
}

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  ConstantOp::Adaptor adaptor({}, attributes, properties, regions);
  ArrayAttr axesAttr = getBuildAttr(adaptor.getAxesAttr(), attributes, "axes");
  TypedAttr valueAttr =
      getBuildAttr(adaptor.getValueAttr(), attributes, "value");
  if (!axesAttr || !valueAttr)
    return emitOptionalError(location,
                             "'block.constant' needs 'axes' and 'value'");
  // The tile type is built from `axes` and the type of `value`, not parsed:
  // check it as its parser would (a repeated axis, an element type that
  // tiles cannot hold).
  SmallVector<StringAttr> axes = toAxisNames(axesAttr);
  Type elementType = valueAttr.getType();
  if (failed(TileType::verify(
          [&]() -> InFlightDiagnostic {
            InFlightDiagnostic diag =
                mlir::emitError(location.value_or(UnknownLoc::get(context)));
            diag << "'block.constant' result: ";
            return diag;
          },
          axes, elementType)))
    return failure();
  inferred.push_back(TileType::get(context, axes, elementType));
  return success();
}

LogicalResult ConstantOp::verify() {
  if (!isa<FloatAttr, IntegerAttr>(getValueAttr()))
    return emitOpError("value must be a float or an integer");
  return success();
}

LogicalResult IotaOp::verify() {
  auto tile = cast<TileType>(getResult().getType());
  if (tile.getRank() != 1 || tile.getAxes().front() != getAxisAttr())
    return emitOpError() << "result must have exactly the axis '"
                         << getAxis() << "'";
  Type element = tile.getElementType();
  if (!element.isIndex() && !element.isSignlessInteger())
    return emitOpError() << "result element type " << element
                         << " is not an integer or index";
  return success();
}

#define GET_OP_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOps.cpp.inc"
