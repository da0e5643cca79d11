#!/usr/bin/env python3
"""The status of every PyTorch export of test/Inputs/torch/ in every tool.

For each `.mlir` file of the corpus (scripts/export-torch-corpus.py), sorted
by name, runs

  fuse     bb-opt F --hoist-tensor-constants --convert-linalg-to-block
                    --block-fuse --block-report -o /dev/null
           -> the kernel count after fusion (the report's `kernels`);
  check    bb-run F --check --fuse          (the CPU: fused vs upstream MLIR)
           -> PASS, FAIL (a wrong number, a crash or a timeout) or the
              first `error:` line;
  compile  bb-compile F -o TMP, then ptxas -arch=sm_90 on every PTX file
           -> ok (N PTX files assembled) or the first error line;
  iree     iree-compile F --iree-hal-target-device=cuda --iree-cuda-target=sm_80
                          --compile-to=flow
           -> the number of `flow.dispatch @...` ops (IREE's kernel count).

and prints a markdown table (one row per export, the first error of each
failing step) and the line `torch corpus: N exports, N fuse, N check, N
compile`. Steps whose tool is missing (ptxas, iree-compile) are shown as
`-`. Exits 1 if any step FAILs (a wrong result or a crash); refusals with a
diagnostic are the baseline, not failures of this script. Python 3 standard
library only; docs/RealInputs.md has the table.

    scripts/torch-corpus-status.py [--dir DIR] [--bin build/bin]
        [--iree-compile PATH] [--ptxas PATH] [--markdown OUT.md]
        [--timeout S] [FILE.mlir ...]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(REPO, "test", "Inputs", "torch")


def first_error(text, path):
    """The first `error:` line of a tool's stderr (else its first line),
    without the file's path and the location prefix."""
    text = text.replace(path + ":", "").replace(path, "<file>")
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l.lower()]
    line = errors[0] if errors else (lines[0] if lines else "no message")
    return re.sub(r"^([\w-]+: )?(\d+:\d+: )?(error: )?", "", line)


def crashed(proc):
    return proc.returncode < 0 or "Stack dump" in proc.stderr \
        or "PLEASE submit a bug report" in proc.stderr


def run(cmd, timeout):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


class Step:
    """One cell: ok (bool or None when not run), text, loud (a FAIL)."""

    def __init__(self, ok, text, loud=False):
        self.ok, self.text, self.loud = ok, text, loud


def fuse(args, path):
    proc = run([os.path.join(args.bin, "bb-opt"), path,
                "--hoist-tensor-constants", "--convert-linalg-to-block",
                "--block-fuse", "--block-report", "-o", os.devnull],
               args.timeout)
    if proc is None:
        return Step(False, "timed out after %d s" % args.timeout, True)
    if crashed(proc):
        return Step(False, "CRASH: " + first_error(proc.stderr, path), True)
    if proc.returncode != 0:
        return Step(False, first_error(proc.stderr, path))
    match = re.search(r'"kernels":\s*(\d+)', proc.stdout)
    if not match:
        return Step(False, "no `kernels` in the report", True)
    return Step(True, match.group(1))


def check(args, path):
    proc = run([os.path.join(args.bin, "bb-run"), path, "--check", "--fuse"],
               args.timeout)
    if proc is None:
        return Step(False, "FAIL: timed out after %d s" % args.timeout, True)
    if crashed(proc):
        return Step(False, "FAIL: CRASH: " + first_error(proc.stderr, path),
                    True)
    lines = proc.stdout.splitlines()
    verdict = lines[-1].strip() if lines else ""
    if proc.returncode == 0 and verdict == "PASS":
        return Step(True, "PASS")
    if verdict == "FAIL":
        failing = [l for l in lines if l.startswith("output #")
                   and l.endswith("FAIL")]
        return Step(False, "FAIL: " + (failing[0] if failing else ""), True)
    return Step(False, first_error(proc.stderr, path))


