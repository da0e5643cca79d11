"""compile() and run() through the C API (libBlockbusterCAPI.so): fused IR
and reports, CPU runs against the NumPy references on bb-run's seeded
inputs, and every error path returning diagnostics instead of crashing."""

import ctypes
import json
import os

import numpy as np
import pytest

from conftest import REPO, build_dir
from blockbuster import capi, references, seeded
from blockbuster.check import Comparison

LIB = os.environ.get("BLOCKBUSTER_CAPI") or os.path.join(build_dir(), "lib",
                                                         "libBlockbusterCAPI.so")
pytestmark = pytest.mark.skipif(not os.path.exists(LIB),
                                reason="libBlockbusterCAPI.so is not built (%s)" % LIB)


def example(name):
    return os.path.join(REPO, "examples", "linalg", name + ".mlir")


def test_compile_fuses_attention_to_one_kernel():
    fused = capi.compile(example("attention"), fuse=True)
    unfused = capi.compile(example("attention"), fuse=False)
    assert "block.program @attention" in fused.ir
    assert [r["kernels"] for r in fused.report] == [1]
    assert unfused.report[0]["kernels"] > 1
    assert fused.report[0]["global_bytes"] < unfused.report[0]["global_bytes"]
    # Block programs are accepted too (fused as given).
    again = capi.compile(fused.ir, fuse=True)
    assert again.report[0]["kernels"] == 1


def test_signature():
    sig = capi.signature(example("rmsnorm_ffn_swiglu"))
    assert sig["entry"] == "rmsnorm_ffn_swiglu" and sig["kind"] == "linalg"
    assert sig["inputs"][0] == {"shape": [100, 512], "dtype": "bf16"}
    assert sig["outputs"] == [{"shape": [100, 512], "dtype": "bf16"}]


def test_signature_names_hoisted_weights():
    """Tensor constants become trailing inputs marked "hoisted"; a
    dense_resource keeps its key as "constant" (what binds it by name), and
    running with the weights passed by position computes with them."""
    text = """
    func.func @affine(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
      %w = arith.constant dense_resource<"proj.weight"> : tensor<4x2xf32>
      %b = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
      %e = tensor.empty() : tensor<4x2xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
          affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
          ins(%x, %w, %b : tensor<4x2xf32>, tensor<4x2xf32>, tensor<2xf32>)
          outs(%e : tensor<4x2xf32>) {
      ^bb0(%a: f32, %c: f32, %d: f32, %o: f32):
        %m = arith.mulf %a, %c : f32
        %s = arith.addf %m, %d : f32
        linalg.yield %s : f32
      } -> tensor<4x2xf32>
      return %r : tensor<4x2xf32>
    }
    """
    sig = capi.signature(text)
    assert sig["inputs"] == [
        {"shape": [4, 2], "dtype": "f32"},
        {"shape": [4, 2], "dtype": "f32", "hoisted": True, "constant": "proj.weight"},
        {"shape": [2], "dtype": "f32", "hoisted": True}]
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    w = np.full((4, 2), 2.0, dtype=np.float32)
    b = np.array([1.0, -1.0], dtype=np.float32)
    (out,) = capi.run(text, [x, w, b], fuse=True)
    np.testing.assert_array_equal(out, x * w + b)


@pytest.mark.parametrize("name,specs,fuse", [
    ("attention", [((1000, 64), "f32")] * 3, True),
    ("layernorm_matmul", [((200, 384), "f32"), ((384,), "f32"), ((384,), "f32"),
                          ((384, 300), "f32"), ((300,), "f32")], True),
    ("rmsnorm_ffn_swiglu", [((100, 512), "bf16"), ((512,), "bf16"), ((512, 1000), "bf16"),
                            ((512, 1000), "bf16"), ((1000, 512), "bf16")], False),
])
def test_run_cpu_matches_numpy_reference(name, specs, fuse):
    inputs = seeded.inputs(specs, seed=5)
    (out,) = capi.run(example(name), inputs, fuse=fuse)
    dtypes = [d for _, d in specs]
    (ref,) = references.run(name, inputs, "numpy", dtypes)
    if "bf16" in dtypes:
        out = seeded.bf16_bits_to_f32(out)
    c = Comparison(out, ref, 2e-2 if "bf16" in dtypes else 1e-4)
    assert c.passed, c.summary()


