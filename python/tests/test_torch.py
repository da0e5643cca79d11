"""The PyTorch front door (blockbuster.torch, docs/Python.md): the corpus
modules of scripts/export-torch-corpus.py compiled with
`blockbuster.torch.compile` and run on the CPU against `model(x)` with the
module's own weights, bound by name; the `torch.compile` backend; and the
core without torch.

Needs torch, torch-mlir and ml_dtypes (scripts/setup-torch.sh installs them
into ./.venv-torch; test/Python/pytest-torch.test runs this file with it) and
libBlockbusterCAPI.so; skipped with the reason otherwise, except the test
that the package imports without torch."""

import importlib.util
import logging
import os
import subprocess
import sys

import pytest

from conftest import REPO, build_dir

LIB = os.environ.get("BLOCKBUSTER_CAPI") or os.path.join(
    build_dir(), "lib", "libBlockbusterCAPI.so")


def _missing():
    for module in ("torch", "torch_mlir", "ml_dtypes"):
        if importlib.util.find_spec(module) is None:
            return "%s is not installed (scripts/setup-torch.sh installs the " \
                   "optional torch dependencies into ./.venv-torch)" % module
    if not os.path.exists(LIB):
        return "libBlockbusterCAPI.so is not built (%s)" % LIB
    return None


needs_torch = pytest.mark.skipif(_missing() is not None,
                                 reason=_missing() or "")


