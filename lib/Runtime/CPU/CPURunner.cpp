//===- CPURunner.cpp - JIT-running programs on the CPU --------------------===//
//
// Shared by bb-run's driver (lib/Runtime/Runner.cpp) and the C API, so that
// the C API runs programs exactly as bb-run does. See CPURunner.h.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Runtime/CPU/CPURunner.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "Blockbuster/InitAll.h"
#include "Blockbuster/Pipelines/ConvertAndSelect.h"
#include "Blockbuster/Pipelines/Pipelines.h"
#include "Blockbuster/Runtime/CPU/ReferencePrecision.h"
#include "Blockbuster/Support/LinalgParserGuard.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <memory>

using namespace mlir;
using namespace blockbuster;
using namespace blockbuster::runner;

namespace blockbuster {
namespace runner {

void registerRunnerDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  blockbuster::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
}

//===----------------------------------------------------------------------===//
// Host arrays
//===----------------------------------------------------------------------===//

int64_t ArrayDesc::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

int64_t ArrayDesc::getElementBytes() const {
  return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
}

std::string ArrayDesc::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t extent : shape)
    os << extent << 'x';
  os << elementType;
  return text;
}

// Whole 64-bit words, so that every element type is aligned.
HostArray::HostArray(ArrayDesc desc)
    : desc(std::move(desc)),
      storage((this->desc.getNumElements() * this->desc.getElementBytes() +
               7) /
              8) {}

std::vector<int64_t> HostArray::getDescriptor() {
  std::vector<int64_t> descriptor;
  descriptor.push_back(reinterpret_cast<int64_t>(data()));
  descriptor.push_back(reinterpret_cast<int64_t>(data()));
  descriptor.push_back(0);
  for (int64_t extent : desc.shape)
    descriptor.push_back(extent);
  int64_t stride = 1;
  std::vector<int64_t> strides(desc.shape.size());
  for (int64_t dim = desc.shape.size() - 1; dim >= 0; --dim) {
    strides[dim] = stride;
    stride *= desc.shape[dim];
  }
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  return descriptor;
}

double HostArray::get(int64_t index) const {
  Type type = desc.elementType;
  const uint8_t *p = data() + index * desc.getElementBytes();
  if (type.isF32()) {
    float value;
    std::memcpy(&value, p, sizeof(value));
    return value;
  }
  if (type.isF64()) {
    double value;
    std::memcpy(&value, p, sizeof(value));
    return value;
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // f16 and bf16: decode the bits with APFloat.
    uint16_t bits;
    std::memcpy(&bits, p, sizeof(bits));
    llvm::APFloat value(floatType.getFloatSemantics(), llvm::APInt(16, bits));
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return *p & 1;
  case 8:
    return static_cast<int8_t>(*p);
  case 16: {
    int16_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
  }
  case 32: {
    int32_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
  }
  default: {
    int64_t value;
    std::memcpy(&value, p, sizeof(value));
    return static_cast<double>(value);
  }
  }
}

void HostArray::set(int64_t index, double value) {
  Type type = desc.elementType;
  uint8_t *p = data() + index * desc.getElementBytes();
  if (type.isF32()) {
    float narrow = static_cast<float>(value);
    std::memcpy(p, &narrow, sizeof(narrow));
    return;
  }
  if (type.isF64()) {
    std::memcpy(p, &value, sizeof(value));
    return;
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // f16 and bf16: round to nearest even, as the compiled code does.
    llvm::APFloat converted(value);
    bool losesInfo;
    converted.convert(floatType.getFloatSemantics(),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    uint16_t bits =
        static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
    std::memcpy(p, &bits, sizeof(bits));
    return;
  }
  int64_t integer = static_cast<int64_t>(value);
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    *p = integer != 0;
    return;
  case 8:
    *p = static_cast<uint8_t>(integer);
    return;
  case 16: {
    int16_t narrow = static_cast<int16_t>(integer);
    std::memcpy(p, &narrow, sizeof(narrow));
    return;
  }
  case 32: {
    int32_t narrow = static_cast<int32_t>(integer);
    std::memcpy(p, &narrow, sizeof(narrow));
    return;
  }
  default:
    std::memcpy(p, &integer, sizeof(integer));
    return;
  }
}

