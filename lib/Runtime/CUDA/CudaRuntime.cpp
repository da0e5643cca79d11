//===- CudaRuntime.cpp - Running an artifact through the driver API -------===//

#include "Blockbuster/Runtime/CUDA/CudaRuntime.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <map>

using namespace llvm;
using namespace blockbuster::runtime;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error blockbuster::runtime::checkHostArrays(const Artifact &artifact,
                                            ArrayRef<int> indices,
                                            ArrayRef<HostArrayRef> arrays,
                                            StringRef role) {
  if (arrays.size() != indices.size())
    return makeError(formatv("@{0} has {1} {2}s, got {3}", artifact.entry,
                             indices.size(), role, arrays.size()));
  for (auto [position, pair] : llvm::enumerate(llvm::zip(indices, arrays))) {
    const Buffer &buffer = artifact.buffers[std::get<0>(pair)];
    const HostArrayRef &array = std::get<1>(pair);
    if (array.shape != buffer.shape || array.dtype != buffer.dtype)
      return makeError(formatv("{0} {1} ('{2}') is {3}, but the artifact "
                               "expects {4}",
                               role, position, buffer.name,
                               describeShape(array.shape, array.dtype),
                               buffer.describe()));
    if (array.bytes != static_cast<size_t>(buffer.bytes) ||
        (!array.data && buffer.bytes))
      return makeError(formatv("{0} {1} ('{2}') has {3} bytes at {4}, but "
                               "the artifact expects {5}",
                               role, position, buffer.name, array.bytes,
                               array.data, buffer.bytes));
  }
  return Error::success();
}

Expected<std::unique_ptr<CudaProgram>> CudaProgram::load(Artifact artifact,
                                                         int device) {
  Expected<const CudaDriver &> driverOrError = CudaDriver::get();
  if (!driverOrError)
    return driverOrError.takeError();
  const CudaDriver &d = *driverOrError;
  std::unique_ptr<CudaProgram> program(new CudaProgram(d, std::move(artifact)));
  const Artifact &a = program->artifact;
  program->device = device;

  int count = 0;
  if (Error e = d.check(d.cuDeviceGetCount(&count), "counting CUDA devices"))
    return std::move(e);
  if (device < 0 || device >= count)
    return makeError(formatv("CUDA device {0} does not exist ({1} devices)",
                             device, count));
  if (Error e = d.check(d.cuDeviceGet(&program->handle, device),
                        formatv("getting CUDA device {0}", device)))
    return std::move(e);
  // The primary context: the one PyTorch and CuPy use too.
  if (Error e = d.check(
          d.cuDevicePrimaryCtxRetain(&program->context, program->handle),
          formatv("retaining the primary context of device {0}", device)))
    return std::move(e);
  if (Error e = d.check(d.cuCtxSetCurrent(program->context),
                        "making the context current"))
    return std::move(e);

  int major = 0, minor = 0, optin = 0;
  char name[256] = {0};
  if (Error e = d.check(
          d.cuDeviceGetAttribute(&major,
                                 cu::DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                 program->handle),
          "querying the device"))
    return std::move(e);
  if (Error e = d.check(
          d.cuDeviceGetAttribute(&minor,
                                 cu::DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                 program->handle),
          "querying the device"))
    return std::move(e);
  if (Error e = d.check(
          d.cuDeviceGetAttribute(
              &optin, cu::DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              program->handle),
          "querying the device"))
    return std::move(e);
  d.cuDeviceGetName(name, sizeof(name) - 1, program->handle);
  program->deviceDescription = formatv("{0} (sm_{1}{2})", name, major, minor);
  StringRef chip = a.chip;
  unsigned wanted = 0;
  if (chip.consume_front("sm_") && chip.size() >= 2 &&
      !chip.take_front(2).getAsInteger(10, wanted) &&
      static_cast<unsigned>(major * 10 + minor) < wanted)
    return makeError(formatv("{0}: the artifact targets {1}, device {2} is "
                             "{3}",
                             a.directory, a.chip, device,
                             program->deviceDescription));
  // sm_90a code (wgmma, TMA multicast, setmaxnreg) runs on that architecture
  // only, not on later ones.
  if (StringRef(a.chip).ends_with("a") && wanted != 0 &&
      static_cast<unsigned>(major * 10 + minor) != wanted)
    return makeError(formatv("{0}: the artifact targets {1}, whose "
                             "instructions run only on sm_{2} devices; "
                             "device {3} is {4} (compile with --chip for this "
                             "device)",
                             a.directory, a.chip, wanted, device,
                             program->deviceDescription));

  for (const Module &module : a.modules) {
    std::string errorLog(16384, '\0'), infoLog(16384, '\0');
    int options[] = {cu::JIT_ERROR_LOG_BUFFER,
                     cu::JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                     cu::JIT_INFO_LOG_BUFFER,
                     cu::JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errorLog.data(),
                      reinterpret_cast<void *>(errorLog.size()),
                      infoLog.data(), reinterpret_cast<void *>(infoLog.size())};
    cu::ModuleHandle handle = nullptr;
    cu::Result result =
        d.cuModuleLoadDataEx(&handle, module.ptx.c_str(), 4, options, values);
    if (result != cu::SUCCESS) {
      SmallString<256> path(a.directory);
      sys::path::append(path, module.ptxFile);
      std::string log = StringRef(errorLog.c_str()).trim().str();
      return makeError(formatv("loading PTX module '{0}' ({1}) failed: "
                               "{2}{3}",
                               module.name, path, d.describe(result),
                               log.empty() ? "" : "\nPTX JIT log:\n" + log));
    }
    program->modules.push_back(handle);
  }

  for (auto [index, launch] : llvm::enumerate(a.launches)) {
    std::string doing = formatv("launch {0} ({1})", index, launch.kernel);
    cu::Function function = nullptr;
    if (Error e = d.check(
            d.cuModuleGetFunction(&function,
                                  program->modules[launch.moduleIndex],
                                  launch.kernel.c_str()),
            doing + ": looking up the kernel in module '" +
                a.modules[launch.moduleIndex].name + "'"))
      return std::move(e);
    int maxThreads = 0, staticShared = 0;
    if (Error e = d.check(
            d.cuFuncGetAttribute(&maxThreads,
                                 cu::FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                 function),
            doing))
      return std::move(e);
    if (Error e = d.check(
            d.cuFuncGetAttribute(&staticShared,
                                 cu::FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                 function),
            doing))
      return std::move(e);
    int64_t threads =
        int64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    if (threads > maxThreads)
      return makeError(formatv("{0}: block [{1}, {2}, {3}] is {4} threads, "
                               "but the compiled kernel allows at most {5} "
                               "(registers per thread?)",
                               doing, launch.block[0], launch.block[1],
                               launch.block[2], threads, maxThreads));
    if (int64_t(launch.dynamicSharedBytes) + staticShared > optin)
      return makeError(formatv("{0}: {1} bytes of dynamic + {2} of static "
                               "shared memory exceed the device's {3} per "
                               "block",
                               doing, launch.dynamicSharedBytes, staticShared,
                               optin));
    // Above 48 KB of static and dynamic shared memory together, the
    // dynamic part is an opt-in per function (49152 B dynamic with 1 KB
    // static failed the launch with CUDA_ERROR_INVALID_VALUE).
    if (int64_t(launch.dynamicSharedBytes) + staticShared > 48 * 1024)
      if (Error e = d.check(
              d.cuFuncSetAttribute(
                  function, cu::FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  launch.dynamicSharedBytes),
              formatv("{0}: allowing {1} bytes of dynamic shared memory",
                      doing, launch.dynamicSharedBytes)))
        return std::move(e);
    program->functions.push_back(function);
  }
  return std::move(program);
}