def test_core_imports_without_torch():
    """torch is optional: the package imports without it, and
    blockbuster.torch says how to install it."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "import blockbuster, blockbuster.artifact\n"
            "try:\n"
            "    import blockbuster.torch\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=os.path.join(
                             REPO, "python")))
    assert out.returncode == 0, out.stderr
    assert "scripts/setup-torch.sh" in out.stdout


def corpus():
    spec = importlib.util.spec_from_file_location(
        "export_torch_corpus",
        os.path.join(REPO, "scripts", "export-torch-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The corpus modules that convert and run on the CPU today (batch 2, tiny
# size; docs/RealInputs.md has the table), and the first refusal of the rest.
CONVERTS = ["manual_attention", "layernorm_linear", "rmsnorm_swiglu_f32",
            "rmsnorm_swiglu_bf16", "gelu_mlp", "mha_separate_qkv", "sdpa",
            "sdpa_causal", "encoder_layer", "llama_block", "mha_fused_qkv",
            "manual_attention_bf16", "sdpa_bf16", "sdpa_causal_bf16"]


def conv_module():
    """A module outside the operator table (a convolution), with its
    inputs and the reason it is refused."""
    import torch
    torch.manual_seed(0)
    return (torch.nn.Conv1d(4, 8, 3).eval(), (torch.randn(2, 4, 16),),
            "convolutions are outside the operator table")


def normwise_error(out, ref):
    import torch
    out, ref = out.double(), ref.double()
    return (torch.linalg.vector_norm(out - ref)
            / torch.linalg.vector_norm(ref)).item()


@needs_torch
def test_corpus_lists_are_complete():
    assert sorted(CONVERTS) == sorted(corpus().MODULES)


@needs_torch
@pytest.mark.parametrize("module", CONVERTS)
def test_compile_matches_eager_on_cpu(module):
    import torch
    import blockbuster.torch as bbt
    model, inputs = corpus().build(module, "tiny", 2)
    fn = bbt.compile(model, *inputs)
    assert fn.target == "cpu"
    # Every weight the program reads (parameters, and buffers such as the
    # Llama block's RoPE tables) is bound by its state_dict name.
    state = dict(model.state_dict())
    if "attention" in module or module.startswith("sdpa"):
        assert fn.weights == []  # attention alone has no weights
    else:
        assert fn.weights and set(fn.weights) <= set(state)
    out = fn(*inputs)
    with torch.no_grad():
        ref = model(*inputs)
    assert out.dtype == ref.dtype and out.shape == ref.shape
    tolerance = 2e-2 if ref.dtype == torch.bfloat16 else 1e-5
    assert normwise_error(out, ref) <= tolerance


@needs_torch
def test_compile_refuses_with_the_reason():
    import blockbuster.torch as bbt
    from blockbuster.capi import CompileError
    model, inputs, reason = conv_module()
    with pytest.raises(CompileError, match="error: ") as info:
        bbt.compile(model, *inputs)
    assert reason in str(info.value)


@needs_torch
def test_weights_are_bound_by_name_at_each_call():
    """The callable reads the module's tensors when called: an in-place
    update of a weight after compiling is used, as eager would."""
    import torch
    import blockbuster.torch as bbt
    model, (x,) = corpus().build("gelu_mlp", "tiny", 2)
    fn = bbt.compile(model, x)
    assert sorted(fn.weights) == ["fc1.bias", "fc1.weight", "fc2.bias",
                                  "fc2.weight"]
    # The export carries the names, not the data.
    assert "dense_resource<fc1.weight>" in fn.text
    assert "dialect_resources" not in fn.text
    with torch.no_grad():
        model.fc1.weight.mul_(-3.0)
        ref = model(x)
    assert normwise_error(fn(x), ref) <= 1e-5
    with pytest.raises(TypeError, match="takes 1 tensors"):
        fn(x, x)


@needs_torch
def test_torch_compile_backend_falls_back_per_graph(caplog):
    """backend="blockbuster": the graph before a graph break (a GELU MLP)
    is compiled, the one after it (a convolution) is refused and runs
    eagerly, the refusal is logged with its reason, and the result is
    eager's."""
    import torch
    import torch.nn.functional as F
    import blockbuster.torch as bbt

    class TwoGraphs(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(32, 64)
            self.fc2 = torch.nn.Linear(64, 32)
            self.conv = torch.nn.Conv1d(16, 16, 3)

        def forward(self, x):
            y = self.fc2(F.gelu(self.fc1(x)))
            torch._dynamo.graph_break()
            return self.conv(y)

    torch.manual_seed(0)
    model = TwoGraphs().eval()
    x = torch.randn(2, 16, 32)
    torch._dynamo.reset()
    del bbt.refusals[:]
    compiled = torch.compile(model, backend="blockbuster", dynamic=False)
    with torch.no_grad(), caplog.at_level(logging.INFO, "blockbuster.torch"):
        out = compiled(x)
        ref = model(x)
    assert normwise_error(out, ref) <= 1e-5
    messages = [r.getMessage() for r in caplog.records]
    assert any("compiled for cpu" in m for m in messages), messages
    assert len(bbt.refusals) == 1
    graph, reason = bbt.refusals[0]
    assert "convolutions are outside the operator table" in reason
    assert any("%s refused, running it eagerly" % graph in m
               for m in messages), messages


@needs_torch
def test_export_uses_sdpa_math_form():
    """SDPA is exported in its math form whatever backends the caller
    enabled: on CUDA tensors the default decomposes it into
    `_scaled_dot_product_efficient_attention`, which torch-mlir cannot
    lower. Here, on the CPU, a caller's context that allows only the
    efficient kernel (none on the CPU) stood for it; before, the export
    failed ("No viable backend for scaled_dot_product_attention")."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import blockbuster.torch as bbt

    c = corpus()
    model, inputs = c.build("sdpa_causal", "tiny", 2)
    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
        fn = bbt.compile(model, *inputs, target="cpu")
    with torch.no_grad():
        assert normwise_error(fn(*inputs), model(*inputs)) <= 1e-5


@needs_torch
def test_torch_compile_backend_encoder_layer_fast_path():
    """nn.TransformerEncoderLayer in eval mode under no_grad takes PyTorch's
    fast path: Dynamo records one fused `_transformer_encoder_layer_fwd`,
    which torch-mlir cannot lower. The backend compiles the ordinary ops it
    stands for (norm first and after, ReLU and GELU): no graph is refused
    and the result is eager's. Before, the graph was refused and ran
    eagerly."""
    import torch
    import blockbuster.torch as bbt

    for norm_first, activation in ((False, "relu"), (True, "gelu")):
        torch.manual_seed(0)
        model = torch.nn.TransformerEncoderLayer(
            32, 2, dim_feedforward=64, dropout=0.0, batch_first=True,
            norm_first=norm_first, activation=activation).eval()
        x = torch.randn(2, 16, 32)
        torch._dynamo.reset()
        del bbt.refusals[:]
        first = len(bbt._graph_names)
        compiled = torch.compile(model, backend="blockbuster", dynamic=False)
        with torch.no_grad():
            out = compiled(x)
            ref = model(x)
        assert bbt.refusals == []
        assert len(bbt._graph_names) - first == 1
        assert normwise_error(out, ref) <= 1e-5


@needs_torch
def test_load_refuses_unbound_weights(tmp_path):
    """load() binds every weight of an artifact by name before touching a
    GPU: a key that is neither a parameter, a buffer nor a given constant is
    refused with its name."""
    import torch
    import blockbuster.torch as bbt
    from blockbuster import capi
    capi.compile(os.path.join(REPO, "test", "Pipelines",
                              "artifact-constant-names.mlir"),
                 target="gpu", output_dir=str(tmp_path))
    module = torch.nn.Module()
    module.proj = torch.nn.Linear(32, 64)
    with pytest.raises(KeyError, match="torch_tensor_32_torch.float32"):
        bbt.load(str(tmp_path), module)
