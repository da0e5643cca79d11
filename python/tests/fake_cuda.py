"""A stand-in for the CUDA driver, for testing runtime.py without a GPU.

It implements the driver calls runtime.py makes with the same argument
conventions (ctypes.byref outputs, integer device pointers, a void** kernel
parameter array), keeps device memory in bytearrays, and executes the
kernels of the hand-made test artifact (scale, add) in NumPy by decoding the
parameter array exactly as the GPU would: so the packing of pointers and
scalars, the launch order, intermediates, poisoning and copies are all
checked. Every call is recorded in ``calls``."""

import ctypes

import numpy as np

from blockbuster import runtime


class FakeDriver(runtime.Driver):
    """Each driver entry point is a real C function pointer (CFUNCTYPE) with
    the argtypes runtime.py declares, so ctypes converts and checks every
    argument as it would for libcuda; the Python implementations below
    (named _cuXxx) receive what C would."""

    def __init__(self, devices=1, fail=None):
        # No libcuda: Driver.__init__ is not called.
        self._thunks = []
        for pyname, _, argtypes in runtime._API:
            impl = getattr(self, "_" + pyname, None)
            if impl is None:
                continue
            thunk = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(impl)
            self._thunks.append(thunk)
            setattr(self, pyname, thunk)
        self._strings = {}
        self.devices = devices
        self.static_smem = 0            # each kernel's static shared memory
        self.fail = fail or {}          # call name -> CUresult to return
        self.memory = {}                # base address -> bytearray
        self.next_address = 0x7F0000000000
        self.modules = {}
        self.functions = {}
        self.calls = []
        self.launches = []
        self.tensor_maps = []
        self.capability = (9, 0)
        self.path = "fake"

    # -- helpers ----------------------------------------------------------
    def _result(self, name):
        self.calls.append(name)
        return self.fail.get(name, 0)

    def _find(self, address):
        for base, data in self.memory.items():
            if base <= address < base + max(len(data), 1):
                return base, data
        raise AssertionError("not device memory: 0x%x" % address)

    def view(self, address, dtype, count):
        base, data = self._find(address)
        offset = address - base
        return np.frombuffer(data, dtype=dtype, count=count, offset=offset)

    def _set_string(self, out, text):
        # *out = a const char* that outlives the call, as the driver's do.
        buffer = self._strings.setdefault(text, ctypes.create_string_buffer(text))
        ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p))[0] = ctypes.addressof(buffer)

    # -- driver API -------------------------------------------------------
    def _cuGetErrorName(self, code, out):
        self._set_string(out, {0: b"CUDA_SUCCESS", 2: b"CUDA_ERROR_OUT_OF_MEMORY",
                               218: b"CUDA_ERROR_INVALID_PTX"}.get(code, b"CUDA_ERROR_UNKNOWN"))
        return 0

    def _cuGetErrorString(self, code, out):
        self._set_string(out, {2: b"out of memory", 218: b"a PTX JIT compilation failed"}.get(
            code, b"unknown error"))
        return 0

    def _cuDeviceGetCount(self, out):
        out[0] = self.devices
        return self._result("cuDeviceGetCount")

    def _cuDeviceGet(self, out, ordinal):
        out[0] = ordinal
        return self._result("cuDeviceGet")

    def _cuDevicePrimaryCtxRetain(self, out, device):
        out[0] = 0x1000 + device
        return self._result("cuDevicePrimaryCtxRetain")

    def _cuCtxSetCurrent(self, ctx):
        return self._result("cuCtxSetCurrent")

    def _cuDeviceGetAttribute(self, out, attribute, device):
        out[0] = {runtime.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: self.capability[0],
                  runtime.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: self.capability[1],
                          runtime.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
                              232448}[attribute]
        return self._result("cuDeviceGetAttribute")

    def _cuModuleLoadDataEx(self, out, ptx, count, options, values):
        code = self._result("cuModuleLoadDataEx")
        # c_char_p stops at the NUL the runtime appends.
        assert ptx.rstrip().endswith(b"}")
        if code:
            # The JIT writes its log into the CU_JIT_ERROR_LOG_BUFFER value.
            assert options[0] == runtime.CU_JIT_ERROR_LOG_BUFFER
            ctypes.memmove(values[0], b"ptxas fatal: bad thing\0", 23)
            return code
        handle = len(self.modules) + 1
        self.modules[handle] = ptx
        out[0] = handle
        return 0

    def _cuModuleUnload(self, handle):
        return self._result("cuModuleUnload")

    def _cuModuleGetFunction(self, out, module, name):
        handle = 0x100 + len(self.functions)
        assert name.decode() in self.modules[module].decode()
        self.functions[handle] = name.decode()
        out[0] = handle
        return self._result("cuModuleGetFunction")

    def _cuFuncGetAttribute(self, out, attribute, function):
        out[0] = {runtime.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 1024,
                          runtime.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
                          self.static_smem}[attribute]
        return self._result("cuFuncGetAttribute")

    def _cuFuncSetAttribute(self, function, attribute, value):
        self.calls.append(("cuFuncSetAttribute", attribute, value))
        return 0

    def _cuMemAlloc(self, out, size):
        code = self._result("cuMemAlloc")
        if code:
            return code
        address = self.next_address
        self.next_address += (size + 255) // 256 * 256 + 256
        self.memory[address] = bytearray(size)
        out[0] = address
        return 0

    def _cuMemFree(self, address):
        self.memory.pop(address, None)
        return 0

    def _cuMemcpyHtoD(self, dst, src, size):
        base, data = self._find(dst)
        data[dst - base:dst - base + size] = ctypes.string_at(src, size)
        return self._result("cuMemcpyHtoD")

    def _cuMemcpyDtoH(self, dst, src, size):
        base, data = self._find(src)
        ctypes.memmove(dst, bytes(data[src - base:src - base + size]), size)
        return self._result("cuMemcpyDtoH")

    def _cuMemsetD8(self, address, value, size):
        base, data = self._find(address)
        data[address - base:address - base + size] = bytes([value]) * size
        return self._result("cuMemsetD8")

    def _cuMemsetD8Async(self, address, value, size, stream):
        base, data = self._find(address)
        data[address - base:address - base + size] = bytes([value]) * size
        return self._result("cuMemsetD8Async")

    def _cuPointerGetAttribute(self, out, attribute, address):
        try:
            self._find(address)
        except AssertionError:
            return 1  # CUDA_ERROR_INVALID_VALUE
        # void* data: a 4-byte unsigned (memory type) or int (ordinal).
        ctypes.c_int.from_address(out).value = (
            runtime.CU_MEMORYTYPE_DEVICE
            if attribute == runtime.CU_POINTER_ATTRIBUTE_MEMORY_TYPE else 0)
        return 0

    def _cuStreamSynchronize(self, stream):
        return self._result("cuStreamSynchronize")

    TENSOR_MAP_TAG = b"TMAPFAKE"

    def _cuTensorMapEncodeTiled(self, out, dtype, rank, address, dims, strides,
                                box, element_strides, interleave, swizzle, l2, oob):
        """A tensor map: the tag, then the global address (a kernel reads
        through it, as TMA would); the arguments are recorded."""
        code = self._result("cuTensorMapEncodeTiled")
        if code:
            return code
        self.tensor_maps.append(dict(
            dtype=dtype, address=address, aligned=out % 64 == 0,
            dims=[dims[i] for i in range(rank)],
            strides=[strides[i] for i in range(rank - 1)],
            box=[box[i] for i in range(rank)], swizzle=swizzle, l2=l2, oob=oob))
        ctypes.memmove(out, self.TENSOR_MAP_TAG + address.to_bytes(8, "little"), 16)
        return 0

    def _through_tensor_map(self, address):
        data = self.view(address, np.uint8, 16).tobytes()
        if data[:8] == self.TENSOR_MAP_TAG:
            return int.from_bytes(data[8:], "little")
        return address

    def _cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, smem, stream, args, extra):
        code = self._result("cuLaunchKernel")
        if code:
            return code
        name = self.functions[function]
        u64 = lambda i: ctypes.c_uint64.from_address(args[i]).value  # noqa: E731
        if name == "scale":
            x, tmp, n = u64(0), u64(1), ctypes.c_int64.from_address(args[2]).value
            x = self._through_tensor_map(x)
            a = ctypes.c_float.from_address(args[3]).value
            count = min(n, gx * bx)
            self.view(tmp, np.float32, count)[:] = (
                np.float32(a) * self.view(x, np.float32, count))
        elif name == "add":
            tmp, y, out = u64(0), u64(1), u64(2)
            n = ctypes.c_int64.from_address(args[3]).value
            count = min(n, gx * bx)
            self.view(out, np.float32, count)[:] = (
                self.view(tmp, np.float32, count) + self.view(y, np.float32, count))
        else:
            raise AssertionError("fake driver cannot run kernel %s" % name)
        self.launches.append((name, (gx, gy, gz), (bx, by, bz), smem))
        return 0

    def _cuLaunchKernelEx(self, config, function, args, extra):
        code = self._result("cuLaunchKernelEx")
        if code:
            return code
        c = ctypes.cast(config, ctypes.POINTER(runtime._LaunchConfig)).contents
        attributes = [(c.attrs[i].id, tuple(c.attrs[i].value[0:3]))
                      for i in range(c.numAttrs)]
        self.calls.append(("cuLaunchKernelEx", tuple(attributes)))
        self.calls.pop(-2)  # _result's plain entry: the tuple says more.
        return self._cuLaunchKernel(function, c.gridDimX, c.gridDimY,
                                    c.gridDimZ, c.blockDimX, c.blockDimY,
                                    c.blockDimZ, c.sharedMemBytes, c.hStream,
                                    args, extra)


class FakeCudaArray:
    """An object with only __cuda_array_interface__, as CuPy or Numba expose."""

    def __init__(self, ptr, shape, typestr, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (ptr, False), "strides": strides,
                                         "version": 3}