CudaProgram::~CudaProgram() {
  if (context)
    driver.cuCtxSetCurrent(context);
  for (cu::ModuleHandle module : modules)
    driver.cuModuleUnload(module);
  if (context)
    driver.cuDevicePrimaryCtxRelease(handle);
}

namespace {
/// Device memory freed on every exit path.
class DeviceBuffers {
public:
  explicit DeviceBuffers(const CudaDriver &driver) : driver(driver) {}
  ~DeviceBuffers() {
    for (cu::DevicePtr pointer : pointers)
      if (pointer)
        driver.cuMemFree(pointer);
  }
  std::vector<cu::DevicePtr> pointers;

private:
  const CudaDriver &driver;
};
} // namespace

// cuda.h's CUtensorMapDataType of each dtype (-1: none).
static int tensorMapDataType(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return 0;
  case DType::I16:
    return 1;
  case DType::I32:
    return 3;
  case DType::I64:
    return 5;
  case DType::F16:
    return 6;
  case DType::F32:
    return 7;
  case DType::F64:
    return 8;
  case DType::BF16:
    return 9;
  case DType::I1:
    return -1;
  }
  return -1;
}

/// Encodes the tensor map of parameter `param` of launch `launch` over the
/// buffer at `address` with cuTensorMapEncodeTiled (innermost dimension
/// first) and copies its 128 bytes to a new device allocation in `owner`.
static Expected<cu::DevicePtr>
encodeTensorMap(const CudaDriver &d, const Artifact &a, size_t launch,
                size_t param, const Param &p, cu::DevicePtr address,
                DeviceBuffers &owner) {
  const Buffer &buffer = a.buffers[p.bufferIndex];
  const TensorMap &map = *p.tensorMap;
  std::string doing = formatv("launch {0}: encoding the tensor map of '{1}' "
                              "(parameter {2})",
                              launch, buffer.name, param);
  if (!d.cuTensorMapEncodeTiled)
    return makeError(doing + ": the CUDA driver library has no "
                             "cuTensorMapEncodeTiled (CUDA 12 or later is "
                             "needed for tensor maps)");
  int dataType = tensorMapDataType(buffer.dtype);
  if (dataType < 0)
    return makeError(doing + ": no tensor map of " +
                     getDTypeName(buffer.dtype) + " elements");
  size_t rank = buffer.shape.size();
  int64_t elementBytes = getDTypeBytes(buffer.dtype);
  std::vector<uint64_t> dims, strides;
  std::vector<uint32_t> box, elementStrides(rank, 1);
  uint64_t stride = elementBytes;
  for (size_t i = rank; i-- > 0;) {
    dims.push_back(buffer.shape[i]);
    box.push_back(static_cast<uint32_t>(map.box[i]));
    if (i + 1 < rank)
      strides.push_back(stride);
    stride *= buffer.shape[i];
  }
  // cuTensorMapEncodeTiled wants the 128-byte CUtensorMap 64-byte aligned.
  alignas(64) unsigned char encoded[128] = {};
  if (Error e = d.check(
          d.cuTensorMapEncodeTiled(
              encoded, dataType, static_cast<unsigned>(rank),
              reinterpret_cast<void *>(static_cast<uintptr_t>(address)),
              dims.data(), strides.empty() ? nullptr : strides.data(),
              box.data(), elementStrides.data(), /*interleave=*/0,
              map.swizzle, map.l2Promotion, map.oobFill),
          doing))
    return std::move(e);
  cu::DevicePtr device = 0;
  if (Error e = d.check(d.cuMemAlloc(&device, sizeof(encoded)), doing))
    return std::move(e);
  owner.pointers.push_back(device);
  if (Error e = d.check(d.cuMemcpyHtoD(device, encoded, sizeof(encoded)),
                        doing))
    return std::move(e);
  return device;
}

