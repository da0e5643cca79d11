"""bb-difftest: differential testing of fusion on random Linalg programs.

  bb-difftest --seed S --count N [--start I] [-j J] [--out-dir DIR]
              [--known FILE] [--no-minimise]
      Generates programs S:I .. S:I+N-1, checks each (harness.py), minimises
      every failure and writes it to DIR as a lit test; one line per failure,
      then "N passed, N failed". Exit status 1 when any failed. Failures
      listed in FILE print XFAIL instead (and a listed program that passes
      fails).
  bb-difftest --sizes production --seed S --count N [--start I] [-j J]
      Programs at production sizes (extents 1 to 16384, unit dimensions,
      views), each compiled for the GPU with bb-compile and its PTX
      assembled with ptxas (compile.py): every program must compile or be
      refused with a diagnostic. One line per refusal and failure, then
      "N compiled, N refused, N failed" and the refusals by reason. Exit
      status 1 when any failed.
  bb-difftest --seed S --index I --print [--sizes production]
      Prints program S:I (the generator is deterministic).
  bb-difftest --replay FILE...
      Checks saved programs (their `bb-difftest-config:` line gives the
      settings); prints PASS or the failure, exit status 1 on failure.
"""

import argparse
import os
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from .compile import compile_check, find_ptxas
from .emit import emit
from .generator import generate
from .harness import Tools, check
from .minimise import minimise

CONFIG_TAG = "bb-difftest-config:"
CONFIG_KEYS = ("whole-threshold", "seed", "block-salt")


def config_line(config):
    return "%s %s" % (CONFIG_TAG, " ".join("%s=%d" % (k, config[k])
                                           for k in CONFIG_KEYS))


def parse_config(text, path):
    m = re.search(re.escape(CONFIG_TAG) + r"(.*)", text)
    if not m:
        raise SystemExit("bb-difftest: error: %s: no '%s' line" % (path, CONFIG_TAG))
    config = {}
    for item in m.group(1).split():
        k, _, v = item.partition("=")
        if k not in CONFIG_KEYS or not v.lstrip("-").isdigit():
            raise SystemExit("bb-difftest: error: %s: bad setting '%s'" % (path, item))
        config[k] = int(v)
    missing = [k for k in CONFIG_KEYS if k not in config]
    if missing:
        raise SystemExit("bb-difftest: error: %s: missing %s" % (path, ", ".join(missing)))
    return config


def program_text(prog, header=()):
    return emit(prog, list(header) + [config_line(prog.config)])


def regression_test(prog, result, seed, index, original_ops):
    """The minimised program as a lit test that replays the check."""
    header = [
        "Found by bb-difftest --seed %d (program %d), minimised from %d to %d"
        % (seed, index, original_ops, len(prog.ops)),
        "operators. Failure: %s: %s" % (result.kind, result.detail),
        "",
        "The checks, in the directory of a copy of this file as prog.mlir:",
    ] + ["  " + c.replace(os.path.dirname(c.split()[0]) + "/", "")
         for c in result.commands] + [
        "",
        "RUN: bb-difftest --replay %s | FileCheck %s",
        "CHECK: PASS {{.*}}.mlir",
    ]
    return program_text(prog, header)


def nan_count(result):
    m = re.search(r"\bnan (\d+) of", result.detail)
    return int(m.group(1)) if m else 0


def same_failure(original, candidate):
    """Whether a shrunk program still fails as the original did: the same
    kind, and no NaN where the original had none. Edits can make a
    program undefined (a sum of squares that loses its square and goes
    negative under an rsqrt), and a NaN on both sides is a failure of the
    check, not of fusion."""
    return candidate.kind == original.kind and \
        (nan_count(candidate) == 0 or nan_count(original) > 0)


def check_program(prog, tools):
    return check(program_text(prog), prog.config, tools)


def read_known(path):
    """Known failures: lines `SEED:INDEX KIND  reason`, '#' comments."""
    known = {}
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            f = line.split()
            m = re.match(r"^(\d+):(\d+)$", f[0])
            if not m or len(f) < 2:
                raise SystemExit("bb-difftest: error: %s:%d: expected "
                                 "'SEED:INDEX KIND'" % (path, n))
            known[(int(m.group(1)), int(m.group(2)))] = f[1]
    return known