def test_run_reference_path():
    inputs = seeded.inputs([((500, 64), "f32")] * 3, seed=2)
    (ours,) = capi.run(example("causal_attention"), inputs, fuse=True)
    (upstream,) = capi.run(example("causal_attention"), inputs, reference=True)
    assert Comparison(ours, upstream, 1e-4).passed


def test_errors_are_diagnostics():
    src = example("attention")
    x = seeded.inputs([((1000, 64), "f32")] * 3)
    cases = [
        (lambda: capi.run(src, x[:2]), "takes 3 inputs, got 2"),
        (lambda: capi.run(src, [x[0], x[1], x[2].astype(np.float64)]),
         r"input 2 of @attention: float64 \[1000, 64\], but the program takes float32"),
        (lambda: capi.compile("func.func @f( {"), "input.mlir:1:14: error:"),
        (lambda: capi.transform(src, "no-such-pass"), "does not refer to a registered pass"),
        (lambda: capi.run(src, x, block_sizes=["Q=3"]), "names axis 'Q'"),
        (lambda: capi.run(src, x, entry="nope"), "no block.program or public func.func named @nope"),
    ]
    for call, message in cases:
        with pytest.raises(capi.CompileError, match=message):
            call()


def test_c_level_checks():
    """Called directly, bbRunCPU refuses wrong byte counts and options
    before running anything."""
    lib = capi.library()
    text = open(example("attention")).read().encode()
    x = seeded.inputs([((1000, 64), "f32")] * 3)
    out = np.empty((1000, 64), np.float32)

    def call(options, out_bytes):
        ptrs = (ctypes.c_void_p * 3)(*[a.ctypes.data for a in x])
        sizes = (ctypes.c_int64 * 3)(*[a.nbytes for a in x])
        optr = (ctypes.c_void_p * 1)(out.ctypes.data)
        osize = (ctypes.c_int64 * 1)(out_bytes)
        return capi._call(lib.bbRunCPU, text, b"", options, 3, ptrs, sizes, 1, optr, osize)

    with pytest.raises(capi.CompileError, match=r"output 0 of @attention is 1000x64xf32 "
                                                 r"\(256000 bytes\); got 1000 bytes"):
        call(b"", 1000)
    with pytest.raises(capi.CompileError, match="options must be a JSON object"):
        call(b"[1", out.nbytes)
    with pytest.raises(capi.CompileError, match="unknown or mistyped option 'fusion'"):
        call(json.dumps({"fusion": True}).encode(), out.nbytes)
    assert call(b"", out.nbytes) == ""


def test_artifact_options_checked(tmp_path):
    """bbCompileArtifact refuses options that are not a JSON object, with the
    same message as bbRunCPU (one parser serves both)."""
    lib = capi.library()
    text = open(example("attention")).read().encode()
    with pytest.raises(capi.CompileError, match="options must be a JSON object: got another value"):
        capi._call(lib.bbCompileArtifact, text, b"[1]", str(tmp_path).encode())


def test_compile_artifact(tmp_path):
    """compile(target="gpu") writes an artifact that the runtimes accept (no
    GPU needed: validation is pure)."""
    from blockbuster import artifact
    out = tmp_path / "attention"
    compiled = capi.compile(example("attention"), target="gpu", output_dir=str(out))
    assert compiled.artifact == str(out)
    a = artifact.load(str(out))
    assert a.entry == "attention" and a.chip == "sm_90"
    assert [b.shape for b in a.inputs] == [(1000, 64)] * 3
    assert [b.shape for b in a.outputs] == [(1000, 64)]
    assert len(a.launches) == 1  # fused: one kernel
    with pytest.raises(capi.CompileError, match="unknown or mistyped option 'chips'"):
        capi._call(capi.library().bbCompileArtifact, b"", b'{"chips": 1}', b"/tmp/x")
    with pytest.raises(capi.CompileError, match="error"):
        capi.compile("func.func @f( {", target="gpu", output_dir=str(tmp_path / "bad"))


