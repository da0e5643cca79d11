/*===- FakeCuda.c - A stand-in libcuda for testing the C++ runtime -------===*\
|*                                                                          *|
|* The driver entry points lib/Runtime/CUDA/CudaDriver.cpp binds, with the  *|
|* driver's signatures, over host memory: "device" pointers are malloc'd    *|
|* blocks, and cuLaunchKernel runs the kernels of the hand-made test        *|
|* artifact (Inputs/artifacts/scale_add: scale, add) on the CPU by reading  *|
|* the void** parameter array as the GPU would. bb-run --device=cuda loads  *|
|* it through $BLOCKBUSTER_LIBCUDA (test/Runtime/CUDA/fake-cuda.test), so   *|
|* the runtime's loading, allocation, copies, poisoning, parameter packing  *|
|* and launch order are tested on machines without a GPU. $FAKE_CUDA_FAIL   *|
|* names one entry point that returns an error instead (for the error       *|
|* texts).                                                                  *|
|* $FAKE_CUDA_FAULT=N: a launch with N bytes of dynamic shared memory       *|
|* "makes an illegal access": it returns success, and every later call      *|
|* returns CUDA_ERROR_ILLEGAL_ADDRESS, as a real fault loses the context    *|
|* (scripts/gpu-difftest.py's isolation is tested with it).                 *|
|* $FAKE_CUDA_STATIC_SMEM=N gives every kernel N bytes of static shared    *|
|* memory (default 0).                                                      *|
|* $FAKE_CUDA_CC=MN makes the device sm_MN (default 90). A tensor map       *|
|* (cuTensorMapEncodeTiled, logged) holds a tag and the global address; a   *|
|* kernel parameter pointing at a copy of one reads through it, as TMA      *|
|* would.                                                                   *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static const char TENSOR_MAP_TAG[8] = "TMAPFAKE";
typedef unsigned long long CUdeviceptr;

static int fails(const char *name) {
  const char *fail = getenv("FAKE_CUDA_FAIL");
  return fail && strcmp(fail, name) == 0;
}
#define FAIL_AS(name, code)                                                    \
  if (fails(name))                                                             \
  return code

/* Set by a launch that faults ($FAKE_CUDA_FAULT): the context is lost. */
static int contextLost;
#define STICKY                                                                 \
  if (contextLost)                                                             \
  return 700

CUresult cuInit(unsigned flags) { FAIL_AS("cuInit", 3); return 0; }

CUresult cuGetErrorName(CUresult code, const char **name) {
  *name = code == 1   ? "CUDA_ERROR_INVALID_VALUE"
          : code == 2 ? "CUDA_ERROR_OUT_OF_MEMORY"
          : code == 3 ? "CUDA_ERROR_NOT_INITIALIZED"
          : code == 218 ? "CUDA_ERROR_INVALID_PTX"
          : code == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS"
          : code == 500 ? "CUDA_ERROR_NOT_FOUND"
                      : "CUDA_ERROR_UNKNOWN";
  return 0;
}

CUresult cuGetErrorString(CUresult code, const char **text) {
  *text = code == 1   ? "invalid argument"
          : code == 2 ? "out of memory"
          : code == 3 ? "initialization error"
          : code == 218 ? "a PTX JIT compilation failed"
          : code == 700 ? "an illegal memory access was encountered"
          : code == 500 ? "named symbol not found"
                      : "unknown error";
  return 0;
}

CUresult cuDeviceGetCount(int *count) { *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return 0; }
CUresult cuDeviceGetName(char *name, int length, int device) {
  snprintf(name, length, "Fake CUDA device");
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  const char *cc = getenv("FAKE_CUDA_CC");
  int capability = cc ? atoi(cc) : 90;
  *value = attribute == 75   ? capability / 10
           : attribute == 76 ? capability % 10
           : attribute == 97 ? 232448
                             : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = (void *)0x1000;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int device) { return 0; }
CUresult cuCtxSetCurrent(void *context) { return 0; }
CUresult cuCtxSynchronize(void) {
  STICKY;
  FAIL_AS("cuCtxSynchronize", 700);
  return 0;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned count,
                            int *options, void **values) {
  if (fails("cuModuleLoadDataEx")) {
    /* The JIT's log goes into the CU_JIT_ERROR_LOG_BUFFER (5) option. */
    for (unsigned i = 0; i < count; ++i)
      if (options[i] == 5)
        strcpy((char *)values[i], "ptxas fatal   : fake JIT failure");
    return 218;
  }
  *module = strdup((const char *)image); /* the PTX, to find entries in */
  return 0;
}
CUresult cuModuleUnload(void *module) { free(module); return 0; }