void HostArray::poison() {
  if (isa<FloatType>(desc.elementType)) {
    for (int64_t i = 0, e = size(); i < e; ++i)
      set(i, std::nan(""));
    return;
  }
  std::memset(data(), 0xA5, storage.size() * sizeof(uint64_t));
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

namespace {
/// SplitMix64 (Steele, Lea, Flood 2014): fixed and portable, so one seed
/// gives the same inputs on every machine and standard library (the
/// distributions of <random> are implementation-defined).
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1), with 53 random bits.
  double uniform() { return (next() >> 11) * 0x1.0p-52 - 1.0; }

private:
  uint64_t state;
};
} // namespace

/// Fills the inputs in argument order from one generator: floats uniform in
/// [-1, 1) rounded to the element type, i1 0 or 1, other integers uniform in
/// [-8, 8].
void fillInputs(MutableArrayRef<HostArray> inputs, uint64_t seedValue) {
  SplitMix64 random(seedValue);
  for (HostArray &input : inputs) {
    Type type = input.getDesc().elementType;
    for (int64_t i = 0, e = input.size(); i < e; ++i) {
      if (isa<FloatType>(type))
        input.set(i, random.uniform());
      else if (type.isInteger(1))
        input.set(i, random.next() & 1);
      else
        input.set(i, static_cast<double>(random.next() % 17) - 8.0);
    }
  }
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//


bool isSupportedElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// The shape of a program argument or result: a block array or a tensor of
/// static shape and a supported element type.
static FailureOr<ArrayDesc> getArrayDesc(Operation *entry, Type type,
                                         StringRef what, unsigned index,
                                         StringRef tool) {
  ArrayDesc desc;
  if (type.isIntOrFloat()) {
    // A scalar argument: the same values as a 0-d array.
    desc.elementType = type;
  } else if (auto array = dyn_cast<block::ArrayType>(type)) {
    desc.shape.assign(array.getShape().begin(), array.getShape().end());
    desc.elementType = array.getElementType();
  } else if (auto tensor = dyn_cast<RankedTensorType>(type);
             tensor && tensor.hasStaticShape()) {
    desc.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    desc.elementType = tensor.getElementType();
  } else {
    return entry->emitError() << tool << ": " << what << " #" << index
                              << " has type " << type
                              << "; " << tool << " passes arrays and tensors of "
                                 "static shape";
  }
  if (!isSupportedElementType(desc.elementType))
    return entry->emitError()
           << tool << ": " << what << " #" << index << " has element type "
           << desc.elementType
           << "; " << tool << " supports f16, bf16, f32, f64, i1, i8, i16, i32, i64";
  return desc;
}

/// Parses `filename` and finds the entry point: a block.program (block
/// input) or a func.func (Linalg input) named `entry`, or the only one.
FailureOr<Program> loadProgram(MLIRContext &context, StringRef filename,
                               StringRef entry, const ErrorStream &errs) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(filename, &errorMessage);
  if (!buffer) {
    errs.error() << errorMessage << "\n";
    return failure();
  }
  return loadProgram(context, std::move(buffer), filename, entry, errs);
}

