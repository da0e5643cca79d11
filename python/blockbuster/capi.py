"""The compiler and the CPU runner through the C API (libBlockbusterCAPI.so,
include/Blockbuster-c/Blockbuster.h), loaded with ctypes on first use.

    import blockbuster as bb
    fused = bb.compile(text, fuse=True)              # fused block program (IR text)
    fused.ir, fused.report                           # and its fusion reports (report.Report)
    (out,) = bb.run(text, [x, y], fuse=True)         # CPU, NumPy in and out
    bb.compile(text, target="gpu", output_dir="out") # GPU artifact (see docs/Python.md)

The library is the first of (``library_candidates()``): $BLOCKBUSTER_CAPI;
$BLOCKBUSTER_BUILD/lib and $BLOCKBUSTER_PREFIX/lib; the copy inside the
installed package (a wheel built with BLOCKBUSTER_PREFIX set,
docs/Embedding.md); the environment's own prefix (sys.prefix/lib, for
Blockbuster installed into a virtual environment); the checkout's build/lib
when the package is used from the source tree; the dynamic loader's search
(LD_LIBRARY_PATH, ldconfig). Errors raise CompileError with the diagnostics
bb-opt or bb-run would print.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .report import Report, parse_reports
from .seeded import NUMPY_DTYPES

#: MLIR text, or the path of a .mlir file.
MlirSource = Union[str, "os.PathLike[str]"]

LIBRARY_NAME = "libBlockbusterCAPI.so"


class CompileError(RuntimeError):
    """Diagnostics of a failed compile or run."""


_LIB: Optional[ctypes.CDLL] = None


def library_candidates() -> List[Tuple[str, str]]:
    """Where the C API library is looked for, in order: (path, why) pairs.
    The last is the bare file name, for the dynamic loader's own search."""
    package = os.path.dirname(os.path.abspath(__file__))
    candidates = []
    if os.environ.get("BLOCKBUSTER_CAPI"):
        candidates.append((os.environ["BLOCKBUSTER_CAPI"], "$BLOCKBUSTER_CAPI"))
    for variable in ("BLOCKBUSTER_BUILD", "BLOCKBUSTER_PREFIX"):
        if os.environ.get(variable):
            candidates.append((os.path.join(os.environ[variable], "lib",
                                            LIBRARY_NAME), "$" + variable))
    candidates += [
        (os.path.join(package, "lib", LIBRARY_NAME), "inside the package"),
        (os.path.join(sys.prefix, "lib", LIBRARY_NAME), "sys.prefix"),
    ]
    # The package used from the source tree (python/ beside pyproject.toml).
    if os.path.isfile(os.path.join(package, "..", "pyproject.toml")):
        candidates.append((os.path.join(package, "..", "..", "build", "lib",
                                        LIBRARY_NAME), "the checkout's build"))
    candidates.append((LIBRARY_NAME, "the dynamic loader's search path"))
    return candidates


def library_path() -> str:
    """The C API library that library() loads: the first candidate that
    exists (an environment variable names it even if it does not)."""
    for path, why in library_candidates():
        if why.startswith("$") or os.path.isfile(path):
            return os.path.normpath(path)
    return LIBRARY_NAME


def library() -> ctypes.CDLL:
    global _LIB
    if _LIB is None:
        path = library_path()
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried = "; ".join("%s (%s)" % (os.path.normpath(p), why)
                              for p, why in library_candidates())
            raise CompileError(
                "cannot load the Blockbuster C API (%s): %s. Looked in: %s. "
                "Build it with `ninja -C build BlockbusterCAPI`, install it "
                "(docs/Embedding.md) or set BLOCKBUSTER_CAPI" % (path, e, tried))
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


def _call(function: Any, *args: Any) -> str:
    """Calls a C API function; returns its result text or raises CompileError."""
    result = ctypes.c_void_p()
    status = function(*args, ctypes.byref(result))
    text = ctypes.string_at(result.value).decode("utf-8", "replace") if result.value else ""
    library().bbFreeString(result)
    if status != 0:
        raise CompileError(text.strip() or "failed without a diagnostic")
    return text


def _text(mlir: MlirSource) -> str:
    if isinstance(mlir, os.PathLike) or (isinstance(mlir, str) and "\n" not in mlir
                                         and mlir.endswith(".mlir") and os.path.exists(mlir)):
        with open(mlir) as f:
            return f.read()
    return mlir


