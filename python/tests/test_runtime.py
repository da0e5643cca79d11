"""runtime.py against the fake driver (fake_cuda.py): launches in order with
the right parameters, intermediates, poisoning, copies, caller tensors
checked before any launch, driver errors reported with the CUDA error text."""

import os

import numpy as np
import pytest

from conftest import ARTIFACTS
from fake_cuda import FakeCudaArray, FakeDriver
from blockbuster import runtime

SCALE_ADD = os.path.join(ARTIFACTS, "scale_add")
SCALE_ADD_TMA = os.path.join(ARTIFACTS, "scale_add_tma")


@pytest.fixture
def fake(monkeypatch):
    driver = FakeDriver()
    monkeypatch.setattr(runtime, "_DRIVER", driver)
    monkeypatch.setattr(runtime, "_CONTEXTS", {})
    return driver


def inputs():
    rng = np.random.default_rng(0)
    return [rng.uniform(-1, 1, (10, 100)).astype(np.float32) for _ in range(2)]


def test_run_numpy(fake):
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD)
    (out,) = prog.run_numpy(x, y)
    np.testing.assert_array_equal(out, np.float32(2.5) * x + y)
    assert [l[0] for l in fake.launches] == ["scale", "add"]
    assert fake.launches[0][1:] == ((8, 1, 1), (128, 1, 1), 0)
    # Outputs are poisoned before the launches, and the stream synchronised.
    assert fake.calls.index("cuMemsetD8Async") < fake.calls.index("cuLaunchKernel")
    assert "cuStreamSynchronize" in fake.calls


def test_zero_dimensional_arrays_keep_their_shape(fake):
    # A program's scalar argument is a 0-d buffer (shape [] in the manifest).
    scalar = runtime.DeviceArray.from_numpy(np.array(1.5, dtype=np.float32))
    assert scalar.shape == ()
    assert scalar.numpy() == np.float32(1.5)


def test_caller_arrays_and_intermediates(fake):
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD)
    dx, dy = runtime.DeviceArray.from_numpy(x), runtime.DeviceArray.from_numpy(y)
    out = runtime.DeviceArray((10, 100), "f32")
    prog(dx, dy, outputs=[out])
    np.testing.assert_array_equal(out.numpy(), np.float32(2.5) * x + y)
    # A second call reuses the intermediate allocated by the first.
    allocations = fake.calls.count("cuMemAlloc")
    prog(dx, dy, outputs=[out])
    assert fake.calls.count("cuMemAlloc") == allocations
    # __cuda_array_interface__ objects (CuPy, Numba) are accepted.
    cai = [FakeCudaArray(a.ptr, (10, 100), "<f4") for a in (dx, dy, out)]
    prog(cai[0], cai[1], outputs=[cai[2]])
    np.testing.assert_array_equal(out.numpy(), np.float32(2.5) * x + y)


def test_workspace_zeroed_once(fake):
    # A workspace is an intermediate that the runtime zeroes when it
    # allocates it (the kernels leave it zeroed): once per Program, with a
    # synchronous memset, so a CUDA graph captured later has no memset node.
    x, y = inputs()
    prog = runtime.Program(os.path.join(ARTIFACTS, "scale_add_workspace"))
    assert [b.kind for b in prog.artifact.intermediates] == ["workspace"]
    dx, dy = runtime.DeviceArray.from_numpy(x), runtime.DeviceArray.from_numpy(y)
    out = runtime.DeviceArray((10, 100), "f32")
    for _ in range(2):
        prog(dx, dy, outputs=[out])
        np.testing.assert_array_equal(out.numpy(), np.float32(2.5) * x + y)
    assert fake.calls.count("cuMemsetD8") == 1
    assert fake.calls.index("cuMemsetD8") < fake.calls.index("cuLaunchKernel")


def test_parameters_packed_once_per_address_set(fake):
    # Launch cost: a call with the tensors of an earlier call reuses its
    # packed parameter arrays; other tensors get their own.
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD)
    dx, dy = runtime.DeviceArray.from_numpy(x), runtime.DeviceArray.from_numpy(y)
    out, other = runtime.DeviceArray((10, 100), "f32"), runtime.DeviceArray((10, 100), "f32")
    prog(dx, dy, outputs=[out])
    prog(dx, dy, outputs=[out])
    assert len(prog._packed) == 1
    prog(dy, dx, outputs=[other])
    assert len(prog._packed) == 2
    np.testing.assert_array_equal(other.numpy(), np.float32(2.5) * y + x)
    np.testing.assert_array_equal(out.numpy(), np.float32(2.5) * x + y)


