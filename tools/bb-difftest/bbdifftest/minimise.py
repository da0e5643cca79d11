"""Shrinks a failing program while it keeps failing the same way.

Greedy passes over the program representation, repeated until none makes
progress:

1. drop an output (the operators only it needed go with it);
2. cut an operator: its result becomes a new argument (random inputs), so
   everything upstream of it that nothing else needs goes away; or bypass
   it: its readers read one of its operands of the same shape;
3. simplify a body: replace an elementwise expression or a reduction term by
   one of its operands or subexpressions;
4. shrink a dimension (every shape that uses it follows);
5. raise convert's whole-threshold to 256 and leave the block sizes to
   block-select, when the failure does not need tiled axes.

Each candidate is checked by `still_fails(program) -> bool`; every edit keeps
the program valid by construction (shapes are derived from dimension names).
"""

from .program import expr_inputs, expr_size



def subexprs(e):
    """Proper subexpressions of e, largest first."""
    out = []
    for x in e[1:]:
        if isinstance(x, tuple):
            out.append(x)
            out += subexprs(x)
    out.sort(key=lambda x: -expr_size(x))
    return out


def candidates(prog):
    """Programs one edit smaller than `prog`, most promising first."""
    # 1. outputs
    if len(prog.outputs) > 1:
        for i in range(len(prog.outputs)):
            q = prog.clone()
            del q.outputs[i]
            q.prune()
            yield "drop output %d" % i, q
    # 2. operators, upstream first (removes most)
    for i in range(len(prog.ops)):
        q = prog.clone()
        q.cut(i)
        yield "cut op %d" % i, q
    # 2b. operators bypassed: readers of the result read an operand of the
    # same shape instead (removes copies and elementwise links in a chain).
    for i, op in enumerate(prog.ops):
        for v in op.inputs:
            if v.dims == op.result.dims and not v.scalar:
                q = prog.clone()
                q.bypass(i, v.id)
                yield "bypass op %d" % i, q
                break
    # 3. bodies
    for i, op in enumerate(prog.ops):
        e = op.attrs.get("expr")
        if e is None or op.kind not in ("ew", "reduce") or expr_size(e) <= 1:
            continue
        for s in subexprs(e):
            if s[0] in ("const", "scalar"):
                continue
            q = prog.clone()
            qop = q.ops[i]
            qop.attrs["expr"] = s
            if qop.kind == "ew":
                qop.attrs["style"] = "generic"
                # Operands the new body no longer reads are dropped.
                keep = sorted(expr_inputs(s))
                if not keep:
                    continue
                remap = {old: new for new, old in enumerate(keep)}
                qop.inputs = [qop.inputs[k] for k in keep]
                qop.attrs["expr"] = renumber(s, remap)
            q.prune()
            yield "simplify op %d" % i, q
    # 4. dimensions
    for d, size in sorted(prog.dims.items()):
        # The smallest size first, then half: a failure that needs a tiled
        # axis or several blocks keeps a size above the threshold.
        for s in sorted({1, size // 2}):
            if 1 <= s < size:
                q = prog.clone()
                q.dims[d] = s
                yield "dim %s %d -> %d" % (d, size, s), q
    # 5. settings
    if prog.config.get("whole-threshold") != 256:
        q = prog.clone()
        q.config["whole-threshold"] = 256
        yield "whole-threshold 256", q
    if prog.config.get("block-salt", 0) % 5 != 0:
        q = prog.clone()
        q.config["block-salt"] = 0
        yield "heuristic block sizes", q


def renumber(e, remap):
    if e[0] == "in":
        return ("in", remap[e[1]])
    return tuple(renumber(x, remap) if isinstance(x, tuple) else x for x in e)


def size_of(prog):
    vol = 0
    for op in prog.ops:
        v = 1
        for d in op.result.dims:
            v *= prog.dims.get(d, 1)
        vol += v
    n = sum(expr_size(op.attrs["expr"]) for op in prog.ops if "expr" in op.attrs)
    return (len(prog.ops), len(prog.outputs), n, vol)


def minimise(prog, still_fails, log=lambda msg: None, max_checks=400):
    """Returns the smallest program found that still fails."""
    checks = 0
    progress = True
    while progress and checks < max_checks:
        progress = False
        for what, q in candidates(prog):
            if checks >= max_checks:
                break
            # Settings and dimension edits keep the op count; others must
            # shrink the program.
            shrinks_ops = not what.startswith(("dim", "whole", "heuristic"))
            if shrinks_ops and size_of(q) >= size_of(prog):
                continue
            checks += 1
            if still_fails(q):
                log("  %s: %d ops" % (what, len(q.ops)))
                prog = q
                progress = True
                break
    return prog
