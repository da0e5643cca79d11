#!/usr/bin/env python3
"""Writes f16/bf16 contraction programs that exercise the tensor-core
lowering of dots (gpu-contractions-to-mma) as Linalg files, one per program.

    python3 scripts/gen-mma-programs.py OUT_DIR

Operand layouts: A[m, k] or A[k, m]; B[k, n] or B[n, k] (the attention
Q K^T form); a batch dimension; f32 accumulation (extf in the body) and
same-type accumulation (linalg.matmul in f16/bf16, as torch-mlir emits it);
a chain of two dots with an elementwise op between. Sizes include ones that
are not multiples of the mma shape (16x8x16) or of any block size, and
degenerate ones (1). scripts/prepare-gpu-difftest.sh OUT DIR compiles them
and records upstream MLIR's CPU results for scripts/gpu-difftest.py.
"""

import os
import sys

SIZES = [(1, 1, 1), (16, 8, 16), (17, 9, 33), (64, 64, 64), (100, 200, 70),
         (130, 96, 300)]


def widening(name, dtype, m, n, k, a_t=False, b_t=False, batch=None):
    """C[m, n] = sum_k ext(A) * ext(B) in f32, as a linalg.generic."""
    b = [batch] if batch else []
    bd = ["b"] if batch else []
    a_shape = b + ([k, m] if a_t else [m, k])
    b_shape = b + ([n, k] if b_t else [k, n])
    c_shape = b + [m, n]
    dims = ", ".join(bd + ["m", "n", "k"])
    a_map = ", ".join(bd + (["k", "m"] if a_t else ["m", "k"]))
    b_map = ", ".join(bd + (["n", "k"] if b_t else ["k", "n"]))
    c_map = ", ".join(bd + ["m", "n"])
    iters = ", ".join(['"parallel"'] * (len(bd) + 2) + ['"reduction"'])
    t = lambda shape, et: "tensor<" + "x".join(map(str, shape)) + "x" + et + ">"
    return f"""// {name}: f32 accumulation of {dtype} operands.
func.func @{name}(%a: {t(a_shape, dtype)}, %b: {t(b_shape, dtype)}) -> {t(c_shape, "f32")} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t(c_shape, "f32")}
  %c0 = linalg.fill ins(%zero : f32) outs(%e : {t(c_shape, "f32")}) -> {t(c_shape, "f32")}
  %c = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({a_map})>,
                                        affine_map<({dims}) -> ({b_map})>,
                                        affine_map<({dims}) -> ({c_map})>],
                       iterator_types = [{iters}]}}
      ins(%a, %b : {t(a_shape, dtype)}, {t(b_shape, dtype)}) outs(%c0 : {t(c_shape, "f32")}) {{
  ^bb0(%x: {dtype}, %y: {dtype}, %acc: f32):
    %xf = arith.extf %x : {dtype} to f32
    %yf = arith.extf %y : {dtype} to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {t(c_shape, "f32")}
  return %c : {t(c_shape, "f32")}
}}
"""


def same_type(name, dtype, m, n, k):
    """linalg.matmul with the operands' type as the result type."""
    t = lambda shape: "tensor<" + "x".join(map(str, shape)) + "x" + dtype + ">"
    return f"""// {name}: linalg.matmul accumulating in {dtype}.
func.func @{name}(%a: {t([m, k])}, %b: {t([k, n])}) -> {t([m, n])} {{
  %zero = arith.constant 0.0 : {dtype}
  %e = tensor.empty() : {t([m, n])}
  %c0 = linalg.fill ins(%zero : {dtype}) outs(%e : {t([m, n])}) -> {t([m, n])}
  %c = linalg.matmul ins(%a, %b : {t([m, k])}, {t([k, n])}) outs(%c0 : {t([m, n])}) -> {t([m, n])}
  return %c : {t([m, n])}
}}
"""


def chain(name, dtype, m, k, f, n):
    """relu(A @ W1) @ W2, rounding the hidden activation to the storage type."""
    t = lambda shape, et=dtype: "tensor<" + "x".join(map(str, shape)) + "x" + et + ">"
    mm = """  %{out} = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (k, n)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%{x}, %{w} : {xt}, {wt}) outs(%{init} : {ct}) {{
  ^bb0(%p: {d}, %q: {d}, %acc: f32):
    %pf = arith.extf %p : {d} to f32
    %qf = arith.extf %q : {d} to f32
    %pq = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %pq : f32
    linalg.yield %s : f32
  }} -> {ct}
"""
    body = mm.format(out="h", x="x", w="w1", init="h0", xt=t([m, k]), wt=t([k, f]),
                     ct=t([m, f], "f32"), d=dtype)
    body += mm.format(out="o", x="r", w="w2", init="o0", xt=t([m, f]), wt=t([f, n]),
                      ct=t([m, n], "f32"), d=dtype)
    relu = f"""  %er = tensor.empty() : {t([m, f])}
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%h : {t([m, f], "f32")}) outs(%er : {t([m, f])}) {{
  ^bb0(%v: f32, %o: {dtype}):
    %z = arith.constant 0.0 : f32
    %mx = arith.maximumf %v, %z : f32
    %tr = arith.truncf %mx : f32 to {dtype}
    linalg.yield %tr : {dtype}
  }} -> {t([m, f])}
"""
    first, second = body.split("  %o = ")
    return f"""// {name}: two dots with a ReLU between, {dtype} storage.
func.func @{name}(%x: {t([m, k])}, %w1: {t([k, f])}, %w2: {t([f, n])}) -> {t([m, n], "f32")} {{
  %zero = arith.constant 0.0 : f32
  %eh = tensor.empty() : {t([m, f], "f32")}
  %h0 = linalg.fill ins(%zero : f32) outs(%eh : {t([m, f], "f32")}) -> {t([m, f], "f32")}
  %eo = tensor.empty() : {t([m, n], "f32")}
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : {t([m, n], "f32")}) -> {t([m, n], "f32")}
{first}{relu}  %o = {second}  return %o : {t([m, n], "f32")}
}}
"""


def programs():
    for dtype in ("bf16", "f16"):
        for m, n, k in SIZES:
            yield f"mm_{dtype}_{m}x{n}x{k}", widening(f"mm_{dtype}_{m}x{n}x{k}", dtype, m, n, k)
        for m, n, k in SIZES[2:5]:
            for a_t, b_t, tag in ((False, True, "bt"), (True, False, "at"), (True, True, "atbt")):
                name = f"mm_{tag}_{dtype}_{m}x{n}x{k}"
                yield name, widening(name, dtype, m, n, k, a_t=a_t, b_t=b_t)
            name = f"bmm_{dtype}_3x{m}x{n}x{k}"
            yield name, widening(name, dtype, m, n, k, batch=3)
        for m, n, k in SIZES[2:5]:
            name = f"matmul_{dtype}_{m}x{n}x{k}"
            yield name, same_type(name, dtype, m, n, k)
        name = f"chain_{dtype}_50x96x200x40"
        yield name, chain(name, dtype, 50, 96, 200, 40)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in programs():
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