def test_wrong_tensors_refused_before_launch(fake):
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD)
    dx, dy = runtime.DeviceArray.from_numpy(x), runtime.DeviceArray.from_numpy(y)
    out = runtime.DeviceArray((10, 100), "f32")
    cases = [
        ((dx,), {}, "takes 2 inputs"),
        ((dx, runtime.DeviceArray((100, 10), "f32")), {"outputs": [out]},
         r"input 1 \('arg1'\): shape \[100, 10\], but the artifact expects \[10, 100\]"),
        ((dx, dy), {"outputs": [runtime.DeviceArray((10, 100), "f16")]},
         r"output 0 \('res0'\): dtype f16, but the artifact expects f32"),
        ((dx, FakeCudaArray(dy.ptr, (10, 100), "<f4", strides=(4, 40))), {"outputs": [out]},
         "not C-contiguous"),
        ((dx, FakeCudaArray(12352, (10, 100), "<f4")), {"outputs": [out]},
         "not device memory"),
        ((dx, dy), {"outputs": [FakeCudaArray(dy.ptr + 16, (10, 100), "<f4")]},
         "overlap"),
        ((dx, FakeCudaArray(dy.ptr + 4, (10, 100), "<f4")), {"outputs": [out]},
         r"input 1 \('arg1'\): device pointer 0x[0-9a-f]+ is not 16-byte aligned"),
        ((x, dy), {"outputs": [out]}, "ndarray is not a device tensor"),
        ((dx, dy), {"outputs": []}, "has 1 outputs, got 0"),
    ]
    for args, kwargs, message in cases:
        with pytest.raises(runtime.TensorError, match=message):
            prog(*args, **kwargs)
    assert "cuLaunchKernel" not in fake.calls
    with pytest.raises(runtime.TensorError, match="float32 \\[10, 10\\]"):
        prog.run_numpy(x[:, :10], y)


def test_driver_errors_name_the_step(fake):
    fake.fail["cuModuleLoadDataEx"] = 218
    with pytest.raises(runtime.CudaError) as info:
        runtime.Program(SCALE_ADD)
    text = str(info.value)
    assert "loading PTX module 'scale_module'" in text
    assert "CUDA_ERROR_INVALID_PTX (218): a PTX JIT compilation failed" in text
    assert "ptxas fatal: bad thing" in text  # the JIT's error log

    fake.fail.clear()
    prog = runtime.Program(SCALE_ADD)
    fake.fail["cuLaunchKernel"] = 2
    x, y = inputs()
    with pytest.raises(runtime.CudaError,
                       match=r"launch 0 \(scale, grid \[8, 1, 1\], block \[128, 1, 1\].*"
                             r"CUDA_ERROR_OUT_OF_MEMORY \(2\): out of memory"):
        prog.run_numpy(x, y)


def test_sync_each_names_the_faulting_launch(fake):
    # A kernel's illegal access is reported by the next synchronisation;
    # sync_each synchronises after every launch, so the error names it.
    prog = runtime.Program(SCALE_ADD)
    fake.fail["cuStreamSynchronize"] = 2
    x, y = inputs()
    with pytest.raises(runtime.CudaError,
                       match=r"launch 0 \(scale, grid \[8, 1, 1\], block \[128, 1, 1\].*"
                             r"faulted: CUDA_ERROR_OUT_OF_MEMORY \(2\)"):
        prog.run_numpy(x, y, sync_each=True)
    with pytest.raises(runtime.CudaError, match=r"synchronising after 2 launches"):
        prog.run_numpy(x, y)


def test_device_must_exist(fake):
    with pytest.raises(runtime.CudaError, match="device 3 does not exist"):
        runtime.Program(SCALE_ADD, device=3)


def test_dynamic_shared_memory_opt_in(fake, tmp_path):
    import json
    import shutil
    shutil.copytree(SCALE_ADD, tmp_path / "a")
    manifest = json.load(open(tmp_path / "a" / "manifest.json"))
    manifest["launches"][0]["dynamic_smem"] = 100000
    manifest["launches"][1]["dynamic_smem"] = 1000
    json.dump(manifest, open(tmp_path / "a" / "manifest.json", "w"))
    runtime.Program(str(tmp_path / "a"))
    opt_ins = [c for c in fake.calls if isinstance(c, tuple)]
    assert opt_ins == [("cuFuncSetAttribute",
                        runtime.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000)]
    # 48 KB of dynamic memory beside static memory is over the default
    # bound of the two together: opted in too.
    fake.calls.clear()
    fake.static_smem = 1024
    manifest["launches"][0]["dynamic_smem"] = 49152
    json.dump(manifest, open(tmp_path / "a" / "manifest.json", "w"))
    runtime.Program(str(tmp_path / "a"))
    opt_ins = [c for c in fake.calls if isinstance(c, tuple)]
    assert opt_ins == [("cuFuncSetAttribute",
                        runtime.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 49152)]
    fake.static_smem = 0
    manifest["launches"][0]["dynamic_smem"] = 300000
    json.dump(manifest, open(tmp_path / "a" / "manifest.json", "w"))
    with pytest.raises(runtime.CudaError, match="exceed the device's 232448"):
        runtime.Program(str(tmp_path / "a"))


