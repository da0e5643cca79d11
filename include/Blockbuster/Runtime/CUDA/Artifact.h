//===- Artifact.h - A GPU artifact: manifest and PTX ------------*- C++ -*-===//
//
// The compiler's GPU output (docs/Artifact.md): a directory with
// manifest.json and one PTX file per kernel module. loadArtifact reads and
// validates it completely before any CUDA call: a manifest that does not
// match itself (byte counts vs shapes, unknown buffers or modules) or its PTX
// (missing .entry, parameter count or sizes) is refused with a message that
// names the file and the field, so a bad artifact never becomes a launch
// with wrong sizes. python/blockbuster/artifact.py applies the same rules
// with the same messages.
//
// Needs only LLVM Support: no MLIR, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_RUNTIME_CUDA_ARTIFACT_H
#define BLOCKBUSTER_RUNTIME_CUDA_ARTIFACT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blockbuster {
namespace runtime {

/// Element types of buffers and scalars.
enum class DType { F16, BF16, F32, F64, I1, I8, I16, I32, I64 };

/// "f32" -> DType::F32; std::nullopt for an unknown name.
std::optional<DType> parseDType(llvm::StringRef name);
llvm::StringRef getDTypeName(DType type);
/// Bytes per element in memory (i1 is stored as one byte).
int64_t getDTypeBytes(DType type);
bool isFloat(DType type);
/// "10x100xf32": an array of `shape` and `dtype`.
std::string describeShape(llvm::ArrayRef<int64_t> shape, DType dtype);

/// Workspace: allocated by the runtime like an intermediate and zeroed when
/// allocated; the kernels leave it zeroed (split-reduction counters).
enum class BufferKind { Input, Output, Intermediate, Workspace };

struct Buffer {
  std::string name;
  BufferKind kind;
  /// The argument (input) or result (output) index; -1 for intermediates.
  int64_t position = -1;
  std::vector<int64_t> shape;
  DType dtype;
  int64_t bytes = 0;
  /// For an input that was a tensor constant of the source (a weight): its
  /// `dense_resource` key, the name that binds it; empty otherwise.
  std::string constant;

  int64_t getNumElements() const;
  /// "10x100xf32"
  std::string describe() const;
};

/// A TMA descriptor (CUtensorMap) of a whole buffer, which the runtime
/// encodes with cuTensorMapEncodeTiled and passes as a device pointer to its
/// 128 bytes. The box is outermost dimension first, as buffer shapes; the
/// enumerations are cuda.h's values.
struct TensorMap {
  std::vector<int64_t> box;
  /// CUtensorMapSwizzle: none, 32B, 64B, 128B.
  int swizzle = 0;
  /// CUtensorMapL2promotion: none, 64B, 128B, 256B.
  int l2Promotion = 0;
  /// CUtensorMapFloatOOBfill: zero (NONE), nan (NAN_REQUEST_ZERO_FMA).
  int oobFill = 0;
};

/// One kernel parameter: a buffer (a device pointer), a scalar by value, or
/// a tensor map of a buffer (a device pointer to the encoded descriptor).
struct Param {
  /// Index into Artifact::buffers (the buffer, or the tensor map's buffer),
  /// or -1 for a scalar.
  int bufferIndex = -1;
  std::optional<TensorMap> tensorMap;
  DType scalarType = DType::I64;
  /// The scalar's value: integers in `intValue`, floats in `floatValue`.
  int64_t intValue = 0;
  double floatValue = 0;

  bool isBuffer() const { return bufferIndex >= 0 && !tensorMap; }
  bool isTensorMap() const { return tensorMap.has_value(); }
  /// Bytes the kernel parameter occupies: 8 for a pointer.
  int64_t getBytes() const;
};

struct Launch {
  /// Index into Artifact::modules.
  int moduleIndex = 0;
  std::string kernel;
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  unsigned dynamicSharedBytes = 0;
  /// Blocks per thread-block cluster ("cluster"); none: {0, 0, 0}, a
  /// launch without clusters (cuLaunchKernel).
  std::array<unsigned, 3> cluster = {0, 0, 0};
  bool hasCluster() const { return cluster[0] != 0; }
  std::vector<Param> params;
};

struct Module {
  std::string name;
  /// The file name in the manifest (relative to the artifact directory).
  std::string ptxFile;
  /// The PTX text, NUL-terminated for cuModuleLoadDataEx.
  std::string ptx;
};

struct Artifact {
  std::string directory;
  std::string entry;
  std::string chip;
  std::string features;
  /// Optional: the MLIR file the artifact was compiled from, relative to
  /// the directory ("source"); bb-run --check uses it as the reference.
  std::string source;
  std::vector<Module> modules;
  /// In manifest order.
  std::vector<Buffer> buffers;
  /// Indices into `buffers`, by position.
  std::vector<int> inputs;
  std::vector<int> outputs;
  /// In execution order.
  std::vector<Launch> launches;
};

/// What the PTX says about one .entry: the bytes of each parameter (0 where
/// the form was not recognised) and the .reqntid/.maxntid directives.
struct PTXEntry {
  std::string name;
  std::vector<int64_t> paramBytes;
  std::optional<std::array<int64_t, 3>> maxntid;
  std::optional<std::array<int64_t, 3>> reqntid;
};

/// Every .entry of a PTX module.
std::vector<PTXEntry> parsePTXEntries(llvm::StringRef ptx);

/// Reads and validates the artifact in `directory`. The error names
/// DIR/manifest.json and the field at fault.
llvm::Expected<Artifact> loadArtifact(llvm::StringRef directory);

} // namespace runtime
} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CUDA_ARTIFACT_H
