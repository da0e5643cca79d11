"""The runtime on a real GPU (skipped, with the reason, where there is none):
the hand-made artifact scale_add through libcuda, from NumPy, PyTorch and
CuPy, and wrong tensors refused."""

import os

import numpy as np
import pytest

from conftest import ARTIFACTS
from blockbuster import runtime

available, why = runtime.cuda_available()
pytestmark = pytest.mark.skipif(not available, reason="no CUDA device: %s" % why)
SCALE_ADD = os.path.join(ARTIFACTS, "scale_add")


def test_numpy_round_trip():
    rng = np.random.default_rng(1)
    x, y = (rng.uniform(-1, 1, (10, 100)).astype(np.float32) for _ in range(2))
    (out,) = runtime.Program(SCALE_ADD).run_numpy(x, y)
    np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    x = torch.rand(10, 100, device="cuda") * 2 - 1
    y = torch.rand(10, 100, device="cuda") * 2 - 1
    prog = runtime.Program(SCALE_ADD)
    (out,) = prog(x, y, poison=True)
    torch.testing.assert_close(out, 2.5 * x + y)
    with pytest.raises(runtime.TensorError, match="dtype f16"):
        prog(x.half(), y)
    with pytest.raises(runtime.TensorError, match="not C-contiguous"):
        prog(x.t().contiguous().t(), y)
    with pytest.raises(runtime.TensorError, match="on cpu"):
        prog(x.cpu(), y)


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.random.uniform(-1, 1, (10, 100)).astype(cupy.float32)
    y = cupy.random.uniform(-1, 1, (10, 100)).astype(cupy.float32)
    (out,) = runtime.Program(SCALE_ADD)(x, y)
    cupy.testing.assert_allclose(out, 2.5 * x + y, rtol=1e-6)
