"""Running a Blockbuster artifact on an NVIDIA GPU from Python.

Pure Python: ctypes over the CUDA driver library (libcuda.so.1), no compiled
extension and no CUDA toolkit needed. The artifact is validated first
(artifact.py, no CUDA call); then ``Program`` loads its PTX into the primary
context of a device (the context PyTorch and CuPy use, so their pointers are
valid here), and each call launches the kernels in manifest order on one
stream.

    prog = blockbuster.runtime.Program("out/attention")
    (o,) = prog(q, k, v)                # torch/CuPy tensors: outputs allocated
    prog(q, k, v, outputs=[o])          # or written into caller's tensors
    (o,) = prog.run_numpy(qn, kn, vn)   # host NumPy arrays in and out

Tensors are checked against the manifest before any launch: shape, dtype,
C-contiguity, device, and that no output overlaps another argument.
"""

import ctypes
import ctypes.util
import math
import os

from . import artifact as _artifact
from .artifact import ArtifactError, DTYPE_BYTES  # noqa: F401 (re-exported)

# --- CUDA driver API constants (cuda.h; stable across CUDA 11 to 13) -------
# Caller tensors must start at this alignment: kernel parameters carry
# llvm.align = 16 (gpu-kernel-arg-attrs), and the staging copies are 16 bytes.
POINTER_ALIGNMENT = 16

CUDA_SUCCESS = 0
CU_JIT_INFO_LOG_BUFFER = 3
CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9
CU_MEMORYTYPE_DEVICE = 2

# Dynamic shared memory above this needs an opt-in per function.
DEFAULT_DYNAMIC_SMEM_LIMIT = 48 * 1024
LOG_BYTES = 16384

# Manifest dtype -> (NumPy dtype name, torch dtype name, typestr of the CUDA
# array interface). NumPy has no bf16: bf16 arrays travel as uint16 bits.
DTYPES = {
    "f16": ("float16", "float16", "<f2"),
    "bf16": ("uint16", "bfloat16", None),
    "f32": ("float32", "float32", "<f4"),
    "f64": ("float64", "float64", "<f8"),
    "i1": ("bool", "bool", "|b1"),
    "i8": ("int8", "int8", "|i1"),
    "i16": ("int16", "int16", "<i2"),
    "i32": ("int32", "int32", "<i4"),
    "i64": ("int64", "int64", "<i8"),
}
_TORCH_DTYPE_NAMES = {"torch." + v[1]: k for k, v in DTYPES.items()}
_TYPESTR_TO_DTYPE = {v[2]: k for k, v in DTYPES.items() if v[2]}
_TYPESTR_TO_DTYPE.update({"<u1": "i8", "|u1": "i8", "<i1": "i8", "<b1": "i1",
                          "<u2": "i16", "<u4": "i32", "<u8": "i64"})

_SCALAR_CTYPES = {
    "f16": ctypes.c_uint16, "bf16": ctypes.c_uint16, "f32": ctypes.c_float,
    "f64": ctypes.c_double, "i1": ctypes.c_uint8, "i8": ctypes.c_int8,
    "i16": ctypes.c_int16, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
}


class CudaError(RuntimeError):
    """A failed CUDA driver call: what the runtime was doing, the error name
    and cuGetErrorString's text."""


class TensorError(ValueError):
    """An argument that does not match the artifact's signature."""


# ---------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------

