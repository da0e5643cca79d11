#!/usr/bin/env python3
"""Runs the random programs prepared by scripts/prepare-gpu-difftest.sh on the
GPU and compares each output with upstream MLIR's CPU result on the same
inputs (bb-run's seeded stream, python/blockbuster/seeded.py).

    python3 scripts/gpu-difftest.py DIR

Criterion: elementwise |gpu - cpu| <= atol + rtol * |cpu| with rtol 1e-4
(2e-2 for f16/bf16) and atol = rtol * max|cpu| plus the 6 significant digits
bb-run prints (5e-6 relative); outputs poisoned with NaN first; NaN fails.
One line per program, a summary last; exit 1 on any failure. Needs NumPy and
a CUDA device, no MLIR.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import numpy as np  # noqa: E402

from blockbuster import runtime, seeded  # noqa: E402


def expected_outputs(path):
    outputs, values = [], None
    for line in open(path):
        m = re.match(r"output #\d+ \(([0-9x]*)x?(\w+)\):", line)
        if m:
            values = []
            shape = [int(d) for d in m.group(1).split("x") if d] if m.group(1) else []
            outputs.append((shape, m.group(2), values))
            continue
        # "  [i, j] v v v ..." rows; a 0-d output is one bare value.
        m = re.match(r"\s*(?:\[[0-9, ]*\])?\s*(\S.*)", line)
        if m and values is not None:
            values.extend(float(v) for v in m.group(1).split())
    return [(shape, dtype, np.array(vals, dtype=np.float64)) for shape, dtype, vals in outputs]


def main():
    root = sys.argv[1]
    # p0, p1, ... in numeric order (random programs), other names sorted.
    dirs = sorted((d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "expected.txt"))),
                  key=lambda d: (0, int(d[1:]), "") if d[0] == "p" and d[1:].isdigit() else (1, 0, d))
    passed = failed = 0
    for d in dirs:
        path = os.path.join(root, d)
        try:
            prog = runtime.load(path)
            specs = [(b.shape, b.dtype) for b in prog.artifact.inputs]
            inputs = seeded.inputs(specs, seed=1)
            outs = prog.run_numpy(*inputs, poison=True)
            expected = expected_outputs(os.path.join(path, "expected.txt"))
            notes = []
            ok = len(outs) == len(expected)
            for k, (out, (shape, dtype, ref)) in enumerate(zip(outs, expected)):
                got = np.asarray(out, dtype=np.float64).reshape(-1)
                if dtype == "bf16":
                    got = seeded.bf16_bits_to_f32(np.asarray(out).reshape(-1)).astype(np.float64)
                rtol = 2e-2 if dtype in ("f16", "bf16") else 1e-4
                scale = np.max(np.abs(ref)) if ref.size else 0.0
                tol = rtol * scale + (rtol + 5e-6) * np.abs(ref)
                bad = ~(np.abs(got - ref) <= tol)
                if got.size != ref.size or bad.any():
                    ok = False
                    notes.append("output %d: %d of %d elements off (max err %.3g, nan %d)" % (
                        k, int(bad.sum()), ref.size, float(np.nanmax(np.abs(got - ref))) if ref.size else 0,
                        int(np.isnan(got).sum())))
            prog.close()
        except Exception as e:  # one line per program, never a crash
            ok, notes = False, ["%s: %s" % (type(e).__name__, e)]
        passed += ok
        failed += not ok
        print("%s %s %s" % ("PASS" if ok else "FAIL", d, "; ".join(notes)))
    print("gpu-difftest: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
