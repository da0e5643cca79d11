#!/usr/bin/env python3
"""Checks and times the anchor workloads (scripts/build-anchors.py) on the
GPU against PyTorch eager, torch.compile and the library kernel, in the same
run, and writes a markdown table.

    python3 scripts/bench-anchors.py ART [--out DIR] [--only SUBSTRING ...]
        [--budget-s 1.0] [--max-reps 100] [--deadline-s 480] [--graphs-all]
        [--check-only] [--contenders eager compile library] [--blockbuster-only]
        [--copy-floor]

ART is the directory build-anchors.py wrote (index.json, one artifact per
workload). Needs PyTorch and a CUDA device; no MLIR. In index order
(cheapest first, slowest last):

1. Ceilings first: a 1 GiB device copy (bytes read + written) and cuBLAS's
   bf16 GEMM at 8192^3; the floor of a workload is max(FLOPs / GEMM rate,
   bytes / copy bandwidth), its bytes those of its inputs and outputs once.
2. Per workload: fresh random inputs in the artifact's dtypes (uniform in
   [-1, 1), made on the device), the artifact run once with NaN-poisoned
   outputs through python/blockbuster/runtime.py and compared with an fp32
   PyTorch reference of exactly what the MLIR computes (rtol 2e-2 for bf16,
   elementwise with atol = rtol * max|ref| and normwise, NaN fails; the
   criterion of python/blockbuster/check.py). A failing artifact is reported
   and not timed. PyTorch eager's bf16 output is compared the same way (its
   error is printed: the baselines compute the same function).
3. Contenders: Blockbuster (outputs preallocated, no synchronisation),
   PyTorch eager and torch.compile (dynamic=False) of the PyTorch code of
   docs/design/torch_baselines.py at the workload's shape, and the
   library kernel: cuBLAS's matmul(s) alone for GEMM-shaped workloads (for
   the FFN the three matmuls on the same operand shapes, for the GELU MLP
   the two), SDPA for
   attention; none for row kernels. Decode shapes (M <= 128), or all with
   --graphs-all, are timed as CUDA-graph replays on every side. With
   --blockbuster-only the artifacts alone are timed (variants of a workload
   compiled with other options). The outputs are poisoned again before the
   timed calls and checked once more after them: a kernel whose workspace
   a replay leaves dirty (split reductions' counters) fails there.
4. Timing: CUDA events around each call, L2 flushed (a 256 MiB memset)
   before each, median. The repetitions are capped by a time budget per
   contender (--budget-s of measured time, at most --max-reps, at least 1)
   and reported as n, so a kernel taking a second per call costs seconds,
   not minutes; past --deadline-s of wall time the remaining workloads are
   listed as not run.

`--contenders library` times Blockbuster against the library kernel alone
(schedule variants: no torch.compile per shape). With --check-only, step 2 alone (edge shapes and schedule variants checked
without spending device time on timing them). A workload built as a
variant (build-anchors.py --variant NAME=FLAGS) is shown as "kind shape
[NAME]".

With --copy-floor, each memory-bound workload also times a device copy of
its bytes (half read, half written: the same traffic), graph-replayed and
timed exactly as the contenders (L2 flushed, CUDA events): the floor column
is bytes over the 1 GiB copy's bandwidth, which a kernel of a few MB cannot
reach (launch, ramp-up and drain are a large part of its time); the copy of
the same bytes is what such a kernel can reach in this harness. A second
table gives it with each contender's time over it.

Each row records the first call's output digest (`output_sha256`, the
first 16 hex digits of the output bytes' SHA-256): variants of a workload
see the same inputs, so equal digests say their outputs are bit-identical.

Rows go to OUT/anchors.jsonl and the table to OUT/anchors.md as each
workload finishes (OUT defaults to $OUT, else the current directory), so a
run cut short still leaves its rows. Ratios are contender time / Blockbuster
time (above 1: Blockbuster is faster).
"""

