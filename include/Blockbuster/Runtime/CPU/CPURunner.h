//===- CPURunner.h - JIT-running programs on the CPU ------------*- C++ -*-===//
//
// The CPU execution that bb-run is built on (docs/CPUExecution.md), as a
// library so that the C API (libBlockbusterCAPI, python/blockbuster) runs
// programs exactly as bb-run does: host arrays passed as memref
// descriptors, bb-run's seeded inputs, NaN-poisoned outputs, the Blockbuster
// path (convert-linalg-to-block, block-fuse, block-select, CPU pipeline) and
// upstream's reference path, and the tolerance check.
//
// Errors: MLIR diagnostics go through the context's handler; the runner's
// own messages are written to an ErrorStream as "TOOL: error: ..." lines.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_RUNTIME_CPU_CPURUNNER_H
#define BLOCKBUSTER_RUNTIME_CPU_CPURUNNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace blockbuster {
namespace runner {

/// The dialects, extensions and LLVM IR translations a context that runs
/// programs needs: every upstream dialect and Blockbuster's, to parse and
/// lower any input; Builtin and LLVM translations for the JIT, GPU and NVVM
/// for PTX (the C API compiles artifacts in the same context).
void registerRunnerDialects(mlir::DialectRegistry &registry);

/// Where the runner's errors go: "TOOL: error: MESSAGE".
struct ErrorStream {
  llvm::raw_ostream &os;
  std::string tool = "bb-run";
  llvm::raw_ostream &error() const { return os << tool << ": error: "; }
};

/// Shape and element type of one argument or result of the entry point.
struct ArrayDesc {
  llvm::SmallVector<int64_t> shape;
  mlir::Type elementType;

  int64_t getNumElements() const;
  /// Bytes per element in memory: LLVM stores i1 in a byte.
  int64_t getElementBytes() const;
  bool operator==(const ArrayDesc &other) const {
    return shape == other.shape && elementType == other.elementType;
  }
  /// "1000x64xf32"
  std::string str() const;
};

/// An array in host memory, passed to the JIT-compiled code as a memref
/// descriptor with identity layout.
class HostArray {
public:
  explicit HostArray(ArrayDesc desc);

  const ArrayDesc &getDesc() const { return desc; }
  int64_t size() const { return desc.getNumElements(); }
  size_t getBytes() const { return size() * desc.getElementBytes(); }
  uint8_t *data() { return reinterpret_cast<uint8_t *>(storage.data()); }
  const uint8_t *data() const {
    return reinterpret_cast<const uint8_t *>(storage.data());
  }

  double get(int64_t index) const;
  void set(int64_t index, double value);
  /// NaN in every element of a float array; a 0xA5 byte pattern in integer
  /// arrays (which have no NaN, so an unwritten integer element is not
  /// detected).
  void poison();