_P = ctypes.POINTER
_vp, _u, _i, _sz = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_size_t
_u64 = ctypes.c_uint64
# (Python name, exported symbol, argtypes): the versioned symbols (_v2) are
# the ones cuda.h maps the names to.
_API = [
    ("cuInit", "cuInit", [_u]),
    ("cuGetErrorString", "cuGetErrorString", [_i, _P(ctypes.c_char_p)]),
    ("cuGetErrorName", "cuGetErrorName", [_i, _P(ctypes.c_char_p)]),
    ("cuDriverGetVersion", "cuDriverGetVersion", [_P(_i)]),
    ("cuDeviceGetCount", "cuDeviceGetCount", [_P(_i)]),
    ("cuDeviceGet", "cuDeviceGet", [_P(_i), _i]),
    ("cuDeviceGetName", "cuDeviceGetName", [ctypes.c_char_p, _i, _i]),
    ("cuDeviceGetAttribute", "cuDeviceGetAttribute", [_P(_i), _i, _i]),
    ("cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain", [_P(_vp), _i]),
    ("cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", [_i]),
    ("cuCtxGetCurrent", "cuCtxGetCurrent", [_P(_vp)]),
    ("cuCtxSetCurrent", "cuCtxSetCurrent", [_vp]),
    ("cuCtxSynchronize", "cuCtxSynchronize", []),
    ("cuModuleLoadDataEx", "cuModuleLoadDataEx",
     [_P(_vp), ctypes.c_char_p, _u, _P(_i), _P(_vp)]),
    ("cuModuleUnload", "cuModuleUnload", [_vp]),
    ("cuModuleGetFunction", "cuModuleGetFunction",
     [_P(_vp), _vp, ctypes.c_char_p]),
    ("cuFuncGetAttribute", "cuFuncGetAttribute", [_P(_i), _i, _vp]),
    ("cuFuncSetAttribute", "cuFuncSetAttribute", [_vp, _i, _i]),
    ("cuLaunchKernel", "cuLaunchKernel",
     [_vp, _u, _u, _u, _u, _u, _u, _u, _vp, _P(_vp), _P(_vp)]),
    ("cuStreamSynchronize", "cuStreamSynchronize", [_vp]),
    ("cuMemAlloc", "cuMemAlloc_v2", [_P(_u64), _sz]),
    ("cuMemFree", "cuMemFree_v2", [_u64]),
    ("cuMemcpyHtoD", "cuMemcpyHtoD_v2", [_u64, _vp, _sz]),
    ("cuMemcpyDtoH", "cuMemcpyDtoH_v2", [_vp, _u64, _sz]),
    ("cuMemsetD8", "cuMemsetD8_v2", [_u64, ctypes.c_ubyte, _sz]),
    ("cuMemsetD8Async", "cuMemsetD8Async", [_u64, ctypes.c_ubyte, _sz, _vp]),
    ("cuPointerGetAttribute", "cuPointerGetAttribute", [_vp, _i, _u64]),
    ("cuTensorMapEncodeTiled", "cuTensorMapEncodeTiled",
     [_vp, _i, _u, _vp, _P(_u64), _P(_u64), _P(ctypes.c_uint32),
      _P(ctypes.c_uint32), _i, _i, _i, _i]),
    ("cuLaunchKernelEx", "cuLaunchKernelEx",
     [_vp, _vp, _P(_vp), _P(_vp)]),
]

# Needed only by some artifacts (tensor maps, launches in clusters: drivers
# of CUDA 12 and later); their absence is an error when such an artifact is
# run.
_OPTIONAL_API = ("cuTensorMapEncodeTiled", "cuLaunchKernelEx")

# cuda.h's CUlaunchAttributeID of a thread-block cluster's dimensions.
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


class _LaunchAttribute(ctypes.Structure):
    """cuda.h's CUlaunchAttribute: an id, padding, a 64-byte value (the
    cluster dimension: its first three unsigned words)."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", ctypes.c_uint * 16)]


class _LaunchConfig(ctypes.Structure):
    """cuda.h's CUlaunchConfig (cuLaunchKernelEx)."""
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)),
                ("numAttrs", ctypes.c_uint)]


def _cluster_config(launch):
    """The CUlaunchConfig of ``launch`` (which is in clusters); the caller
    sets hStream. The attribute is kept alive by the config."""
    attribute = _LaunchAttribute()
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attribute.value[0:3] = list(launch.cluster)
    config = _LaunchConfig(*launch.grid, *launch.block, launch.dynamic_smem,
                           None, ctypes.pointer(attribute), 1)
    config._attribute = attribute
    return config

# cuda.h's CUtensorMapDataType for the dtypes a tensor map can describe.
_TENSOR_MAP_DTYPES = {"i8": 0, "i16": 1, "i32": 3, "i64": 5, "f16": 6,
                      "f32": 7, "f64": 8, "bf16": 9}
# sizeof(CUtensorMap); cuTensorMapEncodeTiled wants it 64-byte aligned.
_TENSOR_MAP_BYTES = 128


class Driver:
    """The CUDA driver API through ctypes. One per process (``driver()``)."""

    def __init__(self, library=None):
        names = [library] if library else ["libcuda.so.1", "libcuda.so",
                                           ctypes.util.find_library("cuda")]
        errors = []
        self.lib = None
        for name in dict.fromkeys(filter(None, names)):
            try:
                self.lib = ctypes.CDLL(name)
                self.path = name
                break
            except OSError as e:
                errors.append(str(e))
        if self.lib is None:
            raise CudaError("cannot load the CUDA driver library (libcuda.so.1):"
                            " %s; is an NVIDIA driver installed?"
                            % "; ".join(errors))
        for pyname, symbol, argtypes in _API:
            try:
                fn = getattr(self.lib, symbol)
            except AttributeError:
                if symbol in _OPTIONAL_API:
                    setattr(self, pyname, None)
                    continue
                raise CudaError("the CUDA driver library %s has no %s"
                                % (self.path, symbol))
            fn.argtypes = argtypes
            fn.restype = ctypes.c_int
            setattr(self, pyname, fn)
        self.check(self.cuInit(0), "initialising the CUDA driver (cuInit)")

    def error_text(self, code):
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.cuGetErrorName(code, ctypes.byref(name))
        self.cuGetErrorString(code, ctypes.byref(text))
        name = name.value.decode() if name.value else "CUDA error"
        text = text.value.decode() if text.value else "unknown error"
        return "%s (%d): %s" % (name, code, text)

    def check(self, code, doing):
        if code != CUDA_SUCCESS:
            raise CudaError("%s failed: %s" % (doing, self.error_text(code)))


