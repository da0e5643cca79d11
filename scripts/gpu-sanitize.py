#!/usr/bin/env python3
"""Runs compute-sanitizer's tools over PTX artifacts on the GPU: memcheck
(out-of-bounds and misaligned accesses), racecheck (shared-memory hazards: a
missing barrier), synccheck (barriers not reached by every thread) and
initcheck (reads of global memory nothing wrote).

    python3 scripts/gpu-sanitize.py ROOT... [--tools memcheck,racecheck,...]
                                    [--batch N] [--timeout S] [-j J]
                                    [--log FILE] [--sanitizer PATH]

Every directory under the ROOTs that holds a manifest.json is an artifact
(scripts/prepare-gpu-sanitize.sh makes the examples and the benchmark
workloads, scripts/prepare-gpu-difftest.sh a difftest batch). Each artifact
runs once per tool on random inputs (floats in [-1, 1), NumPy, seeded by its
name) with NaN-poisoned outputs, through the Python runtime, every launch
synchronised, inside `compute-sanitizer --tool T`. Any report of a tool
counts as a failure of that artifact, racecheck's warnings too: a hazard is
a wrong number waiting for a schedule. One line per artifact and tool, a
table of counts last; exit status 1 on any report. --log FILE keeps the
tool's full text (the accesses, kernels and addresses) for each artifact it
reported on. Needs NumPy and a CUDA
device with the CUDA toolkit's compute-sanitizer; no MLIR.

Artifacts run N to a sanitizer process (--batch, default 25); a CUDA error
(the sanitizer aborts a kernel that it catches) loses the context, so that
process stops and a new one goes on with the artifacts after it. -j J runs
J sanitizer processes at once (default 1); the lines come in a fixed order.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys

from child_processes import lines_with_deadline, run_in_children

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
# Options per tool: racecheck reports hazards of every severity.
TOOL_OPTIONS = {"memcheck": ["--leak-check", "no"],
                "racecheck": ["--racecheck-report", "all"],
                "synccheck": [], "initcheck": []}
# "========= Invalid __shared__ write of size 1 bytes", "========= Error: Race
# reported between ...", "========= Warning: ...", "========= Barrier error
# ...", "========= Uninitialized __global__ memory read ...": a report is a
# sanitizer line that is not indented; its details ("=========     at ...")
# are.
REPORT = re.compile(r"^========= (?! )(?!(ERROR SUMMARY|RACECHECK SUMMARY|COMPUTE-SANITIZER"
                    r"|Target application returned|This tool is|LEAK SUMMARY|"
                    r"No CUDA-MEMCHECK results|Internal Sanitizer))")
SUMMARY = re.compile(r"^========= ERROR SUMMARY: (\d+) errors?")


def find_artifacts(roots):
    found = []
    for root in roots:
        for directory, subdirs, files in os.walk(root):
            subdirs.sort()
            if "manifest.json" in files:
                found.append(os.path.normpath(directory))
    return sorted(set(found), key=lambda d: [int(t) if t.isdigit() else t
                                             for t in re.split(r"(\d+)", d)])


def run_artifacts(paths):
    """The sanitized process: runs each artifact once, between BEGIN and END
    lines; stops at the first CUDA error (the context is lost)."""
    import numpy as np
    from blockbuster import runtime
    from blockbuster.seeded import NUMPY_DTYPES, round_to_bf16_bits
    for path in paths:
        print("BEGIN %s" % path, flush=True)
        try:
            prog = runtime.load(path)
            seed = int(hashlib.sha256(path.encode()).hexdigest()[:8], 16)
            rng = np.random.default_rng(seed)
            inputs = []
            for b in prog.artifact.inputs:
                if b.dtype in ("f16", "bf16", "f32", "f64"):
                    values = rng.uniform(-1, 1, b.shape)
                    inputs.append(round_to_bf16_bits(values) if b.dtype == "bf16"
                                  else values.astype(NUMPY_DTYPES[b.dtype]))
                elif b.dtype == "i1":
                    inputs.append(rng.integers(0, 2, b.shape).astype(NUMPY_DTYPES[b.dtype]))
                else:
                    inputs.append(rng.integers(-8, 9, b.shape).astype(NUMPY_DTYPES[b.dtype]))
            prog.run_numpy(*inputs, poison=True, sync_each=True)
            prog.close()
        except runtime.CudaError as e:
            print("END %s CudaError: %s" % (path, e), flush=True)
            return 3
        except Exception as e:
            print("END %s %s: %s" % (path, type(e).__name__, e), flush=True)
            continue
        print("END %s ok" % path, flush=True)
    return 0


def sanitize(sanitizer, tool, paths, timeout):
    """Runs PATHS under TOOL; yields (path, reports, note, text) per
    artifact it reached. Reports are the sanitizer's report lines, text all
    its lines about the artifact."""
    cmd = [sanitizer, "--tool", tool, "--print-limit", "50", "--error-exitcode", "0"]
    cmd += TOOL_OPTIONS[tool]
    cmd += [sys.executable, os.path.abspath(__file__), "--run"] + paths
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    current, reports, pending_reports, text = None, [], [], []
    try:
        for line in lines_with_deadline(proc, timeout):
            if line.startswith("BEGIN "):
                current, reports, text = line[6:], pending_reports, []
                pending_reports = []
            elif line.startswith("END ") and current:
                note = line[5 + len(current):].strip()
                yield current, reports, "" if note == "ok" else note, text
                current, reports = None, []
            elif line.startswith("=========") and current:
                text.append(line)
                if REPORT.match(line):
                    reports.append(line[10:].strip())
            elif REPORT.match(line):
                # Reports printed between artifacts (at exit) belong to the
                # last.
                (reports if current else pending_reports).append(line[10:].strip())
            elif SUMMARY.match(line) and pending_reports:
                yield "(after the last artifact)", pending_reports, "", []
                pending_reports = []
    except TimeoutError:
        if current:
            yield current, reports, "timed out after %g s" % timeout, text
        return
    code = proc.wait()
    if current:
        yield current, reports, "the sanitized process died (status %d)" % code, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="*")
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--batch", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds one artifact may take under a tool")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="sanitizer processes at once")
    ap.add_argument("--log", help="file for the full text of every report")
    ap.add_argument("--sanitizer", default=shutil.which("compute-sanitizer")
                    or "/usr/local/cuda/bin/compute-sanitizer")
    ap.add_argument("--run", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        return run_artifacts(args.run)

    tools = [t for t in args.tools.split(",") if t]
    for t in tools:
        if t not in TOOLS:
            ap.error("unknown tool %r (%s)" % (t, ", ".join(TOOLS)))
    artifacts = find_artifacts(args.roots)
    if not artifacts:
        ap.error("no artifacts (manifest.json) under %s" % " ".join(args.roots))
    size = max(1, args.batch)
    jobs = [(tool, artifacts[i:i + size]) for tool in tools
            for i in range(0, len(artifacts), size)]

    def run_job(job):
        """(line, outcome) per artifact of a batch under a tool, restarting
        the process after a lost context; outcome 0 clean, 1 reports, 2 the
        artifact did not run."""
        tool, batch = job

        def run_child(paths):
            for path, reports, note, text in sanitize(args.sanitizer, tool, paths,
                                                      args.timeout):
                outcome = 1 if reports else 2 if note else 0
                first = ("; first: " + reports[0]) if reports else ""
                yield path, ("%s %s %s: %d reports%s%s" % (
                    "PASS" if outcome == 0 else "FAIL", tool, path, len(reports),
                    ("; " + note) if note else "", first), outcome,
                    text if reports else [])
        results, _ = run_in_children(
            batch, run_child,
            lambda path: ("FAIL %s %s: the sanitized process reported nothing"
                          % (tool, path), 2, []))
        return tool, results

    counts = {t: [0, 0, 0] for t in tools}  # clean, with reports, not run
    log = open(args.log, "w") if args.log else None
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for tool, results in pool.map(run_job, jobs):
            for line, outcome, text in results:
                print(line, flush=True)
                counts[tool][outcome] += 1
                if log and text:
                    log.write("### %s\n%s\n" % (line, "\n".join(text)))
                    log.flush()
    print("%-10s %6s %8s %8s" % ("tool", "clean", "reports", "not run"))
    for tool in tools:
        print("%-10s %6d %8d %8d" % (tool, *counts[tool]))
    total_bad = sum(c[1] + c[2] for c in counts.values())
    print("gpu-sanitize: %d artifacts x %d tools: %s" % (
        len(artifacts), len(tools), "clean" if not total_bad else "%d failed" % total_bad))
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
