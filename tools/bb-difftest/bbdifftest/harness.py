"""Runs one Linalg program through the Blockbuster tools and judges it.

For a program P (Linalg on tensors) and its settings:

1. `bb-opt P --convert-linalg-to-block{whole-threshold=T}` -> U, the unfused
   block program (a low threshold tiles small axes, so that odd sizes end in
   partial blocks without making programs slow).
2. `bb-opt U --block-report --block-fuse --block-report` -> F and the two
   fusion reports, at the block sizes the driver judges by: F must have no
   more kernels than U and no longer estimated time (docs/FusionReport.md).
3. `bb-run U --check --fuse --reference P --block-sizes=...`: the fused
   program (what block-fuse{keep-snapshots} and block-select choose) against
   upstream MLIR's lowering of P on the same random inputs.
4. `bb-run F --check --reference P --block-sizes=...`: the fully fused
   program itself, which block-select may have passed over for a snapshot.

When a numeric check fails, `bb-run U --check --reference P` (no fusion)
tells a fusion bug from one in conversion or lowering.

Every failure has a kind (the first word of its line); the minimiser keeps a
program only while it fails with the same kind.
"""

import json
import os
import random
import re
import subprocess
import tempfile

TIMEOUT_S = 120
MAX_FUSE_STEPS = 5000
# The exit status run() reports for a tool that could not be started.
TOOL_MISSING = -1000


class Tools:
    def __init__(self, bin_dir, inject_error=False):
        self.bb_opt = os.path.join(bin_dir, "bb-opt")
        self.bb_run = os.path.join(bin_dir, "bb-run")
        self.inject_error = inject_error


class Result:
    def __init__(self, kind, detail="", commands=()):
        self.kind = kind          # "pass" or the failure kind
        self.detail = detail
        self.commands = list(commands)  # to reproduce, in order

    @property
    def ok(self):
        return self.kind == "pass"

    def __repr__(self):
        return "%s: %s" % (self.kind, self.detail)


def parse_axes(block_text):
    """The (name, extent, tiled) axes of the first block.program."""
    m = re.search(r"block\.program @\S+ axes\(([^)]*)\)", block_text)
    if not m:
        return []
    axes = []
    for part in m.group(1).split(","):
        f = part.split()
        if len(f) >= 4:
            axes.append((f[0], int(f[2]), f[3] == "tiled"))
    return axes


BLOCK_CHOICES = [5, 8, 13, 16, 24, 32, 40, 48, 64, 100, 128]


def block_sizes(axes, salt):
    """A block size per tiled axis, chosen from the axis' extent and the
    program's salt only (not its name: names shift as the minimiser deletes
    operators). Sizes that divide the extent are avoided, so the last block
    is partial; salt % 5 == 0 leaves the choice to block-select's heuristic."""
    if salt % 5 == 0:
        return []
    out = []
    for name, extent, tiled in axes:
        if not tiled:
            continue
        rng = random.Random("blocks:%d:%d" % (salt, extent))
        cands = [b for b in BLOCK_CHOICES if b < extent and extent % b]
        out.append("%s=%d" % (name, rng.choice(cands) if cands else extent))
    return out


def crashed(proc):
    return proc.returncode < 0 or "Stack dump" in proc.stderr or \
        "PLEASE submit a bug report" in proc.stderr


def first_line(text, pattern=r"error|Assertion|Stack dump|FAIL"):
    for line in text.splitlines():
        if re.search(pattern, line):
            return line.strip()[:240]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:240] if lines else ""


def run(cmd, cwd):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    except OSError as e:
        # A tool that cannot be started (being rebuilt, missing): an error
        # of this program's check, not of the harness.
        return subprocess.CompletedProcess(cmd, TOOL_MISSING, "", "error: %s\n" % e)


def quote(cmd):
    return " ".join("'%s'" % c if any(ch in c for ch in " {}") else c for c in cmd)