def test_cluster_launch(fake, tmp_path):
    # A launch in thread-block clusters goes through cuLaunchKernelEx with
    # the cluster dimension attribute; the others stay with cuLaunchKernel.
    import json
    import shutil
    shutil.copytree(SCALE_ADD, tmp_path / "a")
    manifest = json.load(open(tmp_path / "a" / "manifest.json"))
    manifest["launches"][0]["cluster"] = [2, 1, 1]
    json.dump(manifest, open(tmp_path / "a" / "manifest.json", "w"))
    x, y = inputs()
    (out,) = runtime.Program(str(tmp_path / "a")).run_numpy(x, y)
    np.testing.assert_array_equal(out, np.float32(2.5) * x + y)
    ex = [c for c in fake.calls if isinstance(c, tuple) and c[0] == "cuLaunchKernelEx"]
    assert ex == [("cuLaunchKernelEx",
                   ((runtime.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, (2, 1, 1)),))]
    assert [l[0] for l in fake.launches] == ["scale", "add"]
    assert fake.launches[0][1:] == ((8, 1, 1), (128, 1, 1), 0)
    # A cluster that does not divide the grid is refused when loading.
    manifest["launches"][0]["cluster"] = [3, 1, 1]
    json.dump(manifest, open(tmp_path / "a" / "manifest.json", "w"))
    with pytest.raises(Exception, match=r"cluster: \[3, 1, 1\] does not divide "
                                        r"the grid \[8, 1, 1\]"):
        runtime.Program(str(tmp_path / "a"))


def test_half_scalars():
    assert runtime._half_bits(1.0, "f16") == 0x3C00
    assert runtime._half_bits(1.0, "bf16") == 0x3F80
    assert runtime._half_bits(-2.5, "bf16") == 0xC020


def test_no_libcuda(monkeypatch):
    monkeypatch.setattr(runtime, "_DRIVER", None)
    monkeypatch.setenv("BLOCKBUSTER_LIBCUDA", "/nonexistent/libcuda.so.1")
    ok, why = runtime.cuda_available()
    assert not ok and "cannot load the CUDA driver library" in why


def test_real_driver_over_fake_libcuda(monkeypatch):
    """The real Driver class (ctypes.CDLL, every _API symbol bound with its
    argtypes) over test/Runtime/CUDA/FakeCuda's stand-in libcuda, which runs the
    test artifact's kernels on the CPU."""
    from conftest import build_dir
    fake_lib = os.path.join(build_dir(), "lib", "libBlockbusterFakeCuda.so")
    if not os.path.exists(fake_lib):
        pytest.skip("libBlockbusterFakeCuda.so is not built (%s)" % fake_lib)
    monkeypatch.setenv("BLOCKBUSTER_LIBCUDA", fake_lib)
    monkeypatch.setattr(runtime, "_DRIVER", None)
    monkeypatch.setattr(runtime, "_CONTEXTS", {})
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD)
    (out,) = prog.run_numpy(x, y)
    np.testing.assert_array_equal(out, np.float32(2.5) * x + y)
    with pytest.raises(runtime.TensorError, match=r"float32 \[100, 10\], but the artifact "
                                                   r"expects float32 \[10, 100\]"):
        prog.run_numpy(x.reshape(100, 10), y)
    monkeypatch.setenv("FAKE_CUDA_FAIL", "cuLaunchKernel")
    with pytest.raises(runtime.CudaError, match=r"launch 0 \(scale.*CUDA_ERROR_OUT_OF_MEMORY"):
        prog.run_numpy(x, y)


def test_tensor_maps_encoded_once_per_address(fake):
    # scale_add_tma's first kernel reads x through a tensor map: encoded for
    # x's address (innermost dimension first, 64-byte aligned), copied to
    # the device and passed as a pointer; a second call with the same arrays
    # reuses it (a captured CUDA graph replays it), new arrays get a new one.
    x, y = inputs()
    prog = runtime.Program(SCALE_ADD_TMA)
    xd, yd = runtime.DeviceArray.from_numpy(x), runtime.DeviceArray.from_numpy(y)
    out = runtime.DeviceArray((10, 100), "f32")
    for _ in range(2):
        prog(xd, yd, outputs=[out])
        np.testing.assert_array_equal(out.numpy(), np.float32(2.5) * x + y)
    assert len(fake.tensor_maps) == 1
    assert fake.tensor_maps[0] == dict(
        dtype=7, address=xd.ptr, aligned=True, dims=[100, 10], strides=[400],
        box=[32, 8], swizzle=3, l2=3, oob=0)
    (result,) = prog.run_numpy(2 * x, y)
    np.testing.assert_array_equal(result, np.float32(5) * x + y)
    assert len(fake.tensor_maps) == 2
    prog.close()


def test_tensor_map_needs_the_driver_entry_point(fake, monkeypatch):
    monkeypatch.setattr(fake, "cuTensorMapEncodeTiled", None)
    prog = runtime.Program(SCALE_ADD_TMA)
    with pytest.raises(runtime.CudaError, match="has no cuTensorMapEncodeTiled"):
        prog.run_numpy(*inputs())


def test_architecture_specific_chip_refused_elsewhere(fake):
    fake.capability = (10, 0)
    with pytest.raises(runtime.CudaError, match="run only on sm_90 devices"):
        runtime.Program(SCALE_ADD_TMA)