_DRIVER = None


def driver():
    global _DRIVER
    if _DRIVER is None:
        _DRIVER = Driver(os.environ.get("BLOCKBUSTER_LIBCUDA"))
    return _DRIVER


def cuda_available():
    """(True, "") when a CUDA device can be used, else (False, why)."""
    try:
        d = driver()
        count = ctypes.c_int()
        d.check(d.cuDeviceGetCount(ctypes.byref(count)), "counting devices")
        if count.value == 0:
            return False, "the CUDA driver reports no device"
        return True, ""
    except CudaError as e:
        return False, str(e)


# ---------------------------------------------------------------------------
# Device memory the runtime allocates itself
# ---------------------------------------------------------------------------

class DeviceArray:
    """A C-contiguous array in device memory, owned by the runtime. Exposes
    ``__cuda_array_interface__`` (so CuPy, Numba and PyTorch can view it,
    except bf16 which the interface cannot describe)."""

    def __init__(self, shape, dtype, device=0):
        if dtype not in DTYPES:
            raise TensorError("unknown dtype %r" % dtype)
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device = device
        self.nbytes = math.prod(self.shape) * DTYPE_BYTES[dtype]
        d = driver()
        _make_current(device)
        ptr = ctypes.c_uint64(0)
        if self.nbytes:
            d.check(d.cuMemAlloc(ctypes.byref(ptr), self.nbytes),
                    "allocating %d bytes of device memory" % self.nbytes)
        self.ptr = ptr.value
        self._driver = d

    @classmethod
    def from_numpy(cls, array, dtype=None, device=0):
        import numpy as np
        dtype = dtype or _numpy_dtype_name(array.dtype)
        # ascontiguousarray makes a 0-d array 1-d; keep the caller's shape.
        host = np.ascontiguousarray(array).reshape(np.shape(array))
        out = cls(host.shape, dtype, device)
        if host.nbytes != out.nbytes:
            raise TensorError("a %s array of shape %s is %d bytes, not %d"
                              % (host.dtype, host.shape, host.nbytes, out.nbytes))
        out.copy_from(host)
        return out

    def copy_from(self, host):
        if self.nbytes:
            _make_current(self.device)
            self._driver.check(
                self._driver.cuMemcpyHtoD(self.ptr, host.ctypes.data, self.nbytes),
                "copying %d bytes to the device" % self.nbytes)

    def numpy(self):
        import numpy as np
        host = np.empty(self.shape, dtype=DTYPES[self.dtype][0])
        if self.nbytes:
            _make_current(self.device)
            self._driver.check(
                self._driver.cuMemcpyDtoH(host.ctypes.data, self.ptr, self.nbytes),
                "copying %d bytes from the device" % self.nbytes)
        return host

    @property
    def __cuda_array_interface__(self):
        typestr = DTYPES[self.dtype][2]
        if typestr is None:
            raise TypeError("bf16 has no __cuda_array_interface__ typestr")
        return {"shape": self.shape, "typestr": typestr,
                "data": (self.ptr, False), "strides": None, "version": 3}

    def free(self):
        if self.ptr and _DRIVER is not None:
            self._driver.cuMemFree(self.ptr)
        self.ptr = 0

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass

    def __repr__(self):
        return "DeviceArray(%s, %s, cuda:%d)" % (self.shape, self.dtype, self.device)


def _numpy_dtype_name(np_dtype):
    for name, (np_name, _, _) in DTYPES.items():
        if np_dtype.name == np_name and name != "bf16":
            return name
    raise TensorError("NumPy dtype %s has no artifact dtype" % np_dtype)


_CONTEXTS = {}


