#!/usr/bin/env python3
"""Runs the random programs prepared by scripts/prepare-gpu-difftest.sh on the
GPU and compares each output with upstream MLIR's CPU result on the same
inputs (bb-run's seeded stream, python/blockbuster/seeded.py).

    python3 scripts/gpu-difftest.py DIR [--batch N] [--timeout S] [-j J]

Criterion: elementwise |gpu - cpu| <= atol + rtol * |cpu| with rtol 1e-4
(2e-2 for f16/bf16) and atol = rtol * max|cpu| plus the 6 significant digits
bb-run prints (5e-6 relative); outputs poisoned with NaN first; NaN fails.
An output outside that tolerance still passes, as with bb-run --f64-oracle,
when expected.txt has the f64 oracle's values (prepare-gpu-difftest.sh) and
its largest and RMS errors against them are at most twice the CPU result's
(plus atol, atol/10): an ill-conditioned output, which the GPU computes as
closely as the CPU does (its line says so). NaN never passes.
One line per program, a summary last; exit 1 on any failure. Needs NumPy and
a CUDA device, no MLIR.

Isolation: an illegal access in one kernel loses the process's CUDA context,
and every later call fails. So the programs run in worker processes of at
most N programs each (--batch, default 20; 1 = a process per program), and a
worker stops at its first CUDA error; the next worker goes on with the
programs after it. Every launch is synchronised before the next, so a fault
names its launch ("launch 1 (difftest_kernel, grid ..., ...) faulted:
CUDA_ERROR_ILLEGAL_ADDRESS"). A worker that dies or hangs (--timeout seconds
per program, default 60) fails the program it was running, and the run goes
on. -j J runs J workers at once (default 1); the lines come in program order.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import threading

from child_processes import lines_with_deadline, run_in_children

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

# A worker that reports a CUDA error exits with this status: its context is
# lost, and the parent starts a new one for the programs after it.
CONTEXT_LOST = 3


def expected_outputs(path, kind="output"):
    """The arrays of bb-run --print's sections KIND #N: "output" (the
    program run on the CPU), "reference" (with --check: upstream MLIR's
    lowering of it) or "oracle" (--print-f64-oracle's, computed in f64)."""
    import numpy as np
    outputs, values = [], None
    for line in open(path):
        m = re.match(r"(\w+) #\d+ \(([0-9x]*)x?(\w+)\):$", line)
        if m:
            values = None
            if m.group(1) == kind:
                values = []
                shape = [int(d) for d in m.group(2).split("x") if d] if m.group(2) else []
                outputs.append((shape, m.group(3), values))
            continue
        # "  [i, j] v v v ..." rows; a 0-d output is one bare value.
        # Anything else (bb-run --check's "reference: ..." line and its
        # comparison lines) ends the section.
        m = re.match(r"\s+(?:\[[0-9, ]*\])?\s*(\S.*)", line)
        if m and values is not None:
            values.extend(float(v) for v in m.group(1).split())
        else:
            values = None
    return [(shape, dtype, np.array(vals, dtype=np.float64)) for shape, dtype, vals in outputs]


def closer_than_reference(got, ref, exact, atol):
    """bb-run --f64-oracle's rule for an output that fails the tolerance:
    against the f64 result, its largest and RMS errors are at most twice
    the f32 reference's (plus atol, atol/10). Where the output is
    ill-conditioned, any two f32 evaluation orders differ by more than the
    tolerance; what can be asked is to be about as close to the exact
    result as the reference is."""
    import numpy as np
    test_err, ref_err = np.abs(got - exact), np.abs(ref - exact)
    if np.isnan(test_err).any() or np.isnan(ref_err).any():
        return False
    rms = lambda e: float(np.sqrt(np.mean(e * e))) if e.size else 0.0
    return (float(test_err.max()) <= 2 * float(ref_err.max()) + atol and
            rms(test_err) <= 2 * rms(ref_err) + atol / 10)


def check_program(path):
    """Runs one program; returns (ok, notes). Raises runtime.CudaError."""
    import numpy as np
    from blockbuster import runtime, seeded
    prog = runtime.load(path)
    try:
        specs = [(b.shape, b.dtype) for b in prog.artifact.inputs]
        inputs = seeded.inputs(specs, seed=1)
        outs = prog.run_numpy(*inputs, poison=True, sync_each=True)
    finally:
        prog.close()
    expected_path = os.path.join(path, "expected.txt")
    # Upstream MLIR's outputs (bb-run --check --print's "reference"
    # sections, scripts/prepare-gpu-difftest.sh); a hand-made expected.txt
    # of bb-run --print has only the "output" ones.
    expected = (expected_outputs(expected_path, "reference") or
                expected_outputs(expected_path))
    oracle = expected_outputs(expected_path, "oracle")
    notes = []
    ok = len(outs) == len(expected)
    if not ok:
        notes.append("%d outputs, expected %d" % (len(outs), len(expected)))
    for k, (out, (shape, dtype, ref)) in enumerate(zip(outs, expected)):
        got = np.asarray(out, dtype=np.float64).reshape(-1)
        if dtype == "bf16":
            got = seeded.bf16_bits_to_f32(np.asarray(out).reshape(-1)).astype(np.float64)
        rtol = 2e-2 if dtype in ("f16", "bf16") else 1e-4
        scale = np.max(np.abs(ref)) if ref.size else 0.0
        tol = rtol * scale + (rtol + 5e-6) * np.abs(ref)
        if got.size != ref.size:
            ok = False
            notes.append("output %d: %d elements, expected %d" % (k, got.size, ref.size))
            continue
        bad = ~(np.abs(got - ref) <= tol)
        if bad.any():
            summary = "output %d: %d of %d elements off (max err %.3g, nan %d)" % (
                k, int(bad.sum()), ref.size, float(np.nanmax(np.abs(got - ref))),
                int(np.isnan(got).sum()))
            exact = oracle[k][2] if k < len(oracle) else None
            if (exact is not None and exact.size == got.size and
                    closer_than_reference(got, ref, exact, rtol * scale)):
                notes.append(summary + ", as close to the f64 oracle as the reference")
                continue
            ok = False
            notes.append(summary)
    return ok, notes


def worker(root, names):
    """Checks NAMES in order, one line each; stops at the first CUDA error."""
    from blockbuster import runtime
    for name in names:
        print("RUNNING %s" % name, flush=True)
        try:
            ok, notes = check_program(os.path.join(root, name))
        except runtime.CudaError as e:
            print("FAIL %s CudaError: %s" % (name, e), flush=True)
            return CONTEXT_LOST
        except Exception as e:  # one line per program, never a crash
            ok, notes = False, ["%s: %s" % (type(e).__name__, e)]
        print("%s %s %s" % ("PASS" if ok else "FAIL", name, "; ".join(notes)), flush=True)
    return 0


def program_dirs(root):
    # p0, p1, ... in numeric order (random programs), other names sorted.
    return sorted((d for d in os.listdir(root)
                   if os.path.isfile(os.path.join(root, d, "expected.txt"))),
                  key=lambda d: (0, int(d[1:]), "") if d[0] == "p" and d[1:].isdigit()
                  else (1, 0, d))


def run_worker(root, names, timeout):
    """Runs a worker on NAMES; yields (name, (ok, line)) for each program it
    finished, then for the one it died or hung on."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), root,
                             "--worker"] + names,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stderr = []
    errors = threading.Thread(target=lambda: stderr.extend(proc.stderr), daemon=True)
    errors.start()
    running = None
    try:
        for line in lines_with_deadline(proc, timeout):
            if line.startswith("RUNNING "):
                running = line.split(" ", 1)[1]
            elif line.startswith(("PASS ", "FAIL ")):
                yield line.split(" ", 2)[1], (line.startswith("PASS "), line)
                running = None
    except TimeoutError:
        if running:
            yield running, (False, "FAIL %s timed out after %g s" % (running, timeout))
        return
    code = proc.wait()
    errors.join(5)
    if running:
        why = ("signal %d" % -code) if code < 0 else ("exit status %d" % code)
        last = [l.strip() for l in stderr if l.strip()]
        yield running, (False, "FAIL %s worker died (%s)%s" % (
            running, why, (": " + last[-1]) if last else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--batch", type=int, default=20,
                    help="programs per worker process (1: a process each)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds one program may run")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="workers at once")
    ap.add_argument("--worker", nargs="+", metavar="NAME", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.root, args.worker)

    programs = program_dirs(args.root)
    size = max(1, args.batch)
    batches = [programs[i:i + size] for i in range(0, len(programs), size)]

    def run_batch(names):
        """Lines of a batch, restarting workers after lost contexts."""
        return run_in_children(
            names, lambda rest: run_worker(args.root, rest, args.timeout),
            lambda name: (False, "FAIL %s worker reported nothing" % name))

    passed = failed = workers = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for results, started in pool.map(run_batch, batches):
            workers += started
            for ok, line in results:
                print(line, flush=True)
                passed += ok
                failed += not ok
    print("gpu-difftest: %d passed, %d failed (%d worker processes)" % (passed, failed, workers))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
