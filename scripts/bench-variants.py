#!/usr/bin/env python3
"""Times schedule variants of the anchor workloads against each other,
interleaved, so that the ratios survive the GPU's clock drift.

    python3 scripts/bench-variants.py ART [--out DIR] [--only SUBSTRING ...]
        [--rounds 8] [--budget-s 0.04] [--max-reps 25]
        [--contenders compile library]

ART is a directory of scripts/build-anchors.py built with --variant
NAME=FLAGS (or with other builds' artifacts added to its index.json as
WORKLOAD__NAME). The workloads are grouped by name: WORKLOAD, WORKLOAD__a,
WORKLOAD__b, ... form one group whose first member is the base.

bench-anchors.py times one workload after the other; on an H200 whose
clocks move by several per cent over a minute, two variants of the same
PTX then measured up to 8% apart (session 17). Here, per group:

1. One set of random inputs (the seed of bench-anchors), every variant run
   once with NaN-poisoned outputs and checked against the fp32 reference
   (bench-anchors' criterion); a failing variant is reported, not timed.
2. Every variant as a CUDA graph replay; then --rounds rounds, each timing
   every variant once (bench-anchors' timer: L2 flushed before each call,
   the median of up to --budget-s of calls), in the group's order on even
   rounds and reversed on odd ones.
   With --contenders, torch.compile of the workload's PyTorch code and
   the library kernel (bench-anchors' contenders, graph-replayed) take
   part in the rounds as variants of their own.
3. Per variant: the median of its round medians, and its time over the
   base's per round (above 1: slower than the base; for a contender,
   above 1 means Blockbuster's base is faster), that ratio's median,
   minimum and maximum over the rounds. The outputs are checked again
   after timing.

The table goes to OUT/variants.md and the rows to OUT/variants.jsonl.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
anchors = __import__("bench-anchors")

HEADER = ("| workload | variant | check (vs fp32) | ms (median of rounds) | "
          "ms / base ms, median [min, max] over rounds |\n|---|---|---|---|---|")


def groups_of(index):
    groups = {}
    for entry in index:
        groups.setdefault(entry["name"].split("__")[0], []).append(entry)
    return list(groups.values())


def bench_group(torch, kinds, timer, args, entries):
    base = entries[0]
    kind = kinds[base["kind"]]
    generator = torch.Generator(device="cuda")
    generator.manual_seed(args.seed)
    rows, runs = [], []
    inputs = ref = None
    for entry in entries:
        label = entry["name"].partition("__")[2] or "base"
        row = {"name": base["name"], "variant": label}
        rows.append(row)
        if "error" in entry:
            row["note"] = "does not compile: " + entry["error"]
            continue
        art = anchors.bb_artifact.load(os.path.join(args.art, entry["name"]))
        if inputs is None:
            inputs = anchors.random_inputs(torch, art.inputs, generator)
            with torch.no_grad():
                ref = kind.reference(*[x.float() for x in inputs])
        prog = anchors.runtime.Program(art)
        (out,) = prog(*inputs, poison=True)
        passed, row["check"] = anchors.compare(torch, out, ref)
        if not passed:
            row["note"] = "FAILS the check; not timed"
            prog.close()
            continue
        out.fill_(float("nan"))
        outputs = [out]
        fn = anchors.graphed(
            torch, lambda p=prog, o=outputs: p(*inputs, outputs=o, sync=False))
        runs.append((row, prog, out, fn, []))
    if runs and inputs is not None:
        for label in args.contenders:
            fn = None
            if label == "compile":
                compiled = torch.compile(kind.model, dynamic=False)
                fn = lambda c=compiled: c(*inputs)
            elif label == "library" and kind.library:
                fn = kind.library(*inputs)
            if fn is None:
                continue
            row = {"name": base["name"], "variant": label}
            rows.append(row)
            try:
                fn()  # compilation for torch.compile
                torch.cuda.synchronize()
                runs.append((row, None, None, anchors.graphed(torch, fn), []))
            except Exception as e:  # a failing contender is reported
                row["note"] = "failed: " + anchors.first_line(e)
    for r in range(args.rounds):
        for row, prog, out, fn, times in (runs if r % 2 == 0 else runs[::-1]):
            times.append(timer(fn)[0])
    for row, prog, out, fn, times in runs:
        if prog is not None:
            passed, summary = anchors.compare(torch, out, ref)
            if not passed:
                row["note"] = "FAILS the check after the timed calls: " + summary
            prog.close()
        row["ms"] = statistics.median(times)
        row["round_ms"] = times
    if runs and runs[0][0]["variant"] == "base":
        base_times = runs[0][4]
        for row, _, _, _, times in runs:
            ratios = [t / b for b, t in zip(base_times, times)]
            row["ratio"] = (statistics.median(ratios), min(ratios), max(ratios))
    return rows


def table_line(row):
    ratio = row.get("ratio")
    return "| %s | %s | %s | %s | %s |%s" % (
        row["name"], row["variant"], row.get("check", "-"),
        "%.4g" % row["ms"] if "ms" in row else "-",
        "%.3fx [%.3f, %.3f]" % ratio if ratio else "-",
        " " + row["note"] if "note" in row else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("art")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--budget-s", type=float, default=0.04,
                        help="measured time per variant and round")
    parser.add_argument("--max-reps", type=int, default=25)
    parser.add_argument("--contenders", nargs="*", default=[],
                        choices=["compile", "library"],
                        help="also time torch.compile and the library kernel "
                             "(bench-anchors' contenders) in the rounds")
    args = parser.parse_args()

    import torch
    began = time.perf_counter()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.art, "index.json")) as f:
        index = [e for e in json.load(f)
                 if args.only is None or any(s in e["name"] for s in args.only)]
    timer = anchors.Timer(torch, args.budget_s, args.max_reps)
    kinds = anchors.make_kinds(torch)
    header = ("bench-variants: %s, torch %s, %s UTC; %d rounds, each variant up to "
              "%.2f s or %d calls a round (L2 flushed before each), CUDA graphs" % (
                  torch.cuda.get_device_name(), torch.__version__,
                  time.strftime("%Y-%m-%d %H:%M", time.gmtime()), args.rounds,
                  args.budget_s, args.max_reps))
    print(header + "\n\n" + HEADER, flush=True)
    lines = []
    with open(os.path.join(args.out, "variants.jsonl"), "w") as jsonl:
        for entries in groups_of(index):
            for row in bench_group(torch, kinds, timer, args, entries):
                lines.append(table_line(row))
                print(lines[-1], flush=True)
                jsonl.write(json.dumps(row) + "\n")
            torch.cuda.empty_cache()
            with open(os.path.join(args.out, "variants.md"), "w") as f:
                f.write(header + "\n\n" + HEADER + "\n" + "\n".join(lines) + "\n")
    print("\nbench-variants: %.0f s" % (time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