def check(text, config, tools, workdir=None):
    """Checks program `text` (Linalg) with its `config`; returns a Result.
    Files are written to `workdir` (a fresh temporary directory if None,
    removed afterwards)."""
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="bb-difftest-") as d:
            return check(text, config, tools, d)
    p = os.path.join(workdir, "prog.mlir")
    u = os.path.join(workdir, "unfused.mlir")
    f = os.path.join(workdir, "fused.mlir")
    with open(p, "w") as fh:
        fh.write(text)
    cmds = []

    def opt(args, what):
        cmd = [tools.bb_opt] + args
        cmds.append(quote(cmd))
        proc = run(cmd, workdir)
        if proc is None:
            return None, Result(what + "-timeout", "no result in %d s" % TIMEOUT_S, cmds)
        if proc.returncode == TOOL_MISSING:
            return None, Result("tool-error", first_line(proc.stderr), cmds)
        if crashed(proc):
            return None, Result(what + "-crash", first_line(proc.stderr), cmds)
        if proc.returncode != 0:
            return None, Result(what + "-error", first_line(proc.stderr), cmds)
        return proc, None

    # 1. conversion
    _, err = opt(["prog.mlir", "--convert-linalg-to-block=whole-threshold=%d"
                  % config["whole-threshold"], "-o", "unfused.mlir"], "convert")
    if err:
        return err
    with open(u) as fh:
        axes = parse_axes(fh.read())
    sizes = block_sizes(axes, config["block-salt"])
    bs = ("block-sizes=" + ",".join(sizes) + " ") if sizes else ""

    # 2. fusion and the reports before and after, at the block sizes the
    # driver judges by (the axis table's, else 128): at other sizes a fused
    # program may legitimately move more bytes (it reloads operands per
    # block), and block-select weighs that when it picks sizes and snapshot.
    # max-steps turns a driver that does not terminate into a quick error
    # (real programs take a few hundred rewrites).
    # The estimates are those the extend step judges by (serial-work=false:
    # it estimates at one block size for every axis, where the serial work
    # of a decode program's blocks says nothing about block-select's).
    _, err = opt(["unfused.mlir",
                  "--block-report=output=unfused.json serial-work=false",
                  "--block-fuse=max-steps=%d" % MAX_FUSE_STEPS,
                  "--block-report=output=fused.json serial-work=false",
                  "-o", "fused.mlir"], "fuse")
    if err:
        return err
    try:
        with open(os.path.join(workdir, "unfused.json")) as fh:
            ru = json.load(fh)
        with open(os.path.join(workdir, "fused.json")) as fh:
            rf = json.load(fh)
    except (OSError, ValueError) as e:
        return Result("report-error", str(e), cmds)
    if rf["kernels"] > ru["kernels"]:
        return Result("more-kernels", "%d kernels fused, %d unfused"
                      % (rf["kernels"], ru["kernels"]), cmds)
    # Time, not bytes: fusion may read more (statistics recomputed per
    # block) where that saves launches and round trips; it must not make
    # the program slower by the cost model it is judged by (the H100's).
    if rf["estimated_ns"] > ru["estimated_ns"]:
        return Result("slower", "%d ns estimated fused, %d unfused (%s; %d "
                      "and %d global bytes)"
                      % (rf["estimated_ns"], ru["estimated_ns"], rf["target"],
                         rf["global_bytes"], ru["global_bytes"]), cmds)

    # Which program does bb-run --fuse run? block-fuse{keep-snapshots} and
    # block-select may choose a snapshot over F; check 4 runs F only then.
    sel = "--block-select=%starget=cpu" % bs
    _, err = opt(["unfused.mlir", "--block-fuse=keep-snapshots", sel,
                  "-o", "selected.mlir"], "select")
    if err:
        return err
    # The chosen program is F when it is F's text once the block sizes that
    # block-select bound are taken out of the axis table.
    with open(os.path.join(workdir, "selected.mlir")) as a, open(f) as b:
        full_chosen = re.sub(r" block \d+", "", a.read()) == b.read()

    # 3, 4. numbers
    # --f64-oracle: an output that misses the tolerance passes when it is
    # about as close to the f64 result as upstream's f32 result is (an
    # ill-conditioned output, where any two summation orders differ).
    common = ["--check", "--reference", "prog.mlir", "--seed=%d" % config["seed"],
              "--f64-oracle"]
    if sizes:
        common.append("--block-sizes=" + ",".join(sizes))
    if tools.inject_error:
        common.append("--inject-error")

    def bbrun(args, what):
        cmd = [tools.bb_run] + args + common
        cmds.append(quote(cmd))
        proc = run(cmd, workdir)
        if proc is None:
            return Result(what + "-timeout", "no result in %d s" % TIMEOUT_S, cmds)
        if proc.returncode == TOOL_MISSING:
            return Result("tool-error", first_line(proc.stderr), cmds)
        out = proc.stdout + proc.stderr
        if crashed(proc):
            return Result(what + "-crash", first_line(proc.stderr), cmds)
        if proc.returncode == 0 and re.search(r"^PASS$", proc.stdout, re.M):
            return None
        if proc.returncode == 1 and re.search(r"^FAIL$", proc.stdout, re.M):
            return Result(what + "-mismatch", first_line(proc.stdout, r": FAIL"), cmds)
        return Result(what + "-error", first_line(out), cmds)

    err = bbrun(["unfused.mlir", "--fuse"], "run")
    if err is None and not full_chosen:
        err = bbrun(["fused.mlir"], "run-full")
    if err is None:
        return Result("pass", "", cmds)
    if err.kind.endswith("-mismatch") and not tools.inject_error:
        # Is it fusion's? Run the program unfused.
        base = bbrun(["unfused.mlir"], "unfused")
        if base is not None:
            err = Result(base.kind, base.detail, cmds)
    return err