def run_batch(args, tools):
    os.makedirs(args.out_dir, exist_ok=True)
    indices = range(args.start, args.start + args.count)
    known = read_known(args.known) if args.known else {}

    def one(i):
        prog = generate(args.seed, i)
        res = check_program(prog, tools)
        if res.ok:
            return i, res, None
        saved = None
        if known.get((args.seed, i)) == res.kind:
            return i, res, None  # expected: not minimised again
        # A tool that could not be started says nothing about the program.
        if not args.no_minimise and res.kind != "tool-error":
            orig = len(prog.ops)
            small = minimise(prog, lambda q: same_failure(res, check_program(q, tools)))
            final = check_program(small, tools)
            if final.kind == res.kind:
                prog, res = small, final
            path = os.path.join(args.out_dir, "seed%d-%d-%s.mlir"
                                % (args.seed, i, res.kind))
            with open(path, "w") as fh:
                fh.write(regression_test(prog, res, args.seed, i, orig))
            saved = path
        return i, res, saved

    passed = failed = expected = 0
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for i, res, saved in ex.map(one, indices):
            kind = known.get((args.seed, i))
            if res.ok and kind:
                # Like lit's XPASS: the list must be kept true.
                failed += 1
                print("XPASS %d:%d listed as %s in %s, now passes"
                      % (args.seed, i, kind, args.known), flush=True)
                continue
            if res.ok:
                passed += 1
                if args.verbose:
                    print("pass %d:%d" % (args.seed, i), flush=True)
                continue
            if kind == res.kind:
                expected += 1
                print("XFAIL %d:%d %s: %s" % (args.seed, i, res.kind, res.detail),
                      flush=True)
                continue
            failed += 1
            print("FAIL %d:%d %s: %s%s" % (args.seed, i, res.kind, res.detail,
                                          " -> " + saved if saved else ""),
                  flush=True)
    if args.verbose:
        print("%.1f s" % (time.time() - t0))
    print("%d passed, %d failed%s" % (
        passed, failed, ", %d known failures (%s)" % (expected, args.known)
        if args.known else ""))
    return 1 if failed else 0


def reason_of(detail):
    """A refusal's reason without its sizes and names, to group them."""
    return re.sub(r"\b\d+\b", "N", re.sub(r"'[^']*'", "'X'", detail))[:120]


def run_production_batch(args):
    """Compiles programs of the production profile; see the module doc."""
    bb_compile = os.path.join(args.tools_dir, "bb-compile")
    ptxas = find_ptxas()
    if not ptxas:
        print("note: ptxas not found: PTX is not assembled", flush=True)
    indices = range(args.start, args.start + args.count)

    def one(i):
        prog = generate(args.seed, i, production=True)
        return i, compile_check(program_text(prog), prog.config, bb_compile,
                                ptxas)

    compiled = refused = failed = 0
    reasons = {}
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for i, res in ex.map(one, indices):
            if res.kind == "compiled":
                compiled += 1
                if args.verbose:
                    print("compiled %d:%d" % (args.seed, i), flush=True)
            elif res.kind == "refused":
                refused += 1
                reason = reason_of(res.detail)
                reasons[reason] = reasons.get(reason, 0) + 1
                print("refused %d:%d: %s" % (args.seed, i, res.detail),
                      flush=True)
            else:
                failed += 1
                print("FAIL %d:%d %s: %s" % (args.seed, i, res.kind,
                                             res.detail), flush=True)
    if args.verbose:
        print("%.1f s" % (time.time() - t0))
    print("%d compiled, %d refused, %d failed" % (compiled, refused, failed))
    for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %4d refused: %s" % (n, reason))
    return 1 if failed else 0


