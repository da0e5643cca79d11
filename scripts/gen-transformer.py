#!/usr/bin/env python3
"""Writes N stacked transformer layers as Linalg on tensors, the way a
frontend lowers them, for compile-time measurements (docs/performance.md).

Each layer: LayerNorm, Q/K/V projections, single-head attention with a safe
softmax, output projection and residual add, RMSNorm, a SwiGLU feed-forward
block and a residual add. Weights are function arguments.

    python3 scripts/gen-transformer.py --layers 32 > /tmp/t32.mlir
"""

import argparse


class Emitter:
    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"%{stem}{self.count}"

    def emit(self, text):
        self.lines.append("  " + text)

    def empty(self, shape):
        name = self.fresh("e")
        self.emit(f"{name} = tensor.empty() : {tensor(shape)}")
        return name

    def fill(self, shape, value):
        empty = self.empty(shape)
        name = self.fresh("f")
        self.emit(f"{name} = linalg.fill ins({value} : f32) outs({empty} : {tensor(shape)}) -> {tensor(shape)}")
        return name

    def generic(self, ins, out_shape, maps, iterators, body, init=None):
        """ins: list of (value, shape); maps: affine maps for ins + out."""
        name = self.fresh("g")
        init = init or self.empty(out_shape)
        args = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
        ins_text = ", ".join(v for v, _ in ins)
        types = ", ".join(tensor(s) for _, s in ins)
        map_text = ", ".join(f"affine_map<{m}>" for m in maps)
        iters = ", ".join(f'"{i}"' for i in iterators)
        self.emit(f"{name} = linalg.generic {{indexing_maps = [{map_text}], iterator_types = [{iters}]}}")
        self.emit(f"    ins({ins_text} : {types}) outs({init} : {tensor(out_shape)}) {{")
        self.emit(f"^bb0({args}, %acc: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"}} -> {tensor(out_shape)}")
        return name

    def matmul(self, a, b, m, k, n):
        init = self.fill([m, n], "%zero")
        name = self.fresh("mm")
        self.emit(f"{name} = linalg.matmul ins({a}, {b} : {tensor([m, k])}, {tensor([k, n])}) "
                  f"outs({init} : {tensor([m, n])}) -> {tensor([m, n])}")
        return name

    def row_reduce(self, x, m, n, body, init_value):
        init = self.fill([m], init_value)
        return self.generic([(x, [m, n])], [m],
                            ["(i, j) -> (i, j)", "(i, j) -> (i)"],
                            ["parallel", "reduction"], body, init=init)


