"""The PyTorch front door (docs/Python.md, "PyTorch").

    import blockbuster.torch as bbt

    fn = bbt.compile(model.eval(), x)       # export, compile, bind the weights
    y = fn(x)                               # == model(x), computed by Blockbuster

    opt = torch.compile(model, backend="blockbuster")   # each FX graph Dynamo
    y = opt(x)                              # finds; refused ones run eagerly
    bbt.refusals                            # [(graph, reason), ...]

    run = bbt.load("out/block", model)      # an artifact compiled elsewhere,
    y = run(x.cuda())                       # weights bound by name (no MLIR)

`compile` exports the module with torch-mlir (`torch.export`, then
`torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")`)
naming each weight's `dense_resource` after its `state_dict` key (a lifted
tensor constant after its `torch.export` name), so that the weights, hoisted
into inputs by the compiler, are bound by name to the module's own tensors at
every call (a weight changed in place after compiling is seen by the next
call). Then it compiles:

- target "cpu": the C API's CPU path (convert, fuse, select, JIT), as
  `bb-run` does; each call compiles again (a correctness path, not a fast
  one);
- target "gpu": a GPU artifact (`capi.compile(target="gpu")`), run by
  `blockbuster.runtime` on CUDA tensors.

The default target is "gpu" when every example input is a CUDA tensor, else
"cpu". Inference only: outputs carry no autograd history.

torch and torch-mlir are optional dependencies of Blockbuster
(scripts/setup-torch.sh installs them into ./.venv-torch); importing this
module without them raises ImportError with that hint. The backend is
registered with Dynamo when this module is imported.
"""

import copy
import logging
import os
import re
import tempfile

import numpy as np

try:
    import torch
    import torch.utils._pytree as pytree
except ImportError as error:  # pragma: no cover (depends on the install)
    raise ImportError(
        "blockbuster.torch needs torch and torch-mlir, optional dependencies "
        "of Blockbuster: run scripts/setup-torch.sh and use .venv-torch/bin/"
        "python (%s)" % error) from error

from . import capi

log = logging.getLogger("blockbuster.torch")

# (graph name, reason) for every FX graph the backend refused, in order.
refusals = []

_TORCH_DTYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "f64": torch.float64, "i1": torch.bool, "i8": torch.int8,
    "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
}

_RESOURCES = re.compile(r"\n*\{-#.*?#-\}\s*\Z", re.S)


class ExportError(RuntimeError):
    """The module could not be exported to Linalg with torch-mlir."""


def _weight_names(module):
    """id(tensor) -> state_dict name of every parameter and buffer (the first
    name of a tensor that has several)."""
    names = {}
    if isinstance(module, torch.nn.Module):
        for name, tensor in module.named_parameters(remove_duplicate=False):
            names.setdefault(id(tensor), name)
        for name, tensor in module.named_buffers(remove_duplicate=False):
            names.setdefault(id(tensor), name)
    return names


def _naming_hooks(names):
    """torch-mlir importer hooks that name the `dense_resource` of each known
    tensor after it (torch-mlir's default key is torch_tensor_<shape>_<dtype>,
    which names no weight). Tensors of one element stay splat constants,
    as torch-mlir makes them."""
    from torch_mlir import ir
    from torch_mlir.extras import fx_importer

    class NamingHooks(fx_importer.FxImporterHooks):
        def resolve_literal(self, gni, literal, info):
            name = names.get(id(literal))
            if name is None or not isinstance(literal, torch.Tensor) \
                    or literal.numel() <= 1:
                return None
            # Pre-fill torch-mlir's cache of literal attributes: the default
            # path then builds the literal op with this attribute.
            mapping = gni._cc._py_attr_tracker.track(literal)
            if mapping.is_empty:
                npy = fx_importer.TORCH_DTYPE_TO_NPY_TYPE.get(literal.dtype)
                if npy is None:
                    return None
                # tolist(): the importer may run under a FakeTensorMode, where
                # .numpy() is refused.
                array = np.array(literal.tolist()).astype(npy)
                mapping.value = ir.DenseResourceElementsAttr.get_from_buffer(
                    array, name, fx_importer.create_mlir_tensor_type(literal))
            return None

    return NamingHooks()


