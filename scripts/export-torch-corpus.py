#!/usr/bin/env python3
"""Exports the PyTorch corpus (test/Inputs/torch/) with torch-mlir.

Each module below is exported as a new user would export it:

    torch_mlir.fx.export_and_import(model.eval(), *inputs,
                                    output_type="linalg-on-tensors",
                                    func_name=NAME)

at two sizes and batch 1 and 2, and written to OUT/NAME.mlir, where NAME is
`<module>_<size>_b<batch>`:

  tiny       CI size (sequence 16, model width 32, 2 heads); the weights are
             kept (seeded, torch.manual_seed(0) before each module is built).
  real       a realistic size (sequence 256, width 512, 8 heads of 64); the
             weight blobs are elided: the `{-# dialect_resources #-}` section
             is dropped, so each weight stays `dense_resource<KEY>` with its
             key but without values (MLIR parses such a handle; the tools
             hoist weights into inputs, docs/RealInputs.md).

The modules: manual attention, F.scaled_dot_product_attention plain and
causal (each also in bf16), nn.LayerNorm + nn.Linear, RMSNorm + SwiGLU FFN in f32 and bf16, a GELU
MLP, nn.TransformerEncoderLayer, a Llama decoder block (RMSNorm, RoPE with
torch.cat rotate_half, causal SDPA, SwiGLU), and multi-head attention with
head reshapes/permutes and separate or fused QKV projections.

Needs torch and torch-mlir (scripts/setup-torch.sh installs them into
./.venv-torch):

    .venv-torch/bin/python scripts/export-torch-corpus.py [--out DIR]
        [--only SUBSTRING ...] [--list]

The output is deterministic for a given torch/torch-mlir version (the
versions are recorded in OUT/VERSIONS.txt).
"""

import argparse
import math
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "test", "Inputs", "torch")

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    sys.exit("export-torch-corpus.py: needs torch and torch-mlir; run "
             "scripts/setup-torch.sh and use .venv-torch/bin/python")

# Sizes: S = sequence, D = model width, H = heads, FFN = hidden width of the
# feed-forward layers.
SIZES = {
    "tiny": dict(S=16, D=32, H=2, FFN=64),
    "real": dict(S=256, D=512, H=8, FFN=1408),
}
BATCHES = (1, 2)
# Not in the corpus: the anchors' attention (docs/performance.md), for
# timing exports on the GPU (torch-gpu-check.py compile --sizes long d64
# --only sdpa_bf16 ...): `long` 32 heads of 128 over 2048 positions, `d64`
# 16 heads of 64 over 1024 at batch 8 (its own batches); `d32` 8 heads of
# 32 over 512 at batch 2 (a head below 64 over several key tiles, on the
# sm_90a wgmma schedule since session 16); `w256` one head of 256 over 200
# positions at batch 2 (f32 under --allow-tf32: the widest tf32 head, its
# last key tile partial, session 19); `g256` 8 heads of 256 over 2048
# positions at batch 1 (Gemma's head size, for timing).
EXTRA_SIZES = {
    "long": dict(S=2048, D=4096, H=32, FFN=11008),
    "d64": dict(S=1024, D=1024, H=16, FFN=4096, batches=(8,)),
    "d32": dict(S=512, D=256, H=8, FFN=1024, batches=(2,)),
    "w256": dict(S=200, D=256, H=1, FFN=512, batches=(2,)),
    "g256": dict(S=2048, D=2048, H=8, FFN=8192, batches=(1,)),
}


# ---------------------------------------------------------------------------
# The modules.


class ManualAttention(nn.Module):
    """softmax(q k^T / sqrt(d)) v on [B, S, D], written out by hand."""

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)


class SDPA(nn.Module):
    """F.scaled_dot_product_attention on [B, H, S, Dh]."""

    def __init__(self, causal):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)


