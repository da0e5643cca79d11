"""Prints a Program as Linalg on tensors (func.func, linalg, arith, math).

Every operator is printed in the form its `style` names: a `linalg.generic`,
or a named op (`linalg.matmul`, `linalg.batch_matmul`, `linalg.reduce`,
`linalg.softmax`, `linalg.add`, `linalg.exp`, ...) with the
`linalg.transpose` / `linalg.broadcast` ops its operands need. Output is a
pure function of the program, so a seed always prints the same text.
"""

from .program import UNIT, tensor_type


def fmt_float(c):
    if c == float("inf"):
        return "0x7F800000"
    if c == float("-inf"):
        return "0xFF800000"
    return "%.9e" % c


def affine(n, results):
    loops = ", ".join("d%d" % i for i in range(n))
    return "affine_map<(%s) -> (%s)>" % (loops, ", ".join(results))


class Emitter:
    def __init__(self, prog):
        self.prog = prog
        self.lines = []
        self.tmp = 0

    def fresh(self):
        self.tmp += 1
        return "%%t%d" % self.tmp

    def ty(self, dims):
        return tensor_type(self.prog, dims)

    def line(self, text, indent=2):
        self.lines.append(" " * indent + text)

    # -- shared pieces ---------------------------------------------------

    def empty(self, dims):
        t = self.fresh()
        self.line("%s = tensor.empty() : %s" % (t, self.ty(dims)))
        return t

    def fill(self, c, dims):
        e = self.empty(dims)
        c_ = self.fresh()
        self.line("%s = arith.constant %s : f32" % (c_, fmt_float(c)))
        t = self.fresh()
        ty = self.ty(dims)
        self.line("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                  % (t, c_, e, ty, ty))
        return t

    def input_map(self, loops, v):
        return affine(len(loops), ["0" if d == UNIT else "d%d" % loops.index(d)
                                   for d in v.dims])

    def name(self, v):
        return "%%v%d" % v.id

    # -- scalar bodies ----------------------------------------------------

    def body_expr(self, e, ins, loops, out, indent):
        """Prints the ops of expression `e` in a region; returns its name."""
        def op(text):
            t = self.fresh()
            self.line("%s = %s" % (t, text), indent)
            return t

        def const(c):
            return op("arith.constant %s : f32" % fmt_float(c))

        def rec(x):
            k = x[0]
            if k == "in":
                return ins[x[1]]
            if k == "scalar":
                return "%%v%d" % x[1]
            if k == "const":
                return const(x[1])
            if k == "un":
                name, a = x[1], rec(x[2])
                simple = {"negf": "arith.negf", "absf": "math.absf",
                          "exp": "math.exp", "tanh": "math.tanh",
                          "erf": "math.erf", "sin": "math.sin",
                          "cos": "math.cos"}
                if name in simple:
                    return op("%s %s : f32" % (simple[name], a))
                if name == "square":
                    return op("arith.mulf %s, %s : f32" % (a, a))
                if name == "fpowi2" or name == "cube":
                    n = op("arith.constant %d : i32" % (2 if name == "fpowi2" else 3))
                    return op("math.fpowi %s, %s : f32, i32" % (a, n))
                if name == "powf2":
                    return op("math.powf %s, %s : f32" % (a, const(2.0)))
                sq = op("arith.mulf %s, %s : f32" % (a, a)) if name in (
                    "sqrtsq", "logsq", "rsqrtsq", "powhalf") else None
                if name == "sqrtsq":
                    s = op("arith.addf %s, %s : f32" % (sq, const(0.25)))
                    return op("math.sqrt %s : f32" % s)
                if name == "logsq":
                    s = op("arith.addf %s, %s : f32" % (sq, const(1.0)))
                    return op("math.log %s : f32" % s)
                if name == "rsqrtsq":
                    s = op("arith.addf %s, %s : f32" % (sq, const(0.5)))
                    return op("math.rsqrt %s : f32" % s)
                if name == "powhalf":
                    s = op("arith.addf %s, %s : f32" % (sq, const(1.0)))
                    return op("math.powf %s, %s : f32" % (s, const(0.5)))
                if name == "sigmoid":
                    n = op("arith.negf %s : f32" % a)
                    ex = op("math.exp %s : f32" % n)
                    one = const(1.0)
                    d = op("arith.addf %s, %s : f32" % (one, ex))
                    return op("arith.divf %s, %s : f32" % (one, d))
                raise ValueError("unknown unary %s" % name)
            if k == "bin":
                name, a, b = x[1], rec(x[2]), rec(x[3])
                if name == "divf_plain":
                    return op("arith.divf %s, %s : f32" % (a, b))
                if name == "divsafe":
                    sq = op("arith.mulf %s, %s : f32" % (b, b))
                    d = op("arith.addf %s, %s : f32" % (sq, const(1.0)))
                    return op("arith.divf %s, %s : f32" % (a, d))
                return op("arith.%s %s, %s : f32" % (name, a, b))
            if k == "rsqrt_eps":
                s = op("arith.addf %s, %s : f32" % (rec(x[1]), const(x[2])))
                return op("math.rsqrt %s : f32" % s)
            if k == "sel":
                pred, a, b, t, f = x[1], rec(x[2]), rec(x[3]), rec(x[4]), rec(x[5])
                c = op("arith.cmpf %s, %s, %s : f32" % (pred, a, b))
                return op("arith.select %s, %s, %s : f32" % (c, t, f))
            if k == "causal":
                i = op("linalg.index %d : index" % loops.index(x[1]))
                j = op("linalg.index %d : index" % loops.index(x[2]))
                t, f = rec(x[3]), rec(x[4])
                c = op("arith.cmpi sge, %s, %s : index" % (i, j))
                return op("arith.select %s, %s, %s : f32" % (c, t, f))
            raise ValueError("unknown expression %r" % (x,))

        return rec(e)

    def generic(self, result, loops, iters, inputs, out_init, out_map, body):
        """A linalg.generic; body(ins, acc, indent) prints the region and
        returns the yielded name."""
        maps = [self.input_map(loops, v) for v in inputs] + [out_map]
        rty = self.ty(result.dims)
        ins = ", ".join(self.name(v) for v in inputs)
        tys = ", ".join(self.ty(v.dims) if not v.scalar else "f32" for v in inputs)
        self.line("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                  % (self.name(result), ", ".join(maps),
                     ", ".join('"%s"' % i for i in iters)))
        if inputs:
            self.line("    ins(%s : %s) outs(%s : %s) {" % (ins, tys, out_init, rty))
        else:
            self.line("    outs(%s : %s) {" % (out_init, rty))
        args = ["%%in%d: f32" % i for i in range(len(inputs))] + ["%acc: f32"]
        self.line("^bb0(%s):" % ", ".join(args), 0)
        r = body(["%%in%d" % i for i in range(len(inputs))], "%acc", 4)
        self.line("linalg.yield %s : f32" % r, 4)
        self.line("} -> %s" % rty)

    # -- layout changes for named ops ------------------------------------

    def transposed(self, v, dims):
        """`v` as a tensor of `dims` (a permutation), via linalg.transpose."""
        if tuple(v.dims) == tuple(dims):
            return self.name(v)
        e = self.empty(dims)
        t = self.fresh()
        perm = [v.dims.index(d) for d in dims]
        self.line("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                  % (t, self.name(v), self.ty(v.dims), e, self.ty(dims),
                     ", ".join(map(str, perm))))
        return t

    def broadcast_to(self, v, dims):
        """`v` as a tensor of `dims`: transposed into the order of `dims`,
        then linalg.broadcast over the dimensions it lacks."""
        have = [d for d in dims if d in v.dims]
        src = self.transposed(v, have)
        if len(have) == len(dims):
            return src
        e = self.empty(dims)
        t = self.fresh()
        added = [i for i, d in enumerate(dims) if d not in v.dims]
        self.line("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (t, src, self.ty(have), e, self.ty(dims),
                     ", ".join(map(str, added))))
        return t

    # -- operators --------------------------------------------------------

    def emit_op(self, op):
        getattr(self, "op_" + op.kind)(op)

    def op_ew(self, op):
        r = op.result
        loops = list(r.dims)
        if op.style.startswith("named:"):
            name = op.style[len("named:"):]
            srcs = [self.broadcast_to(v, loops) for v in op.inputs]
            e = self.empty(loops)
            ty = self.ty(loops)
            self.line("%s = linalg.%s ins(%s : %s) outs(%s : %s) -> %s"
                      % (self.name(r), name, ", ".join(srcs),
                         ", ".join([ty] * len(srcs)), e, ty, ty))
            return
        e = self.empty(loops)
        self.generic(r, loops, ["parallel"] * len(loops), op.inputs, e,
                     affine(len(loops), ["d%d" % i for i in range(len(loops))]),
                     lambda ins, acc, ind: self.body_expr(op.expr, ins, loops, r, ind))

    def init_of(self, op, dims):
        kind, x = op.init
        if kind == "fill":
            return self.fill(x, dims)
        return self.name(op.inputs[x])

    def op_reduce(self, op):
        r, x = op.result, op.inputs[0]
        loops = list(x.dims)
        init = self.init_of(op, r.dims)
        if op.style == "named":
            ty = self.ty(r.dims)
            self.line("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                      % (self.name(r), self.name(x), self.ty(x.dims), init, ty,
                         ", ".join(str(i) for i in sorted(loops.index(d)
                                                          for d in op.rdims))))
            self.line("  (%in: f32, %acc: f32) {")
            t = self.fresh()
            self.line("%s = arith.%s %%in, %%acc : f32" % (t, op.combiner), 4)
            self.line("linalg.yield %s : f32" % t, 4)
            self.line("}")
            return
        out_map = []
        for d in loops:
            if d in op.rdims:
                if op.keepdim:
                    out_map.append("0")
            else:
                out_map.append("d%d" % loops.index(d))
        inputs = [v for i, v in enumerate(op.inputs)
                  if not (op.init[0] == "value" and op.init[1] == i)]
        iters = ["reduction" if d in op.rdims else "parallel" for d in loops]

        def body(ins, acc, ind):
            # Inputs exclude the init value; expression indices are op
            # operand indices, which keep the init (if any) last.
            t = self.body_expr(op.expr, ins, loops, r, ind)
            y = self.fresh()
            a, b = (acc, t) if op.acc_first else (t, acc)
            self.line("%s = arith.%s %s, %s : f32" % (y, op.combiner, a, b), ind)
            return y

        self.generic(r, loops, iters, inputs, init,
                     affine(len(loops), out_map), body)

    def op_contract(self, op):
        r = op.result
        a, b = op.inputs[0], op.inputs[1]
        red = [d for d in a.dims if d in b.dims and d not in r.dims]
        loops = list(r.dims) + red
        init = self.init_of(op, r.dims)
        ty = self.ty(r.dims)
        if op.style == "generic":
            iters = ["parallel"] * len(r.dims) + ["reduction"] * len(red)

            def body(ins, acc, ind):
                p = self.fresh()
                self.line("%s = arith.mulf %s, %s : f32" % (p, ins[0], ins[1]), ind)
                y = self.fresh()
                x, z = (acc, p) if op.acc_first else (p, acc)
                self.line("%s = arith.addf %s, %s : f32" % (y, x, z), ind)
                return y

            self.generic(r, loops, iters, [a, b], init,
                         affine(len(loops), ["d%d" % i for i in range(len(r.dims))]),
                         body)
            return
        if op.style == "matmul_maps":
            # (m, n, k) loops; operands in their stored layouts.
            m, n = r.dims
            k = red[0]
            order = [m, n, k]
            maps = [affine(3, ["d%d" % order.index(d) for d in v.dims]) for v in (a, b)]
            maps.append(affine(3, ["d0", "d1"]))
            self.line("%s = linalg.matmul indexing_maps = [%s]"
                      % (self.name(r), ", ".join(maps)))
            self.line("    ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                      % (self.name(a), self.name(b), self.ty(a.dims),
                         self.ty(b.dims), init, ty, ty))
            return
        if op.style == "matmul":
            m, n = r.dims
            k = red[0]
            sa, sb = self.transposed(a, (m, k)), self.transposed(b, (k, n))
            self.line("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                      % (self.name(r), sa, sb, self.ty((m, k)), self.ty((k, n)),
                         init, ty, ty))
            return
        if op.style == "batch_matmul":
            bd, m, n = r.dims
            k = red[0]
            sa, sb = self.transposed(a, (bd, m, k)), self.transposed(b, (bd, k, n))
            self.line("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                      % (self.name(r), sa, sb, self.ty((bd, m, k)),
                         self.ty((bd, k, n)), init, ty, ty))
            return
        raise ValueError("unknown contraction style %s" % op.style)

    def op_softmax(self, op):
        r, x = op.result, op.inputs[0]
        e = self.empty(r.dims)
        ty = self.ty(r.dims)
        self.line("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                  % (self.name(r), x.dims.index(op.axis), self.name(x), ty, e, ty, ty))

    def op_transpose(self, op):
        r, x = op.result, op.inputs[0]
        e = self.empty(r.dims)
        perm = [x.dims.index(d) for d in r.dims]
        self.line("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                  % (self.name(r), self.name(x), self.ty(x.dims), e,
                     self.ty(r.dims), ", ".join(map(str, perm))))


    def op_view(self, op):
        r, x = op.result, op.inputs[0]
        groups = "[%s]" % ", ".join("[%s]" % ", ".join(map(str, g))
                                    for g in op.groups)
        if op.reshape == "collapse":
            self.line("%s = tensor.collapse_shape %s %s : %s into %s"
                      % (self.name(r), self.name(x), groups, self.ty(x.dims),
                         self.ty(r.dims)))
            return
        shape = ", ".join(str(self.prog.dims[d]) for d in r.dims)
        self.line("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                  % (self.name(r), self.name(x), groups, shape,
                     self.ty(x.dims), self.ty(r.dims)))


def emit(prog, header=()):
    em = Emitter(prog)
    for op in prog.ops:
        em.emit_op(op)
    sig = ", ".join("%s: %s" % (em.name(a), "f32" if a.scalar else em.ty(a.dims))
                    for a in prog.args)
    rtys = [em.ty(v.dims) for v in prog.outputs]
    rty = rtys[0] if len(rtys) == 1 else "(%s)" % ", ".join(rtys)
    out = ["// " + h if h else "//" for h in header]
    out.append("func.func @%s(%s) -> %s {" % (prog.name, sig, rty))
    out += em.lines
    out.append("  return %s : %s" % (", ".join(em.name(v) for v in prog.outputs),
                                      ", ".join(rtys)))
    out.append("}")
    return "\n".join(out) + "\n"