def _on_cpu(module, example_inputs):
    """`module` and `example_inputs` with every tensor on the CPU: a copy
    where one is elsewhere. The Linalg program does not depend on the
    device, but torch-mlir lowers tensor creation only on the CPU (SDPA's
    causal mask on CUDA tensors is an `aten.empty.memory_format` with a
    CUDA device that it refuses). The weights stay bound by name to
    `module`'s own tensors."""
    tensors = [t for t in pytree.tree_leaves(example_inputs)
               if isinstance(t, torch.Tensor)]
    if isinstance(module, torch.nn.Module):
        tensors += list(module.parameters()) + list(module.buffers())
    if all(t.device.type == "cpu" for t in tensors):
        return module, example_inputs
    return copy.deepcopy(module).cpu(), pytree.tree_map(
        lambda t: t.cpu() if isinstance(t, torch.Tensor) else t,
        example_inputs)


def export(module, *example_inputs, name="forward"):
    """Exports ``module`` (an nn.Module or fx.GraphModule) called on
    ``example_inputs`` to Linalg on tensors with torch-mlir. Returns
    ``(text, program)``: the MLIR text, whose weights are
    ``dense_resource<NAME>`` without their data, and the ExportedProgram."""
    try:
        from torch_mlir import fx
    except ImportError as error:
        raise ImportError("blockbuster.torch needs torch-mlir: run "
                          "scripts/setup-torch.sh (%s)" % error) from error
    from torch.nn.attention import SDPBackend, sdpa_kernel
    try:
        module, example_inputs = _on_cpu(module, example_inputs)
        # SDPA decomposes into the kernel it would dispatch to: a caller's
        # sdpa_kernel context (or CUDA tensors, before _on_cpu) can select
        # `_scaled_dot_product_efficient_attention`, which torch-mlir
        # cannot lower. It lowers the math form, whatever the caller
        # enabled.
        with sdpa_kernel([SDPBackend.MATH]):
            program = torch.export.export(module, tuple(example_inputs),
                                          strict=False)
            names = _weight_names(module)
            for key, tensor in program.constants.items():
                if isinstance(tensor, torch.Tensor):
                    names.setdefault(id(tensor), key)
            mlir = fx.export_and_import(program,
                                        output_type="linalg-on-tensors",
                                        func_name=name,
                                        hooks=_naming_hooks(names))
    except Exception as error:
        raise ExportError("torch-mlir cannot export %s: %s: %s" % (
            name, type(error).__name__, _first_line(error))) from error
    # The weights are bound at run time: drop their data from the text.
    text = mlir.operation.get_asm(large_resource_limit=1)
    return _RESOURCES.sub("\n", text), program