def print_stats(args):
    """Counts of operator forms over the batch: what the generator covers."""
    counts = {}

    def bump(key):
        counts[key] = counts.get(key, 0) + 1

    for i in range(args.start, args.start + args.count):
        prog = generate(args.seed, i, production=args.sizes == "production")
        bump("programs")
        bump("outputs>1" if len(prog.outputs) > 1 else "outputs=1")
        readers = {}
        for op in prog.ops:
            for v in op.inputs:
                readers[v.id] = readers.get(v.id, 0) + 1
        if any(n > 1 for vid, n in readers.items()
               if vid not in {a.id for a in prog.args}):
            bump("shared intermediate")
        if any(a.scalar for a in prog.args):
            bump("scalar argument")
        for op in prog.ops:
            style = op.attrs.get("style", "")
            if op.kind == "reduce":
                bump("reduce %s %s" % (op.combiner, style))
                if op.keepdim:
                    bump("reduce keepdim")
                if op.rdims[-1] != op.inputs[0].dims[-1]:
                    bump("reduce not over the last dim")
                if op.init[0] == "value":
                    bump("reduce into a computed init")
            elif op.kind == "contract":
                a, b = op.inputs[0], op.inputs[1]
                bump("contract %s" % style)
                if op.init[0] == "value":
                    bump("contract into a computed init")
                if len(op.result.dims) == 3:
                    bump("contract batched")
            elif op.kind == "ew":
                bump("ew %s" % ("named" if style.startswith("named") else style))
                if any(len(v.dims) < len(op.result.dims) for v in op.inputs):
                    bump("ew with a broadcast operand")
                if any(v.dims != op.result.dims and sorted(v.dims) == sorted(op.result.dims)
                       for v in op.inputs):
                    bump("ew with a transposed operand")
            elif op.kind == "view":
                bump("view %s" % op.reshape)
            else:
                bump(op.kind)
        sizes = set(prog.dims.values())
        if any(s % 2 for s in sizes):
            bump("odd dimension size")
    for k in sorted(counts):
        print("%-32s %d" % (k, counts[k]))


def replay(args, tools):
    status = 0
    for path in args.replay:
        with open(path) as fh:
            text = fh.read()
        res = check(text, parse_config(text, path), tools)
        if res.ok:
            print("PASS %s" % path)
        else:
            status = 1
            print("FAIL %s %s: %s" % (path, res.kind, res.detail))
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="bb-difftest",
        description="Differential testing of block-fuse on random Linalg programs "
                    "(docs/Difftest.md).")
    ap.add_argument("--seed", type=int, default=1, help="seed of the batch")
    ap.add_argument("--count", type=int, default=100, help="programs to check")
    ap.add_argument("--start", type=int, default=0, help="index of the first program")
    ap.add_argument("--index", type=int, help="with --print: the program to print")
    ap.add_argument("--print", action="store_true",
                    help="print programs instead of checking them")
    ap.add_argument("--stats", action="store_true",
                    help="print how often each operator form occurs in the batch")
    ap.add_argument("--sizes", choices=("test", "production"), default="test",
                    help="test: small programs checked on the CPU against "
                         "upstream MLIR; production: programs at model sizes, "
                         "compiled for the GPU only")
    ap.add_argument("--replay", nargs="+", metavar="FILE",
                    help="check saved programs (regression tests)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out-dir", default="bb-difftest-failures",
                    help="where minimised failures are written")
    ap.add_argument("--no-minimise", action="store_true")
    ap.add_argument("--known", metavar="FILE",
                    help="known failures ('SEED:INDEX KIND' lines): reported as "
                         "XFAIL, not failed; a listed program that passes fails")
    ap.add_argument("--inject-error", action="store_true",
                    help="pass --inject-error to bb-run: every program fails "
                         "(tests the harness and the minimiser)")
    ap.add_argument("--tools-dir",
                    default=os.path.dirname(os.path.abspath(sys.argv[0])),
                    help="directory of bb-opt and bb-run (default: beside bb-difftest)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    if args.count < 0 or args.jobs < 1:
        ap.error("--count must be >= 0 and --jobs >= 1")
    if args.stats:
        print_stats(args)
        return 0
    if args.print:
        indices = [args.index] if args.index is not None else \
            range(args.start, args.start + args.count)
        for i in indices:
            prog = generate(args.seed, i, production=args.sizes == "production")
            sys.stdout.write(program_text(prog, ["program %d of seed %d"
                                                 % (i, args.seed)]))
        return 0
    if args.sizes == "production":
        if args.replay:
            ap.error("--replay checks saved test-size programs only")
        if not os.access(os.path.join(args.tools_dir, "bb-compile"), os.X_OK):
            ap.error("bb-compile not found in %s (--tools-dir)" % args.tools_dir)
        return run_production_batch(args)
    for tool in ("bb-opt", "bb-run"):
        if not os.access(os.path.join(args.tools_dir, tool), os.X_OK):
            ap.error("%s not found in %s (--tools-dir)" % (tool, args.tools_dir))
    tools = Tools(args.tools_dir, inject_error=args.inject_error)
    if args.replay:
        return replay(args, tools)
    return run_batch(args, tools)
