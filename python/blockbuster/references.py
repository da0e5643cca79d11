"""Reference implementations of the Linalg examples (examples/linalg/*.mlir).

One function per example, keyed by the example's function name, computing
exactly what the MLIR computes (its constants included: attention's fixed
0.125 scale, the mean divisors 384 and 512, the epsilons 1e-5 and 1e-6, GELU's
0.707106769), in fp32 with PyTorch or in float64 with NumPy. Narrow-float
(bf16) inputs are widened on entry and nothing is rounded in between, as
bb-run's f32 reference does (docs/CPUExecution.md); the caller compares in
fp32 with the bf16 tolerance.

    from blockbuster import references
    (out,) = references.run("attention", [q, k, v])            # torch tensors
    (out,) = references.run("attention", [q, k, v], "numpy")   # NumPy arrays

Each function takes the example's arguments in order and an ``ops`` backend
and returns a list of outputs (every example has one).
"""

import math


class _TorchOps:
    name = "torch"

    def __init__(self):
        import torch
        self.torch = torch

    def widen(self, x, dtype):
        return x.float()

    def t(self, x):
        return x.transpose(-1, -2)

    def matmul(self, a, b):
        return self.torch.matmul(a, b)

    def exp(self, x):
        return self.torch.exp(x)

    def erf(self, x):
        return self.torch.erf(x)

    def rsqrt(self, x):
        return self.torch.rsqrt(x)

    def max_last(self, x):
        return x.amax(dim=-1, keepdim=True)

    def sum_last(self, x):
        return x.sum(dim=-1, keepdim=True)

    def causal_mask(self, x):
        rows, cols = x.shape[-2], x.shape[-1]
        keep = self.torch.ones(rows, cols, dtype=self.torch.bool,
                               device=x.device).tril()
        return x.masked_fill(~keep, float("-inf"))


class _NumpyOps:
    name = "numpy"

    def __init__(self):
        import numpy as np
        self.np = np

    def widen(self, x, dtype):
        from .seeded import bf16_bits_to_f32
        x = self.np.asarray(x)
        if dtype == "bf16":
            x = bf16_bits_to_f32(x)
        return x.astype(self.np.float64)

    def t(self, x):
        return self.np.swapaxes(x, -1, -2)

    def matmul(self, a, b):
        return self.np.matmul(a, b)

    def exp(self, x):
        return self.np.exp(x)

    def erf(self, x):
        return self.np.vectorize(math.erf, otypes=[self.np.float64])(x)

    def rsqrt(self, x):
        return 1.0 / self.np.sqrt(x)

    def max_last(self, x):
        return x.max(axis=-1, keepdims=True)

    def sum_last(self, x):
        return x.sum(axis=-1, keepdims=True)

    def causal_mask(self, x):
        rows, cols = x.shape[-2], x.shape[-1]
        keep = self.np.tril(self.np.ones((rows, cols), dtype=bool))
        return self.np.where(keep, x, -self.np.inf)


def _safe_softmax(s, ops):
    """max, exp(s - max), sum, divide: the examples' softmax and the
    decomposition of linalg.softmax."""
    e = ops.exp(s - ops.max_last(s))
    return e / ops.sum_last(e)


def attention(q, k, v, ops):
    # examples/linalg/attention.mlir: softmax(Q K^T * 0.125) V. The example's
    # constant 0.125 is 1/sqrt(D) at its D = 64; the same function at other
    # head dimensions (the benchmark workloads) is written with 1/sqrt(D).
    s = ops.matmul(q, ops.t(k)) * (1.0 / math.sqrt(q.shape[-1]))
    return [ops.matmul(_safe_softmax(s, ops), v)]


def mha(q, k, v, ops):
    # examples/linalg/mha.mlir: batch_matmul(Q, transpose(K)), linalg.softmax
    # over the key axis, batch_matmul with V; no scale.
    s = ops.matmul(q, ops.t(k))
    return [ops.matmul(_safe_softmax(s, ops), v)]


def causal_attention(q, k, v, ops):
    # examples/linalg/causal_attention.mlir: scores with j > i set to -inf,
    # safe softmax, times V; no scale.
    s = ops.causal_mask(ops.matmul(q, ops.t(k)))
    return [ops.matmul(_safe_softmax(s, ops), v)]