def _first_line(error):
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class Compiled:
    """A compiled module: call it with the module's tensor inputs.

    ``signature`` is the program's (capi.signature); ``weights`` the names
    of the inputs bound from the module, in input order; ``artifact`` the GPU
    artifact's directory (target "gpu"); ``report`` the fusion report."""

    def __init__(self, module, program, text, target, fuse, name, device,
                 chip="", round_dot_operands=False,
                 divide_after_rounding=False, allow_tf32=False,
                 divide_after_bf16_rounding=True):
        self.module = module
        self.text = text
        self.target = target
        self.fuse = fuse
        self.name = name
        self.signature = capi.signature(text)
        self._out_spec = program.call_spec.out_spec
        self._constants = {k: v for k, v in program.constants.items()
                           if isinstance(v, torch.Tensor)}
        self._state = {}
        if isinstance(module, torch.nn.Module):
            self._state.update(module.named_parameters(remove_duplicate=False))
            self._state.update(module.named_buffers(remove_duplicate=False))
        inputs = self.signature["inputs"]
        self.weights = []
        self.num_user_inputs = 0
        for position, spec in enumerate(inputs):
            if not spec.get("hoisted"):
                if self.weights:
                    raise capi.CompileError(
                        "@%s: input %d follows a hoisted constant"
                        % (name, position))
                self.num_user_inputs += 1
                continue
            key = spec.get("constant")
            if key is None or (key not in self._state
                               and key not in self._constants):
                raise capi.CompileError(
                    "@%s: input %d is a tensor constant of the export that "
                    "is not a parameter, buffer or constant of the module "
                    "(key %s); it cannot be bound by name"
                    % (name, position, key or "none"))
            self.weights.append(key)
        self.report = capi.compile(text, fuse=fuse).report
        self.artifact = None
        self._program = None
        self._directory = None
        if target == "gpu":
            self._directory = tempfile.TemporaryDirectory(
                prefix="blockbuster-%s-" % name)
            capi.compile(text, fuse=fuse, target="gpu",
                         output_dir=self._directory.name, chip=chip,
                         round_dot_operands=round_dot_operands,
                         divide_after_rounding=divide_after_rounding,
                         allow_tf32=allow_tf32,
                         divide_after_bf16_rounding=divide_after_bf16_rounding)
            self.artifact = self._directory.name
            self._program = load(self.artifact, module,
                                 constants=self._constants, device=device)
        elif target != "cpu":
            raise ValueError("target must be 'cpu' or 'gpu', got %r"
                             % (target,))

    def _weight(self, key):
        tensor = self._state.get(key)
        return (tensor if tensor is not None else self._constants[key]).detach()

    def __call__(self, *inputs):
        flat = pytree.tree_leaves(inputs)
        if len(flat) != self.num_user_inputs or not all(
                isinstance(t, torch.Tensor) for t in flat):
            raise TypeError("@%s takes %d tensors, got %s" % (
                self.name, self.num_user_inputs,
                ", ".join(type(t).__name__ for t in flat) or "none"))
        tensors = list(flat) + [self._weight(k) for k in self.weights]
        specs = self.signature["inputs"]
        for position, (tensor, spec) in enumerate(zip(tensors, specs)):
            dtype = _TORCH_DTYPES[spec["dtype"]]
            if tensor.dtype != dtype or list(tensor.shape) != spec["shape"]:
                what = ("weight '%s'" % self.weights[position
                                                     - self.num_user_inputs]
                        if position >= self.num_user_inputs
                        else "input %d" % position)
                raise TypeError("@%s: %s is %s %s, the program takes %s %s"
                                % (self.name, what, tensor.dtype,
                                   list(tensor.shape), dtype, spec["shape"]))
        with torch.no_grad():
            if self.target == "gpu":
                outputs = self._run_gpu(tensors)
            else:
                outputs = self._run_cpu(tensors)
        return pytree.tree_unflatten(list(outputs), self._out_spec)

    def _run_cpu(self, tensors):
        arrays = [_to_numpy(t) for t in tensors]
        outputs = capi.run(self.text, arrays, fuse=self.fuse)
        return [_from_numpy(a, spec["dtype"])
                for a, spec in zip(outputs, self.signature["outputs"])]

    def _run_gpu(self, tensors):
        return self._program.run_all(tensors)


class Loaded:
    """A GPU artifact with its weights bound by name: see `load`."""

    def __init__(self, artifact, module=None, constants=None, device=0):
        from . import artifact as _artifact, runtime
        if not isinstance(artifact, _artifact.Artifact):
            artifact = _artifact.load(artifact)
        self.artifact = artifact
        self.device = device
        state = {}
        if module is not None:
            state.update(module.named_parameters(remove_duplicate=False))
            state.update(module.named_buffers(remove_duplicate=False))
        state.update(constants or {})
        self._state = state
        inputs = self.artifact.inputs
        missing = sorted({b.constant for b in inputs if b.constant is not None
                          and b.constant not in state})
        if missing:
            raise KeyError("%s: the weights %s are not parameters, buffers or "
                           "constants given" % (self.artifact.path,
                                                ", ".join(missing)))
        self.user_inputs = [b for b in inputs if b.constant is None]
        self.program = runtime.Program(artifact, device=device)

    def run_all(self, tensors):
        """Runs on every input in position order (weights included)."""
        bound = []
        for t in tensors:
            t = t.detach()
            if not t.is_cuda or t.device.index != self.device:
                t = t.to("cuda:%d" % self.device)
            bound.append(t.contiguous())
        return list(self.program(*bound))

    def __call__(self, *inputs):
        if len(inputs) != len(self.user_inputs):
            raise TypeError("@%s takes %d inputs (%s), got %d" % (
                self.artifact.entry, len(self.user_inputs),
                ", ".join(b.describe() for b in self.user_inputs),
                len(inputs)))
        given = iter(inputs)
        tensors = [self._state[b.constant] if b.constant is not None
                   else next(given) for b in self.artifact.inputs]
        with torch.no_grad():
            outputs = self.run_all(tensors)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def load(artifact, module=None, constants=None, device=0):
    """Loads a GPU artifact (a directory written by `bb-compile` or
    `compile(target="gpu")`, docs/Artifact.md) for PyTorch: calling the
    result with the inputs that are not weights runs it, the weights (inputs
    with a "constant" key) bound by name to ``module``'s parameters and
    buffers or to ``constants`` (name -> tensor), read at each call and moved
    to the device when they are not there. Needs no MLIR: this is how an
    artifact compiled elsewhere runs on a GPU machine. Returns one tensor
    for one output, else a tuple."""
    return Loaded(artifact, module, constants, device)