/* A function handle is its kernel's number: 1 scale, 2 add. Other kernels
 * (real artifacts) cannot run here: CUDA_ERROR_NOT_FOUND. */
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  if (!strstr((const char *)module, name) ||
      (strcmp(name, "scale") != 0 && strcmp(name, "add") != 0))
    return 500;
  *function = (void *)(uintptr_t)(strcmp(name, "scale") == 0 ? 1 : 2);
  return 0;
}
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  const char *staticSmem = getenv("FAKE_CUDA_STATIC_SMEM");
  /* 0: CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK; 1: SHARED_SIZE_BYTES. */
  *value = attribute == 0 ? 1024
           : attribute == 1 && staticSmem ? atoi(staticSmem)
                                          : 0;
  return 0;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  fprintf(stderr, "fake-cuda: cuFuncSetAttribute(%d, %d)\n", attribute, value);
  return 0;
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  STICKY;
  FAIL_AS("cuMemAlloc_v2", 2);
  *pointer = (CUdeviceptr)(uintptr_t)malloc(bytes);
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) { free((void *)(uintptr_t)pointer); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  STICKY;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  STICKY;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return 0;
}
CUresult cuMemsetD8_v2(CUdeviceptr pointer, unsigned char value, size_t bytes) {
  STICKY;
  memset((void *)(uintptr_t)pointer, value, bytes);
  if (value == 0)
    fprintf(stderr, "fake-cuda: zeroed %zu bytes\n", bytes);
  return 0;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  STICKY;
  FAIL_AS("cuLaunchKernel", 2);
  const char *fault = getenv("FAKE_CUDA_FAULT");
  if (fault && (unsigned)atoi(fault) == smem) {
    contextLost = 1;
    return 0;
  }
  long long threads = (long long)gx * bx;
  fprintf(stderr, "fake-cuda: launch %s grid [%u, %u, %u] block [%u, %u, %u]\n",
          (uintptr_t)function == 1 ? "scale" : "add", gx, gy, gz, bx, by, bz);
  if ((uintptr_t)function == 1) { /* scale(x, tmp, n, a): tmp = a * x */
    const float *x = *(float **)params[0];
    if (memcmp(x, TENSOR_MAP_TAG, 8) == 0) /* x through a tensor map */
      memcpy(&x, (const char *)x + 8, sizeof(x));
    float *tmp = *(float **)params[1];
    long long n = *(long long *)params[2];
    float a = *(float *)params[3];
    for (long long i = 0; i < threads && i < n; ++i)
      tmp[i] = a * x[i];
  } else { /* add(tmp, y, out, n): out = tmp + y */
    const float *tmp = *(float **)params[0];
    const float *y = *(float **)params[1];
    float *out = *(float **)params[2];
    long long n = *(long long *)params[3];
    for (long long i = 0; i < threads && i < n; ++i)
      out[i] = tmp[i] + y[i];
  }
  return 0;
}

/* cuda.h's CUlaunchAttribute and CUlaunchConfig (cuLaunchKernelEx). */
typedef struct {
  int id;
  char pad[4];
  union {
    struct {
      unsigned x, y, z;
    } clusterDim;
    char bytes[64];
  } value;
} FakeLaunchAttribute;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  FakeLaunchAttribute *attrs;
  unsigned numAttrs;
} FakeLaunchConfig;

/* Logs the attributes (the cluster dimension, id 4) and runs the kernel as
 * cuLaunchKernel does. */
CUresult cuLaunchKernelEx(const FakeLaunchConfig *config, void *function,
                          void **params, void **extra) {
  STICKY;
  FAIL_AS("cuLaunchKernelEx", 2);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const FakeLaunchAttribute *a = &config->attrs[i];
    if (a->id == 4)
      fprintf(stderr, "fake-cuda: cuLaunchKernelEx cluster [%u, %u, %u]\n",
              a->value.clusterDim.x, a->value.clusterDim.y,
              a->value.clusterDim.z);
    else
      fprintf(stderr, "fake-cuda: cuLaunchKernelEx attribute %d\n", a->id);
  }
  return cuLaunchKernel(function, config->gridDimX, config->gridDimY,
                        config->gridDimZ, config->blockDimX, config->blockDimY,
                        config->blockDimZ, config->sharedMemBytes,
                        config->hStream, params, extra);
}

/* A tensor map: TENSOR_MAP_TAG, then the global address. */
CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *strides, const uint32_t *box,
                                const uint32_t *elementStrides, int interleave,
                                int swizzle, int l2, int oob) {
  FAIL_AS("cuTensorMapEncodeTiled", 1);
  fprintf(stderr, "fake-cuda: cuTensorMapEncodeTiled(dtype %d, rank %u, dims",
          dtype, rank);
  for (unsigned i = 0; i < rank; ++i)
    fprintf(stderr, " %llu", (unsigned long long)dims[i]);
  fprintf(stderr, ", strides");
  for (unsigned i = 0; i + 1 < rank; ++i)
    fprintf(stderr, " %llu", (unsigned long long)strides[i]);
  fprintf(stderr, ", box");
  for (unsigned i = 0; i < rank; ++i)
    fprintf(stderr, " %u", box[i]);
  fprintf(stderr, ", swizzle %d, l2 %d, oob %d, aligned %d)\n", swizzle, l2,
          oob, (int)((uintptr_t)map % 64 == 0));
  memset(map, 0, 128);
  memcpy(map, TENSOR_MAP_TAG, 8);
  memcpy((char *)map + 8, &address, sizeof(address));
  return 0;
}

/* The rest of what the Python runtime binds (python/blockbuster/runtime.py,
 * _API), so it can run over this library too. */
CUresult cuDriverGetVersion(int *version) { *version = 13000; return 0; }
CUresult cuCtxGetCurrent(void **context) { *context = (void *)0x1000; return 0; }
CUresult cuStreamSynchronize(void *stream) { return cuCtxSynchronize(); }
CUresult cuMemsetD8Async(CUdeviceptr pointer, unsigned char value, size_t bytes,
                         void *stream) {
  return cuMemsetD8_v2(pointer, value, bytes);
}
/* Every pointer is device memory of device 0 (CU_POINTER_ATTRIBUTE_MEMORY_TYPE
 * 2 -> CU_MEMORYTYPE_DEVICE; DEVICE_ORDINAL 9 -> 0). */
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr pointer) {
  *(int *)data = attribute == 2 ? 2 : 0;
  return pointer ? 0 : 1;
}