FailureOr<Program> loadProgram(MLIRContext &context,
                               std::unique_ptr<llvm::MemoryBuffer> buffer,
                               StringRef filename, StringRef entry,
                               const ErrorStream &errs) {
  Program program;
  program.filename = filename.str();
  // One source manager per file: the parser reads a manager's main buffer.
  program.sourceMgr = std::make_shared<llvm::SourceMgr>();
  program.sourceMgr->AddNewSourceBuffer(std::move(buffer), SMLoc());
  program.module =
      parseGuardedSourceFile(*program.sourceMgr, ParserConfig(&context));
  if (!program.module)
    return failure();

  SmallVector<Operation *> candidates;
  ModuleOp module = *program.module;
  bool hasPrograms = !module.getOps<block::ProgramOp>().empty();
  if (hasPrograms) {
    for (block::ProgramOp op : module.getOps<block::ProgramOp>())
      candidates.push_back(op);
  } else {
    for (func::FuncOp op : module.getOps<func::FuncOp>())
      if (!op.isExternal() && op.isPublic())
        candidates.push_back(op);
  }
  Operation *found = nullptr;
  if (entry.empty()) {
    if (candidates.size() != 1) {
      errs.error() << filename << " has "
                   << candidates.size()
                   << (hasPrograms ? " block programs" : " public functions")
                   << "; name the one to run with --entry\n";
      return failure();
    }
    found = candidates.front();
  } else {
    for (Operation *op : candidates)
      if (SymbolTable::getSymbolName(op) == entry)
        found = op;
    if (!found) {
      errs.error() << filename
                   << " has no block.program or public func.func named @"
                   << entry << "\n";
      return failure();
    }
  }
  program.entry = SymbolTable::getSymbolName(found).str();
  program.kind = hasPrograms ? InputKind::BlockProgram : InputKind::Linalg;
  if (program.kind == InputKind::Linalg) {
    // Weights baked in as tensor constants become arguments before either
    // path sees the program, so both get the same (random) values.
    PassManager pm(&context);
    std::string errorMessage;
    llvm::raw_string_ostream errorStream(errorMessage);
    if (failed(parsePassPipeline("hoist-tensor-constants", pm, errorStream)) ||
        failed(pm.run(module))) {
      errs.error() << "cannot hoist the tensor constants of "
                   << filename << " " << errorMessage << "\n";
      return failure();
    }
  }
  auto function = cast<FunctionOpInterface>(found);
  for (auto [index, type] : llvm::enumerate(function.getArgumentTypes())) {
    FailureOr<ArrayDesc> desc = getArrayDesc(found, type, "argument", index, errs.tool);
    if (failed(desc))
      return failure();
    program.inputs.push_back(*desc);
    program.byValue.push_back(type.isIntOrFloat());
  }
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    FailureOr<ArrayDesc> desc = getArrayDesc(found, type, "result", index, errs.tool);
    if (failed(desc))
      return failure();
    program.outputs.push_back(*desc);
  }
  return std::move(program);
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// The reference path for Linalg on tensors: upstream MLIR's ordinary
/// lowering (one-shot-bufferize, convert-linalg-to-loops, to LLVM), with
/// nothing of Blockbuster in it.
LogicalResult lowerLinalgReference(ModuleOp module, StringRef entry,
                                   llvm::raw_ostream &notes, bool inF64) {
  // f16/bf16 programs: the reference computes in f32 (ReferencePrecision.h).
  if (auto func = module.lookupSymbol<func::FuncOp>(entry)) {
    bool narrow = false;
    func.walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        narrow |= getElementTypeOrSelf(type).isF16() ||
                  getElementTypeOrSelf(type).isBF16();
    });
    for (Type type : func.getArgumentTypes())
      narrow |= getElementTypeOrSelf(type).isF16() ||
                getElementTypeOrSelf(type).isBF16();
    if (narrow) {
      OpBuilder builder(func);
      auto original = cast<func::FuncOp>(builder.clone(*func));
      if (promoteNarrowFloatsToF32(func)) {
        original.erase();
        notes << "reference: f16/bf16 values computed in f32\n";
      } else {
        func.erase();
        original.setName(entry);
        notes << "reference: f16/bf16 as written (could not promote "
                        "to f32)\n";
      }
    }
    if (inF64) {
      func = module.lookupSymbol<func::FuncOp>(entry);
      if (!promoteF32ToF64(func))
        return func.emitOpError("cannot be computed in f64 for the oracle");
    }
  }
  // convert-linalg-to-loops does not lower aggregate ops (linalg.softmax);
  // their own decomposition (what transform.structured.decompose_interface
  // applies) turns them into generics first.
  IRRewriter rewriter(module.getContext());
  for (int round = 0; round < 8; ++round) {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    module.walk([&](linalg::AggregatedOpInterface op) {
      aggregates.push_back(op);
    });
    if (aggregates.empty())
      break;
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results))
        return op->emitOpError("cannot be decomposed for the reference");
      rewriter.replaceOp(op, *results);
    }
  }
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  PassManager pm(module.getContext());
  buildLinalgTensorsToLLVMPipeline(pm);
  return pm.run(module);
}