def _to_numpy(tensor):
    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def _from_numpy(array, dtype):
    if dtype == "bf16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def gpu_chip(device=0):
    """The chip to compile for CUDA device ``device``: sm_XY from its
    compute capability, sm_90a on a 9.0 device (an H100 or H200: the wgmma
    and TMA kernels)."""
    major, minor = torch.cuda.get_device_capability(device)
    return "sm_%d%d%s" % (major, minor, "a" if (major, minor) == (9, 0)
                          else "")


def compile(module, *example_inputs, target=None, fuse=True, name=None,
            device=0, chip=None, round_dot_operands=False,
            divide_after_rounding=False, allow_tf32=False,
            divide_after_bf16_rounding=True):
    """Exports ``module`` on ``example_inputs`` (tensors) with torch-mlir and
    compiles it; returns a Compiled callable that takes the module's inputs
    and binds the module's weights by name. ``target``: "cpu", "gpu", or
    None (gpu when every example input is a CUDA tensor). ``chip``: the GPU
    to compile for (None: gpu_chip(device), sm_90a on an H100).
    ``round_dot_operands``: bb-compile's --round-dot-operands (a bf16
    F.scaled_dot_product_attention, whose export keeps P in f32, then runs
    with P rounded to bf16 as PyTorch's flash kernels round it, 1.5-1.65x
    faster than the exact default, which splits P into three bf16 parts;
    inexact, off by default). ``divide_after_rounding``: bb-compile's
    --divide-after-rounding (attention written with the normalised P rounded
    to a 16-bit type, `softmax(...).to(q.dtype) @ v`, runs FlashAttention's
    single pass, which rounds exp(S - m) instead; inexact by about one
    rounding of P, off by default). ``divide_after_bf16_rounding``:
    --divide-after-bf16-rounding, the same for bf16 only, on by default
    (bf16 attention about 1.6x faster than the exact two passes; False
    keeps the program's exact two passes). ``allow_tf32``: bb-compile's --allow-tf32 (f32 attention on
    the tensor cores with tf32 operands; inexact, off by default). Raises
    ExportError (torch-mlir) or capi.CompileError (Blockbuster) with the
    reason."""
    if name is None:
        name = type(module).__name__.lower() if isinstance(
            module, torch.nn.Module) else "forward"
        name = re.sub(r"\W", "_", name)
    if target is None:
        tensors = [t for t in pytree.tree_leaves(example_inputs)
                   if isinstance(t, torch.Tensor)]
        target = "gpu" if tensors and all(t.is_cuda for t in tensors) \
            else "cpu"
    text, program = export(module, *example_inputs, name=name)
    if target == "gpu" and chip is None:
        chip = gpu_chip(device)
    return Compiled(module, program, text, target, fuse, name, device,
                    chip=chip or "", round_dot_operands=round_dot_operands,
                    divide_after_rounding=divide_after_rounding,
                    allow_tf32=allow_tf32,
                    divide_after_bf16_rounding=divide_after_bf16_rounding)