class LayerNormLinear(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        return self.proj(self.norm(x))


class RMSNorm(nn.Module):
    """Llama's RMSNorm: computed in f32, cast back to the input's type."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d) + 0.1 * torch.randn(d))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


class SwiGLU(nn.Module):
    def __init__(self, d, ffn):
        super().__init__()
        self.gate_proj = nn.Linear(d, ffn, bias=False)
        self.up_proj = nn.Linear(d, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class RMSNormSwiGLU(nn.Module):
    def __init__(self, d, ffn):
        super().__init__()
        self.norm = RMSNorm(d)
        self.mlp = SwiGLU(d, ffn)

    def forward(self, x):
        return self.mlp(self.norm(x))


class GeluMLP(nn.Module):
    def __init__(self, d, ffn):
        super().__init__()
        self.fc1 = nn.Linear(d, ffn)
        self.fc2 = nn.Linear(ffn, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaBlock(nn.Module):
    """A Llama decoder layer as transformers writes it (no KV cache)."""

    def __init__(self, d, heads, ffn, seq):
        super().__init__()
        self.heads, self.head_dim = heads, d // heads
        self.input_layernorm = RMSNorm(d)
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
        self.post_attention_layernorm = RMSNorm(d)
        self.mlp = SwiGLU(d, ffn)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float()
                                    / self.head_dim))
        freqs = torch.outer(torch.arange(seq).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        # Persistent: torch-mlir's frozen import looks buffers up in the
        # state_dict and fails on non-persistent ones ("Could not find state
        # mapping for buffer").
        self.register_buffer("cos", emb.cos())
        self.register_buffer("sin", emb.sin())

    def forward(self, x):
        b, s, d = x.shape
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        q = q * self.cos + rotate_half(q) * self.sin
        k = k * self.cos + rotate_half(k) * self.sin
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        a = a.transpose(1, 2).reshape(b, s, d)
        x = x + self.o_proj(a)
        return x + self.mlp(self.post_attention_layernorm(x))


class MHASeparateQKV(nn.Module):
    """Multi-head attention with q/k/v projections, view + transpose head
    splits, matmul + softmax attention and a transpose + reshape merge."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.head_dim = heads, d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape

        def split(t):
            return t.view(b, s, self.heads, self.head_dim).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        a = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.out(a.transpose(1, 2).reshape(b, s, d))


class MHAFusedQKV(nn.Module):
    """timm-style attention: one qkv projection, reshape + permute into
    [3, B, H, S, Dh], unbind, SDPA, transpose + reshape, projection."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.head_dim = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape
        qkv = self.qkv(x).reshape(b, s, 3, self.heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        a = F.scaled_dot_product_attention(q, k, v)
        return self.proj(a.transpose(1, 2).reshape(b, s, d))


def encoder_layer(d, heads, ffn):
    return nn.TransformerEncoderLayer(d, heads, dim_feedforward=ffn,
                                      dropout=0.0, batch_first=True)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


# name -> builder(B, S, D, H, FFN) returning (module, inputs)
MODULES = {
    "manual_attention": lambda B, S, D, H, FFN: (
        ManualAttention(), [randn(B, S, D) for _ in range(3)]),
    "sdpa": lambda B, S, D, H, FFN: (
        SDPA(False), [randn(B, H, S, D // H) for _ in range(3)]),
    "sdpa_causal": lambda B, S, D, H, FFN: (
        SDPA(True), [randn(B, H, S, D // H) for _ in range(3)]),
    # bf16 attention as a model in bf16 writes it: torch-mlir widens SDPA's
    # operands to f32 (docs/RealInputs.md, "Attention exported from PyTorch
    # in bf16"); the manual form on [B, S, head dim] rounds P itself.
    "manual_attention_bf16": lambda B, S, D, H, FFN: (
        ManualAttention(),
        [randn(B, S, D // H, dtype=torch.bfloat16) for _ in range(3)]),
    "sdpa_bf16": lambda B, S, D, H, FFN: (
        SDPA(False),
        [randn(B, H, S, D // H, dtype=torch.bfloat16) for _ in range(3)]),
    "sdpa_causal_bf16": lambda B, S, D, H, FFN: (
        SDPA(True),
        [randn(B, H, S, D // H, dtype=torch.bfloat16) for _ in range(3)]),
    "layernorm_linear": lambda B, S, D, H, FFN: (
        LayerNormLinear(D), [randn(B, S, D)]),
    "rmsnorm_swiglu_f32": lambda B, S, D, H, FFN: (
        RMSNormSwiGLU(D, FFN), [randn(B, S, D)]),
    "rmsnorm_swiglu_bf16": lambda B, S, D, H, FFN: (
        RMSNormSwiGLU(D, FFN).to(torch.bfloat16),
        [randn(B, S, D, dtype=torch.bfloat16)]),
    "gelu_mlp": lambda B, S, D, H, FFN: (GeluMLP(D, FFN), [randn(B, S, D)]),
    "encoder_layer": lambda B, S, D, H, FFN: (
        encoder_layer(D, H, FFN), [randn(B, S, D)]),
    "llama_block": lambda B, S, D, H, FFN: (
        LlamaBlock(D, H, FFN, S), [randn(B, S, D)]),
    "mha_separate_qkv": lambda B, S, D, H, FFN: (
        MHASeparateQKV(D, H), [randn(B, S, D)]),
    "mha_fused_qkv": lambda B, S, D, H, FFN: (
        MHAFusedQKV(D, H), [randn(B, S, D)]),
}


def corpus(sizes=tuple(SIZES)):
    """(NAME, module name, size name, batch) of every export, in order, at
    `sizes` (names of SIZES or EXTRA_SIZES)."""
    for module in MODULES:
        for size in sizes:
            dims = {**SIZES, **EXTRA_SIZES}[size]
            for batch in dims.get("batches", BATCHES):
                yield f"{module}_{size}_b{batch}", module, size, batch


def build(module, size, batch):
    """The module (eval mode, seeded weights) and its example inputs."""
    torch.manual_seed(0)
    dims = {**SIZES, **EXTRA_SIZES}[size]
    model, inputs = MODULES[module](batch, dims["S"], dims["D"], dims["H"],
                                    dims["FFN"])
    return model.eval(), inputs


RESOURCES = re.compile(r"\n*\{-#\s*dialect_resources:.*#-\}\s*\Z", re.S)


def export(name, module, size, batch):
    from torch_mlir import fx

    model, inputs = build(module, size, batch)
    mlir_module = fx.export_and_import(
        model, *inputs, output_type="linalg-on-tensors", func_name=name)
    text = str(mlir_module)
    if size != "tiny":
        # Elide the weights: drop the blobs, keep the `dense_resource<KEY>`.
        text, count = RESOURCES.subn("\n", text)
        if count == 0 and "dense_resource<" in text:
            raise RuntimeError(f"{name}: no dialect_resources section to elide")
    header = (f"// {name}: scripts/export-torch-corpus.py ({module}, "
              f"size {size} {({**SIZES, **EXTRA_SIZES})[size]}, batch {batch})"
              + ("; weights elided" if size != "tiny" else "") + "\n")
    return header + text.rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", nargs="*", default=[],
                        help="export only names containing one of these")
    parser.add_argument("--list", action="store_true",
                        help="print the names and exit")
    args = parser.parse_args()

    entries = [e for e in corpus()
               if not args.only or any(o in e[0] for o in args.only)]
    if args.list:
        print("\n".join(e[0] for e in entries))
        return 0
    import torch_mlir  # noqa: F401 (fail early with the import error)
    from importlib.metadata import version

    os.makedirs(args.out, exist_ok=True)
    failures = 0
    for name, module, size, batch in entries:
        try:
            text = export(name, module, size, batch)
        except Exception as error:  # report and go on with the next one
            failures += 1
            first = str(error).strip().splitlines()[0] if str(error).strip() \
                else type(error).__name__
            print(f"{name}: export failed: {first}", file=sys.stderr)
            continue
        with open(os.path.join(args.out, name + ".mlir"), "w") as f:
            f.write(text)
        print(f"{name}: {len(text)} bytes")
    with open(os.path.join(args.out, "VERSIONS.txt"), "w") as f:
        for package in ("torch", "torch-mlir"):
            f.write(f"{package} {version(package)}\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
