"""Blockbuster from Python (docs/Python.md).

- ``artifact``: read and validate a GPU artifact (no GPU needed).
- ``runtime``: run an artifact on CUDA tensors (ctypes over libcuda).
- ``compile()`` / ``run()``: the compiler and the CPU path through the C API
  library libBlockbusterCAPI.so (capi.py), loaded on first use.
- ``references``: PyTorch/NumPy references of the Linalg examples.
- ``seeded``: bb-run's seeded inputs.
- ``torch``: the PyTorch front door (``blockbuster.torch.compile`` and the
  ``torch.compile`` backend "blockbuster"); needs the optional torch and
  torch-mlir, imported only when asked for.
"""

from .artifact import ArtifactError, load as load_artifact  # noqa: F401


_SUBMODULES = ("artifact", "capi", "check", "references", "runtime", "seeded",
               "torch")


def __getattr__(name):
    # The C API library and the CUDA driver load lazily: importing the
    # package needs neither.
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module("." + name, __name__)
    if name in ("compile", "run", "CompileError", "Compiled"):
        from . import capi
        return getattr(capi, name)
    if name in ("Program", "CudaError", "TensorError", "DeviceArray"):
        from . import runtime
        return getattr(runtime, name)
    raise AttributeError("module 'blockbuster' has no attribute %r" % name)
