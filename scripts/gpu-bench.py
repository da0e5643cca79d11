#!/usr/bin/env python3
"""Times every artifact under ARTIFACTS_ROOT against PyTorch eager and
torch.compile of the same function, in the same run, and prints a markdown
table.

    python3 scripts/gpu-bench.py ARTIFACTS_ROOT [--device I] [--graphs]

Per artifact: random inputs in the artifact's dtypes; the outputs are first
checked against the fp32 reference (as scripts/gpu-check.py does; a failing
artifact is reported and not timed); then each of Blockbuster (the artifact
through python/blockbuster/runtime.py, outputs preallocated, no
synchronisation inside the timed call), PyTorch eager and torch.compile of
the reference function computed in the inputs' own dtypes (references.py
with widen=False) is timed with triton.testing.do_bench: warm-up, then the
median of CUDA-event timings, L2 flushed between runs. --graphs times CUDA
graph replays of every contender instead (no launch overhead from Python).
Attention artifacts also get PyTorch's scaled_dot_product_attention (SDPA,
the anchors' "best library") with the example's scale and mask.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from blockbuster import artifact as bb_artifact  # noqa: E402
from blockbuster import references, runtime  # noqa: E402
from blockbuster.check import Comparison, default_rtol  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
gpu_check = __import__("gpu-check")


def graphed(torch, fn):
    """A CUDA graph of ``fn`` (warmed up on a side stream first)."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return graph.replay


def library_baseline(torch, ref_name, inputs):
    """("sdpa", fn) for the attention examples: PyTorch's
    scaled_dot_product_attention with the example's scale and mask (the
    "best library" column of docs/design/performance-anchors.md); else None."""
    if ref_name not in ("attention", "mha", "causal_attention"):
        return None
    import math
    q, k, v = (x.reshape((1,) * (4 - x.dim()) + tuple(x.shape)) for x in inputs)
    scale = 1.0 / math.sqrt(q.shape[-1]) if ref_name == "attention" else 1.0
    causal = ref_name == "causal_attention"
    sdpa = torch.nn.functional.scaled_dot_product_attention
    return "sdpa", lambda: sdpa(q, k, v, is_causal=causal, scale=scale)


def bench_one(torch, do_bench, path, args):
    name = os.path.relpath(path, args.root) if path != args.root else os.path.basename(path)
    row = {"name": name}
    try:
        art = bb_artifact.load(path)
    except bb_artifact.ArtifactError as e:
        row["note"] = "bad artifact: %s" % e
        return row
    ref_name = art.manifest.get("reference", art.entry)
    row["shapes"] = ", ".join(b.describe() for b in art.inputs)
    row["launches"] = len(art.launches)
    if ref_name not in references.REFERENCES:
        row["note"] = "no reference for @%s" % art.entry
        return row
    device = "cuda:%d" % args.device
    generator = torch.Generator(device=device)
    generator.manual_seed(args.seed)
    inputs = gpu_check.random_inputs(torch, art.inputs, device, generator)
    prog = runtime.Program(art, device=args.device)
    outputs = prog(*inputs, poison=True)
    ref = references.run(ref_name, inputs, "torch")
    rtol = default_rtol([b.dtype for b in art.inputs + art.outputs])
    for b, out, r in zip(art.outputs, outputs, ref):
        c = Comparison(gpu_check.to_numpy(torch, out),
                       gpu_check.to_numpy(torch, r.to(torch.float32)), rtol)
        if not c.passed:
            row["note"] = "FAILS the check (%s: %s); not timed" % (b.name, c.summary())
            return row

    fn = references.REFERENCES[ref_name]
    ops = references._TorchOps()

    def eager():
        return fn(*inputs, ops)

    compiled_fn = torch.compile(lambda *xs: fn(*xs, ops))

    def compiled():
        return compiled_fn(*inputs)

    def blockbuster():
        prog(*inputs, outputs=outputs, sync=False)

    contenders = [("blockbuster", blockbuster), ("eager", eager), ("compile", compiled)]
    library = library_baseline(torch, ref_name, inputs)
    if library:
        contenders.append(library)
    timings = {}
    for label, f in contenders:
        try:
            f()  # warm-up (compilation for torch.compile)
            torch.cuda.synchronize()
            if args.graphs:
                f = graphed(torch, f)
            timings[label] = do_bench(f, warmup=args.warmup, rep=args.rep,
                                      return_mode="median")
        except Exception as e:  # a baseline that fails is reported, not fatal
            row.setdefault("note", "")
            row["note"] += "%s failed: %s; " % (label, str(e).splitlines()[0][:120])
    row.update(timings)
    prog.close()
    return row


def fmt(value):
    return "%.4f" % value if isinstance(value, float) else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root")
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=25, help="ms of warm-up (do_bench)")
    parser.add_argument("--rep", type=int, default=100, help="ms of repetitions (do_bench)")
    parser.add_argument("--graphs", action="store_true",
                        help="time CUDA-graph replays of every contender")
    args = parser.parse_args()

    import torch
    from triton.testing import do_bench
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.cuda.set_device(args.device)
    paths = gpu_check.find_artifacts(args.root)
    print("gpu-bench: %s, torch %s, %s, median of do_bench (ms)%s\n" % (
        torch.cuda.get_device_name(args.device), torch.__version__,
        "CUDA graphs" if args.graphs else "eager launches",
        "" if args.graphs else "; Blockbuster times include ctypes launch overhead"))
    print("| artifact | inputs | kernels | Blockbuster ms | eager ms | torch.compile ms "
          "| SDPA ms | eager / BB | compile / BB | SDPA / BB | note |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        try:
            row = bench_one(torch, do_bench, path, args)
        except Exception as e:  # one broken artifact does not stop the table
            row = {"name": os.path.relpath(path, args.root),
                   "note": "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200])}
        bb, eager, comp = row.get("blockbuster"), row.get("eager"), row.get("compile")
        sdpa = row.get("sdpa")
        ratio = lambda x: "%.2fx" % (x / bb) if bb and x else "-"  # noqa: E731
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            row["name"], row.get("shapes", ""), row.get("launches", ""), fmt(bb),
            fmt(eager), fmt(comp), fmt(sdpa), ratio(eager), ratio(comp), ratio(sdpa),
            row.get("note", "").strip()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
