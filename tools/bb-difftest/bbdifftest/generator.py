"""Seeded random programs drawn from the operator table of
docs/LinalgToBlock.md.

`generate(seed, index)` is a pure function: program `index` of seed `seed`
comes from its own `random.Random` stream, so any program of a batch can be
regenerated alone, on any machine (Python's Mersenne Twister and
`random.Random.random/randrange/choice/shuffle` are stable across versions
for a string seed).

Programs are DAGs of elementwise ops (with broadcast and transposed
operands), row/column reductions (sum, max, min; keepdim; non-identity
initial values), softmax (linalg.softmax and the generic four-op form),
LayerNorm and RMSNorm as generics, matmuls and batch matmuls (transposed
operands, accumulation into a computed tensor), transposes that are
returned, scalar arguments; values are shared by several consumers and
several of them are returned. Dimension sizes are mostly odd.

Values are kept O(1): each value carries a magnitude estimate, and sums get a
1/n or 1/sqrt(n) scaling constant and elementwise results whose estimate
exceeds a bound are scaled back (docs/Difftest.md explains why: fused
programs reassociate sums, and a check judged against the output's scale is
only meaningful when terms do not dwarf results). Discontinuous functions
(compare-and-select) only compare arguments or loop indices, which both
sides see exactly.
"""

import math
import random

from .program import Program, Op, UNIT, expr_inputs

# Sizes of dimensions: mostly odd, so that no block size divides them.
SIZES = [1, 2, 3, 5, 7, 9, 13, 16, 17, 24, 31, 33, 47, 63, 64, 65, 96, 100,
         127, 129, 150, 200, 257, 300]
SIZE_WEIGHTS = [1, 2, 3, 3, 4, 3, 4, 2, 5, 2, 5, 5, 5, 3, 2, 5, 3, 4,
                4, 4, 2, 2, 2, 2]
# Bounds that keep a program fast on the CPU (reference and JIT).
MAX_ELEMENTS = 1 << 17      # per tensor
MAX_LOOP_VOLUME = 1 << 21   # per operator (product of its loop extents)
# The production profile (bb-difftest --sizes production): programs at the
# sizes models have, which are only compiled for the GPU (never run on the
# CPU), so no bound on elements keeps them small; views (collapse and expand
# reshapes) as frontends write them around projections and head splits.
PRODUCTION_SIZES = [1, 1, 2, 3, 7, 16, 17, 31, 64, 96, 100, 127, 128, 255,
                    256, 384, 512, 1000, 1024, 2048, 4096, 4097, 8192, 11008,
                    16384]
PRODUCTION_MAX_ELEMENTS = 1 << 28
PRODUCTION_MAX_LOOP_VOLUME = 1 << 40
MAG_BOUND = 4.0
# The most terms a sum may add that need not differ from each other. Adding n
# equal f32 terms in sequence (the reference's loop order) rounds the same
# way each time: its relative error grows like n * eps / 4 (2e-4 at n = 33153,
# seed 7 program 805), not like sqrt(n) * eps, and 1024 keeps it at 1.5e-5,
# well inside bb-run's rtol of 1e-4.
COHERENT_SUM_MAX = 1024

UNARY = ["negf", "absf", "exp", "tanh", "erf", "sin", "cos", "square",
         "fpowi2", "powf2", "cube", "sqrtsq", "logsq", "rsqrtsq", "sigmoid",
         "powhalf"]
BINARY = ["addf", "subf", "mulf", "maximumf", "minimumf", "maxnumf",
          "minnumf", "divsafe"]
CONSTS = [0.5, 2.0, -1.0, 0.125, 1.5, -0.25, 3.0, 0.75]
PREDS = ["ogt", "olt", "oge", "ole", "ugt", "ult", "une", "oeq"]