import argparse
import hashlib
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from blockbuster import artifact as bb_artifact  # noqa: E402
from blockbuster import references, runtime  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# A CUDA graph of a function, as gpu-bench.py makes them.
graphed = __import__("gpu-bench").graphed

RTOL_BF16 = 2e-2
FLUSH_BYTES = 256 * 1024 * 1024


class Kind:
    """What a workload kind needs on the device: its fp32 reference (same
    argument order as the MLIR function), the PyTorch code of the anchors
    in bf16 (eager and torch.compile), the library baseline and its FLOPs."""

    def __init__(self, reference, model, library=None, flops=lambda p: 0):
        self.reference = reference
        self.model = model
        self.library = library
        self.flops = flops


def make_kinds(torch):
    F = torch.nn.functional

    def ln_ref(x, g, b):
        n = float(x.shape[-1])
        mean = x.sum(-1, keepdim=True) / n
        var = ((x - mean) * (x - mean)).sum(-1, keepdim=True) / n
        return (x - mean) * torch.rsqrt(var + 1e-5) * g + b

    def rms_ref(x, g):
        return x * torch.rsqrt((x * x).sum(-1, keepdim=True) / float(x.shape[-1]) + 1e-6) * g

    def rms_model(x, g):  # as the anchors' rms_ffn
        return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6).to(x.dtype) * g

    def gelu_ref(z):
        return z * 0.5 * (1.0 + torch.erf(z * 0.707106769))

    def attention_model(q, k, v):  # the anchors' attn_eager
        s = (q @ k.transpose(-1, -2)) * (q.shape[-1] ** -0.5)
        return torch.softmax(s.float(), dim=-1).to(q.dtype) @ v

    def sdpa(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, scale=q.shape[-1] ** -0.5)

    def causal_attention_model(q, k, v):  # attn_eager with a causal mask
        s = (q @ k.transpose(-1, -2)) * (q.shape[-1] ** -0.5)
        keep = torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool,
                          device=s.device).tril()
        s = s.float().masked_fill(~keep, float("-inf"))
        return torch.softmax(s, dim=-1).to(q.dtype) @ v

    def causal_attention_ref(q, k, v):
        ops = references._TorchOps()
        s = ops.causal_mask(ops.matmul(q, ops.t(k)) * (q.shape[-1] ** -0.5))
        e = torch.exp(s - s.amax(-1, keepdim=True))
        return (e / e.sum(-1, keepdim=True)) @ v

    def causal_sdpa(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                              scale=q.shape[-1] ** -0.5)

    def ffn_model(x, g, w1, w3, w2):  # the anchors' rms_ffn
        n = rms_model(x, g)
        return (F.silu(n @ w1) * (n @ w3)) @ w2

    def ffn_library(x, g, w1, w3, w2):
        # The three matmuls alone on the FFN's operand shapes; h is made once.
        h = torch.empty(x.shape[0], w1.shape[1], device=x.device, dtype=x.dtype).uniform_(-1, 1)
        return lambda: (x @ w1, x @ w3, h @ w2)

    def mlp_library(x, w1, b1, w2, b2):
        # The two matmuls alone on the MLP's operand shapes; h is made once.
        h = torch.empty(x.shape[0], w1.shape[1], device=x.device, dtype=x.dtype).uniform_(-1, 1)
        return lambda: (x @ w1, h @ w2)

    def mm_flops(p):
        return 2 * p["M"] * p["K"] * p["N"]

    return {
        "gemm": Kind(lambda a, b: a @ b, lambda a, b: a @ b,
                     lambda a, b: (lambda: a @ b), mm_flops),
        "layernorm_matmul": Kind(
            lambda x, g, b, w: ln_ref(x, g, b) @ w,
            lambda x, g, b, w: F.layer_norm(x, (x.shape[-1],), g, b, 1e-5) @ w,
            lambda x, g, b, w: (lambda: x @ w), mm_flops),
        "rmsnorm_matmul": Kind(
            lambda x, g, w: rms_ref(x, g) @ w,
            lambda x, g, w: rms_model(x, g) @ w,
            lambda x, g, w: (lambda: x @ w), mm_flops),
        "rmsnorm_ffn_swiglu": Kind(
            lambda *xs: references.rmsnorm_ffn_swiglu(*xs, references._TorchOps())[0],
            ffn_model, ffn_library, lambda p: 6 * p["M"] * p["D"] * p["F"]),
        "gelu_mlp": Kind(
            lambda x, w1, b1, w2, b2: gelu_ref(x @ w1 + b1) @ w2 + b2 + x,
            lambda x, w1, b1, w2, b2: F.gelu(x @ w1 + b1) @ w2 + b2 + x,
            mlp_library, lambda p: 4 * p["M"] * p["D"] * p["F"]),
        "layernorm": Kind(ln_ref, lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b, 1e-5)),
        "add_gelu_add_layernorm": Kind(
            lambda x, r, bias, g, b: ln_ref(gelu_ref(x + bias) + r, g, b),
            lambda x, r, bias, g, b: F.layer_norm(F.gelu(x + bias) + r, (x.shape[-1],),
                                                  g, b, 1e-5)),
        "softmax": Kind(lambda x: torch.softmax(x, dim=-1), lambda x: torch.softmax(x, dim=-1)),
        "attention": Kind(
            lambda q, k, v: references.attention(q, k, v, references._TorchOps())[0],
            attention_model, lambda q, k, v: (lambda: sdpa(q, k, v)),
            lambda p: 4 * p["B"] * p["H"] * p["S"] * p["S"] * p["D"]),
        # FLOPs of the unmasked half (and diagonal) only, as FlashAttention
        # counts them.
        "attention_causal": Kind(
            causal_attention_ref, causal_attention_model,
            lambda q, k, v: (lambda: causal_sdpa(q, k, v)),
            lambda p: 2 * p["B"] * p["H"] * p["S"] * p["S"] * p["D"]),
    }


