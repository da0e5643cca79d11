//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few driver-API entry points the runtime uses, looked up with dlopen /
// dlsym in libcuda.so.1 when first needed. The types and constants are
// declared here (values of cuda.h, stable since CUDA 11), so the project
// builds, links and runs its CPU tests on machines without CUDA; only a run
// on a GPU needs the NVIDIA driver.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_RUNTIME_CUDA_CUDADRIVER_H
#define BLOCKBUSTER_RUNTIME_CUDA_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <string>

namespace blockbuster {
namespace runtime {

namespace cu {
using Result = int;
using Device = int;
using DevicePtr = unsigned long long;
using Context = struct CUctx_st *;
using ModuleHandle = struct CUmod_st *;
using Function = struct CUfunc_st *;
using Stream = struct CUstream_st *;

constexpr Result SUCCESS = 0;
constexpr int JIT_INFO_LOG_BUFFER = 3;
constexpr int JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int JIT_ERROR_LOG_BUFFER = 5;
constexpr int JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;

/// cuda.h's CUlaunchAttribute: an id, padding to 8 bytes and a 64-byte
/// value, of which the cluster dimension uses the first three words.
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    struct {
      unsigned x, y, z;
    } clusterDim;
    char bytes[64];
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute's layout");

/// cuda.h's CUlaunchConfig (cuLaunchKernelEx).
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  Stream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
} // namespace cu

/// The loaded driver library. All members are function pointers named like
/// the driver API (the versioned symbols, cuMemAlloc_v2 and so on, that
/// cuda.h maps them to).
struct CudaDriver {
  cu::Result (*cuInit)(unsigned);
  cu::Result (*cuGetErrorString)(cu::Result, const char **);
  cu::Result (*cuGetErrorName)(cu::Result, const char **);
  cu::Result (*cuDeviceGetCount)(int *);
  cu::Result (*cuDeviceGet)(cu::Device *, int);
  cu::Result (*cuDeviceGetName)(char *, int, cu::Device);
  cu::Result (*cuDeviceGetAttribute)(int *, int, cu::Device);
  cu::Result (*cuDevicePrimaryCtxRetain)(cu::Context *, cu::Device);
  cu::Result (*cuDevicePrimaryCtxRelease)(cu::Device);
  cu::Result (*cuCtxSetCurrent)(cu::Context);
  cu::Result (*cuCtxSynchronize)();
  cu::Result (*cuModuleLoadDataEx)(cu::ModuleHandle *, const void *, unsigned,
                                   int *, void **);
  cu::Result (*cuModuleUnload)(cu::ModuleHandle);
  cu::Result (*cuModuleGetFunction)(cu::Function *, cu::ModuleHandle,
                                    const char *);
  cu::Result (*cuFuncGetAttribute)(int *, int, cu::Function);
  cu::Result (*cuFuncSetAttribute)(cu::Function, int, int);
  cu::Result (*cuLaunchKernel)(cu::Function, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, unsigned,
                               cu::Stream, void **, void **);
  cu::Result (*cuMemAlloc)(cu::DevicePtr *, size_t);
  cu::Result (*cuMemFree)(cu::DevicePtr);
  cu::Result (*cuMemcpyHtoD)(cu::DevicePtr, const void *, size_t);
  cu::Result (*cuMemcpyDtoH)(void *, cu::DevicePtr, size_t);
  cu::Result (*cuMemsetD8)(cu::DevicePtr, unsigned char, size_t);
  /// Optional (drivers of CUDA 12 and later): null when the library lacks
  /// it; needed by artifacts with tensor maps only.
  cu::Result (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                       const uint64_t *, const uint64_t *,
                                       const uint32_t *, const uint32_t *, int,
                                       int, int, int) = nullptr;
  /// Optional (CUDA 12 and later): needed by launches in clusters only.
  cu::Result (*cuLaunchKernelEx)(const cu::LaunchConfig *, cu::Function,
                                 void **, void **) = nullptr;

  /// "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory".
  std::string describe(cu::Result result) const;
  /// Success, or an error "DOING failed: NAME (N): TEXT".
  llvm::Error check(cu::Result result, const llvm::Twine &doing) const;

  /// The driver, loaded and initialised (cuInit) on first use; the library
  /// is $BLOCKBUSTER_LIBCUDA when set, else libcuda.so.1. The error says
  /// why it cannot be used (no library, a missing symbol, cuInit failed).
  static llvm::Expected<const CudaDriver &> get();
};

} // namespace runtime
} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_CUDA_CUDADRIVER_H