def _make_current(device):
    """Makes the primary context of ``device`` current (retained once per
    process: PyTorch and CuPy use the same one)."""
    d = driver()
    ctx = _CONTEXTS.get(device)
    if ctx is None:
        count = ctypes.c_int()
        d.check(d.cuDeviceGetCount(ctypes.byref(count)), "counting devices")
        if not 0 <= device < count.value:
            raise CudaError("device %d does not exist (%d CUDA devices)"
                            % (device, count.value))
        dev = ctypes.c_int()
        d.check(d.cuDeviceGet(ctypes.byref(dev), device), "getting device %d" % device)
        handle = ctypes.c_void_p()
        d.check(d.cuDevicePrimaryCtxRetain(ctypes.byref(handle), dev),
                "retaining the primary context of device %d" % device)
        ctx = _CONTEXTS[device] = handle
    d.check(d.cuCtxSetCurrent(ctx), "making the context of device %d current" % device)
    return ctx


# ---------------------------------------------------------------------------
# Tensors supplied by the caller
# ---------------------------------------------------------------------------

class _View:
    """What the runtime needs of a caller's tensor."""

    def __init__(self, ptr, shape, dtype, contiguous, device, what):
        self.ptr, self.shape, self.dtype = ptr, tuple(shape), dtype
        self.contiguous, self.device, self.what = contiguous, device, what


def _view(obj):
    """Reads pointer, shape, dtype, contiguity and device of a torch tensor,
    a DeviceArray or anything with ``__cuda_array_interface__``."""
    if isinstance(obj, DeviceArray):
        return _View(obj.ptr, obj.shape, obj.dtype, True, obj.device, "DeviceArray")
    if type(obj).__module__.startswith("torch") and hasattr(obj, "data_ptr"):
        # torch first: its __cuda_array_interface__ cannot express bf16.
        dtype = _TORCH_DTYPE_NAMES.get(str(obj.dtype))
        if dtype is None:
            raise TensorError("torch dtype %s has no artifact dtype" % obj.dtype)
        if not obj.is_cuda:
            raise TensorError("is a torch tensor on %s; the artifact runs on "
                              "CUDA tensors" % obj.device)
        return _View(obj.data_ptr(), obj.shape, dtype, obj.is_contiguous(),
                     obj.device.index, "torch tensor")
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        shape = tuple(cai["shape"])
        typestr = cai["typestr"]
        dtype = _TYPESTR_TO_DTYPE.get(typestr)
        if dtype is None:
            raise TensorError("__cuda_array_interface__ typestr %r has no "
                              "artifact dtype" % typestr)
        strides = cai.get("strides")
        contiguous = True
        if strides is not None:
            expected, step = [], DTYPE_BYTES[dtype]
            for extent in reversed(shape):
                expected.insert(0, step)
                step *= extent
            contiguous = all(s == e for s, e, n in zip(strides, expected, shape)
                             if n > 1)
        if cai.get("mask") is not None:
            raise TensorError("masked arrays are not supported")
        ptr = cai["data"][0] or 0
        return _View(ptr, shape, dtype, contiguous, None,
                     type(obj).__module__.split(".")[0] + " array")
    raise TensorError("%s is not a device tensor (expected a torch CUDA tensor, "
                      "a CuPy array, a DeviceArray or an object with "
                      "__cuda_array_interface__; use run_numpy for host arrays)"
                      % type(obj).__name__)


def _pointer_device(ptr):
    """The ordinal of the device that owns ``ptr``, or None when the driver
    does not know the pointer (host memory, freed memory)."""
    d = driver()
    kind = ctypes.c_uint(0)
    if d.cuPointerGetAttribute(ctypes.byref(kind), CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                               ptr) != CUDA_SUCCESS:
        return None
    ordinal = ctypes.c_int(-1)
    if d.cuPointerGetAttribute(ctypes.byref(ordinal),
                               CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr) != CUDA_SUCCESS:
        return None
    return ordinal.value


def check_tensor(view, buffer, device, role):
    """Raises TensorError unless ``view`` matches ``buffer`` exactly."""
    if (view.shape == buffer.shape and view.dtype == buffer.dtype
            and view.contiguous and
            (buffer.nbytes == 0 or
             (view.ptr and view.ptr % POINTER_ALIGNMENT == 0 and
              view.device == device))):
        return   # the common case, without formatting a label (launch cost)
    label = "%s %d ('%s')" % (role, buffer.position, buffer.name)
    if view.shape != buffer.shape:
        raise TensorError("%s: shape %s, but the artifact expects %s"
                          % (label, list(view.shape), list(buffer.shape)))
    if view.dtype != buffer.dtype:
        raise TensorError("%s: dtype %s, but the artifact expects %s"
                          % (label, view.dtype, buffer.dtype))
    if not view.contiguous:
        raise TensorError("%s: the %s is not C-contiguous (call .contiguous())"
                          % (label, view.what))
    if buffer.nbytes == 0:
        return
    if not view.ptr:
        raise TensorError("%s: null device pointer" % label)
    if view.ptr % POINTER_ALIGNMENT:
        # The kernels are compiled for aligned pointers (llvm.align on their
        # parameters, 16-byte loads and cp.async): a misaligned one would
        # fault or read the wrong bytes.
        raise TensorError("%s: device pointer 0x%x is not %d-byte aligned "
                          "(a view at an offset? pass a copy)"
                          % (label, view.ptr, POINTER_ALIGNMENT))
    if view.device is not None:
        owner = view.device   # torch tensors and DeviceArrays know their device
    else:
        owner = _pointer_device(view.ptr)
        if owner is None:
            raise TensorError("%s: pointer 0x%x is not device memory known to "
                              "the CUDA driver" % (label, view.ptr))
    if owner != device:
        raise TensorError("%s: the %s is on cuda:%s, the program on cuda:%d"
                          % (label, view.what, owner, device))


