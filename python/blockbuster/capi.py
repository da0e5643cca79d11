"""The compiler and the CPU runner through the C API (libBlockbusterCAPI.so,
include/Blockbuster-c/Blockbuster.h), loaded with ctypes on first use.

    import blockbuster as bb
    fused = bb.compile(text, fuse=True)              # fused block program (IR text)
    fused.ir, fused.report                           # and its fusion report (JSON list)
    (out,) = bb.run(text, [x, y], fuse=True)         # CPU, NumPy in and out
    bb.compile(text, target="gpu", output_dir="out") # GPU artifact (see docs/Python.md)

The library is $BLOCKBUSTER_CAPI when set, else build/lib/libBlockbusterCAPI.so
of the checkout (or $BLOCKBUSTER_BUILD/lib). Errors raise CompileError with
the diagnostics bb-opt or bb-run would print.
"""

import ctypes
import json
import os

import numpy as np

from .seeded import NUMPY_DTYPES


class CompileError(RuntimeError):
    """Diagnostics of a failed compile or run."""


_LIB = None


def _library_path():
    if os.environ.get("BLOCKBUSTER_CAPI"):
        return os.environ["BLOCKBUSTER_CAPI"]
    build = os.environ.get("BLOCKBUSTER_BUILD") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build")
    return os.path.join(build, "lib", "libBlockbusterCAPI.so")


def library():
    global _LIB
    if _LIB is None:
        path = _library_path()
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise CompileError("cannot load the Blockbuster C API (%s): %s; build "
                               "it with `ninja -C build BlockbusterCAPI` or set "
                               "BLOCKBUSTER_CAPI" % (path, e))
        c = ctypes
        out = c.POINTER(c.c_void_p)
        lib.bbVersion.restype = c.c_char_p
        lib.bbFreeString.argtypes = [c.c_void_p]
        lib.bbTransform.argtypes = [c.c_char_p, c.c_char_p, out]
        lib.bbReport.argtypes = [c.c_char_p, c.c_char_p, c.c_char_p, out]
        lib.bbSignature.argtypes = [c.c_char_p, c.c_char_p, out]
        lib.bbRunCPU.argtypes = [c.c_char_p, c.c_char_p, c.c_char_p, c.c_int64,
                                 c.POINTER(c.c_void_p), c.POINTER(c.c_int64),
                                 c.c_int64, c.POINTER(c.c_void_p),
                                 c.POINTER(c.c_int64), out]
        lib.bbCompileArtifact.argtypes = [c.c_char_p, c.c_char_p, c.c_char_p, out]
        for name in ("bbTransform", "bbReport", "bbSignature", "bbRunCPU",
                     "bbCompileArtifact"):
            getattr(lib, name).restype = c.c_int
        _LIB = lib
    return _LIB


def _call(function, *args):
    """Calls a C API function; returns its result text or raises CompileError."""
    result = ctypes.c_void_p()
    status = function(*args, ctypes.byref(result))
    text = ctypes.string_at(result.value).decode("utf-8", "replace") if result.value else ""
    library().bbFreeString(result)
    if status != 0:
        raise CompileError(text.strip() or "failed without a diagnostic")
    return text


def _text(mlir):
    if isinstance(mlir, os.PathLike) or (isinstance(mlir, str) and "\n" not in mlir
                                         and mlir.endswith(".mlir") and os.path.exists(mlir)):
        with open(mlir) as f:
            return f.read()
    return mlir


def _pipeline(fuse, extra):
    passes = ["hoist-tensor-constants", "convert-linalg-to-block"]
    if fuse:
        passes.append("block-fuse")
    return ",".join(passes + list(extra))


class Compiled:
    """The result of compile(): the IR text, and the fusion report."""

    def __init__(self, ir, report, artifact=None):
        self.ir = ir
        self.report = report
        self.artifact = artifact

    def __str__(self):
        return self.ir


def transform(mlir, pipeline):
    """Runs a textual pass pipeline on MLIR text; returns the printed module."""
    return _call(library().bbTransform, _text(mlir).encode(), pipeline.encode())