def _encoder_layer_slow_path(src, embed_dim, num_heads, qkv_weight,
                             qkv_bias, proj_weight, proj_bias, use_gelu,
                             norm_first, eps, norm_weight_1, norm_bias_1,
                             norm_weight_2, norm_bias_2, ffn_weight_1,
                             ffn_bias_1, ffn_weight_2, ffn_bias_2, mask=None,
                             mask_type=None):
    """`torch._transformer_encoder_layer_fwd` (the fused kernel that
    nn.TransformerEncoderLayer calls in eval mode without autograd, the
    "fast path") in the ordinary ops of its slow path: self-attention with a
    packed QKV projection and SDPA, then the feed-forward block, each with
    its residual and LayerNorm (before when `norm_first`, after otherwise).
    Batch-first [B, S, E] input without a mask only: that is when Dynamo
    records the fast path for a batched tensor."""
    F = torch.nn.functional
    if mask is not None or src.dim() != 3:
        raise capi.CompileError(
            "nn.TransformerEncoderLayer's fast path with a mask or an "
            "unbatched input: disable it with "
            "torch.backends.mha.set_fastpath_enabled(False)")

    def attention(x):
        b, s, _ = x.shape
        q, k, v = F.linear(x, qkv_weight, qkv_bias).chunk(3, dim=-1)

        def heads(t):
            return t.reshape(b, s, num_heads, embed_dim // num_heads) \
                .transpose(1, 2)

        o = F.scaled_dot_product_attention(heads(q), heads(k), heads(v))
        return F.linear(o.transpose(1, 2).reshape(b, s, embed_dim),
                        proj_weight, proj_bias)

    def feed_forward(x):
        h = F.linear(x, ffn_weight_1, ffn_bias_1)
        h = F.gelu(h) if use_gelu else F.relu(h)
        return F.linear(h, ffn_weight_2, ffn_bias_2)

    def norm1(x):
        return F.layer_norm(x, (embed_dim,), norm_weight_1, norm_bias_1, eps)

    def norm2(x):
        return F.layer_norm(x, (embed_dim,), norm_weight_2, norm_bias_2, eps)

    if norm_first:
        x = src + attention(norm1(src))
        return x + feed_forward(norm2(x))
    x = norm1(src + attention(src))
    return norm2(x + feed_forward(x))


# Fused inference kernels that Dynamo records where eager PyTorch takes a
# "fast path", and that torch-mlir cannot lower: the backend replaces each
# with the ordinary ops it stands for before exporting the graph.
_FAST_PATHS = {
    torch._transformer_encoder_layer_fwd: _encoder_layer_slow_path,
}


def _replace_fast_paths(graph_module):
    """Replaces the calls of `_FAST_PATHS` in the FX graph, in place."""
    replaced = False
    for node in graph_module.graph.nodes:
        if node.op == "call_function" and node.target in _FAST_PATHS:
            node.target = _FAST_PATHS[node.target]
            replaced = True
    if replaced:
        graph_module.recompile()


def backend(graph_module, example_inputs):
    """The `torch.compile` backend "blockbuster": compiles the FX graph with
    `compile` (target as for `compile`), or, when torch-mlir or Blockbuster
    refuses it, logs the reason (logger "blockbuster.torch", and the list
    `refusals`) and returns the graph to run eagerly. Fused fast-path
    kernels in the graph (nn.TransformerEncoderLayer's in eval mode) are
    compiled as the ordinary ops they stand for."""
    name = "graph_%d" % len(_graph_names)
    _graph_names.append(name)
    try:
        if torch.is_grad_enabled() and any(
                isinstance(t, torch.Tensor) and t.requires_grad
                for t in example_inputs):
            raise capi.CompileError(
                "autograd: the backend is for inference; call the compiled "
                "module under torch.no_grad()")
        if not all(isinstance(t, torch.Tensor) for t in example_inputs):
            raise capi.CompileError(
                "inputs that are not tensors (%s): compile with dynamic=False"
                % ", ".join(sorted({type(t).__name__ for t in example_inputs
                                    if not isinstance(t, torch.Tensor)})))
        _replace_fast_paths(graph_module)
        compiled = compile(graph_module, *example_inputs, name=name)
    except (ExportError, capi.CompileError) as error:
        reason = _first_line(error)
        refusals.append((name, reason))
        log.warning("blockbuster: %s refused, running it eagerly: %s",
                    name, reason)
        return graph_module.forward
    log.info("blockbuster: %s compiled for %s (%s kernels)", name,
             compiled.target,
             ", ".join(str(r.kernels) for r in compiled.report))
    return compiled


_graph_names = []


def _register_backend():
    from torch._dynamo import list_backends, register_backend
    if "blockbuster" not in list_backends(exclude_tags=()):
        register_backend(compiler_fn=backend, name="blockbuster")


_register_backend()