def _pipeline(fuse: bool, extra: Sequence[str]) -> str:
    passes = ["hoist-tensor-constants", "convert-linalg-to-block"]
    if fuse:
        passes.append("block-fuse")
    return ",".join(passes + list(extra))


@dataclass
class Compiled:
    """The result of compile(): the block program's IR text, the fusion
    report of each block program in it, and the GPU artifact's directory
    (target="gpu")."""

    ir: str
    report: List[Report] = field(default_factory=list)
    artifact: Optional[str] = None

    def __str__(self) -> str:
        return self.ir


def transform(mlir: MlirSource, pipeline: str) -> str:
    """Runs a textual pass pipeline on MLIR text; returns the printed module."""
    return _call(library().bbTransform, _text(mlir).encode(), pipeline.encode())


def report(mlir: MlirSource, pipeline: str = "", options: str = "") -> List[Report]:
    """The fusion report of each block program (docs/FusionReport.md) of the
    module after ``pipeline``; ``options`` are block-report's."""
    return parse_reports(_call(library().bbReport, _text(mlir).encode(),
                               pipeline.encode(), options.encode()))


def signature(mlir: MlirSource, entry: str = "") -> Dict[str, Any]:
    """The entry's inputs and outputs: {"entry", "kind", "inputs": [{"shape",
    "dtype"}], "outputs": [...]}. Hoisted tensor constants (weights) are the
    last inputs, with "hoisted": True and their key as "constant"."""
    return json.loads(_call(library().bbSignature, _text(mlir).encode(),
                            entry.encode()))


def compile(mlir: MlirSource, fuse: bool = True, target: str = "cpu",
            output_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
            entry: str = "", block_sizes: Sequence[str] = (),
            linalg: Optional[bool] = None, report_options: str = "",
            whole_threshold: int = 0, chip: str = "",
            round_dot_operands: bool = False,
            divide_after_rounding: bool = False,
            allow_tf32: bool = False,
            divide_after_bf16_rounding: bool = True) -> Compiled:
    """Compiles MLIR text (or a .mlir path). For Linalg input (detected, or
    ``linalg=True``): hoist-tensor-constants, convert-linalg-to-block and,
    with ``fuse``, block-fuse; block programs are fused as given. Returns a
    Compiled with the block program text and its fusion report.
    ``target="gpu"`` also writes a GPU artifact into ``output_dir``;
    ``whole_threshold`` is bb-compile's --whole-threshold there (0: the
    fastest form that fits the target), ``chip`` its --chip ("": sm_90;
    "sm_90a" for the H100's wgmma and TMA kernels) and ``round_dot_operands``
    its --round-dot-operands (an f32 dot operand against a widened bf16 one
    rounded to bf16: PyTorch's bf16 SDPA on the tensor cores; inexact),
    ``divide_after_rounding`` its --divide-after-rounding (attention that
    rounds the normalised P to bf16 runs FlashAttention's single pass,
    rounding exp(S - m) instead; inexact by about one bf16 rounding of P)
    and ``allow_tf32`` its --allow-tf32 (f32 attention on sm_90a's wgmma
    with tf32 operands; inexact). All three are off by default.
    ``divide_after_bf16_rounding`` is --divide-after-bf16-rounding, on by
    default: --divide-after-rounding for roundings to bf16 only (bf16
    attention is the single pass; False: the program's exact two passes)."""
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
        gpu_options = {"entry": entry, "fuse": bool(fuse),
                       "block_sizes": list(block_sizes),
                       "whole_threshold": int(whole_threshold),
                       "round_dot_operands": bool(round_dot_operands),
                       "divide_after_rounding": bool(divide_after_rounding),
                       "divide_after_bf16_rounding":
                           bool(divide_after_bf16_rounding),
                       "allow_tf32": bool(allow_tf32)}
        if chip:
            gpu_options["chip"] = chip
        opts = json.dumps(gpu_options)
        _call(library().bbCompileArtifact, text.encode(), opts.encode(),
              os.fspath(output_dir).encode())
        artifact = os.fspath(output_dir)
    elif target != "cpu":
        raise ValueError("target must be 'cpu' or 'gpu', got %r" % (target,))
    return Compiled(ir, rep, artifact)


def run(mlir: MlirSource, inputs: Sequence[Any], entry: str = "",
        fuse: bool = False, block_sizes: Sequence[str] = (),
        target: str = "cpu", reference: bool = False) -> List[np.ndarray]:
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