def report(mlir, pipeline="", options=""):
    """The fusion report (a list of dicts, one per block program,
    docs/FusionReport.md) of the module after ``pipeline``."""
    text = _call(library().bbReport, _text(mlir).encode(), pipeline.encode(),
                 options.encode())
    # One JSON object per block program, one after the other.
    decoder, objects, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        obj, at = decoder.raw_decode(text, at)
        objects.append(obj)
    return objects


def signature(mlir, entry=""):
    return json.loads(_call(library().bbSignature, _text(mlir).encode(),
                            entry.encode()))


def compile(mlir, fuse=True, target="cpu", output_dir=None, entry="",
            block_sizes=(), linalg=None, report_options=""):
    """Compiles MLIR text (or a .mlir path). For Linalg input (detected, or
    ``linalg=True``): hoist-tensor-constants, convert-linalg-to-block and,
    with ``fuse``, block-fuse; block programs are fused as given. Returns a
    Compiled with the block program text and its fusion report.
    ``target="gpu"`` also writes a GPU artifact into ``output_dir``."""
    text = _text(mlir)
    if linalg is None:
        linalg = "block.program" not in text
    if linalg:
        pipeline = _pipeline(fuse, [])
    else:
        pipeline = "block-fuse" if fuse else ""
    ir = transform(text, pipeline)
    options = "block-sizes=%s" % ",".join(block_sizes) if block_sizes else ""
    rep = report(ir, "", options + report_options)
    artifact = None
    if target == "gpu":
        if not output_dir:
            raise ValueError("target='gpu' needs output_dir")
        opts = json.dumps({"entry": entry, "fuse": bool(fuse),
                           "block_sizes": list(block_sizes)})
        _call(library().bbCompileArtifact, text.encode(), opts.encode(),
              os.fspath(output_dir).encode())
        artifact = os.fspath(output_dir)
    elif target != "cpu":
        raise ValueError("target must be 'cpu' or 'gpu', got %r" % (target,))
    return Compiled(ir, rep, artifact)


def run(mlir, inputs, entry="", fuse=False, block_sizes=(), target="cpu",
        reference=False):
    """JIT-runs ``entry`` of MLIR text (or a .mlir path) on the CPU, as
    bb-run does, on NumPy ``inputs`` (bf16 as uint16 bits, i1 as bool) and
    returns the outputs as NumPy arrays. Shapes and dtypes are checked
    against the program's signature first. ``reference=True`` runs
    upstream MLIR's own lowering of Linalg input instead."""
    text = _text(mlir)
    sig = signature(text, entry)
    if len(inputs) != len(sig["inputs"]):
        raise CompileError("@%s takes %d inputs, got %d"
                           % (sig["entry"], len(sig["inputs"]), len(inputs)))
    arrays = []
    for i, (x, spec) in enumerate(zip(inputs, sig["inputs"])):
        dtype = np.dtype(NUMPY_DTYPES[spec["dtype"]])
        x = np.asarray(x)
        if x.dtype != dtype or list(x.shape) != spec["shape"]:
            raise CompileError("input %d of @%s: %s %s, but the program takes %s %s"
                               % (i, sig["entry"], x.dtype, list(x.shape), dtype,
                                  spec["shape"]))
        arrays.append(np.ascontiguousarray(x))
    outputs = [np.empty(spec["shape"], dtype=NUMPY_DTYPES[spec["dtype"]])
               for spec in sig["outputs"]]
    ptrs = lambda xs: (ctypes.c_void_p * max(1, len(xs)))(  # noqa: E731
        *[x.ctypes.data for x in xs])
    sizes = lambda xs: (ctypes.c_int64 * max(1, len(xs)))(*[x.nbytes for x in xs])  # noqa: E731
    options = json.dumps({"fuse": bool(fuse), "block_sizes": list(block_sizes),
                          "target": target, "reference": bool(reference)})
    _call(library().bbRunCPU, text.encode(), entry.encode(), options.encode(),
          len(arrays), ptrs(arrays), sizes(arrays), len(outputs), ptrs(outputs),
          sizes(outputs))
    return outputs