def expr_var(e, input_vars):
    """The dimensions an expression's value reliably varies along: a max or
    min can saturate to its operand that varies along fewer dimensions (a
    broadcast), so it keeps only the dimensions both operands vary along."""
    k = e[0]
    if k == "in":
        return set(input_vars[e[1]])
    if k in ("const", "scalar"):
        return set()
    if k == "bin" and e[1] in ("maximumf", "minimumf", "maxnumf", "minnumf"):
        return expr_var(e[2], input_vars) & expr_var(e[3], input_vars)
    if k == "sel":
        return expr_var(e[4], input_vars) | expr_var(e[5], input_vars)
    if k == "causal":
        return {e[1], e[2]} | expr_var(e[3], input_vars) | expr_var(e[4], input_vars)
    out = set()
    for x in e[1:]:
        if isinstance(x, tuple):
            out |= expr_var(x, input_vars)
    return out


def un_mag(name, m, nn):
    """Magnitude and sign of a unary function of a value of magnitude m."""
    if name in ("negf",):
        return m, False
    if name == "absf":
        return m, True
    if name == "exp":
        return math.exp(min(m, 30.0)), True
    if name in ("tanh", "erf", "sin", "cos"):
        return min(m, 1.0), name == "cos" or (nn and name != "sin")
    if name in ("square", "fpowi2", "powf2"):
        return m * m, True
    if name == "cube":
        return m ** 3, nn
    if name == "sqrtsq":
        return math.sqrt(m * m + 0.25), True
    if name == "logsq":
        return math.log(m * m + 1.0), True
    if name == "rsqrtsq":
        return math.sqrt(2.0), True
    if name == "powhalf":
        return math.sqrt(m * m + 1.0), True
    if name == "sigmoid":
        return 1.0, True
    raise ValueError(name)


def bin_mag(name, a, b):
    (ma, na), (mb, nb) = a, b
    if name == "addf":
        return ma + mb, na and nb
    if name == "subf":
        return ma + mb, False
    if name == "mulf":
        return ma * mb, na and nb
    if name in ("maximumf", "maxnumf"):
        return max(ma, mb), na or nb
    if name in ("minimumf", "minnumf"):
        return max(ma, mb), na and nb
    if name == "divsafe":
        return ma, na
    raise ValueError(name)