def test_compile_artifact_chip_and_rounding(tmp_path):
    """compile(chip=, round_dot_operands=) reach bb-compile's --chip and
    --round-dot-operands: a bf16 SDPA export (P kept in f32 by torch-mlir)
    has both of its dots on wgmma for sm_90a; P V is one register-A wgmma
    per k16 step when P may be rounded (8 over 128 keys), three (one per
    bf16 part of P, 3 x 4 over 64 keys) when it may not."""
    from blockbuster import artifact
    sdpa = os.path.join(REPO, "test", "Inputs", "torch-attention",
                        "sdpa_bf16.mlir")

    def ptx(directory):
        a = artifact.load(str(directory))
        assert a.chip == "sm_90a" and len(a.launches) == 1
        return "".join(p.read_text() for p in directory.glob("*.ptx"))

    def register_a(text):
        return sum("wgmma.mma_async" in line and "}, {%r" in line
                   for line in text.splitlines())

    capi.compile(sdpa, target="gpu", output_dir=str(tmp_path / "rounded"),
                 chip="sm_90a", round_dot_operands=True)
    assert register_a(ptx(tmp_path / "rounded")) == 8
    capi.compile(sdpa, target="gpu", output_dir=str(tmp_path / "exact"),
                 chip="sm_90a")
    assert register_a(ptx(tmp_path / "exact")) == 12


def test_compile_artifact_attention_options(tmp_path):
    """compile(divide_after_rounding=, divide_after_bf16_rounding=,
    allow_tf32=) reach bb-compile's --divide-after-rounding,
    --divide-after-bf16-rounding and --allow-tf32. Manual bf16 attention (P
    normalised, then rounded to bf16) runs Q K^T in both loops of the exact
    two-pass form (8 + 8 m64n128k16 wgmmas, and 8 for P V) and once in the
    single pass, the default; an f32 SDPA export stays off the tensor cores
    unless tf32 is allowed."""
    def wgmmas(directory, kind):
        text = "".join(p.read_text() for p in directory.glob("*.ptx"))
        return sum(line.strip().startswith("wgmma.mma_async") and kind in line
                   for line in text.splitlines())

    manual = os.path.join(REPO, "test", "Inputs", "torch-attention",
                          "manual_bf16_4d.mlir")
    capi.compile(manual, target="gpu", output_dir=str(tmp_path / "exact"),
                 chip="sm_90a", divide_after_bf16_rounding=False)
    capi.compile(manual, target="gpu", output_dir=str(tmp_path / "single"),
                 chip="sm_90a", divide_after_bf16_rounding=False,
                 divide_after_rounding=True)
    capi.compile(manual, target="gpu", output_dir=str(tmp_path / "default"),
                 chip="sm_90a")
    assert wgmmas(tmp_path / "exact", ".bf16") == 24
    assert wgmmas(tmp_path / "single", ".bf16") == 16
    assert wgmmas(tmp_path / "default", ".bf16") == 16

    sdpa = os.path.join(REPO, "test", "Inputs", "torch", "sdpa_real_b1.mlir")
    capi.compile(sdpa, target="gpu", output_dir=str(tmp_path / "f32"),
                 chip="sm_90a")
    capi.compile(sdpa, target="gpu", output_dir=str(tmp_path / "tf32"),
                 chip="sm_90a", allow_tf32=True)
    assert wgmmas(tmp_path / "f32", "") == 0
    assert wgmmas(tmp_path / "tf32", ".tf32") > 0
