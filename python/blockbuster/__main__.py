"""``python -m blockbuster``: the C API from a shell (docs/Python.md).

    python -m blockbuster compile attention.mlir -o fused.mlir
    python -m blockbuster compile attention.mlir --target gpu --output-dir out
    python -m blockbuster report attention.mlir          # one line per program
    python -m blockbuster report attention.mlir --json   # block-report's JSON
    python -m blockbuster run attention.mlir --fuse --check

``run`` uses bb-run's seeded inputs (``seeded.py``), so its outputs are
bb-run's; ``--check`` compares them with upstream MLIR's lowering of the
same program with bb-run's tolerances and exits 1 when they differ.
Failures print the compiler's diagnostics and exit 1.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import List, Optional, Sequence

import numpy as np

from . import capi, check, seeded


def _block_sizes(text: str) -> List[str]:
    return [size for size in text.split(",") if size]


def _compile(args: argparse.Namespace) -> int:
    compiled = capi.compile(args.file, fuse=args.fuse, target=args.target,
                            output_dir=args.output_dir, entry=args.entry,
                            block_sizes=_block_sizes(args.block_sizes))
    if args.output == "-":
        sys.stdout.write(compiled.ir)
    else:
        with open(args.output, "w") as f:
            f.write(compiled.ir)
    if compiled.artifact:
        print("artifact: %s" % compiled.artifact, file=sys.stderr)
    return 0


def _report(args: argparse.Namespace) -> int:
    compiled = capi.compile(args.file, fuse=args.fuse,
                            block_sizes=_block_sizes(args.block_sizes))
    for r in compiled.report:
        if args.json:
            print(json.dumps(r.raw, indent=2))
        else:
            print("%s: kernels %d, buffered edges %d, global bytes %d, "
                  "flops %d, local bytes peak %d"
                  % (r.program, r.kernels, r.buffered_edges, r.global_bytes,
                     r.flops, r.local_bytes_peak))
    return 0


def _as_float(array: np.ndarray, dtype: str) -> np.ndarray:
    return seeded.bf16_bits_to_f32(array) if dtype == "bf16" else array


def _run(args: argparse.Namespace) -> int:
    sig = capi.signature(args.file, args.entry)
    inputs = seeded.inputs([(spec["shape"], spec["dtype"])
                            for spec in sig["inputs"]], seed=args.seed)
    sizes = _block_sizes(args.block_sizes)
    outputs = capi.run(args.file, inputs, entry=args.entry, fuse=args.fuse,
                       block_sizes=sizes)
    dtypes = [spec["dtype"] for spec in sig["inputs"] + sig["outputs"]]
    references = (capi.run(args.file, inputs, entry=args.entry,
                           reference=True) if args.check else [None] * len(outputs))
    passed = True
    for i, (out, ref, spec) in enumerate(zip(outputs, references, sig["outputs"])):
        values = _as_float(out, spec["dtype"]).astype(np.float64)
        line = "output #%d (%s): min %.6g, max %.6g, mean %.6g" % (
            i, "x".join(str(d) for d in spec["shape"] + [spec["dtype"]]),
            values.min(), values.max(), values.mean())
        if ref is not None:
            comparison = check.Comparison(
                values, _as_float(ref, spec["dtype"]),
                check.default_rtol(dtypes))
            passed = passed and comparison.passed
            line += "; " + comparison.summary()
        print(line)
    if args.check:
        print("PASS" if passed else "FAIL")
    return 0 if passed else 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m blockbuster",
        description="Blockbuster's compiler and CPU runner (docs/Python.md).")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, summary: str,
                fuse_default: bool) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.add_argument("file", help="a .mlir file: Linalg on tensors or "
                         "block programs")
        sub.add_argument("--entry", default="", help="the function or "
                         "program to use (default: the only one)")
        sub.add_argument("--block-sizes", default="", metavar="AXIS=N,...",
                         help="block sizes, as bb-run's --block-sizes")
        fuse = sub.add_mutually_exclusive_group()
        fuse.add_argument("--fuse", dest="fuse", action="store_true",
                          default=fuse_default, help="run block-fuse%s"
                          % (" (default)" if fuse_default else ""))
        fuse.add_argument("--no-fuse", dest="fuse", action="store_false",
                          help="do not run block-fuse%s"
                          % ("" if fuse_default else " (default)"))
        return sub

    sub = command("compile", "Convert and fuse; print the block program.", True)
    sub.add_argument("-o", "--output", default="-", help="output file "
                     "(default: standard output)")
    sub.add_argument("--target", choices=("cpu", "gpu"), default="cpu",
                     help="gpu: also write a GPU artifact (PTX and "
                     "manifest.json) into --output-dir")
    sub.add_argument("--output-dir", help="the GPU artifact's directory")
    sub.set_defaults(handler=_compile)

    sub = command("report", "Print the fusion report of each block program.",
                  True)
    sub.add_argument("--json", action="store_true",
                     help="print block-report's JSON objects")
    sub.set_defaults(handler=_report)

    sub = command("run", "Run on the CPU on bb-run's seeded inputs.", False)
    sub.add_argument("--seed", type=int, default=1, help="the inputs' seed "
                     "(bb-run's --seed)")
    sub.add_argument("--check", action="store_true", help="compare with "
                     "upstream MLIR's lowering of the program; exit 1 on a "
                     "mismatch")
    sub.set_defaults(handler=_run)

    args = parser.parse_args(argv)
    # A path, so that a missing file is an error rather than MLIR text.
    args.file = pathlib.Path(args.file)
    if args.command == "compile" and args.target == "gpu" and not args.output_dir:
        parser.error("--target gpu needs --output-dir")
    try:
        return args.handler(args)
    except (capi.CompileError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