class Generator:
    def __init__(self, seed, index, production=False):
        # Each profile has its own stream: the test profile's programs stay
        # what they always were.
        self.rng = random.Random("bb-difftest%s:%d:%d"
                                 % ("-production" if production else "",
                                    seed, index))
        self.production = production
        self.max_elements = PRODUCTION_MAX_ELEMENTS if production \
            else MAX_ELEMENTS
        self.max_loop_volume = PRODUCTION_MAX_LOOP_VOLUME if production \
            else MAX_LOOP_VOLUME
        self.prog = Program()
        self.pool = []   # values that later ops may read
        self.uses = {}   # value id -> number of readers

    # -- dimensions -------------------------------------------------------

    def new_dim(self):
        name = "d%d" % len(self.prog.dims)
        if self.production:
            self.prog.dims[name] = self.rng.choice(PRODUCTION_SIZES)
        else:
            self.prog.dims[name] = self.rng.choices(SIZES, SIZE_WEIGHTS)[0]
        return name

    def volume(self, dims):
        v = 1
        for d in dims:
            if d != UNIT:
                v *= self.prog.dims[d]
        return v

    def fits(self, dims, loops=None):
        return (self.volume(dims) <= self.max_elements
                and self.volume(loops or dims) <= self.max_loop_volume)

    def random_shape(self, rank):
        dims = list(self.prog.dims)
        self.rng.shuffle(dims)
        shape = []
        for d in dims:
            if len(shape) < rank and self.fits(shape + [d]):
                shape.append(d)
        while len(shape) < rank:
            d = self.new_dim()
            if self.fits(shape + [d]):
                shape.append(d)
            else:
                self.prog.dims[d] = self.rng.choice([2, 3, 5, 7])
                shape.append(d)
        return tuple(shape)

    # -- values -----------------------------------------------------------

    def arg(self, dims):
        return self.prog.new_arg(dims)

    def add(self, op):
        self.prog.ops.append(op)
        for v in op.inputs:
            self.uses[v.id] = self.uses.get(v.id, 0) + 1
        self.pool.append(op.result)
        return op.result

    def pick(self, pred=lambda v: True, fresh_bias=0.7):
        """A value from the pool: usually one nobody reads yet (chains),
        else any (shared intermediates)."""
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        unused = [v for v in cands if not self.uses.get(v.id)]
        if unused and self.rng.random() < fresh_bias:
            return unused[-1] if self.rng.random() < 0.6 else self.rng.choice(unused)
        return self.rng.choice(cands)

    def operand_like(self, dims, exact=False):
        """A value whose dims are a subset (any order) of `dims`: from the
        pool when one exists, else a new argument (a row, a column, ...)."""
        def ok(v):
            if v.scalar or any(d == UNIT for d in v.dims) and exact:
                return False
            real = [d for d in v.dims if d != UNIT]
            if exact:
                return sorted(real) == sorted(dims)
            return set(real) <= set(dims) and len(real) > 0
        if self.rng.random() < 0.55:
            v = self.pick(ok, fresh_bias=0.3)
            if v is not None:
                return v
        if exact:
            shape = list(dims)
            if self.rng.random() < 0.3:
                self.rng.shuffle(shape)
            return self.arg(shape)
        # A row, a column, ... or (rarely) a 0-d tensor read at every point.
        k = self.rng.randint(1, len(dims)) if dims and self.rng.random() > 0.05 else 0
        chosen = self.rng.sample(list(dims), k)
        sub = [d for d in dims if d in chosen]
        if self.rng.random() < 0.2:
            self.rng.shuffle(sub)
        return self.arg(sub)

    # -- expressions ------------------------------------------------------

    def expr(self, leaves, loops, exact_leaves):
        """A random body over `leaves` (a list of (expr, mag, nonneg))
        using every leaf; returns (expr, mag, nonneg)."""
        rng = self.rng
        items = list(leaves)
        rng.shuffle(items)
        if rng.random() < 0.25:
            # Constants are O(1); their magnitude estimate is 1 like an input's.
            items.append((("const", rng.choice(CONSTS)), 1.0, False))
        if self.prog_scalars and rng.random() < 0.15:
            s = rng.choice(self.prog_scalars)
            items.append((("scalar", s.id), 1.0, False))
        while len(items) > 1:
            a = items.pop()
            b = items.pop()
            a = self.maybe_unary(a)
            if expr_inputs(a[0]) and expr_inputs(b[0]):
                op = rng.choice(BINARY)
            else:
                # max/min against a constant can saturate to a value that
                # is constant along a row, which a later LayerNorm would
                # turn into amplified rounding noise.
                op = rng.choice(["addf", "subf", "mulf", "divsafe"])
            m, nn = bin_mag(op, a[1:], b[1:])
            items.append((("bin", op, a[0], b[0]), m, nn))
        e = self.maybe_unary(items[0], p=0.5)
        # A select on exactly known values: arguments or loop indices.
        if exact_leaves and rng.random() < 0.12:
            x, y = rng.choice(exact_leaves), rng.choice(exact_leaves)
            # The other branch is not constant either (see above).
            alt = rng.choice(CONSTS)
            e = (("sel", rng.choice(PREDS), x, y, e[0],
                  ("bin", "mulf", e[0], ("const", alt))),
                 e[1] * max(1.0, abs(alt)), False)
        elif len(loops) >= 2 and rng.random() < 0.08:
            i, j = rng.sample(loops, 2)
            alt = rng.choice([0.0, -2.0, 1.0])
            e = (("causal", i, j, e[0], ("const", alt)), max(e[1], abs(alt)), False)
        return self.bound(e)

    def maybe_unary(self, x, p=0.3):
        e, m, nn = x
        if self.rng.random() >= p:
            return x
        name = self.rng.choice(UNARY)
        if name == "exp" and m > 3.0:
            name = "tanh"
        if name in ("cube",) and m > 2.0:
            name = "sin"
        mm, nn2 = un_mag(name, m, nn)
        return (("un", name, e), mm, nn2)

    def bound(self, x):
        e, m, nn = x
        if m > MAG_BOUND:
            if self.rng.random() < 0.3:
                return (("un", "tanh", e), 1.0, nn)
            c = 2.0 ** -math.ceil(math.log2(m))
            return (("bin", "mulf", e, ("const", c)), m * c, nn)
        return x

    # -- operators --------------------------------------------------------

    def gen_ew(self):
        rng = self.rng
        x = self.pick(lambda v: not v.scalar and UNIT not in v.dims and v.dims)
        if x is None or rng.random() < 0.15:
            x = self.arg(self.random_shape(rng.choice([1, 2, 2, 2, 3])))
        loops = list(x.dims)
        if len(loops) >= 2 and rng.random() < 0.15:
            rng.shuffle(loops)  # writes its result transposed
        inputs = [x]
        for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
            v = self.operand_like(loops)
            if v not in inputs:
                inputs.append(v)
        res = self.prog.new_value(loops)
        named = self.named_ew(inputs, loops)
        if named:
            style, expr, m, nn = named
        else:
            leaves = [(("in", i), v.mag, v.nonneg) for i, v in enumerate(inputs)]
            exact = [("in", i) for i, v in enumerate(inputs)
                     if v in self.prog.args]
            expr, m, nn = self.expr(leaves, loops, exact)
            if expr[0] == "in" and rng.random() < 0.8:
                expr, m, nn = self.maybe_unary((expr, m, nn), p=1.0)
            style = "generic"
        res.mag, res.nonneg = m, nn
        res.var = expr_var(expr, [v.var for v in inputs]) & set(loops)
        return self.add(Op("ew", res, inputs, expr=expr, style=style))

    def named_ew(self, inputs, loops):
        """Sometimes a named elementwise op (linalg.add, linalg.exp, ...)
        with linalg.broadcast/transpose for its operands."""
        rng = self.rng
        if rng.random() > 0.2 or any(UNIT in v.dims for v in inputs):
            return None
        if len(inputs) == 1:
            x = inputs[0]
            name, un = rng.choice([("exp", "exp"), ("tanh", "tanh"),
                                   ("negf", "negf"), ("abs", "absf")])
            if un == "exp" and x.mag > 3.0:
                name, un = "tanh", "tanh"
            m, nn = un_mag(un, x.mag, x.nonneg)
            return "named:" + name, ("un", un, ("in", 0)), m, nn
        if len(inputs) == 2:
            name, b = rng.choice([("add", "addf"), ("sub", "subf"),
                                  ("mul", "mulf"), ("max", "maximumf"),
                                  ("min", "minimumf")])
            m, nn = bin_mag(b, (inputs[0].mag, inputs[0].nonneg),
                            (inputs[1].mag, inputs[1].nonneg))
            if m > MAG_BOUND:
                return None
            return "named:" + name, ("bin", b, ("in", 0), ("in", 1)), m, nn
        return None

    def gen_reduce(self, x=None, rdims=None, combiner=None, term=None,
                   extra=(), scale=None, free_init=True):
        rng = self.rng
        if x is None:
            x = self.pick(lambda v: not v.scalar and UNIT not in v.dims and v.dims)
            if x is None or rng.random() < 0.1:
                x = self.arg(self.random_shape(rng.choice([1, 2, 2, 3])))
        dims = list(x.dims)
        if rdims is None:
            k = 1 if len(dims) < 3 or rng.random() < 0.7 else 2
            rdims = rng.sample(dims, k)
        if combiner is None:
            combiner = rng.choice(["addf", "addf", "addf", "maximumf", "maxnumf",
                                   "minimumf", "minnumf"])
        keepdim = rng.random() < 0.2 and len(rdims) < len(dims)
        rshape = tuple(UNIT if d in rdims else d for d in dims) if keepdim else \
            tuple(d for d in dims if d not in rdims)
        inputs = [x] + list(extra)
        n = 1
        for d in rdims:
            n *= self.prog.dims[d]
        named = (term is None and not keepdim and rng.random() < 0.25)
        generated_term = term is None
        if term is None:
            if named:
                term = (("in", 0), x.mag, x.nonneg)
            else:
                # Extra operands broadcast over the kept dimensions.
                kept = [d for d in dims if d not in rdims]
                if kept and rng.random() < 0.3:
                    v = self.operand_like(kept)
                    if v not in inputs:
                        inputs.append(v)
                leaves = [(("in", i), v.mag, v.nonneg) for i, v in enumerate(inputs)]
                exact = [("in", i) for i, v in enumerate(inputs) if v in self.prog.args]
                term = self.expr(leaves, dims, exact) if len(leaves) > 1 or \
                    rng.random() < 0.5 else (("in", 0), x.mag, x.nonneg)
        texpr, tm, tnn = term
        if generated_term and combiner == "addf":
            # Terms that need not vary along the reduced dimensions (a min
            # saturating to a broadcast operand, a broadcast read) may all be
            # equal; a long sum of them is weighted by a random argument
            # over those dimensions, so that it sums varied signed terms.
            same = [d for d in rdims if d not in
                    expr_var(texpr, [v.var for v in inputs])]
            if self.volume(same) > COHERENT_SUM_MAX:
                inputs.append(self.arg(same))
                texpr = ("bin", "mulf", texpr, ("in", len(inputs) - 1))
                tnn = False
                named = False
        if combiner == "addf":
            if scale is None:
                # Sums of signed terms grow like sqrt(n), of positive ones
                # like n: scale back to O(1) inside the term.
                grow = n if tnn else math.sqrt(n)
                scale = 1.0 / grow if tm * grow > MAG_BOUND else None
            if scale == 1.0:
                scale = None
            # linalg.reduce has no term: its sum is scaled afterwards.
            if scale is not None and not named:
                texpr = ("bin", "mulf", texpr, ("const", scale))
                tm *= scale
                scale = None
            rm = tm * (n if tnn else math.sqrt(n))
        else:
            rm = tm
        init = ("fill", {"addf": 0.0, "maximumf": float("-inf"),
                         "maxnumf": float("-inf"), "minimumf": float("inf"),
                         "minnumf": float("inf")}[combiner])
        r = rng.random() if free_init else 1.0
        if r < 0.15:
            c = rng.choice([0.5, -1.0, 0.25])
            if combiner == "addf" and tnn:
                # A sum of non-negative terms can be exactly 1 by
                # construction (a softmax, a value divided by its mean): -1
                # would cancel it to rounding noise (seed 7 program 1107).
                c = abs(c)
            init = ("fill", c)
        elif r < 0.22 and not keepdim:
            iv = self.operand_like(rshape, exact=True) if rshape else None
            if iv is not None and tuple(iv.dims) == rshape and iv not in inputs:
                inputs.append(iv)
                init = ("value", len(inputs) - 1)
        res = self.prog.new_value(rshape, mag=min(rm, 64.0), nonneg=tnn)
        res.var = expr_var(texpr, [v.var for v in inputs]) - set(rdims)
        if n > 16:
            # A mean, max or min over many elements varies little along the
            # kept dimensions relative to its size (concentration): a
            # LayerNorm along them would amplify rounding-order noise into
            # the result, so the generator treats it as constant.
            res.var = set()
        if named and (len(inputs) > 1 or keepdim):
            named = False
        op = Op("reduce", res, inputs, rdims=tuple(rdims), combiner=combiner,
                expr=texpr, init=init, keepdim=keepdim,
                style="named" if named else "generic",
                acc_first=rng.random() < 0.5)
        v = self.add(op)
        if scale is not None and rm > MAG_BOUND:
            v = self.scale(v, scale)
        return v

    def scale(self, v, c):
        res = self.prog.new_value(v.dims, mag=v.mag * c, nonneg=v.nonneg, var=v.var)
        return self.add(Op("ew", res, [v], style="generic",
                           expr=("bin", "mulf", ("in", 0), ("const", c))))

    def gen_contract(self):
        rng = self.rng
        a = self.pick(lambda v: not v.scalar and UNIT not in v.dims
                      and len(v.dims) in (2, 3))
        if a is None or rng.random() < 0.2:
            a = self.arg(self.random_shape(rng.choice([2, 2, 2, 3])))
        dims = list(a.dims)
        batched = len(dims) == 3 and rng.random() < 0.7
        if batched:
            bd = dims[0] if rng.random() < 0.7 else rng.choice(dims)
            rest = [d for d in dims if d != bd]
            k = rng.choice(rest)
            m = [d for d in rest if d != k][0]
        else:
            bd = None
            k = rng.choice(dims)
        free = [d for d in dims if d != k]
        # The new output dimension: an existing one not in `a`, or a new one.
        others = [d for d in self.prog.dims if d not in dims]
        n = rng.choice(others) if others and rng.random() < 0.5 else self.new_dim()
        out = tuple(free + [n]) if not batched else (bd, m, n)
        loops = list(out) + [k]
        if not self.fits(out, loops):
            self.prog.dims[n] = rng.choice([3, 5, 17]) if n not in others else \
                self.prog.dims[n]
            if not self.fits(out, loops):
                return self.gen_ew()
        bdims = [k, n] if not batched else [bd, k, n]
        b = self.pick(lambda v: not v.scalar and sorted(v.dims) == sorted(bdims))
        if b is None or rng.random() < 0.5:
            shape = list(bdims)
            if rng.random() < 0.4:
                shape = [bd] + [n, k] if batched else [n, k]
            b = self.arg(shape)
        inputs = [a, b]
        init = ("fill", 0.0)
        if rng.random() < 0.15:
            iv = self.operand_like(out, exact=True)
            if tuple(iv.dims) == out and iv not in inputs:
                inputs.append(iv)
                init = ("value", 2)
        styles = ["generic"]
        if len(out) == 2 and len(a.dims) == 2:
            styles += ["matmul", "matmul_maps"]
        if batched and out[0] == bd and a.dims[0] == bd and b.dims[0] == bd:
            styles += ["batch_matmul"]
        style = rng.choice(styles)
        kk = self.prog.dims[k]
        grow = kk if (a.nonneg and b.nonneg) else math.sqrt(kk)
        mag = a.mag * b.mag * grow
        res = self.prog.new_value(out, mag=mag, nonneg=a.nonneg and b.nonneg,
                                  var=(a.var | b.var | set().union(
                                      *(v.var for v in inputs[2:]))) - {k})
        v = self.add(Op("contract", res, inputs, init=init, style=style,
                        acc_first=rng.random() < 0.5))
        if mag > MAG_BOUND:
            # The 1/sqrt(fan_in) of a linear layer, as its own elementwise
            # op (an attention scale).
            v = self.scale(v, 2.0 ** -math.ceil(math.log2(mag)))
        return v

    def gen_softmax(self):
        rng = self.rng
        x = self.pick(lambda v: not v.scalar and UNIT not in v.dims and v.dims)
        if x is None or rng.random() < 0.1:
            x = self.arg(self.random_shape(rng.choice([1, 2, 2, 3])))
        axis = x.dims[-1] if rng.random() < 0.6 else rng.choice(x.dims)
        # Along an axis of extent 1, or one x does not vary on, a softmax is
        # the constant 1/n: a LayerNorm of it would normalise rounding noise
        # (seed 7 program 575).
        var = x.var if axis in x.var and self.prog.dims[axis] > 1 else set()
        if rng.random() < 0.5:
            res = self.prog.new_value(x.dims, mag=1.0, nonneg=True, var=var)
            return self.add(Op("softmax", res, [x], axis=axis))
        # The generic form: max, exp(x - max), sum, divide.
        # Identity initial values: a sum that a random init could bring near
        # zero would amplify rounding in the division.
        mx = self.gen_reduce(x, [axis], rng.choice(["maximumf", "maxnumf"]),
                             term=(("in", 0), x.mag, x.nonneg), free_init=False)
        ex = self.prog.new_value(x.dims, mag=1.0, nonneg=True,
                                 var=(x.var | mx.var) if var else set())
        self.add(Op("ew", ex, [x, mx], style="generic",
                    expr=("un", "exp", ("bin", "subf", ("in", 0), ("in", 1)))))
        sm = self.gen_reduce(ex, [axis], "addf", term=(("in", 0), 1.0, True),
                             scale=None if rng.random() < 0.5 else 1.0,
                             free_init=False)
        res = self.prog.new_value(x.dims, mag=1.0, nonneg=True,
                                  var=(ex.var | sm.var) if var else set())
        return self.add(Op("ew", res, [ex, sm], style="generic",
                           expr=("bin", "divf_plain", ("in", 0), ("in", 1))))

    def gen_norm(self):
        """LayerNorm or RMSNorm over one axis, as generics."""
        rng = self.rng
        # Only along a dimension the value varies on (see Value.var).
        x = self.pick(lambda v: not v.scalar and UNIT not in v.dims and v.var)
        if x is None or rng.random() < 0.1:
            x = self.arg(self.random_shape(rng.choice([1, 2, 2, 3])))
        axes = [d for d in x.dims if d in x.var]
        axis = axes[-1] if rng.random() < 0.7 else rng.choice(axes)
        n = self.prog.dims[axis]
        inv_n = 1.0 / n
        eps = 1e-5
        rms = rng.random() < 0.4
        # Always a scale: without one a LayerNorm's result sums to zero along
        # the axis, and a later sum along it is pure rounding noise (seed
        # 100, program 249). The draws are kept as they were, so that no
        # other program changes.
        drew_scale = rng.random() < 0.8
        g = self.arg([axis])
        if not rms:
            mean = self.gen_reduce(x, [axis], "addf", term=(("in", 0), x.mag, False),
                                   scale=inv_n, free_init=False)
            # var = sum((x - mean)^2) / n
            var = self.gen_reduce(x, [axis], "addf",
                                  term=(("bin", "mulf",
                                         ("bin", "subf", ("in", 0), ("in", 1)),
                                         ("bin", "subf", ("in", 0), ("in", 1))),
                                        x.mag * x.mag, True),
                                  extra=[mean], scale=inv_n, free_init=False)
            ins = [x, mean, var]
            centered = ("bin", "subf", ("in", 0), ("in", 1))
            stat = 2
        else:
            ms = self.gen_reduce(x, [axis], "addf",
                                 term=(("bin", "mulf", ("in", 0), ("in", 0)),
                                       x.mag * x.mag, True), scale=inv_n, free_init=False)
            ins = [x, ms]
            centered = ("in", 0)
            stat = 1
        rstd = ("rsqrt_eps", ("in", stat), eps)
        e = ("bin", "mulf", centered, rstd)
        if g is not None:
            ins.append(g)
            e = ("bin", "mulf", e, ("in", len(ins) - 1))
            if drew_scale and not rms and rng.random() < 0.7:
                ins.append(self.arg([axis]))
                e = ("bin", "addf", e, ("in", len(ins) - 1))
        res = self.prog.new_value(x.dims, mag=3.0, var=set().union(*(v.var for v in ins)))
        return self.add(Op("ew", res, ins, style="generic", expr=e))

    def gen_transpose(self):
        x = self.pick(lambda v: not v.scalar and UNIT not in v.dims and len(v.dims) >= 2)
        if x is None:
            return self.gen_ew()
        dims = list(x.dims)
        while dims == list(x.dims):
            self.rng.shuffle(dims)
        res = self.prog.new_value(dims, mag=x.mag, nonneg=x.nonneg, var=x.var)
        return self.add(Op("transpose", res, [x]))

    def gen_view(self):
        """A reshape as frontends write them: two adjacent dimensions
        collapsed into one (`[B, S, D] -> [B*S, D]` before a projection), or
        one split in two (`[S, H*Dh] -> [S, H, Dh]`, a head split). The new
        dimensions are new names: consumers see a different shape."""
        rng = self.rng
        x = self.pick(lambda v: not v.scalar and UNIT not in v.dims
                      and len(v.dims) >= 1)
        if x is None:
            x = self.arg(self.random_shape(rng.choice([2, 3])))
        dims = list(x.dims)
        sizes = [self.prog.dims[d] for d in dims]
        splittable = [i for i, n in enumerate(sizes)
                      if any(n % f == 0 for f in (2, 3, 4, 8, 16, 32, 64)
                             if f < n)]
        if len(dims) >= 2 and (not splittable or rng.random() < 0.5):
            i = rng.randrange(len(dims) - 1)
            merged = self.new_dim()
            self.prog.dims[merged] = sizes[i] * sizes[i + 1]
            shape = dims[:i] + [merged] + dims[i + 2:]
            groups = [[j] for j in range(i)] + [[i, i + 1]] + \
                [[j] for j in range(i + 2, len(dims))]
            kind = "collapse"
        elif splittable:
            i = rng.choice(splittable)
            factor = rng.choice([f for f in (2, 3, 4, 8, 16, 32, 64)
                                 if f < sizes[i] and sizes[i] % f == 0])
            outer, inner = self.new_dim(), self.new_dim()
            self.prog.dims[outer] = sizes[i] // factor
            self.prog.dims[inner] = factor
            shape = dims[:i] + [outer, inner] + dims[i + 1:]
            groups = [[j] for j in range(i)] + [[i, i + 1]] + \
                [[j + 1] for j in range(i + 1, len(dims))]
            kind = "expand"
        else:
            return None
        r = self.prog.new_value(shape, mag=x.mag, nonneg=x.nonneg)
        return self.add(Op("view", r, [x], reshape=kind, groups=groups))

    # -- programs -----------------------------------------------------------

    def program(self):
        rng = self.rng
        p = self.prog
        for _ in range(rng.choice([2, 2, 3, 3, 4])):
            self.new_dim()
        self.prog_scalars = []
        if rng.random() < 0.15:
            self.prog_scalars.append(p.new_arg((), scalar=True))
        kinds = ["ew", "reduce", "contract", "softmax", "norm", "transpose"]
        weights = [34, 16, 18, 10, 8, 3]
        if self.production:
            kinds.append("view")
            weights.append(10)
        for _ in range(rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 12])):
            getattr(self, "gen_" + rng.choices(kinds, weights)[0])()
        # Outputs: every value nobody reads, plus some shared intermediates.
        used = {v.id for op in p.ops for v in op.inputs}
        outs = [v for v in self.pool if v.id not in used]
        shared = [v for v in self.pool if v.id in used]
        rng.shuffle(shared)
        for v in shared:
            if rng.random() < 0.15:
                outs.append(v)
        outs.sort(key=lambda v: v.id)
        if rng.random() < 0.3:
            rng.shuffle(outs)
        p.outputs = outs
        p.config = {
            "whole-threshold": rng.choice([256, 256, 64, 32, 16, 8]),
            "seed": rng.randrange(1, 1 << 16),
            "block-salt": rng.randrange(1 << 30),
        }
        p.prune()
        return p


def generate(seed, index, production=False):
    return Generator(seed, index, production).program()