def layernorm_matmul(x, gamma, beta, w, bias, ops):
    # examples/linalg/layernorm_matmul.mlir: mean = sum / 384, two-pass
    # variance sum((x - mean)^2) / 384, rsqrt(var + 1e-5), gamma, beta, then
    # xn @ W [K, N] + bias. The example's divisor 384.0 is K.
    k = float(x.shape[-1])
    mean = ops.sum_last(x) / k
    var = ops.sum_last((x - mean) * (x - mean)) / k
    xn = (x - mean) * ops.rsqrt(var + 1e-5) * gamma + beta
    return [ops.matmul(xn, w) + bias]


def rmsnorm_ffn_swiglu(x, g, w1, w3, w2, ops):
    # examples/linalg/rmsnorm_ffn_swiglu.mlir: xn = x * rsqrt(sum(x^2) / 512
    # + 1e-6) * g; h = silu(xn @ W1) * (xn @ W3) with silu(u) = u / (1 +
    # exp(-u)); out = h @ W2. The program rounds xn, h and out to bf16; the
    # reference keeps f32 throughout. The example's divisor 512.0 is D.
    d = float(x.shape[-1])
    ms = ops.sum_last(x * x) / d
    xn = x * ops.rsqrt(ms + 1e-6) * g
    a1 = ops.matmul(xn, w1)
    a3 = ops.matmul(xn, w3)
    h = a1 / (1.0 + ops.exp(-a1)) * a3
    return [ops.matmul(h, w2)]


def gelu_mlp(x, w1, b1, w2, b2, ops):
    # examples/linalg/gelu_mlp.mlir: weights in nn.Linear layout [out, in];
    # exact GELU z * 0.5 * (1 + erf(z * 0.707106769)); residual add.
    z = ops.matmul(x, ops.t(w1)) + b1
    a = z * 0.5 * (1.0 + ops.erf(z * 0.707106769))
    return [ops.matmul(a, ops.t(w2)) + b2 + x]


def rmsnorm_matmul(x, g, w, ops):
    # examples/linalg/rmsnorm_matmul.mlir: xn = x * rsqrt(sum(x^2) / 512 +
    # 1e-6) * g, then xn @ W [K, N]. The program rounds xn and the output to
    # bf16; the reference keeps f32 throughout. The divisor 512.0 is K.
    k = float(x.shape[-1])
    xn = x * ops.rsqrt(ops.sum_last(x * x) / k + 1e-6) * g
    return [ops.matmul(xn, w)]


def add_gelu_add_layernorm(x, r, bias, gamma, beta, ops):
    # examples/linalg/add_gelu_add_layernorm.mlir: h = gelu(x + bias) + r
    # with the exact GELU t * 0.5 * (1 + erf(t * 0.707106769)) (the program
    # rounds h to bf16), then LayerNorm over the last axis: mean = sum / 384,
    # two-pass variance, rsqrt(var + 1e-5), gamma, beta. 384.0 is N.
    t = x + bias
    h = t * 0.5 * (1.0 + ops.erf(t * 0.707106769)) + r
    n = float(h.shape[-1])
    mean = ops.sum_last(h) / n
    var = ops.sum_last((h - mean) * (h - mean)) / n
    return [(h - mean) * ops.rsqrt(var + 1e-5) * gamma + beta]


def scale_add(x, y, ops):
    # Not an example: the hand-made artifact that tests the runtimes
    # (test/Runtime/CUDA/Inputs/artifacts/scale_add): 2.5 * x + y.
    return [x * 2.5 + y]


REFERENCES = {
    "attention": attention,
    "mha": mha,
    "causal_attention": causal_attention,
    "layernorm_matmul": layernorm_matmul,
    "rmsnorm_ffn_swiglu": rmsnorm_ffn_swiglu,
    "gelu_mlp": gelu_mlp,
    "rmsnorm_matmul": rmsnorm_matmul,
    "add_gelu_add_layernorm": add_gelu_add_layernorm,
    "scale_add": scale_add,
}

_BACKENDS = {"torch": _TorchOps, "numpy": _NumpyOps}


def run(name, inputs, backend="torch", dtypes=None, widen=True):
    """The outputs of example ``name`` on ``inputs`` (torch tensors for the
    torch backend, computed in fp32; NumPy arrays for the numpy backend,
    computed in float64, bf16 given as uint16 bits with ``dtypes``).
    ``widen=False`` computes in the inputs' own dtype (torch only): the
    eager and torch.compile baselines of gpu-bench.py."""
    if name not in REFERENCES:
        raise KeyError("no reference for '%s' (known: %s)"
                       % (name, ", ".join(sorted(REFERENCES))))
    ops = _BACKENDS[backend]()
    dtypes = dtypes or [None] * len(inputs)
    wide = [ops.widen(x, dt) if widen else x for x, dt in zip(inputs, dtypes)]
    return REFERENCES[name](*wide, ops)