Error CudaProgram::run(ArrayRef<HostArrayRef> inputs,
                       ArrayRef<HostArrayRef> outputs) {
  const Artifact &a = artifact;
  const CudaDriver &d = driver;
  if (Error e = checkHostArrays(a, a.inputs, inputs, "input"))
    return e;
  if (Error e = checkHostArrays(a, a.outputs, outputs, "output"))
    return e;
  if (Error e = d.check(d.cuCtxSetCurrent(context), "making the context "
                                                    "current"))
    return e;

  DeviceBuffers buffers(d);
  buffers.pointers.assign(a.buffers.size(), 0);
  for (auto [index, buffer] : llvm::enumerate(a.buffers)) {
    if (!buffer.bytes)
      continue;
    if (Error e = d.check(d.cuMemAlloc(&buffers.pointers[index], buffer.bytes),
                          formatv("allocating {0} bytes for buffer '{1}'",
                                  buffer.bytes, buffer.name)))
      return e;
  }
  for (auto [position, index] : llvm::enumerate(a.inputs)) {
    const Buffer &buffer = a.buffers[index];
    if (buffer.bytes)
      if (Error e = d.check(d.cuMemcpyHtoD(buffers.pointers[index],
                                           inputs[position].data, buffer.bytes),
                            formatv("copying input '{0}' to the device",
                                    buffer.name)))
        return e;
  }
  // 0xFF bytes are NaN in f16, bf16, f32 and f64: an element no kernel
  // writes shows as NaN. Intermediates too, so a read before a write shows.
  // Workspaces start zeroed (docs/Artifact.md).
  for (auto [index, buffer] : llvm::enumerate(a.buffers)) {
    if (buffer.kind == BufferKind::Input || !buffer.bytes)
      continue;
    bool workspace = buffer.kind == BufferKind::Workspace;
    if (Error e = d.check(d.cuMemsetD8(buffers.pointers[index],
                                       workspace ? 0 : 0xFF, buffer.bytes),
                          formatv("{0} buffer '{1}'",
                                  workspace ? "zeroing" : "poisoning",
                                  buffer.name)))
      return e;
  }

  // The tensor maps: encoded for this run's buffers and copied to device
  // memory (freed with the buffers).
  DeviceBuffers tensorMaps(d);
  std::map<std::pair<size_t, size_t>, cu::DevicePtr> tensorMapOf;
  for (auto [index, launch] : llvm::enumerate(a.launches))
    for (auto [j, param] : llvm::enumerate(launch.params)) {
      if (!param.isTensorMap())
        continue;
      Expected<cu::DevicePtr> map =
          encodeTensorMap(d, a, index, j, param,
                          buffers.pointers[param.bufferIndex], tensorMaps);
      if (!map)
        return map.takeError();
      tensorMapOf[{index, j}] = *map;
    }

  for (auto [index, launch] : llvm::enumerate(a.launches)) {
    // Parameter storage: 8 bytes per parameter, pointers or scalars.
    std::vector<uint64_t> storage(launch.params.size(), 0);
    std::vector<void *> arguments;
    for (auto [j, param] : llvm::enumerate(launch.params)) {
      void *slot = &storage[j];
      if (param.isBuffer() || param.isTensorMap()) {
        cu::DevicePtr pointer = param.isTensorMap()
                                    ? tensorMapOf.at({index, j})
                                    : buffers.pointers[param.bufferIndex];
        std::memcpy(slot, &pointer, sizeof(pointer));
      } else {
        switch (param.scalarType) {
        case DType::F32: {
          float value = static_cast<float>(param.floatValue);
          std::memcpy(slot, &value, sizeof(value));
          break;
        }
        case DType::F64:
          std::memcpy(slot, &param.floatValue, sizeof(double));
          break;
        case DType::F16:
        case DType::BF16: {
          // Round to nearest even, as the compiled code would.
          APFloat value(param.floatValue);
          bool losesInfo;
          value.convert(param.scalarType == DType::F16 ? APFloat::IEEEhalf()
                                                       : APFloat::BFloat(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
          uint16_t bits =
              static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
          std::memcpy(slot, &bits, sizeof(bits));
          break;
        }
        default:
          // Little-endian: the low bytes of the int64 are the narrower
          // integer's bytes.
          std::memcpy(slot, &param.intValue, sizeof(int64_t));
          break;
        }
      }
      arguments.push_back(slot);
    }
    cu::Result result;
    if (launch.hasCluster()) {
      // Blocks in clusters: the cluster dimension as a launch attribute
      // (cuLaunchKernelEx, CUDA 12 on).
      if (!d.cuLaunchKernelEx)
        return makeError(formatv("launch {0} ({1}) is in clusters of [{2}, "
                                 "{3}, {4}] blocks, but the CUDA driver has "
                                 "no cuLaunchKernelEx (CUDA 12 or later "
                                 "needed)",
                                 index, launch.kernel, launch.cluster[0],
                                 launch.cluster[1], launch.cluster[2]));
      cu::LaunchAttribute attribute{};
      attribute.id = cu::LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attribute.value.clusterDim = {launch.cluster[0], launch.cluster[1],
                                    launch.cluster[2]};
      cu::LaunchConfig config{};
      config.gridDimX = launch.grid[0];
      config.gridDimY = launch.grid[1];
      config.gridDimZ = launch.grid[2];
      config.blockDimX = launch.block[0];
      config.blockDimY = launch.block[1];
      config.blockDimZ = launch.block[2];
      config.sharedMemBytes = launch.dynamicSharedBytes;
      config.hStream = nullptr;
      config.attrs = &attribute;
      config.numAttrs = 1;
      result = d.cuLaunchKernelEx(
          &config, functions[index],
          arguments.empty() ? nullptr : arguments.data(), nullptr);
    } else {
      result = d.cuLaunchKernel(
          functions[index], launch.grid[0], launch.grid[1], launch.grid[2],
          launch.block[0], launch.block[1], launch.block[2],
          launch.dynamicSharedBytes, /*stream=*/nullptr,
          arguments.empty() ? nullptr : arguments.data(), nullptr);
    }
    if (result != cu::SUCCESS)
      return makeError(formatv("launch {0} ({1}, grid [{2}, {3}, {4}], block "
                               "[{5}, {6}, {7}], {8} B dynamic shared memory) "
                               "failed: {9}",
                               index, launch.kernel, launch.grid[0],
                               launch.grid[1], launch.grid[2], launch.block[0],
                               launch.block[1], launch.block[2],
                               launch.dynamicSharedBytes, d.describe(result)));
  }
  if (Error e = d.check(d.cuCtxSynchronize(),
                        formatv("running @{0} (synchronising after {1} "
                                "launches)",
                                a.entry, a.launches.size())))
    return e;
  for (auto [position, index] : llvm::enumerate(a.outputs)) {
    const Buffer &buffer = a.buffers[index];
    if (buffer.bytes)
      if (Error e = d.check(d.cuMemcpyDtoH(outputs[position].data,
                                           buffers.pointers[index],
                                           buffer.bytes),
                            formatv("copying output '{0}' from the device",
                                    buffer.name)))
        return e;
  }
  return Error::success();
}