def _check_no_overlap(bound):
    """Outputs must not overlap inputs or each other: a kernel would read
    what another block already overwrote."""
    spans = sorted(((v.ptr, v.ptr + b.nbytes, b, role) for v, b, role in bound
                    if b.nbytes), key=lambda span: span[:2])
    for (s0, e0, b0, r0), (s1, e1, b1, r1) in zip(spans, spans[1:]):
        if s1 < e0 and "output" in (r0, r1):
            raise TensorError("%s '%s' and %s '%s' overlap in device memory"
                              % (r0, b0.name, r1, b1.name))


def _torch_current_stream(device):
    """PyTorch's current CUstream on ``device``. The raw-handle query that
    Inductor's generated code calls costs a fraction of building a
    torch.cuda.Stream (launch cost, docs/Python.md); the public call where
    a PyTorch build lacks it."""
    import torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


def _stream_handle(stream, views):
    if stream is None:
        return None
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
    raise TensorError("cannot read a CUstream handle from %r" % (stream,))


# ---------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------

class Program:
    """An artifact loaded on one device, ready to launch.

    ``Program(path_or_artifact, device=0)`` validates the manifest, JIT-loads
    each PTX module (the driver's error log goes into the exception), looks
    up every kernel, opts in to dynamic shared memory above 48 KB and checks
    each launch against the device's limits.
    """

    def __init__(self, artifact, device=0):
        if not isinstance(artifact, _artifact.Artifact):
            artifact = _artifact.load(artifact)
        self.artifact = artifact
        self.device = device
        d = self._driver = driver()
        _make_current(device)
        dev = ctypes.c_int()
        d.check(d.cuDeviceGet(ctypes.byref(dev), device), "getting device %d" % device)
        major, minor, optin = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        d.check(d.cuDeviceGetAttribute(ctypes.byref(major),
                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "querying the device")
        d.check(d.cuDeviceGetAttribute(ctypes.byref(minor),
                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "querying the device")
        d.check(d.cuDeviceGetAttribute(ctypes.byref(optin),
                CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev),
                "querying the device")
        self.compute_capability = (major.value, minor.value)
        chip = artifact.chip
        if chip.startswith("sm_") and chip[3:5].isdigit():
            need = (int(chip[3]), int(chip[4]))
            if self.compute_capability < need:
                raise CudaError("%s: the artifact targets %s, device %d is sm_%d%d"
                                % (artifact.path, chip, device, *self.compute_capability))
            # sm_90a code (wgmma, TMA multicast, setmaxnreg) runs on that
            # architecture only, not on later ones.
            if chip.endswith("a") and self.compute_capability != need:
                raise CudaError("%s: the artifact targets %s, whose instructions "
                                "run only on sm_%d%d devices; device %d is sm_%d%d "
                                "(compile with --chip for this device)"
                                % (artifact.path, chip, *need, device,
                                   *self.compute_capability))

        self._modules = {}
        for name, module in artifact.modules.items():
            handle = ctypes.c_void_p()
            error_log = ctypes.create_string_buffer(LOG_BYTES)
            info_log = ctypes.create_string_buffer(LOG_BYTES)
            options = (ctypes.c_int * 4)(CU_JIT_ERROR_LOG_BUFFER,
                                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                         CU_JIT_INFO_LOG_BUFFER,
                                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
            values = (ctypes.c_void_p * 4)(
                ctypes.cast(error_log, ctypes.c_void_p).value, LOG_BYTES,
                ctypes.cast(info_log, ctypes.c_void_p).value, LOG_BYTES)
            code = d.cuModuleLoadDataEx(ctypes.byref(handle),
                                        module.ptx.encode() + b"\0", 4, options, values)
            if code != CUDA_SUCCESS:
                log = error_log.value.decode(errors="replace").strip()
                raise CudaError("loading PTX module '%s' (%s) failed: %s%s"
                                % (name, os.path.join(artifact.path, module.ptx_file),
                                   d.error_text(code),
                                   "\nPTX JIT log:\n" + log if log else ""))
            self._modules[name] = handle

        self._functions = []
        for index, launch in enumerate(artifact.launches):
            doing = "launch %d (%s)" % (index, launch.kernel)
            fn = ctypes.c_void_p()
            d.check(d.cuModuleGetFunction(ctypes.byref(fn), self._modules[launch.module],
                                          launch.kernel.encode()),
                    "%s: looking up the kernel in module '%s'" % (doing, launch.module))
            max_threads, static_smem = ctypes.c_int(), ctypes.c_int()
            d.check(d.cuFuncGetAttribute(ctypes.byref(max_threads),
                    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn), doing)
            d.check(d.cuFuncGetAttribute(ctypes.byref(static_smem),
                    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn), doing)
            threads = math.prod(launch.block)
            if threads > max_threads.value:
                raise CudaError("%s: block %s is %d threads, but the compiled kernel "
                                "allows at most %d (registers per thread?)"
                                % (doing, list(launch.block), threads, max_threads.value))
            if launch.dynamic_smem + static_smem.value > optin.value:
                raise CudaError("%s: %d bytes of dynamic + %d of static shared "
                                "memory exceed the device's %d per block"
                                % (doing, launch.dynamic_smem, static_smem.value,
                                   optin.value))
            # The default 48 KB bound the kernel's static and dynamic shared
            # memory together: above it, the dynamic part is an opt-in.
            if launch.dynamic_smem + static_smem.value > \
                    DEFAULT_DYNAMIC_SMEM_LIMIT:
                d.check(d.cuFuncSetAttribute(
                    fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    launch.dynamic_smem),
                    "%s: allowing %d bytes of dynamic shared memory"
                    % (doing, launch.dynamic_smem))
            if launch.cluster is not None and d.cuLaunchKernelEx is None:
                raise CudaError("%s is in clusters of %s blocks, but the CUDA "
                                "driver library %s has no cuLaunchKernelEx "
                                "(CUDA 12 or later is needed)"
                                % (doing, list(launch.cluster), d.path))
            self._functions.append(fn)
        self._intermediates = None
        # (launch, parameter, address) -> the device copy of its CUtensorMap.
        # Encoded and uploaded when an address is first seen (the warm-up
        # call before a CUDA graph is captured), then reused.
        self._tensor_maps = {}
        # The addresses of the inputs and outputs -> each launch's packed
        # parameter array (launch cost: a call with the same tensors as an
        # earlier one only calls cuLaunchKernel; docs/Python.md).
        self._packed = {}

    # -- calling ------------------------------------------------------------

    def allocate_outputs(self):
        return [DeviceArray(b.shape, b.dtype, self.device) for b in self.artifact.outputs]

    def _default_outputs(self, inputs):
        try:
            import torch
            if inputs and all(isinstance(x, torch.Tensor) for x in inputs):
                dt = {k: getattr(torch, v[1]) for k, v in DTYPES.items()}
                return [torch.empty(b.shape, dtype=dt[b.dtype],
                                    device="cuda:%d" % self.device)
                        for b in self.artifact.outputs]
        except ImportError:
            pass
        if inputs and type(inputs[0]).__module__.startswith("cupy"):
            import cupy
            with cupy.cuda.Device(self.device):
                return [cupy.empty(b.shape, dtype=DTYPES[b.dtype][0])
                        for b in self.artifact.outputs]
        return self.allocate_outputs()

    def __call__(self, *inputs, outputs=None, stream=None, sync=True, poison=False,
                 sync_each=False):
        """Launches the artifact on ``inputs`` (one device tensor per input,
        in position order) writing ``outputs`` (allocated like the inputs when
        None). ``stream``: a CUstream handle or an object with
        ``.cuda_stream``; by default PyTorch's current stream for torch
        tensors, else the legacy default stream. ``sync``: wait for the
        kernels and report their errors. ``poison``: fill the outputs with
        NaN (0xFF bytes) first, so an element no kernel writes shows.
        ``sync_each``: synchronise after every launch, so that a kernel that
        faults (an illegal address) is named in the error (for tests; a fault
        loses the CUDA context, and every later call in the process fails).
        Returns the outputs."""
        a = self.artifact
        if len(inputs) != len(a.inputs):
            raise TensorError("@%s takes %d inputs (%s), got %d"
                              % (a.entry, len(a.inputs),
                                 ", ".join(b.describe() for b in a.inputs), len(inputs)))
        if outputs is None:
            outputs = self._default_outputs(inputs)
        outputs = list(outputs)
        if len(outputs) != len(a.outputs):
            raise TensorError("@%s has %d outputs, got %d"
                              % (a.entry, len(a.outputs), len(outputs)))
        bound, pointers = [], {}
        for role, tensors, buffers in (("input", inputs, a.inputs),
                                       ("output", outputs, a.outputs)):
            for t, b in zip(tensors, buffers):
                try:
                    v = _view(t)
                except TensorError as e:
                    raise TensorError("%s %d ('%s'): %s" % (role, b.position, b.name, e))
                check_tensor(v, b, self.device, role)
                bound.append((v, b, role))
                pointers[b.name] = v.ptr
        _check_no_overlap(bound)

        if stream is None:
            torch_stream = None
            if inputs and type(inputs[0]).__module__.startswith("torch"):
                torch_stream = _torch_current_stream(self.device)
            stream = torch_stream
        handle = _stream_handle(stream, bound)
        self.launch(pointers, handle, poison=poison, sync_each=sync_each)
        if sync:
            self._driver.check(self._driver.cuStreamSynchronize(handle),
                               "running @%s (synchronising after %d launches)"
                               % (a.entry, len(a.launches)))
        return outputs

    def launch(self, pointers, stream=None, poison=False, sync_each=False):
        """Launches every kernel with ``pointers`` (buffer name -> device
        address for every input and output; checked by the caller) on
        ``stream``, synchronising after each one with ``sync_each``.
        Intermediates are allocated once per Program."""
        d, a = self._driver, self.artifact
        _make_current(self.device)
        if self._intermediates is None:
            self._intermediates = {b.name: DeviceArray(b.shape, b.dtype, self.device)
                                   for b in a.intermediates}
            # A workspace starts zeroed; the kernels leave it zeroed, so it
            # is zeroed once, here, and a captured CUDA graph needs no memset.
            for b in a.intermediates:
                if b.kind == "workspace" and b.nbytes:
                    d.check(d.cuMemsetD8(self._intermediates[b.name].ptr, 0,
                                         b.nbytes),
                            "zeroing workspace '%s'" % b.name)
        if poison:
            for b in a.outputs:
                if b.nbytes:
                    d.check(d.cuMemsetD8Async(pointers[b.name], 0xFF, b.nbytes, stream),
                            "poisoning output '%s'" % b.name)
        key = tuple(pointers.items())
        packed = self._packed.get(key)
        if packed is None:
            packed = self._pack(pointers)
            if len(self._packed) >= _PACKED_CACHE_SIZE:
                self._packed.pop(next(iter(self._packed)))
            self._packed[key] = packed
        launch_kernel = d.cuLaunchKernel
        stream = ctypes.c_void_p(stream)
        for index, (launch, head, args) in enumerate(packed):
            if launch.cluster is None:
                code = launch_kernel(*head, stream, args, None)
            else:
                # Blocks in clusters: the cluster dimension as a launch
                # attribute (head: the function and the CUlaunchConfig).
                head[1].hStream = stream
                code = d.cuLaunchKernelEx(ctypes.byref(head[1]), head[0], args,
                                          None)
            doing = "failed"
            if code == CUDA_SUCCESS and sync_each:
                code = d.cuStreamSynchronize(stream)
                doing = "faulted"
            if code != CUDA_SUCCESS:
                raise CudaError("launch %d (%s, grid %s, block %s, %d B dynamic "
                                "shared memory) %s: %s"
                                % (index, launch.kernel, list(launch.grid),
                                   list(launch.block), launch.dynamic_smem, doing,
                                   d.error_text(code)))

    def _pack(self, pointers):
        """(launch, function, parameter array) for every launch, the
        parameters bound to ``pointers`` and the intermediates. Each array
        keeps its parameter holders alive (``_holders``)."""
        a = self.artifact
        addresses = dict(pointers)
        for name, array in self._intermediates.items():
            addresses[name] = array.ptr
        packed = []
        for index, (launch, fn) in enumerate(zip(a.launches, self._functions)):
            holders = []
            for j, p in enumerate(launch.params):
                if p.tensor_map is not None:
                    holders.append(ctypes.c_uint64(self._tensor_map(
                        index, j, p.tensor_map,
                        addresses[p.tensor_map.buffer.name])))
                elif p.buffer is not None:
                    holders.append(ctypes.c_uint64(addresses[p.buffer.name]))
                elif p.scalar in ("f16", "bf16"):
                    holders.append(ctypes.c_uint16(_half_bits(p.value, p.scalar)))
                else:
                    holders.append(_SCALAR_CTYPES[p.scalar](p.value))
            args = (ctypes.c_void_p * max(1, len(holders)))(
                *[ctypes.addressof(h) for h in holders])
            args._holders = holders
            # cuLaunchKernel's arguments before the stream, as the ctypes
            # values its argtypes would convert them to on every call; in
            # clusters, the function and cuLaunchKernelEx's config.
            if launch.cluster is not None:
                head = (fn, _cluster_config(launch))
            else:
                head = (fn, *[ctypes.c_uint(n) for n in (*launch.grid,
                                                         *launch.block,
                                                         launch.dynamic_smem)])
            packed.append((launch, head, args))
        return packed

    def _tensor_map(self, launch, param, tensor_map, address):
        """The device address of the CUtensorMap of ``tensor_map`` over the
        buffer at ``address`` (encoded with cuTensorMapEncodeTiled and copied
        to device memory the first time)."""
        key = (launch, param, address)
        if key in self._tensor_maps:
            return self._tensor_maps[key].ptr
        d, t = self._driver, tensor_map
        b = t.buffer
        if d.cuTensorMapEncodeTiled is None:
            raise CudaError("launch %d: the CUDA driver library %s has no "
                            "cuTensorMapEncodeTiled (CUDA 12 or later is needed "
                            "for tensor maps)" % (launch, d.path))
        elem = b.nbytes // max(1, b.numel)
        rank = len(b.shape)
        dims = (ctypes.c_uint64 * rank)(*reversed(b.shape))
        strides, stride = [], elem
        for extent in reversed(b.shape[1:]):
            stride *= extent
            strides.append(stride)
        global_strides = (ctypes.c_uint64 * max(1, rank - 1))(*strides)
        box = (ctypes.c_uint32 * rank)(*reversed(t.box))
        element_strides = (ctypes.c_uint32 * rank)(*([1] * rank))
        storage = ctypes.create_string_buffer(_TENSOR_MAP_BYTES + 64)
        aligned = (ctypes.addressof(storage) + 63) // 64 * 64
        code = d.cuTensorMapEncodeTiled(
            aligned, _TENSOR_MAP_DTYPES[b.dtype], rank, address, dims,
            global_strides, box, element_strides, 0,
            _artifact.TENSOR_MAP_SWIZZLES.index(t.swizzle),
            _artifact.TENSOR_MAP_L2_PROMOTIONS.index(t.l2_promotion),
            _artifact.TENSOR_MAP_OOB_FILLS.index(t.oob_fill))
        d.check(code, "launch %d: encoding the tensor map of '%s' (parameter %d)"
                % (launch, b.name, param))
        device = DeviceArray((_TENSOR_MAP_BYTES,), "i8", self.device)
        d.check(d.cuMemcpyHtoD(device.ptr, aligned, _TENSOR_MAP_BYTES),
                "launch %d: copying the tensor map of '%s'" % (launch, b.name))
        self._tensor_maps[key] = device
        return device.ptr

    def run_numpy(self, *inputs, poison=True, sync_each=False):
        """Host NumPy arrays in (bf16 as uint16 bits), NumPy arrays out:
        copies in, poisons the outputs, launches, synchronises, copies out
        (``sync_each``: as for ``__call__``)."""
        import numpy as np
        a = self.artifact
        if len(inputs) != len(a.inputs):
            raise TensorError("@%s takes %d inputs, got %d"
                              % (a.entry, len(a.inputs), len(inputs)))
        device_inputs = []
        for x, b in zip(inputs, a.inputs):
            x = np.asarray(x)
            if x.dtype != np.dtype(DTYPES[b.dtype][0]) or x.shape != b.shape:
                raise TensorError("input %d ('%s'): %s %s, but the artifact expects "
                                  "%s %s" % (b.position, b.name, x.dtype,
                                             list(x.shape), DTYPES[b.dtype][0],
                                             list(b.shape)))
            device_inputs.append(DeviceArray.from_numpy(x, b.dtype, self.device))
        outputs = self.allocate_outputs()
        self(*device_inputs, outputs=outputs, poison=poison, sync_each=sync_each)
        return [o.numpy() for o in outputs]

    def close(self):
        if self._intermediates:
            for array in self._intermediates.values():
                array.free()
        self._intermediates = None
        for array in self._tensor_maps.values():
            array.free()
        self._tensor_maps = {}
        self._packed = {}
        for handle in self._modules.values():
            self._driver.cuModuleUnload(handle)
        self._modules = {}


# Address sets whose packed parameters a Program keeps (a few: a model calls
# a Program with the same few tensors again and again).
_PACKED_CACHE_SIZE = 16

def _half_bits(value, dtype):
    import struct
    if dtype == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF  # RNE


def load(path, device=0):
    """``Program(path, device)``: validate, load and prepare an artifact."""
    return Program(path, device)
