"""The program representation bb-difftest generates, minimises and prints.

A program is a list of array operators over named dimensions ("d0", "d1",
...) whose sizes live in one table. Every value's shape is a tuple of dimension
names, so shapes stay consistent however the program is edited: the minimiser
can cut an operator (its result becomes an argument), drop outputs, or shrink
a dimension without re-deriving any type. `emit` prints the program as
Linalg on tensors in the forms `convert-linalg-to-block` accepts
(docs/LinalgToBlock.md).

The unit marker "1" in a shape is a keepdim axis of extent 1 (written at index
0 by a reduction and read at index 0 by its consumers).
"""

import copy

UNIT = "1"


class Value:
    """An SSA value: a tensor of `dims` (or a scalar f32 when `scalar`)."""

    def __init__(self, vid, dims, mag=1.0, nonneg=False, scalar=False, var=None):
        self.id = vid
        self.dims = tuple(dims)
        # The dimensions along which the value varies (a broadcast operand
        # does not vary along the dimensions it lacks): normalising along a
        # dimension a value is constant on would divide rounding noise by
        # sqrt(eps), so the generator avoids it.
        self.var = set(var) if var is not None else set(self.dims) - {UNIT}
        # Estimated magnitude and sign, used only by the generator to keep
        # values O(1) (scaling constants); never by the checks.
        self.mag = mag
        self.nonneg = nonneg
        self.scalar = scalar

    def __repr__(self):
        return "v%d%s" % (self.id, list(self.dims))


# Expressions (bodies of elementwise ops and reduction terms) are tuples:
#   ("in", i)                   operand i of the op
#   ("scalar", vid)             a scalar function argument, captured
#   ("const", c)
#   ("un", name, e)             negf absf exp tanh erf sin cos square cube
#                               sqrtsq logsq rsqrtsq sigmoid powhalf
#   ("bin", name, a, b)         addf subf mulf maximumf minimumf maxnumf
#                               minnumf divsafe
#   ("sel", pred, a, b, t, f)   select(cmpf pred(a, b), t, f)
#   ("causal", i, j, t, f)      select(index(i) >= index(j), t, f): loop dims
#                               i and j of the op


def replace(e, old, new):
    """e with every occurrence of the head (kind, operand) `old` given the
    operand of `new`: used to wrap one operand of an rsqrt_eps."""
    if e[:2] == old[:2]:
        return new + e[2:]
    return tuple(replace(x, old, new) if isinstance(x, tuple) else x for x in e)


def expr_inputs(e):
    """Operand indices an expression reads."""
    if e[0] == "in":
        return {e[1]}
    out = set()
    for x in e[1:]:
        if isinstance(x, tuple):
            out |= expr_inputs(x)
    return out


def expr_scalars(e):
    if e[0] == "scalar":
        return {e[1]}
    out = set()
    for x in e[1:]:
        if isinstance(x, tuple):
            out |= expr_scalars(x)
    return out


def expr_size(e):
    return 1 + sum(expr_size(x) for x in e[1:] if isinstance(x, tuple))


class Op:
    """An array operator. Kinds and their fields:

    ew        inputs, expr, style ("generic" | "named:<linalg op>")
    reduce    inputs (0 is reduced), rdims, combiner, expr (the term), init
              (("fill", c) or ("value", index into inputs)), keepdim,
              style ("generic" | "named")
    contract  inputs (a, b, [init value]), init, style
              ("generic" | "matmul" | "matmul_maps" | "batch_matmul")
    softmax   inputs (x), axis (a dim name)
    transpose inputs (x): result dims are a permutation (a copy kernel)
    view      inputs (x), reshape ("collapse" | "expand"), groups (the
              reassociation: result dims per source dim for an expand,
              source dims per result dim for a collapse); production
              profile only
    """

    def __init__(self, kind, result, inputs, **attrs):
        self.kind = kind
        self.result = result
        self.inputs = list(inputs)
        self.attrs = attrs

    def __getattr__(self, name):
        try:
            return self.__dict__["attrs"][name]
        except KeyError:
            raise AttributeError(name)

    def scalars(self):
        e = self.attrs.get("expr")
        return expr_scalars(e) if e else set()


class Program:
    def __init__(self, name="difftest"):
        self.name = name
        self.dims = {}          # name -> size
        self.args = []          # Values, in signature order
        self.ops = []
        self.outputs = []       # Values
        self.next_id = 0
        # Harness settings carried with the program so that a minimised
        # program replays exactly: convert's whole-threshold, bb-run's seed
        # and the salt of the block sizes.
        self.config = {}

    def new_value(self, dims, **kw):
        v = Value(self.next_id, dims, **kw)
        self.next_id += 1
        return v

    def new_arg(self, dims, **kw):
        v = self.new_value(dims, **kw)
        self.args.append(v)
        return v

    def clone(self):
        return copy.deepcopy(self)

    # -- editing, for the minimiser ------------------------------------

    def prune(self):
        """Drops operators and arguments that no output depends on."""
        live = {v.id for v in self.outputs}
        kept = []
        for op in reversed(self.ops):
            if op.result.id in live:
                kept.append(op)
                live |= {v.id for v in op.inputs}
                live |= op.scalars()
        self.ops = list(reversed(kept))
        self.args = [a for a in self.args if a.id in live]

    def cut(self, index):
        """Replaces operator `index` by a new argument of its result type."""
        op = self.ops.pop(index)
        r = op.result
        self.args.append(Value(r.id, r.dims, mag=1.0, scalar=False))
        # A variance that becomes a random argument may be negative:
        # normalisations read it as |arg| so that the program stays defined.
        for c in self.ops:
            e = c.attrs.get("expr")
            if e is not None:
                ins = [i for i, v in enumerate(c.inputs) if v.id == r.id]
                for i in ins:
                    e = replace(e, ("rsqrt_eps", ("in", i)),
                                ("rsqrt_eps", ("un", "absf", ("in", i))))
                c.attrs["expr"] = e
        self.prune()

    def bypass(self, index, vid):
        """Removes operator `index`; its readers read value `vid` (one of its
        operands, of the same shape) instead."""
        op = self.ops.pop(index)
        src = next(v for v in op.inputs if v.id == vid)
        old = op.result.id
        for c in self.ops:
            c.inputs = [src if v.id == old else v for v in c.inputs]
        outs = []
        for v in self.outputs:
            v = src if v.id == old else v
            if v.id not in [o.id for o in outs]:
                outs.append(v)
        self.outputs = outs
        self.prune()

    def op_count(self):
        return len(self.ops)


def tensor_type(prog, dims, elt="f32"):
    shape = [str(prog.dims[d]) if d != UNIT else "1" for d in dims]
    if not shape:
        return "tensor<%s>" % elt
    return "tensor<%sx%s>" % ("x".join(shape), elt)