  /// The memref descriptor {allocated, aligned, offset, sizes, strides}.
  std::vector<int64_t> getDescriptor();

private:
  ArrayDesc desc;
  std::vector<uint64_t> storage;
};

llvm::SmallVector<HostArray> createArrays(llvm::ArrayRef<ArrayDesc> descs);

/// Fills the inputs in argument order from one SplitMix64 stream: floats
/// uniform in [-1, 1) rounded to the element type, i1 0 or 1, other
/// integers uniform in [-8, 8] (python/blockbuster/seeded.py reproduces it).
void fillInputs(llvm::MutableArrayRef<HostArray> inputs, uint64_t seed);

bool isSupportedElementType(mlir::Type type);
bool isNarrowFloat(mlir::Type type);

enum class InputKind { BlockProgram, Linalg };

/// One program to run: its module, entry point and signature.
struct Program {
  std::string filename;
  /// Owns the text the module's locations point into.
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string entry;
  InputKind kind = InputKind::BlockProgram;
  llvm::SmallVector<ArrayDesc> inputs;
  llvm::SmallVector<ArrayDesc> outputs;
  /// Per input: passed by value (a scalar argument of a Linalg function),
  /// not by memref descriptor (a 0-d array of a block program).
  llvm::SmallVector<bool> byValue;
};

/// Parses `filename` and finds the entry point: a block.program (block
/// input) or a func.func (Linalg input) named `entry`, or the only one.
/// Linalg input gets hoist-tensor-constants.
mlir::FailureOr<Program> loadProgram(mlir::MLIRContext &context,
                                     llvm::StringRef filename,
                                     llvm::StringRef entry,
                                     const ErrorStream &errs);
/// The same from a buffer in memory (named `filename` in diagnostics).
mlir::FailureOr<Program>
loadProgram(mlir::MLIRContext &context,
            std::unique_ptr<llvm::MemoryBuffer> buffer,
            llvm::StringRef filename, llvm::StringRef entry,
            const ErrorStream &errs);

/// The reference path for Linalg on tensors: upstream MLIR's ordinary
/// lowering, f16/bf16 computed in f32 (a note saying so goes to `notes`).
/// `inF64`: every f32 value computed in f64 as well (the f64 oracle,
/// ReferencePrecision.h).
mlir::LogicalResult lowerLinalgReference(mlir::ModuleOp module,
                                         llvm::StringRef entry,
                                         llvm::raw_ostream &notes,
                                         bool inF64 = false);

struct LoweringOptions {
  bool fuse = false;
  /// AXIS=SIZE for block-select.
  std::vector<std::string> blockSizes;
  std::string target = "cpu";
};

/// The Blockbuster path: convert-linalg-to-block for Linalg input,
/// block-fuse{keep-snapshots} with `fuse`, block-select, CPU pipeline; a
/// Linalg program whose converted form fits the target at no block size is
/// converted again with more axes tiled (convertAndSelect). Diagnostics go
/// to the context's handler.
mlir::LogicalResult lowerWithBlockbuster(mlir::ModuleOp module,
                                         InputKind kind,
                                         const LoweringOptions &options);

/// JIT-compiles the LLVM-dialect `module` and calls the C interface of
/// `entry` with the inputs, then the outputs (out-params), by descriptor.
mlir::LogicalResult runOnCPU(mlir::ModuleOp module, llvm::StringRef entry,
                             llvm::MutableArrayRef<HostArray> inputs,
                             llvm::ArrayRef<bool> inputsByValue,
                             llvm::MutableArrayRef<HostArray> outputs,
                             const ErrorStream &errs);

/// Same inputs and outputs, or an error naming the first difference.
mlir::LogicalResult checkSignaturesMatch(const Program &test,
                                         const Program &ref,
                                         const ErrorStream &errs);

struct Comparison {
  double maxAbsError = 0;
  double maxRelError = 0;
  /// The largest |test - ref| / (atol + rtol * |ref|): at most 1 passes.
  double maxErrorOverTolerance = 0;
  /// ||test - ref|| / ||ref|| over the non-NaN elements (2-norms).
  double normRelError = 0;
  /// sqrt(mean((test - ref)^2)) over the non-NaN elements.
  double rmsError = 0;
  int64_t nans = 0;
  int64_t mismatches = 0;
  int64_t firstBad = -1;
};

/// The largest finite magnitude in `array`.
double getLargestMagnitude(const HostArray &array);
/// Element i passes when neither value is NaN and |test - ref| <= atol +
/// rtol * |ref|; also the normwise relative and the RMS errors.
Comparison compare(const HostArray &test, const HostArray &ref, double rtol,
                   double atol);
/// Prints the multi-index of flat element `index`, as [i, j, k].
void printIndex(llvm::raw_ostream &os, const ArrayDesc &desc, int64_t index);
/// Prints an array one innermost row per line, prefixed by the row's index.
void printArray(llvm::raw_ostream &os, llvm::StringRef label,
                const HostArray &array);

} // namespace runner
} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CPU_CPURUNNER_H
