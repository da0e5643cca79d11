"""Blockbuster from Python (docs/Python.md).

- ``artifact``: read and validate a GPU artifact (no GPU needed).
- ``runtime``: run an artifact on CUDA tensors (ctypes over libcuda).
- ``compile()`` / ``run()``: the compiler and the CPU path through the C API
  library libBlockbusterCAPI.so (capi.py), loaded on first use.
- ``references``: PyTorch/NumPy references of the Linalg examples.
- ``seeded``: bb-run's seeded inputs.
- ``report``: the fusion report as dataclasses (``Report``).
- ``python -m blockbuster compile|run|report``: the same from a shell
  (``__main__.py``).
- ``torch``: the PyTorch front door (``blockbuster.torch.compile`` and the
  ``torch.compile`` backend "blockbuster"); needs the optional torch and
  torch-mlir, imported only when asked for.
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

from .artifact import ArtifactError, load as load_artifact  # noqa: F401

if TYPE_CHECKING:  # what __getattr__ returns, for type checkers (py.typed)
    from .capi import (CompileError, Compiled, compile,  # noqa: F401
                       library_path, run)
    from .report import Report  # noqa: F401
    from .runtime import (CudaError, DeviceArray, Program,  # noqa: F401
                          TensorError)


_SUBMODULES = ("artifact", "capi", "check", "references", "report", "runtime",
               "seeded", "torch")


def __getattr__(name: str) -> Any:
    # The C API library and the CUDA driver load lazily: importing the
    # package needs neither.
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module("." + name, __name__)
    if name in ("compile", "run", "CompileError", "Compiled", "library_path"):
        from . import capi
        return getattr(capi, name)
    if name == "Report":
        from .report import Report
        return Report
    if name in ("Program", "CudaError", "TensorError", "DeviceArray"):
        from . import runtime
        return getattr(runtime, name)
    raise AttributeError("module 'blockbuster' has no attribute %r" % name)