def compare(torch, out, ref, rtol=RTOL_BF16):
    """(passed, summary): python/blockbuster/check.py's criterion, on the GPU."""
    o, r = out.float(), ref.float()
    nan = torch.isnan(o) | torch.isnan(r)
    nans = int(nan.sum())
    err = torch.where(nan | (o == r), torch.zeros_like(o), (o - r).abs())
    finite = r[torch.isfinite(r)].abs()
    scale = float(finite.max()) if finite.numel() else 0.0
    bad = (err > rtol * scale + rtol * r.abs()) | nan
    mismatches = int(bad.sum()) - nans
    ref_norm = float(torch.where(nan, torch.zeros_like(r), r).norm())
    err_norm = float(err.norm())
    rel = 0.0 if err_norm == 0 else (math.inf if ref_norm == 0 else err_norm / ref_norm)
    passed = nans == 0 and mismatches == 0 and rel <= rtol
    return passed, "norm-rel %.2e, max-abs %.3g (scale %.3g), mismatches %d, NaN %d" % (
        rel, float(err.max()), scale, mismatches, nans)


class Timer:
    """CUDA-event timing with an L2 flush before each call and a cap on the
    repetitions by measured time."""

    def __init__(self, torch, budget_s, max_reps):
        self.torch = torch
        self.budget_ms = budget_s * 1000.0
        self.max_reps = max_reps
        self.flush_buffer = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")

    def once(self, fn):
        torch = self.torch
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.flush_buffer.zero_()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end)

    def __call__(self, fn):
        """(median ms, repetitions)."""
        torch = self.torch
        estimate = self.once(fn)
        n = int(max(1, min(self.max_reps, self.budget_ms // max(estimate, 1e-3))))
        for _ in range(min(n // 4, 10)):  # warm-up on top of the estimate call
            fn()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        for i in range(n):
            self.flush_buffer.zero_()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
        return times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2]), n


def random_inputs(torch, buffers, generator):
    dtypes = {k: getattr(torch, v[1]) for k, v in runtime.DTYPES.items()}
    return [(torch.rand(b.shape, generator=generator, device="cuda") * 2 - 1)
            .to(dtypes[b.dtype]).contiguous() for b in buffers]


def is_small(params):
    return min(params.get("M", 1 << 30), params.get("S", 1 << 30)) <= 128


def first_line(e):
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0][:160] if text else "")


def bench_one(torch, kinds, timer, art_root, entry, ceilings, args):
    row = {k: entry.get(k) for k in ("name", "kind", "params", "kernels", "compile_s")}
    if "error" in entry:
        row["note"] = "does not compile: " + entry["error"]
        return row
    art = bb_artifact.load(os.path.join(art_root, entry["name"]))
    row["grids"] = ["x".join(map(str, l.grid)) for l in art.launches]
    kind = kinds[entry["kind"]]
    params = entry["params"]
    generator = torch.Generator(device="cuda")
    generator.manual_seed(args.seed)
    inputs = random_inputs(torch, art.inputs, generator)
    prog = runtime.Program(art)
    start = time.perf_counter()
    (out,) = prog(*inputs, poison=True)
    row["first_call_s"] = round(time.perf_counter() - start, 3)
    # The output's bits, for comparing variants of one workload (same seed,
    # same inputs): equal digests are bit-identical outputs.
    row["output_sha256"] = hashlib.sha256(
        out.contiguous().view(torch.uint8).cpu().numpy().tobytes()).hexdigest()[:16]
    with torch.no_grad():
        ref = kind.reference(*[x.float() for x in inputs])
        passed, summary = compare(torch, out, ref)
        row["check"] = summary
        eager_out = kind.model(*inputs)
        row["eager_check"] = compare(torch, eager_out, ref)[1]
    del eager_out
    if not passed:
        row["note"] = "FAILS the check; not timed"
        prog.close()
        return row
    if args.check_only:
        prog.close()
        return row

    # Poisoned again: the timed calls (graph replays) must rewrite every
    # element, and right (split reductions' counters must be left zeroed).
    out.fill_(float("nan"))

    outputs = [out]
    contenders = [("blockbuster", lambda: prog(*inputs, outputs=outputs, sync=False))]
    others = [] if args.blockbuster_only else args.contenders
    if "eager" in others and "eager" not in args.skip:
        contenders.append(("eager", lambda: kind.model(*inputs)))
    if "compile" in others and "compile" not in args.skip:
        compiled = torch.compile(kind.model, dynamic=False)
        contenders.append(("compile", lambda: compiled(*inputs)))
    if (kind.library and "library" in others
            and "library" not in args.skip):
        contenders.append(("library", kind.library(*inputs)))
    use_graphs = args.graphs_all or is_small(params)
    row["graphs"] = use_graphs
    notes = []
    for label, fn in contenders:
        try:
            fn()  # warm-up; compilation for torch.compile
            torch.cuda.synchronize()
            if use_graphs:
                fn = graphed(torch, fn)
            row[label], row["n_" + label] = timer(fn)
        except Exception as e:  # a failing contender is reported, not fatal
            notes.append("%s failed: %s" % (label, first_line(e)))
        torch.cuda.synchronize()
    if "blockbuster" in row:
        passed, summary = compare(torch, out, ref)
        if not passed:
            notes.append("FAILS the check after the timed calls: " + summary)
    del ref
    if notes:
        row["note"] = "; ".join(notes)
    flops = kind.flops(params)
    nbytes = sum(b.nbytes for b in art.inputs + art.outputs)
    row["flops"], row["bytes"] = flops, nbytes
    compute_ms = flops / ceilings["gemm_flops_per_ms"]
    memory_ms = nbytes / ceilings["copy_bytes_per_ms"]
    row["floor"] = max(compute_ms, memory_ms)
    row["bound"] = "compute" if compute_ms >= memory_ms else "memory"
    prog.close()
    if args.copy_floor and row["bound"] == "memory":
        row["copy_same_bytes"] = time_copy(torch, timer, nbytes, use_graphs)
    return row


def time_copy(torch, timer, nbytes, use_graphs):
    """Median ms of a device copy moving nbytes (nbytes / 2 read, as many
    written), timed as the contenders are."""
    half = max(16, nbytes // 2 // 16 * 16)
    src = torch.empty(half, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    fn = lambda: dst.copy_(src)  # noqa: E731
    fn()
    torch.cuda.synchronize()
    if use_graphs:
        fn = graphed(torch, fn)
    ms, _ = timer(fn)
    return ms


COPY_HEADER = ("| workload | MB moved | copy of the same bytes ms | Blockbuster ms "
               "| torch.compile ms | Blockbuster / copy | compile / copy |\n"
               "|---|---|---|---|---|---|---|")


def copy_line(row):
    copy = row["copy_same_bytes"]

    def over(label):
        t = row.get(label)
        return ("%.4g" % t, "%.2fx" % (t / copy)) if isinstance(t, float) else ("-", "-")
    bb, bb_ratio = over("blockbuster")
    compiled, compiled_ratio = over("compile")
    return "| %s | %.1f | %.4g | %s | %s | %s | %s |" % (
        label(row), row["bytes"] / 1e6, copy, bb, compiled, bb_ratio, compiled_ratio)


def figure(x):
    """Three significant digits, no exponent for large values."""
    return "%.0f" % x if x >= 100 else "%.3g" % x


def achieved(row, label, ceilings):
    t = row.get(label)
    if not isinstance(t, float):
        return "-"
    if row["bound"] == "compute":
        return "%s TF/s" % figure(row["flops"] / t / 1e9)
    return "%s GB/s (%s%% of copy)" % (
        figure(row["bytes"] / t / 1e6),
        figure(100.0 * row["bytes"] / t / ceilings["copy_bytes_per_ms"]))


def describe(params):
    return " ".join("%s%d" % kv for kv in params.items())


def label(row):
    """The workload, with its build-anchors --variant after the shape."""
    _, _, variant = (row.get("name") or "").partition("__")
    return "%s %s%s" % (row["kind"], describe(row["params"]),
                        " [%s]" % variant if variant else "")


HEADER = ("| workload | kernels | compile s | check (vs fp32) | graphs | Blockbuster ms (n) "
          "| eager ms | torch.compile ms | library ms | floor ms | Blockbuster achieved "
          "| best PyTorch achieved | library / BB | compile / BB | eager / BB | note |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def table_line(row, ceilings):
    def ms(label):
        t = row.get(label)
        return "%.4g" % t if isinstance(t, float) else "-"

    def ratio(label):
        t, bb = row.get(label), row.get("blockbuster")
        return "%.3gx" % (t / bb) if isinstance(t, float) and isinstance(bb, float) else "-"

    torch_best = min((row[k], k) for k in ("eager", "compile", "library")
                     if isinstance(row.get(k), float)) if any(
        isinstance(row.get(k), float) for k in ("eager", "compile", "library")) else None
    bb = ms("blockbuster")
    if bb != "-":
        bb += " (%d)" % row["n_blockbuster"]
    check = row.get("check", "-").split(",")[0].replace("norm-rel ", "")
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        label(row), row.get("kernels", "-"),
        row.get("compile_s", "-"), check, "yes" if row.get("graphs") else "no", bb,
        ms("eager"), ms("compile"), ms("library"),
        "%.4g" % row["floor"] if "floor" in row else "-",
        achieved(row, "blockbuster", ceilings) if "floor" in row else "-",
        achieved(row, torch_best[1], ceilings) + " " + torch_best[1]
        if torch_best and "floor" in row else "-",
        ratio("library"), ratio("compile"), ratio("eager"), row.get("note", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("art")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-s", type=float, default=1.0,
                        help="measured time per contender and workload")
    parser.add_argument("--max-reps", type=int, default=100)
    parser.add_argument("--deadline-s", type=float, default=480.0,
                        help="no workload starts after this much wall time")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["eager", "compile", "library"],
                        help="contenders not timed (eager's output is still checked)")
    parser.add_argument("--graphs-all", action="store_true",
                        help="CUDA-graph replays for every workload, not only decode shapes")
    parser.add_argument("--contenders", nargs="*", default=["eager", "compile", "library"],
                        choices=["eager", "compile", "library"],
                        help="what Blockbuster is timed against (default: all three)")
    parser.add_argument("--copy-floor", action="store_true",
                        help="also time a copy of each memory-bound workload's bytes "
                        "(the same traffic, the same timing) and print a second table")
    parser.add_argument("--check-only", action="store_true",
                        help="check every artifact against its fp32 reference, time nothing")
    parser.add_argument("--blockbuster-only", action="store_true",
                        help="time the artifacts alone (variants of a workload "
                        "whose PyTorch times another run has)")
    args = parser.parse_args()
    began = time.perf_counter()

    import torch
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 references
    torch.backends.cudnn.allow_tf32 = False
    try:  # one compiled entry per shape of a kind (renamed recompile_limit)
        torch._dynamo.config.cache_size_limit = 64
    except AttributeError:
        torch._dynamo.config.recompile_limit = 64
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.art, "index.json")) as f:
        index = [e for e in json.load(f)
                 if args.only is None or any(s in e["name"] for s in args.only)]
    timer = Timer(torch, args.budget_s, args.max_reps)
    kinds = make_kinds(torch)

    a = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    copy_ms, _ = timer(lambda: b.copy_(a))
    del a, b
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    x @ y
    gemm_ms, _ = timer(lambda: x @ y)
    del x, y
    ceilings = {"copy_bytes_per_ms": 2.0 * (1 << 30) / copy_ms,
                "gemm_flops_per_ms": 2.0 * 8192 ** 3 / gemm_ms}
    header = ("bench-anchors: %s, torch %s, CUDA %s, %s UTC; ceilings: copy %.2f TB/s, "
              "cuBLAS bf16 GEMM 8192^3 %.0f TFLOP/s; median ms of CUDA events, L2 flushed "
              "before each call, up to %.1f s measured or %d repetitions per contender" % (
                  torch.cuda.get_device_name(), torch.__version__, torch.version.cuda,
                  time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                  ceilings["copy_bytes_per_ms"] / 1e9, ceilings["gemm_flops_per_ms"] / 1e9,
                  args.budget_s, args.max_reps))
    print(header + "\n\n" + HEADER, flush=True)
    lines, rows = [], []
    jsonl = open(os.path.join(args.out, "anchors.jsonl"), "w")
    jsonl.write(json.dumps({"header": header, "ceilings": ceilings}) + "\n")
    for entry in index:
        if time.perf_counter() - began > args.deadline_s:
            row = {k: entry.get(k) for k in ("name", "kind", "params", "kernels", "compile_s")}
            row["note"] = "not run: past the deadline of %.0f s" % args.deadline_s
        else:
            t0 = time.perf_counter()
            try:
                row = bench_one(torch, kinds, timer, args.art, entry, ceilings, args)
            except Exception as e:  # one broken workload does not stop the table
                row = {k: entry.get(k) for k in ("name", "kind", "params", "kernels",
                                                   "compile_s")}
                row["note"] = first_line(e)
            row["wall_s"] = round(time.perf_counter() - t0, 1)
            torch.cuda.empty_cache()
        line = table_line(row, ceilings)
        lines.append(line)
        rows.append(row)
        print(line, flush=True)
        jsonl.write(json.dumps(row) + "\n")
        jsonl.flush()
        with open(os.path.join(args.out, "anchors.md"), "w") as f:
            f.write(header + "\n\n" + HEADER + "\n" + "\n".join(lines) + "\n")
    copies = [copy_line(r) for r in rows if "copy_same_bytes" in r]
    if copies:
        table = "\n".join([COPY_HEADER] + copies)
        print("\n" + table, flush=True)
        with open(os.path.join(args.out, "anchors.md"), "a") as f:
            f.write("\n" + table + "\n")
    print("\nbench-anchors: %.0f s" % (time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
