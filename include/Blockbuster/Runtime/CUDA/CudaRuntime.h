//===- CudaRuntime.h - Running an artifact through the driver API -*- C++ -*-===//
//
// Loads a validated artifact (Artifact.h) on a CUDA device and runs it on
// host arrays: allocate every buffer, copy the inputs in, poison the outputs
// (0xFF bytes: NaN in every float type), launch the kernels in manifest
// order on one stream, synchronise, copy the outputs out. Every failure is
// an llvm::Error that says what was being done and the driver's error name
// and string; the caller's arrays are checked against the manifest (shape,
// element type, byte count) before any CUDA call.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_RUNTIME_CUDA_CUDARUNTIME_H
#define BLOCKBUSTER_RUNTIME_CUDA_CUDARUNTIME_H

#include "Blockbuster/Runtime/CUDA/Artifact.h"
#include "Blockbuster/Runtime/CUDA/CudaDriver.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>

namespace blockbuster {
namespace runtime {

/// A host array handed to the runtime: row-major and contiguous.
struct HostArrayRef {
  void *data = nullptr;
  size_t bytes = 0;
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
};

/// Checks `arrays` (inputs or outputs, by position) against the manifest's
/// buffers `indices`: count, shape, dtype and byte size.
llvm::Error checkHostArrays(const Artifact &artifact,
                            llvm::ArrayRef<int> indices,
                            llvm::ArrayRef<HostArrayRef> arrays,
                            llvm::StringRef role);

class CudaProgram {
public:
  /// Loads every PTX module of `artifact` (the JIT error log goes into the
  /// error), looks up every kernel, opts in to dynamic shared memory above
  /// 48 KB and checks each launch against the device's limits.
  static llvm::Expected<std::unique_ptr<CudaProgram>>
  load(Artifact artifact, int device = 0);
  ~CudaProgram();

  /// Runs the artifact: `inputs` and `outputs` by position.
  llvm::Error run(llvm::ArrayRef<HostArrayRef> inputs,
                  llvm::ArrayRef<HostArrayRef> outputs);

  const Artifact &getArtifact() const { return artifact; }
  /// "NVIDIA H100 80GB HBM3 (sm_90)".
  const std::string &getDeviceDescription() const { return deviceDescription; }

private:
  CudaProgram(const CudaDriver &driver, Artifact artifact)
      : driver(driver), artifact(std::move(artifact)) {}

  const CudaDriver &driver;
  Artifact artifact;
  int device = 0;
  cu::Device handle = 0;
  cu::Context context = nullptr;
  std::string deviceDescription;
  std::vector<cu::ModuleHandle> modules;
  std::vector<cu::Function> functions;
};

} // namespace runtime
} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CUDA_CUDARUNTIME_H