def compile_ptx(args, path):
    with tempfile.TemporaryDirectory() as out:
        proc = run([os.path.join(args.bin, "bb-compile"), path, "-o", out],
                   args.timeout)
        if proc is None:
            return Step(False, "timed out after %d s" % args.timeout, True)
        if crashed(proc):
            return Step(False, "CRASH: " + first_error(proc.stderr, path),
                        True)
        if proc.returncode != 0:
            return Step(False, first_error(proc.stderr, path))
        ptx = sorted(glob.glob(os.path.join(out, "*.ptx")))
        if not args.ptxas:
            return Step(True, "ok (no ptxas: %d PTX files not assembled)"
                        % len(ptx))
        for file in ptx:
            proc = run([args.ptxas, "-arch=sm_90", file, "-o", os.devnull],
                       args.timeout)
            if proc is None or proc.returncode != 0:
                text = "timed out" if proc is None else \
                    first_error(proc.stderr, file)
                return Step(False, "ptxas: " + text, True)
        return Step(True, "ok (%d PTX files assembled)" % len(ptx))


def iree(args, path):
    if not args.iree_compile:
        return Step(None, "-")
    with tempfile.TemporaryDirectory() as out:
        flow = os.path.join(out, "flow.mlir")
        proc = run([args.iree_compile, path,
                    "--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80",
                    "--compile-to=flow", "-o", flow], args.timeout)
        if proc is None or proc.returncode != 0:
            text = "timed out" if proc is None else \
                first_error(proc.stderr, path)
            return Step(False, "error: " + text)
        with open(flow) as f:
            return Step(True, str(len(re.findall(r"\bflow\.dispatch @",
                                                 f.read()))))


def cell(step):
    return step.text.replace("|", "\\|")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--dir", default=DEFAULT_DIR)
    parser.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    venv_iree = os.path.join(REPO, ".venv-torch", "bin", "iree-compile")
    parser.add_argument("--iree-compile", default=venv_iree
                        if os.path.exists(venv_iree)
                        else shutil.which("iree-compile"),
                        help="default: .venv-torch/bin/iree-compile, PATH; "
                        "'' to skip")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas"
        if os.path.exists("/usr/local/cuda/bin/ptxas") else None))
    parser.add_argument("--markdown")
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()

    files = [os.path.join(args.dir, f) for f in args.files] if args.files \
        else sorted(glob.glob(os.path.join(args.dir, "*.mlir")))
    rows = ["| export | kernels | IREE | bb-run --check --fuse | "
            "bb-compile + ptxas | first errors |",
            "|---|---|---|---|---|---|"]
    print("\n".join(rows), flush=True)
    counts = {"fuse": 0, "check": 0, "compile": 0}
    loud = False
    for path in files:
        name = os.path.basename(path)[:-len(".mlir")]
        steps = {"fuse": fuse(args, path), "check": check(args, path),
                 "compile": compile_ptx(args, path)}
        dispatches = iree(args, path)
        for key, step in steps.items():
            counts[key] += bool(step.ok)
            loud |= step.loud
            if step.loud:
                print("%s: %s: %s" % (name, key, step.text), file=sys.stderr)
        # Each failing step's first error, once when steps share it.
        errors, seen = [], set()
        for key, step in steps.items():
            if not step.ok and step.text not in seen:
                seen.add(step.text)
                errors.append("%s: %s" % (key, step.text))
        row = "| %s | %s | %s | %s | %s | %s |" % (
            name, cell(steps["fuse"]) if steps["fuse"].ok else "-",
            cell(dispatches),
            "PASS" if steps["check"].ok else ("FAIL" if steps["check"].loud
                                              else "refused"),
            cell(steps["compile"]) if steps["compile"].ok else (
                "FAIL" if steps["compile"].loud else "refused"),
            cell(Step(None, "; ".join(errors))))
        rows.append(row)
        print(row, flush=True)
    summary = "torch corpus: %d exports, %d fuse, %d check, %d compile" % (
        len(files), counts["fuse"], counts["check"], counts["compile"])
    print()
    print(summary)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(rows) + "\n\n" + summary + "\n")
    return 1 if loud else 0


if __name__ == "__main__":
    sys.exit(main())