def tensor(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def layer(e, x, w, seq, dim, ffn):
    ident2 = "(i, j) -> (i, j)"
    row = "(i, j) -> (i)"
    col = "(i, j) -> (j)"
    # LayerNorm.
    s = e.row_reduce(x, seq, dim, ["%r = arith.addf %a0, %acc : f32", "linalg.yield %r : f32"], "%zero")
    mu = e.generic([(s, [seq])], [seq], ["(i) -> (i)", "(i) -> (i)"], ["parallel"],
                   ["%r = arith.divf %a0, %dimf : f32", "linalg.yield %r : f32"])
    v = e.generic([(x, [seq, dim]), (mu, [seq])], [seq],
                  [ident2, row, row], ["parallel", "reduction"],
                  ["%d = arith.subf %a0, %a1 : f32", "%q = arith.mulf %d, %d : f32",
                   "%r = arith.addf %q, %acc : f32", "linalg.yield %r : f32"],
                  init=e.fill([seq], "%zero"))
    xn = e.generic([(x, [seq, dim]), (mu, [seq]), (v, [seq]), (w["g1"], [dim])], [seq, dim],
                   [ident2, row, row, col, ident2], ["parallel", "parallel"],
                   ["%var = arith.divf %a2, %dimf : f32", "%ve = arith.addf %var, %eps : f32",
                    "%rs = math.rsqrt %ve : f32", "%d = arith.subf %a0, %a1 : f32",
                    "%n = arith.mulf %d, %rs : f32", "%r = arith.mulf %n, %a3 : f32",
                    "linalg.yield %r : f32"])
    # Attention.
    q = e.matmul(xn, w["wq"], seq, dim, dim)
    k = e.matmul(xn, w["wk"], seq, dim, dim)
    vv = e.matmul(xn, w["wv"], seq, dim, dim)
    sc = e.generic([(q, [seq, dim]), (k, [seq, dim])], [seq, seq],
                   ["(i, j, d) -> (i, d)", "(i, j, d) -> (j, d)", "(i, j, d) -> (i, j)"],
                   ["parallel", "parallel", "reduction"],
                   ["%p = arith.mulf %a0, %a1 : f32", "%r = arith.addf %acc, %p : f32", "linalg.yield %r : f32"],
                   init=e.fill([seq, seq], "%zero"))
    mx = e.row_reduce(sc, seq, seq, ["%r = arith.maximumf %acc, %a0 : f32", "linalg.yield %r : f32"], "%ninf")
    ex = e.generic([(sc, [seq, seq]), (mx, [seq])], [seq, seq], [ident2, row, ident2], ["parallel", "parallel"],
                   ["%d = arith.subf %a0, %a1 : f32", "%r = math.exp %d : f32", "linalg.yield %r : f32"])
    l = e.row_reduce(ex, seq, seq, ["%r = arith.addf %acc, %a0 : f32", "linalg.yield %r : f32"], "%zero")
    p = e.generic([(ex, [seq, seq]), (l, [seq])], [seq, seq], [ident2, row, ident2], ["parallel", "parallel"],
                  ["%r = arith.divf %a0, %a1 : f32", "linalg.yield %r : f32"])
    o = e.matmul(p, vv, seq, seq, dim)
    proj = e.matmul(o, w["wo"], seq, dim, dim)
    h = e.generic([(proj, [seq, dim]), (x, [seq, dim])], [seq, dim], [ident2, ident2, ident2], ["parallel", "parallel"],
                  ["%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"])
    # RMSNorm + SwiGLU.
    ss = e.row_reduce(h, seq, dim, ["%q = arith.mulf %a0, %a0 : f32", "%r = arith.addf %acc, %q : f32",
                                    "linalg.yield %r : f32"], "%zero")
    hn = e.generic([(h, [seq, dim]), (ss, [seq]), (w["g2"], [dim])], [seq, dim], [ident2, row, col, ident2],
                   ["parallel", "parallel"],
                   ["%ms = arith.divf %a1, %dimf : f32", "%me = arith.addf %ms, %eps : f32",
                    "%r = math.rsqrt %me : f32", "%n = arith.mulf %a0, %r : f32",
                    "%y = arith.mulf %n, %a2 : f32", "linalg.yield %y : f32"])
    a1 = e.matmul(hn, w["w1"], seq, dim, ffn)
    a3 = e.matmul(hn, w["w3"], seq, dim, ffn)
    g = e.generic([(a1, [seq, ffn]), (a3, [seq, ffn])], [seq, ffn], [ident2, ident2, ident2], ["parallel", "parallel"],
                  ["%n = arith.negf %a0 : f32", "%ex = math.exp %n : f32", "%d = arith.addf %one, %ex : f32",
                   "%s = arith.divf %a0, %d : f32", "%r = arith.mulf %s, %a1 : f32", "linalg.yield %r : f32"])
    down = e.matmul(g, w["w2"], seq, ffn, dim)
    return e.generic([(down, [seq, dim]), (h, [seq, dim])], [seq, dim], [ident2, ident2, ident2],
                     ["parallel", "parallel"], ["%r = arith.addf %a0, %a1 : f32", "linalg.yield %r : f32"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--ffn", type=int, default=1024)
    args = parser.parse_args()
    seq, dim, ffn = args.seq, args.dim, args.ffn

    shapes = {"g1": [dim], "wq": [dim, dim], "wk": [dim, dim], "wv": [dim, dim], "wo": [dim, dim],
              "g2": [dim], "w1": [dim, ffn], "w3": [dim, ffn], "w2": [ffn, dim]}
    params = [f"%x: {tensor([seq, dim])}"]
    weights = []
    for i in range(args.layers):
        w = {}
        for key, shape in shapes.items():
            w[key] = f"%{key}_{i}"
            params.append(f"{w[key]}: {tensor(shape)}")
        weights.append(w)

    e = Emitter()
    e.emit("%zero = arith.constant 0.0 : f32")
    e.emit("%one = arith.constant 1.0 : f32")
    e.emit("%ninf = arith.constant 0xFF800000 : f32")
    e.emit(f"%dimf = arith.constant {float(dim)} : f32")
    e.emit("%eps = arith.constant 1.0e-5 : f32")
    x = "%x"
    for w in weights:
        x = layer(e, x, w, seq, dim, ffn)
    e.emit(f"return {x} : {tensor([seq, dim])}")

    print(f"// {args.layers} transformer layer(s): seq {seq}, dim {dim}, ffn {ffn}.")
    print(f"func.func @transformer({', '.join(params)}) -> {tensor([seq, dim])} {{")
    print("\n".join(e.lines))
    print("}")


if __name__ == "__main__":
    main()
