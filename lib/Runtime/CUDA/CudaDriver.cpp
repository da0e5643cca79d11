//===- CudaDriver.cpp - Loading libcuda with dlopen -----------------------===//

#include "Blockbuster/Runtime/CUDA/CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace llvm;
using namespace blockbuster::runtime;

std::string CudaDriver::describe(cu::Result result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  return formatv("{0} ({1}): {2}",
                 name ? name : "CUDA error", result,
                 text ? text : "unknown error")
      .str();
}

Error CudaDriver::check(cu::Result result, const Twine &doing) const {
  if (result == cu::SUCCESS)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           doing + " failed: " + describe(result));
}

namespace {
struct Loaded {
  CudaDriver driver{};
  std::string error;
};
} // namespace

static Loaded load() {
  Loaded loaded;
  const char *override = std::getenv("BLOCKBUSTER_LIBCUDA");
  const char *name = override && *override ? override : "libcuda.so.1";
  void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    loaded.error = formatv("cannot load the CUDA driver library ({0}): {1}; "
                           "is an NVIDIA driver installed?",
                           name, reason ? reason : "unknown reason");
    return loaded;
  }
  CudaDriver &d = loaded.driver;
  bool ok = true;
  auto bind = [&](auto &pointer, const char *symbol) {
    if (!ok)
      return;
    void *address = dlsym(library, symbol);
    if (!address) {
      loaded.error = formatv("the CUDA driver library {0} has no {1}", name,
                             symbol);
      ok = false;
      return;
    }
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(
        address);
  };
  bind(d.cuInit, "cuInit");
  bind(d.cuGetErrorString, "cuGetErrorString");
  bind(d.cuGetErrorName, "cuGetErrorName");
  bind(d.cuDeviceGetCount, "cuDeviceGetCount");
  bind(d.cuDeviceGet, "cuDeviceGet");
  bind(d.cuDeviceGetName, "cuDeviceGetName");
  bind(d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  bind(d.cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(d.cuCtxSynchronize, "cuCtxSynchronize");
  bind(d.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  bind(d.cuModuleUnload, "cuModuleUnload");
  bind(d.cuModuleGetFunction, "cuModuleGetFunction");
  bind(d.cuFuncGetAttribute, "cuFuncGetAttribute");
  bind(d.cuFuncSetAttribute, "cuFuncSetAttribute");
  bind(d.cuLaunchKernel, "cuLaunchKernel");
  bind(d.cuMemAlloc, "cuMemAlloc_v2");
  bind(d.cuMemFree, "cuMemFree_v2");
  bind(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(d.cuMemsetD8, "cuMemsetD8_v2");
  d.cuTensorMapEncodeTiled =
      reinterpret_cast<decltype(d.cuTensorMapEncodeTiled)>(
          dlsym(library, "cuTensorMapEncodeTiled"));
  d.cuLaunchKernelEx = reinterpret_cast<decltype(d.cuLaunchKernelEx)>(
      dlsym(library, "cuLaunchKernelEx"));
  if (!ok)
    return loaded;
  if (Error error = d.check(d.cuInit(0),
                            "initialising the CUDA driver (cuInit)")) {
    loaded.error = toString(std::move(error));
    return loaded;
  }
  return loaded;
}

Expected<const CudaDriver &> CudaDriver::get() {
  // Loaded once; the library stays loaded for the life of the process.
  static Loaded loaded = load();
  if (!loaded.error.empty())
    return createStringError(inconvertibleErrorCode(), loaded.error);
  return loaded.driver;
}
