#!/usr/bin/env python3
"""Writes the anchor workloads of docs/performance.md ("Anchor workloads") as
Linalg programs and compiles each with bb-compile (host side; no GPU).

    python3 scripts/build-anchors.py ART [--bb-compile build/bin/bb-compile]
                                         [--only SUBSTRING ...] [--list]
                                         [--chip sm_90a] [--gemm MxKxN ...]
                                         [--norm-matmul MxKxN ...]
                                         [--ffn MxDxF ...]
                                         [--variant NAME=FLAGS ...]

Every workload is bf16 storage with f32 arithmetic, written the way a
frontend lowers the PyTorch code of docs/design/torch_baselines.py:
narrow inputs widened with arith.extf inside the generics, statistics and
dot accumulators in f32 (linalg.matmul with bf16 operands into an f32
fill), values that PyTorch would materialise in bf16 (the normalised rows
fed to a matmul, the softmax probabilities fed to P V, every result)
rounded with arith.truncf. Every result is bf16. The RMSNorm + SwiGLU FFN
is examples/linalg/rmsnorm_ffn_swiglu.mlir with its sizes replaced
(scripts/gen-workloads.py's literal replacement); the others are written
here from templates.

For each workload: ART/NAME.mlir, the artifact ART/NAME/ (bb-compile -o),
and one entry of ART/index.json with its kind (the reference function
scripts/bench-anchors.py uses), shape parameters, kernel count (launches in
the manifest), compile time (wall clock of bb-compile: convert, fuse,
select, GPU lowering to PTX; ptxas runs on the device when the PTX is
loaded) and, for a workload that does not compile, the first `error:` line
of bb-compile's output. The chip defaults to sm_90a, the H100's
architecture-specific target (wgmma and TMA kernels for GEMM blocks);
`--gemm` adds plain GEMMs at other shapes (partial edge tiles),
`--norm-matmul` LayerNorm+matmul and RMSNorm+matmul at other shapes,
`--ffn` the RMSNorm + SwiGLU FFN at other shapes, `--gelu-mlp` the GELU
MLP (y = x + gelu(x W1 + b1) W2 + b2) at other shapes.
`--variant NAME=FLAGS` compiles every selected workload once more with
extra bb-compile flags (e.g. `--variant tile128="--block-sizes
a0=128,a1=128,a2=128"`), as WORKLOAD__NAME: schedule variants checked and
timed side by side in one bench-anchors run. Artifacts hold PTX only;
inputs are made on the device, so ART stays small (a few MiB).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
gen_workloads = __import__("gen-workloads")

# name -> (kind, parameters). Listed in the order the device script runs
# them: cheapest (for today's kernels) first, the slowest last, so a run
# cut short by its time limit still has most rows.
WORKLOADS = [
    ("rmsnorm_matmul_m1_k4096_n4096", "rmsnorm_matmul", dict(M=1, K=4096, N=4096)),
    ("rmsnorm_matmul_m16_k4096_n4096", "rmsnorm_matmul", dict(M=16, K=4096, N=4096)),
    ("rmsnorm_matmul_m128_k4096_n4096", "rmsnorm_matmul", dict(M=128, K=4096, N=4096)),
    ("rmsnorm_matmul_m16_k4096_n12288", "rmsnorm_matmul", dict(M=16, K=4096, N=12288)),
    ("layernorm_matmul_m16_k4096_n4096", "layernorm_matmul", dict(M=16, K=4096, N=4096)),
    ("rmsnorm_ffn_swiglu_m16_d4096_f11008", "rmsnorm_ffn_swiglu", dict(M=16, D=4096, F=11008)),
    ("softmax_m16384_n4096", "softmax", dict(M=16384, N=4096)),
    ("layernorm_m16384_n4096", "layernorm", dict(M=16384, N=4096)),
    ("add_gelu_add_layernorm_m16384_n4096", "add_gelu_add_layernorm", dict(M=16384, N=4096)),
    ("gemm_m4096_k4096_n4096", "gemm", dict(M=4096, K=4096, N=4096)),
    ("rmsnorm_ffn_swiglu_m2048_d4096_f11008", "rmsnorm_ffn_swiglu", dict(M=2048, D=4096, F=11008)),
    ("gemm_m8192_k8192_n8192", "gemm", dict(M=8192, K=8192, N=8192)),
    ("rmsnorm_ffn_swiglu_m8192_d4096_f11008", "rmsnorm_ffn_swiglu", dict(M=8192, D=4096, F=11008)),
    ("attention_b8_h16_s1024_d64", "attention", dict(B=8, H=16, S=1024, D=64)),
    ("attention_b4_h32_s2048_d128", "attention", dict(B=4, H=32, S=2048, D=128)),
    ("attention_causal_b4_h32_s2048_d128", "attention_causal", dict(B=4, H=32, S=2048, D=128)),
    # Correctness of the register schedule at partial edge tiles and B = 1.
    ("attention_b1_h2_s200_d64", "attention", dict(B=1, H=2, S=200, D=64)),
    ("attention_b1_h3_s333_d128", "attention", dict(B=1, H=3, S=333, D=128)),
    ("attention_causal_b1_h2_s200_d64", "attention_causal", dict(B=1, H=2, S=200, D=64)),
    ("rmsnorm_matmul_m2048_k4096_n4096", "rmsnorm_matmul", dict(M=2048, K=4096, N=4096)),
    ("layernorm_matmul_m2048_k4096_n4096", "layernorm_matmul", dict(M=2048, K=4096, N=4096)),
    ("rmsnorm_matmul_m8192_k4096_n4096", "rmsnorm_matmul", dict(M=8192, K=4096, N=4096)),
    ("layernorm_matmul_m8192_k4096_n4096", "layernorm_matmul", dict(M=8192, K=4096, N=4096)),
    ("gelu_mlp_m2048_d4096_f16384", "gelu_mlp", dict(M=2048, D=4096, F=16384)),
    ("gelu_mlp_m8192_d4096_f16384", "gelu_mlp", dict(M=8192, D=4096, F=16384)),
]


def f32_literal(value):
    """A decimal that parses to the f32 nearest ``value`` (MLIR rounds the
    decimal to f32)."""
    text = "%.9g" % value
    return text if any(c in text for c in ".e") else text + ".0"


def bf16_to_f32_matmul(a, b, m, n, k, acc="acc"):
    """Lines computing the f32 [m, n] product of bf16 %a [m, k] and %b
    [k, n] into %acc (the form of the FFN example)."""
    return """\
  %e_{acc} = tensor.empty() : tensor<{m}x{n}xf32>
  %{acc}0 = linalg.fill ins(%zero : f32) outs(%e_{acc} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %{acc} = linalg.matmul ins(%{a}, %{b} : tensor<{m}x{k}xbf16>, tensor<{k}x{n}xbf16>)
                       outs(%{acc}0 : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
""".format(a=a, b=b, m=m, n=n, k=k, acc=acc)


def truncate(src, dst, m, n):
    """Lines rounding the f32 [m, n] %src to the bf16 %dst."""
    return """\
  %e_{dst} = tensor.empty() : tensor<{m}x{n}xbf16>
  %{dst} = linalg.generic {{indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%{src} : tensor<{m}x{n}xf32>) outs(%e_{dst} : tensor<{m}x{n}xbf16>) {{
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{m}x{n}xbf16>
""".format(src=src, dst=dst, m=m, n=n)


ROW_MAPS = """\
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
"""


def layernorm(src, dst, m, n):
    """Lines of a LayerNorm over the last axis of the bf16 [m, n] %src with
    bf16 %gamma and %beta [n], eps 1e-5, two-pass variance in f32 (as the
    LayerNorm + matmul example, widened), result rounded to the bf16 %dst."""
    return """\
  %nf = arith.constant {nf} : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_m = tensor.empty() : tensor<{m}xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<{m}xf32>) -> tensor<{m}xf32>
  %sum = linalg.generic {{indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}}
      ins(%{src} : tensor<{m}x{n}xbf16>) outs(%sum0 : tensor<{m}xf32>) {{
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.addf %af, %acc : f32
    linalg.yield %r : f32
  }} -> tensor<{m}xf32>
  %mean = linalg.generic {{indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}}
      ins(%sum : tensor<{m}xf32>) outs(%e_m : tensor<{m}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %nf : f32
    linalg.yield %r : f32
  }} -> tensor<{m}xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<{m}xf32>) -> tensor<{m}xf32>
  %sq = linalg.generic {{indexing_maps = [#mn, #m_, #m_], iterator_types = ["parallel", "reduction"]}}
      ins(%{src}, %mean : tensor<{m}x{n}xbf16>, tensor<{m}xf32>) outs(%var0 : tensor<{m}xf32>) {{
  ^bb0(%a: bf16, %mu: f32, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  }} -> tensor<{m}xf32>
  %e_{dst} = tensor.empty() : tensor<{m}x{n}xbf16>
  %{dst} = linalg.generic {{indexing_maps = [#mn, #m_, #m_, #n_, #n_, #mn],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%{src}, %mean, %sq, %gamma, %beta : tensor<{m}x{n}xbf16>, tensor<{m}xf32>, tensor<{m}xf32>, tensor<{n}xbf16>, tensor<{n}xbf16>)
      outs(%e_{dst} : tensor<{m}x{n}xbf16>) {{
  ^bb0(%a: bf16, %mu: f32, %s: f32, %g: bf16, %b: bf16, %o: bf16):
    %var = arith.divf %s, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %nn = arith.mulf %d, %rstd : f32
    %gf = arith.extf %g : bf16 to f32
    %ng = arith.mulf %nn, %gf : f32
    %bf = arith.extf %b : bf16 to f32
    %r = arith.addf %ng, %bf : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{m}x{n}xbf16>
""".format(src=src, dst=dst, m=m, n=n, nf=f32_literal(n))


def rmsnorm(src, dst, m, n):
    """Lines of an RMSNorm over the last axis of the bf16 [m, n] %src with
    the bf16 weight %g [n], eps 1e-6, sum of squares in f32 (the FFN
    example's prologue), result rounded to the bf16 %dst."""
    return """\
  %nf = arith.constant {nf} : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_m = tensor.empty() : tensor<{m}xf32>
  %ss0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<{m}xf32>) -> tensor<{m}xf32>
  %ss = linalg.generic {{indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}}
      ins(%{src} : tensor<{m}x{n}xbf16>) outs(%ss0 : tensor<{m}xf32>) {{
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  }} -> tensor<{m}xf32>
  %e_{dst} = tensor.empty() : tensor<{m}x{n}xbf16>
  %{dst} = linalg.generic {{indexing_maps = [#mn, #m_, #n_, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%{src}, %ss, %g : tensor<{m}x{n}xbf16>, tensor<{m}xf32>, tensor<{n}xbf16>) outs(%e_{dst} : tensor<{m}x{n}xbf16>) {{
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %ms = arith.divf %s, %nf : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %af = arith.extf %a : bf16 to f32
    %nn = arith.mulf %af, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %ng = arith.mulf %nn, %gf : f32
    %t = arith.truncf %ng : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{m}x{n}xbf16>
""".format(src=src, dst=dst, m=m, n=n, nf=f32_literal(n))


def gemm(name, M, K, N):
    return ROW_MAPS + """\
func.func @{name}(%lhs: tensor<{M}x{K}xbf16>, %rhs: tensor<{K}x{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
""".format(name=name, M=M, K=K, N=N) + bf16_to_f32_matmul("lhs", "rhs", M, N, K) + \
        truncate("acc", "out", M, N) + "  return %%out : tensor<%dx%dxbf16>\n}\n" % (M, N)


def layernorm_matmul(name, M, K, N):
    # The `#n_` map of the norm indexes its feature axis, K here.
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{K}xbf16>, %gamma: tensor<{K}xbf16>, %beta: tensor<{K}xbf16>,
                  %w: tensor<{K}x{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
""".format(name=name, M=M, K=K, N=N) + layernorm("x", "xn", M, K) + \
        bf16_to_f32_matmul("xn", "w", M, N, K) + truncate("acc", "out", M, N) + \
        "  return %%out : tensor<%dx%dxbf16>\n}\n" % (M, N)


def rmsnorm_matmul(name, M, K, N):
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{K}xbf16>, %g: tensor<{K}xbf16>,
                  %w: tensor<{K}x{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
""".format(name=name, M=M, K=K, N=N) + rmsnorm("x", "xn", M, K) + \
        bf16_to_f32_matmul("xn", "w", M, N, K) + truncate("acc", "out", M, N) + \
        "  return %%out : tensor<%dx%dxbf16>\n}\n" % (M, N)


def rmsnorm_ffn_swiglu(name, M, D, F):
    with open(os.path.join(ROOT, "examples", "linalg", "rmsnorm_ffn_swiglu.mlir")) as f:
        text = gen_workloads.instantiate(f.read(), {"100": M, "512": D, "1000": F})
    return text.replace("@rmsnorm_ffn_swiglu(", "@%s(" % name, 1)


def gelu_mlp(name, M, D, F):
    # y = x + (gelu(x @ W1 + b1) @ W2 + b2), exact GELU as F.gelu; the
    # hidden activations materialised in bf16 as PyTorch does (the MLP of
    # examples/linalg/gelu_mlp.mlir in bf16, weights [in, out]).
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{D}xbf16>, %w1: tensor<{D}x{F}xbf16>, %b1: tensor<{F}xbf16>,
                  %w2: tensor<{F}x{D}xbf16>, %b2: tensor<{D}xbf16>) -> tensor<{M}x{D}xbf16> {{
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
""".format(name=name, M=M, D=D, F=F) + bf16_to_f32_matmul("x", "w1", M, F, D) + """\
  %e_h = tensor.empty() : tensor<{M}x{F}xbf16>
  %h = linalg.generic {{indexing_maps = [#mn, #n_, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%acc, %b1 : tensor<{M}x{F}xf32>, tensor<{F}xbf16>) outs(%e_h : tensor<{M}x{F}xbf16>) {{
  ^bb0(%a: f32, %b: bf16, %o: bf16):
    %bf = arith.extf %b : bf16 to f32
    %z = arith.addf %a, %bf : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %e = math.erf %s : f32
    %e1 = arith.addf %e, %one : f32
    %zh = arith.mulf %z, %half : f32
    %g = arith.mulf %zh, %e1 : f32
    %t = arith.truncf %g : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{M}x{F}xbf16>
""".format(M=M, F=F) + bf16_to_f32_matmul("h", "w2", M, D, F, acc="acc2") + """\
  %e_out = tensor.empty() : tensor<{M}x{D}xbf16>
  %out = linalg.generic {{indexing_maps = [#mn, #n_, #mn, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%acc2, %b2, %x : tensor<{M}x{D}xf32>, tensor<{D}xbf16>, tensor<{M}x{D}xbf16>)
      outs(%e_out : tensor<{M}x{D}xbf16>) {{
  ^bb0(%a: f32, %b: bf16, %r: bf16, %o: bf16):
    %bf = arith.extf %b : bf16 to f32
    %rf = arith.extf %r : bf16 to f32
    %z = arith.addf %a, %bf : f32
    %y = arith.addf %z, %rf : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{M}x{D}xbf16>
  return %out : tensor<{M}x{D}xbf16>
}}
""".format(M=M, D=D)


def layernorm_alone(name, M, N):
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{N}xbf16>, %gamma: tensor<{N}xbf16>, %beta: tensor<{N}xbf16>)
    -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
""".format(name=name, M=M, N=N) + layernorm("x", "out", M, N) + \
        "  return %%out : tensor<%dx%dxbf16>\n}\n" % (M, N)


def add_gelu_add_layernorm(name, M, N):
    # h = gelu(x + bias) + r (exact GELU, as F.gelu), materialised in bf16
    # as PyTorch does, then LayerNorm(h) * gamma + beta.
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{N}xbf16>, %residual: tensor<{M}x{N}xbf16>, %bias: tensor<{N}xbf16>,
                  %gamma: tensor<{N}xbf16>, %beta: tensor<{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %e_h = tensor.empty() : tensor<{M}x{N}xbf16>
  %h = linalg.generic {{indexing_maps = [#mn, #n_, #mn, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %bias, %residual : tensor<{M}x{N}xbf16>, tensor<{N}xbf16>, tensor<{M}x{N}xbf16>)
      outs(%e_h : tensor<{M}x{N}xbf16>) {{
  ^bb0(%a: bf16, %b: bf16, %res: bf16, %o: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %z = arith.addf %af, %bf : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %e = math.erf %s : f32
    %e1 = arith.addf %e, %one : f32
    %zh = arith.mulf %z, %half : f32
    %gl = arith.mulf %zh, %e1 : f32
    %rf = arith.extf %res : bf16 to f32
    %y = arith.addf %gl, %rf : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{M}x{N}xbf16>
""".format(name=name, M=M, N=N) + layernorm("h", "out", M, N) + \
        "  return %%out : tensor<%dx%dxbf16>\n}\n" % (M, N)


def softmax(name, M, N):
    # torch.softmax(x, -1) on bf16: max, exp(x - max) and its sum in f32,
    # the quotient rounded to bf16 (the attention example's safe softmax).
    return ROW_MAPS + """\
func.func @{name}(%x: tensor<{M}x{N}xbf16>) -> tensor<{M}x{N}xbf16> {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_m = tensor.empty() : tensor<{M}xf32>
  %e_mn = tensor.empty() : tensor<{M}x{N}xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<{M}xf32>) -> tensor<{M}xf32>
  %mx = linalg.generic {{indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<{M}x{N}xbf16>) outs(%m0 : tensor<{M}xf32>) {{
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.maximumf %acc, %af : f32
    linalg.yield %r : f32
  }} -> tensor<{M}xf32>
  %e = linalg.generic {{indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %mx : tensor<{M}x{N}xbf16>, tensor<{M}xf32>) outs(%e_mn : tensor<{M}x{N}xf32>) {{
  ^bb0(%a: bf16, %b: f32, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  }} -> tensor<{M}x{N}xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<{M}xf32>) -> tensor<{M}xf32>
  %l = linalg.generic {{indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}}
      ins(%e : tensor<{M}x{N}xf32>) outs(%l0 : tensor<{M}xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }} -> tensor<{M}xf32>
  %e_out = tensor.empty() : tensor<{M}x{N}xbf16>
  %out = linalg.generic {{indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}}
      ins(%e, %l : tensor<{M}x{N}xf32>, tensor<{M}xf32>) outs(%e_out : tensor<{M}x{N}xbf16>) {{
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %r = arith.divf %a, %b : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{M}x{N}xbf16>
  return %out : tensor<{M}x{N}xbf16>
}}
""".format(name=name, M=M, N=N)


def attention(name, B, H, S, D, causal=False):
    # softmax(Q K^T / sqrt(D)) V with [B, H, S, D] operands, as the anchors'
    # attn_eager: scores accumulated in f32, softmax in f32, probabilities
    # rounded to bf16 before P V (`.to(q.dtype)`), P V accumulated in f32.
    # causal: scores of key j > query i set to -inf (linalg.index) after
    # the scale.
    scale = f32_literal(D ** -0.5)
    mask = ""
    scores = "ss"
    if causal:
        scores = "sm"
        mask = """\
  %sm = linalg.generic {{indexing_maps = [#s4, #s4],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%ss : tensor<{B}x{H}x{S}x{S}xf32>) outs(%e_s : tensor<{B}x{H}x{S}x{S}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}x{S}xf32>
""".format(B=B, H=H, S=S)
    return """\
#qk_q = affine_map<(b, h, m, n, d) -> (b, h, m, d)>
#qk_k = affine_map<(b, h, m, n, d) -> (b, h, n, d)>
#qk_s = affine_map<(b, h, m, n, d) -> (b, h, m, n)>
#s4 = affine_map<(b, h, m, n) -> (b, h, m, n)>
#r4 = affine_map<(b, h, m, n) -> (b, h, m)>
#pv_p = affine_map<(b, h, m, d, n) -> (b, h, m, n)>
#pv_v = affine_map<(b, h, m, d, n) -> (b, h, n, d)>
#pv_o = affine_map<(b, h, m, d, n) -> (b, h, m, d)>
#o4 = affine_map<(b, h, m, d) -> (b, h, m, d)>
func.func @{name}(%q: tensor<{B}x{H}x{S}x{D}xbf16>, %k: tensor<{B}x{H}x{S}x{D}xbf16>,
                  %v: tensor<{B}x{H}x{S}x{D}xbf16>) -> tensor<{B}x{H}x{S}x{D}xbf16> {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant {scale} : f32
  %e_s = tensor.empty() : tensor<{B}x{H}x{S}x{S}xf32>
  %e_r = tensor.empty() : tensor<{B}x{H}x{S}xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<{B}x{H}x{S}x{S}xf32>) -> tensor<{B}x{H}x{S}x{S}xf32>
  %s = linalg.generic {{indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%q, %k : tensor<{B}x{H}x{S}x{D}xbf16>, tensor<{B}x{H}x{S}x{D}xbf16>)
      outs(%s0 : tensor<{B}x{H}x{S}x{S}xf32>) {{
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}x{S}xf32>
  %ss = linalg.generic {{indexing_maps = [#s4, #s4],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%s : tensor<{B}x{H}x{S}x{S}xf32>) outs(%e_s : tensor<{B}x{H}x{S}x{S}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}x{S}xf32>
{mask}  %m0 = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<{B}x{H}x{S}xf32>) -> tensor<{B}x{H}x{S}xf32>
  %m = linalg.generic {{indexing_maps = [#s4, #r4],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%{scores} : tensor<{B}x{H}x{S}x{S}xf32>) outs(%m0 : tensor<{B}x{H}x{S}xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}xf32>
  %e = linalg.generic {{indexing_maps = [#s4, #r4, #s4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%{scores}, %m : tensor<{B}x{H}x{S}x{S}xf32>, tensor<{B}x{H}x{S}xf32>)
      outs(%e_s : tensor<{B}x{H}x{S}x{S}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}x{S}xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_r : tensor<{B}x{H}x{S}xf32>) -> tensor<{B}x{H}x{S}xf32>
  %l = linalg.generic {{indexing_maps = [#s4, #r4],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%e : tensor<{B}x{H}x{S}x{S}xf32>) outs(%l0 : tensor<{B}x{H}x{S}xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}xf32>
  %e_p = tensor.empty() : tensor<{B}x{H}x{S}x{S}xbf16>
  %p = linalg.generic {{indexing_maps = [#s4, #r4, #s4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%e, %l : tensor<{B}x{H}x{S}x{S}xf32>, tensor<{B}x{H}x{S}xf32>)
      outs(%e_p : tensor<{B}x{H}x{S}x{S}xbf16>) {{
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %r = arith.divf %a, %b : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{B}x{H}x{S}x{S}xbf16>
  %e_o = tensor.empty() : tensor<{B}x{H}x{S}x{D}xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<{B}x{H}x{S}x{D}xf32>) -> tensor<{B}x{H}x{S}x{D}xf32>
  %o = linalg.generic {{indexing_maps = [#pv_p, #pv_v, #pv_o],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%p, %v : tensor<{B}x{H}x{S}x{S}xbf16>, tensor<{B}x{H}x{S}x{D}xbf16>)
      outs(%o0 : tensor<{B}x{H}x{S}x{D}xf32>) {{
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %x = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }} -> tensor<{B}x{H}x{S}x{D}xf32>
  %e_out = tensor.empty() : tensor<{B}x{H}x{S}x{D}xbf16>
  %out = linalg.generic {{indexing_maps = [#o4, #o4],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%o : tensor<{B}x{H}x{S}x{D}xf32>) outs(%e_out : tensor<{B}x{H}x{S}x{D}xbf16>) {{
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }} -> tensor<{B}x{H}x{S}x{D}xbf16>
  return %out : tensor<{B}x{H}x{S}x{D}xbf16>
}}
""".format(name=name, B=B, H=H, S=S, D=D, scale=scale, mask=mask, scores=scores)


def attention_causal(name, B, H, S, D):
    return attention(name, B, H, S, D, causal=True)


GENERATORS = {
    "gemm": gemm,
    "layernorm_matmul": layernorm_matmul,
    "rmsnorm_matmul": rmsnorm_matmul,
    "rmsnorm_ffn_swiglu": rmsnorm_ffn_swiglu,
    "gelu_mlp": gelu_mlp,
    "layernorm": layernorm_alone,
    "add_gelu_add_layernorm": add_gelu_add_layernorm,
    "softmax": softmax,
    "attention": attention,
    "attention_causal": attention_causal,
}


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0] if lines else "no output"


def compile_flags(kind, params, attention_rows=None):
    """bb-compile flags of a workload. Attention: none by default, since
    block-select gives bf16 attention the blocks gpu-flash-attention runs
    with every tile in registers (one (batch, head) and 16 query rows per
    warp: 64 at 128 threads). `attention_rows` overrides the query rows:
    blocks of that many queries and 64 keys on one warp per 16 rows. The
    axes are a0 = B, a1 = H, a2 = M, a3 = N; an extent-1 B is dropped from
    the program, and H becomes a0."""
    if kind not in ("attention", "attention_causal") or attention_rows is None:
        return []
    axes = ["a%d" % i for i in range(4)]
    sizes = [1, 1, attention_rows, 64]
    if params["B"] == 1:
        axes, sizes = axes[:3], sizes[1:]
    return ["--block-sizes", ",".join("%s=%d" % kv for kv in zip(axes, sizes)),
            "--threads-per-block", str(2 * attention_rows)]


def compile_one(bb_compile, art, name, kind, params, chip="sm_90a", flags=(),
                attention_rows=None):
    src = os.path.join(art, name + ".mlir")
    with open(src, "w") as f:
        f.write("// Generated by scripts/build-anchors.py: %s %s.\n" % (
            kind, " ".join("%s=%d" % kv for kv in params.items())))
        f.write(GENERATORS[kind](name, **params))
    entry = {"name": name, "kind": kind, "params": params, "source": name + ".mlir"}
    start = time.perf_counter()
    entry["chip"] = chip
    if flags:
        entry["flags"] = " ".join(flags)
    proc = subprocess.run([bb_compile, src, "-o", os.path.join(art, name),
                           "--chip", chip]
                          + compile_flags(kind, params, attention_rows)
                          + list(flags),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    entry["compile_s"] = round(time.perf_counter() - start, 3)
    if proc.returncode != 0:
        entry["error"] = first_error(proc.stdout)
        return entry
    with open(os.path.join(art, name, "manifest.json")) as f:
        manifest = json.load(f)
    entry["kernels"] = len(manifest["launches"])
    entry["grids"] = ["x".join(map(str, l["grid"])) for l in manifest["launches"]]
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("art", help="output directory")
    built = os.path.join(ROOT, "build", "bin", "bb-compile")
    parser.add_argument("--bb-compile",
                        default=built if os.path.exists(built) else shutil.which("bb-compile"))
    parser.add_argument("--only", nargs="*", default=None,
                        help="only workloads whose name contains one of these")
    parser.add_argument("--list", action="store_true", help="print the workloads and stop")
    parser.add_argument("--chip", default="sm_90a",
                        help="bb-compile's --chip (default: sm_90a, the H100's)")
    parser.add_argument("--attention-rows", type=int, default=None,
                        help="query rows per attention block (16 per warp; "
                             "default: block-select's choice, 64 at 128 "
                             "threads)")
    parser.add_argument("--gemm", nargs="*", default=[], metavar="MxKxN",
                        help="also plain GEMMs of these shapes")
    parser.add_argument("--norm-matmul", nargs="*", default=[], metavar="MxKxN",
                        help="also LayerNorm+matmul and RMSNorm+matmul of these shapes")
    parser.add_argument("--ffn", nargs="*", default=[], metavar="MxDxF",
                        help="also the RMSNorm + SwiGLU FFN at these shapes")
    parser.add_argument("--gelu-mlp", nargs="*", default=[], metavar="MxDxF",
                        help="also the GELU MLP at these shapes")
    parser.add_argument("--rows", nargs="*", default=[], metavar="MxN",
                        help="also softmax, LayerNorm and add+GELU+add+LayerNorm "
                             "over rows of these shapes")
    parser.add_argument("--attention", nargs="*", default=[], metavar="BxHxSxD",
                        help="also attention (bf16, P rounded as the anchors) "
                             "of these shapes, unmasked and causal (issue 15's "
                             "sweep)")
    parser.add_argument("--variant", action="append", default=[],
                        metavar="NAME=FLAGS",
                        help="also compile each workload with these extra "
                             "bb-compile flags, as WORKLOAD__NAME (repeatable; "
                             "bench-anchors times each as its own row)")
    args = parser.parse_args()
    variants = [("", [])]
    for text in args.variant:
        label, _, flags = text.partition("=")
        variants.append(("__" + label, flags.split()))
    workloads = list(WORKLOADS)
    for shape in args.gemm:
        m, k, n = (int(x) for x in shape.split("x"))
        workloads.append(("gemm_m%d_k%d_n%d" % (m, k, n), "gemm", dict(M=m, K=k, N=n)))
    for shape in args.norm_matmul:
        m, k, n = (int(x) for x in shape.split("x"))
        for kind in ("layernorm_matmul", "rmsnorm_matmul"):
            workloads.append(("%s_m%d_k%d_n%d" % (kind, m, k, n), kind, dict(M=m, K=k, N=n)))
    for shape in args.ffn:
        m, d, f = (int(x) for x in shape.split("x"))
        workloads.append(("rmsnorm_ffn_swiglu_m%d_d%d_f%d" % (m, d, f), "rmsnorm_ffn_swiglu",
                          dict(M=m, D=d, F=f)))
    for shape in args.gelu_mlp:
        m, d, f = (int(x) for x in shape.split("x"))
        workloads.append(("gelu_mlp_m%d_d%d_f%d" % (m, d, f), "gelu_mlp", dict(M=m, D=d, F=f)))
    for shape in args.rows:
        m, n = (int(x) for x in shape.split("x"))
        for kind in ("softmax", "layernorm", "add_gelu_add_layernorm"):
            workloads.append(("%s_m%d_n%d" % (kind, m, n), kind, dict(M=m, N=n)))
    for shape in args.attention:
        b, h, n, d = (int(x) for x in shape.split("x"))
        for kind in ("attention", "attention_causal"):
            workloads.append(("%s_b%d_h%d_s%d_d%d" % (kind, b, h, n, d), kind,
                              dict(B=b, H=h, S=n, D=d)))
    selected = [w for w in workloads
                if args.only is None or any(s in w[0] for s in args.only)]
    if args.list:
        for name, kind, params in selected:
            print(name, kind, params)
        return 0
    os.makedirs(args.art, exist_ok=True)
    index = []
    for (name, kind, params), (suffix, flags) in (
            (w, v) for w in selected for v in variants):
        name += suffix
        entry = compile_one(args.bb_compile, args.art, name, kind, params, args.chip,
                            flags, args.attention_rows)
        index.append(entry)
        print("%-42s %6.2f s  %s" % (
            name, entry["compile_s"],
            "kernels: %d, grids %s" % (entry["kernels"], " ".join(entry["grids"]))
            if "kernels" in entry else entry["error"]), flush=True)
        with open(os.path.join(args.art, "index.json"), "w") as f:
            json.dump(index, f, indent=1)
    failed = [e["name"] for e in index if "error" in e]
    print("%d workloads, %d compiled, failed: %s" % (
        len(index), len(index) - len(failed), " ".join(failed) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