/// The Blockbuster path: a Linalg module first becomes block programs
/// through convert-linalg-to-block (found by name, so that this tool does
/// not depend on its code), then block-select binds the block sizes and the
/// CPU pipeline lowers to LLVM. Where the conversion's whole form does not
/// fit the target at any block size (a real-size encoder layer's whole rows
/// on the CPU), the program is converted again with more axes tiled, as the
/// GPU artifact does (convertAndSelect).
LogicalResult lowerWithBlockbuster(ModuleOp module, InputKind kind,
                                   const LoweringOptions &options) {
  std::string fuseStep = options.fuse ? "block-fuse{keep-snapshots=true}" : "";
  std::string select = "block-select{target=" + options.target;
  if (!options.blockSizes.empty())
    select += " block-sizes=" + llvm::join(options.blockSizes, ",");
  select += "}";
  if (kind == InputKind::Linalg) {
    // The conversion's default only: the check runs the form the
    // conversion writes unless that form cannot run at all.
    static constexpr StringRef kDefaultConversion[] = {""};
    ConvertAndSelectOptions candidates;
    candidates.conversions = kDefaultConversion;
    candidates.fuseStep = fuseStep;
    candidates.select = select;
    if (failed(convertAndSelect(module, candidates)))
      return failure();
  } else {
    std::string pipeline =
        fuseStep.empty() ? select : fuseStep + "," + select;
    if (failed(runPipeline(module, pipeline)))
      return failure();
  }
  PassManager pm(module.getContext());
  buildCPUPipeline(pm);
  return pm.run(module);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

#ifndef BB_RUN_C_RUNNER_UTILS
#define BB_RUN_C_RUNNER_UTILS "libmlir_c_runner_utils.so"
#endif

/// JIT-compiles the LLVM-dialect `module` and calls the C interface of
/// `entry` with the inputs, then the outputs (out-params), by descriptor.
LogicalResult runOnCPU(ModuleOp module, StringRef entry,
                       MutableArrayRef<HostArray> inputs,
                       ArrayRef<bool> inputsByValue,
                       MutableArrayRef<HostArray> outputs,
                       const ErrorStream &errs) {
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  options.transformer = transformer;
  // memrefCopy (strided copies into a block of an output) lives here.
  SmallVector<StringRef, 1> libraries = {BB_RUN_C_RUNNER_UTILS};
  options.sharedLibPaths = libraries;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options);
  if (!engine) {
    errs.error() << "cannot JIT-compile @" << entry << ": "
                 << llvm::toString(engine.takeError()) << "\n";
    return failure();
  }
  (*engine)->initialize();

  std::vector<std::vector<int64_t>> descriptors;
  for (HostArray &array : inputs)
    descriptors.push_back(array.getDescriptor());
  for (HostArray &array : outputs)
    descriptors.push_back(array.getDescriptor());
  // The C interface takes a pointer to each descriptor; invokePacked takes a
  // pointer to each argument.
  std::vector<void *> descriptorPointers;
  for (std::vector<int64_t> &descriptor : descriptors)
    descriptorPointers.push_back(descriptor.data());
  SmallVector<void *> arguments;
  for (auto [index, pointer] : llvm::enumerate(descriptorPointers)) {
    // A scalar passed by value: invokePacked takes a pointer to it.
    if (index < inputsByValue.size() && inputsByValue[index])
      arguments.push_back(inputs[index].data());
    else
      arguments.push_back(&pointer);
  }
  if (llvm::Error error = (*engine)->invokePacked(
          ("_mlir_ciface_" + entry).str(), arguments)) {
    errs.error() << "cannot run @" << entry << ": "
                 << llvm::toString(std::move(error)) << "\n";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Checking and printing
//===----------------------------------------------------------------------===//


/// The largest finite magnitude in `array`: the scale of an output, against
/// which the default absolute tolerance is set.
double getLargestMagnitude(const HostArray &array) {
  double largest = 0;
  for (int64_t i = 0, e = array.size(); i < e; ++i) {
    double value = std::fabs(array.get(i));
    if (std::isfinite(value))
      largest = std::max(largest, value);
  }
  return largest;
}

/// Compares element by element: element i passes when neither value is NaN
/// and |test - ref| <= atol + rtol * |ref| (as numpy.allclose). The relative
/// error of an element is |test - ref| / |ref| (0 when both are 0, inf when
/// only ref is); near a zero of the reference it is large even when the
/// element passes, which is what atol is for. Also computes the normwise
/// relative error, which catches a small error spread over many elements.
Comparison compare(const HostArray &test, const HostArray &ref,
                          double rtol, double atol) {
  Comparison result;
  double errorSquares = 0, refSquares = 0;
  for (int64_t i = 0, e = test.size(); i < e; ++i) {
    double t = test.get(i);
    double r = ref.get(i);
    bool bad;
    if (std::isnan(t) || std::isnan(r)) {
      ++result.nans;
      bad = true;
    } else {
      double absError = t == r ? 0.0 : std::fabs(t - r);
      double relError = absError == 0.0 ? 0.0
                        : r == 0.0      ? INFINITY
                                        : absError / std::fabs(r);
      double tolerance = atol + rtol * std::fabs(r);
      result.maxAbsError = std::max(result.maxAbsError, absError);
      result.maxRelError = std::max(result.maxRelError, relError);
      result.maxErrorOverTolerance =
          std::max(result.maxErrorOverTolerance,
                   absError == 0.0 ? 0.0
                   : tolerance == 0.0 ? INFINITY
                                      : absError / tolerance);
      errorSquares += absError * absError;
      refSquares += r * r;
      bad = !(absError <= tolerance);
      if (bad)
        ++result.mismatches;
    }
    if (bad && result.firstBad < 0)
      result.firstBad = i;
  }
  int64_t compared = test.size() - result.nans;
  result.rmsError = compared == 0 ? 0.0 : std::sqrt(errorSquares / compared);
  result.normRelError = errorSquares == 0.0  ? 0.0
                        : refSquares == 0.0 ? INFINITY
                                            : std::sqrt(errorSquares /
                                                        refSquares);
  return result;
}

/// Prints the multi-index of flat element `index`, as [i, j, k].
void printIndex(llvm::raw_ostream &os, const ArrayDesc &desc,
                       int64_t index) {
  SmallVector<int64_t> indices(desc.shape.size());
  for (int64_t dim = desc.shape.size() - 1; dim >= 0; --dim) {
    indices[dim] = index % desc.shape[dim];
    index /= desc.shape[dim];
  }
  os << '[';
  llvm::interleaveComma(indices, os);
  os << ']';
}

/// Prints an array one innermost row per line, prefixed by the row's index.
void printArray(llvm::raw_ostream &os, StringRef label,
                       const HostArray &array) {
  const ArrayDesc &desc = array.getDesc();
  os << label << " (" << desc.str() << "):\n";
  int64_t rowLength = desc.shape.empty() ? 1 : desc.shape.back();
  for (int64_t start = 0, e = array.size(); start < e; start += rowLength) {
    os << "  ";
    if (!desc.shape.empty()) {
      printIndex(os, desc, start);
      os << ' ';
    }
    for (int64_t i = start; i < start + rowLength; ++i)
      os << (i == start ? "" : " ") << llvm::format("%.6g", array.get(i));
    os << '\n';
  }
}

bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

SmallVector<HostArray> createArrays(ArrayRef<ArrayDesc> descs) {
  SmallVector<HostArray> arrays;
  for (const ArrayDesc &desc : descs)
    arrays.emplace_back(desc);
  return arrays;
}

LogicalResult checkSignaturesMatch(const Program &test, const Program &ref,
                                   const ErrorStream &errs) {
  auto mismatch = [&](StringRef what, unsigned index, const ArrayDesc &a,
                      const ArrayDesc &b) {
    errs.error() << what << " #" << index << " of @"
                 << test.entry << " (" << test.filename << ") is " << a.str()
                 << " but of @" << ref.entry << " (" << ref.filename
                 << ") it is " << b.str() << "\n";
    return failure();
  };
  if (test.inputs.size() != ref.inputs.size() ||
      test.outputs.size() != ref.outputs.size()) {
    errs.error() << "@" << test.entry << " takes "
                 << test.inputs.size() << " inputs and returns "
                 << test.outputs.size() << " outputs, but the reference @"
                 << ref.entry << " takes " << ref.inputs.size()
                 << " and returns " << ref.outputs.size() << "\n";
    return failure();
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(test.inputs, ref.inputs)))
    if (!(std::get<0>(pair) == std::get<1>(pair)))
      return mismatch("argument", index, std::get<0>(pair), std::get<1>(pair));
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(test.outputs, ref.outputs)))
    if (!(std::get<0>(pair) == std::get<1>(pair)))
      return mismatch("result", index, std::get<0>(pair), std::get<1>(pair));
  return success();
}

} // namespace runner
} // namespace blockbuster
