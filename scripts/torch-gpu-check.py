#!/usr/bin/env python3
"""The PyTorch corpus on a GPU, with the modules' own weights bound by name.

Two steps, because the GPU machine has no MLIR:

  compile  (here: torch, torch-mlir, libBlockbusterCAPI.so)
      for every module of scripts/export-torch-corpus.py (each size and
      batch): export it with blockbuster.torch.export (weights named after
      their state_dict keys) and compile a GPU artifact into DIR/NAME
      (capi.compile(target="gpu")); DIR/index.json records which compiled
      and the first error of the others.
  run      (on the GPU machine: torch with CUDA; no MLIR)
      for every artifact of DIR/index.json: build the module again, move it
      and its inputs to the GPU, run the artifact with blockbuster.torch.load
      (the weights bound to the module's parameters and buffers by name) and
      compare with model(x) (TF32 off) as bb-run compares: normwise relative
      error <= 1e-4 for f32, 2e-2 for bf16, no NaN (the outputs are filled
      with NaN before the launch, so an element no kernel writes fails).
      An f32 export compiled with --bb-compile-arg=--allow-tf32 (tf32
      tensor cores: 10-bit mantissas) is compared with the module run in
      float64 instead, normwise relative error <= 5e-3 (TF32_TOLERANCE:
      ten units of tf32's rounding, 2^-11), and PyTorch's own error with
      TF32 allowed is printed beside it. With --time, every
      export that passes is then timed against PyTorch on the same module
      in the same run: CUDA-graph replays of the artifact (weights bound,
      output preallocated), of model(x) (eager) and of torch.compile(model),
      the median of triton.testing.do_bench (L2 flushed between runs).

    .venv-torch/bin/python scripts/torch-gpu-check.py compile DIR
        [--chip sm_90a] [--round-dot-operands] [--sizes tiny real long d64]
        [--bb-compile PATH [--bb-compile-arg=ARG ...]]
    python3 scripts/torch-gpu-check.py run DIR [--device 0] [--time]
        [--against LABEL=DIR2 ...] [--no-torch-compile] [--f64]

`--against` checks the same exports compiled into DIR2 by another
bb-compile (an older commit, a variant) and times them in the same run:
same-run ratios between two compilers. `compile --bb-compile PATH` makes
such a DIR2: each export compiled by that bb-compile binary (with
--chip, --round-dot-operands and each --bb-compile-arg) instead of the C
API of this checkout.

Prints one line per export and a summary; `run` exits 1 on any mismatch.
"""

import argparse
import importlib.util
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "python"))


def corpus():
    spec = importlib.util.spec_from_file_location(
        "export_torch_corpus", os.path.join(REPO, "scripts",
                                            "export-torch-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_line(error):
    lines = [l for l in str(error).splitlines() if "error" in l] or \
        str(error).splitlines() or [type(error).__name__]
    return lines[0].strip()


def compile_with(binary, text, output_dir, whole_threshold, chip,
                 round_dot_operands, extra_args):
    """Compiles `text` with the bb-compile at `binary` into `output_dir`;
    raises capi.CompileError with its diagnostics on failure."""
    import subprocess
    import tempfile
    from blockbuster import capi

    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as source:
        source.write(text)
        source.flush()
        command = [binary, source.name, "-o", output_dir]
        if whole_threshold:
            command.append("--whole-threshold=%d" % whole_threshold)
        if chip:
            command.append("--chip=" + chip)
        if round_dot_operands:
            command.append("--round-dot-operands")
        command += list(extra_args)
        done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise capi.CompileError(done.stderr or "%s failed" % binary)


def compile_all(directory, only, whole_threshold=0, chip="",
                round_dot_operands=False, sizes=None, bb_compile="",
                bb_compile_args=()):
    import blockbuster.torch as bbt
    from blockbuster import capi

    c = corpus()
    index = {}
    for name, module, size, batch in c.corpus(sizes or tuple(c.SIZES)):
        if only and not any(o in name for o in only):
            continue
        model, inputs = c.build(module, size, batch)
        entry = {"module": module, "size": size, "batch": batch}
        if "--allow-tf32" in bb_compile_args:
            entry["tf32"] = True
        try:
            text, _ = bbt.export(model, *inputs, name=name)
            if bb_compile:
                compile_with(bb_compile, text, os.path.join(directory, name),
                             whole_threshold, chip, round_dot_operands,
                             bb_compile_args)
            else:
                capi.compile(text, target="gpu",
                             output_dir=os.path.join(directory, name),
                             whole_threshold=whole_threshold, chip=chip,
                             round_dot_operands=round_dot_operands)
            entry["status"] = "compiled"
        except (bbt.ExportError, capi.CompileError) as error:
            entry["status"] = "refused"
            entry["reason"] = first_line(error)
        index[name] = entry
        print("%s: %s%s" % (name, entry["status"],
                            ": " + entry["reason"] if "reason" in entry
                            else ""), flush=True)
    with open(os.path.join(directory, "index.json"), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
    compiled = sum(e["status"] == "compiled" for e in index.values())
    print("torch gpu compile: %d of %d exports compiled" % (compiled,
                                                            len(index)))
    return 0


def bound_inputs(run, inputs):
    """Every input of `run`'s artifact in position order: `inputs`, and the
    weights bound by name."""
    given = iter(inputs)
    return [run._state[b.constant].detach().contiguous()
            if b.constant is not None else next(given).contiguous()
            for b in run.artifact.inputs]


def run_poisoned(run, inputs):
    """`run`'s artifact on `inputs`, its output filled with NaN first: an
    element no kernel writes stays NaN and fails the check."""
    outputs = run.program(*bound_inputs(run, inputs), poison=True)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def artifact_launcher(run, inputs, out):
    """A function that launches `run`'s artifact on `inputs` into `out`
    (weights bound, nothing allocated: what a CUDA graph captures)."""
    tensors = bound_inputs(run, inputs)
    return lambda: run.program(*tensors, outputs=[out], sync=False)


def time_against_torch(torch, run, model, inputs, out, others=(),
                       with_compile=True):
    """Median milliseconds of CUDA-graph replays: (blockbuster, eager,
    torch.compile, then each of `others`' artifacts); a contender that fails
    or is left out is None."""
    from triton.testing import do_bench
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    graphed = __import__("gpu-bench").graphed
    compiled = torch.compile(model, dynamic=False) if with_compile else None
    contenders = [
        artifact_launcher(run, inputs, out),
        lambda: model(*inputs),
        (lambda: compiled(*inputs)) if compiled is not None else None]
    contenders += [artifact_launcher(other, inputs, out) for other in others]
    timings = []
    for fn in contenders:
        if fn is None:
            timings.append(None)
            continue
        try:
            with torch.no_grad():
                fn()  # warm-up; compilation for torch.compile
                torch.cuda.synchronize()
                timings.append(do_bench(graphed(torch, fn),
                                        return_mode="median"))
        except Exception as error:  # reported, not fatal
            print("  timing failed: %s" % first_line(error), flush=True)
            timings.append(None)
    return timings


def f64_reference(torch, model, inputs):
    """The module run in float64 on its inputs widened to it: the exact
    result, up to f64's rounding."""
    import copy
    with torch.no_grad():
        return copy.deepcopy(model).double()(*[x.double() for x in inputs])


def f64_line(torch, out, exact):
    """How far `out` is from the f64 result `exact`: the normwise relative
    error and the share of elements that are not `exact` rounded to out's
    type (an exactly rounded result has none)."""
    error = (torch.linalg.vector_norm(out.double() - exact)
             / torch.linalg.vector_norm(exact)).item()
    differ = (out != exact.to(out.dtype)).double().mean().item()
    return "f64: normwise relative error %.3g, %.3f%% of elements not the " \
        "f64 result rounded to %s" % (error, 100 * differ,
                                      str(out.dtype).replace("torch.", ""))


# Normwise relative error of a TF32 artifact against float64: ten units
# of tf32's rounding (2^-11). The scores' error is absolute (about 2^-10
# sqrt(D) |q| |k| / sqrt(D) in each logit), the output's relative; on the
# corpus's attention PyTorch's own TF32 matmuls stay below it too (printed).
TF32_TOLERANCE = 5e-3


def run_all(directory, device, only=(), timed=False, against=(),
            with_compile=True, f64=False):
    import torch
    import blockbuster.torch as bbt

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    c = corpus()
    with open(os.path.join(directory, "index.json")) as f:
        index = json.load(f)
    passed = failed = 0
    for name, entry in sorted(index.items()):
        if entry["status"] != "compiled" or (
                only and not any(o in name for o in only)):
            continue
        model, inputs = c.build(entry["module"], entry["size"],
                                entry["batch"])
        cuda = "cuda:%d" % device
        model = model.to(cuda)
        inputs = [x.to(cuda) for x in inputs]
        try:
            run = bbt.load(os.path.join(directory, name), model,
                           device=device)
            out = run_poisoned(run, inputs)
        except Exception as error:  # a runtime refusal is a failure here
            failed += 1
            print("%s: FAIL: %s" % (name, first_line(error)), flush=True)
            continue
        with torch.no_grad():
            ref = model(*inputs)
        tolerance = 2e-2 if ref.dtype in (torch.bfloat16, torch.float16) \
            else 1e-4
        tf32 = entry.get("tf32", False) and ref.dtype == torch.float32
        if tf32:
            # Against float64; PyTorch with TF32 allowed for comparison.
            torch.backends.cuda.matmul.allow_tf32 = True
            torch.backends.cudnn.allow_tf32 = True
            with torch.no_grad():
                torch_tf32 = model(*inputs)
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
            ref = f64_reference(torch, model, inputs)
            torch_error = (torch.linalg.vector_norm(
                torch_tf32.double() - ref) / torch.linalg.vector_norm(
                    ref)).item()
            print("%s: tf32: against float64; PyTorch with TF32 allowed: "
                  "normwise relative error %.3g" % (name, torch_error),
                  flush=True)
            tolerance = TF32_TOLERANCE
        error = (torch.linalg.vector_norm((out.double() - ref.double()))
                 / torch.linalg.vector_norm(ref.double())).item()
        ok = error <= tolerance and not torch.isnan(out).any().item()
        passed += ok
        failed += not ok
        weights = sum(b.constant is not None for b in run.artifact.inputs)
        print("%s: %s: normwise relative error %.3g (tolerance %g), %d "
              "weights bound by name, %d launches" % (
                  name, "PASS" if ok else "FAIL", error, tolerance, weights,
                  len(run.artifact.launches)), flush=True)
        exact = f64_reference(torch, model, inputs) if f64 else None
        if exact is not None:
            print("%s: %s" % (name, f64_line(torch, out, exact)), flush=True)
            print("%s: eager: %s" % (name, f64_line(torch, ref, exact)),
                  flush=True)
        # The same export compiled by other compilers (--against), checked
        # as this one is and then timed in the same run.
        others = []
        for label, other_dir in against:
            try:
                other = bbt.load(os.path.join(other_dir, name), model,
                                 device=device)
                other_out = run_poisoned(other, inputs)
                other_error = (torch.linalg.vector_norm(
                    other_out.double() - ref.double()) /
                    torch.linalg.vector_norm(ref.double())).item()
                other_ok = other_error <= tolerance and \
                    not torch.isnan(other_out).any().item()
            except Exception as error:  # reported: that compiler's failure
                print("%s: %s: FAIL: %s" % (name, label, first_line(error)),
                      flush=True)
                other, other_ok = None, False
            if other is not None:
                print("%s: %s: %s: normwise relative error %.3g, %d launches"
                      % (name, label, "PASS" if other_ok else "FAIL",
                         other_error, len(other.artifact.launches)),
                      flush=True)
                if exact is not None:
                    print("%s: %s: %s" % (name, label, f64_line(
                        torch, other_out, exact)), flush=True)
            failed += not other_ok
            others.append(other if other_ok else None)
        if ok and timed:
            ms = time_against_torch(torch, run, model, inputs, out,
                                    [o for o in others if o is not None],
                                    with_compile)
            labels = ["blockbuster", "eager", "torch.compile"] + [
                label for (label, _), o in zip(against, others)
                if o is not None]
            print("%s: time (CUDA graphs, median ms): %s" % (name, ", ".join(
                "%s %s" % (label, "%.4f" % t if t is not None else "-")
                for label, t in zip(labels, ms))),
                  flush=True)
    print("torch gpu check: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("compile", "run"))
    parser.add_argument("directory")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--whole-threshold", type=int, default=0,
                        help="compile: bb-compile's --whole-threshold (0: "
                        "the fastest form that fits)")
    parser.add_argument("--chip", default="",
                        help="compile: bb-compile's --chip (default sm_90; "
                             "sm_90a for the H100's wgmma and TMA kernels)")
    parser.add_argument("--round-dot-operands", action="store_true",
                        help="compile: bb-compile's --round-dot-operands "
                             "(bf16 SDPA's f32 P rounded to bf16)")
    parser.add_argument("--bb-compile", default="", metavar="PATH",
                        help="compile: with this bb-compile binary (an "
                        "older commit's, for --against) instead of the C API")
    parser.add_argument("--bb-compile-arg", action="append", default=[],
                        metavar="ARG",
                        help="compile --bb-compile: one more argument for it "
                        "(--bb-compile-arg=--attention-f32-operand-parts=2)")
    parser.add_argument("--sizes", nargs="*", default=[],
                        help="compile: the corpus sizes (default tiny and "
                             "real; `long` is the anchors' attention, "
                             "S 2048 with 32 heads of 128)")
    parser.add_argument("--time", action="store_true",
                        help="run: time each passing export against eager "
                        "and torch.compile (CUDA graphs)")
    parser.add_argument("--against", nargs="*", default=[],
                        metavar="LABEL=DIR",
                        help="run: also check each export's artifact in DIR "
                        "(compiled by another bb-compile) and, with --time, "
                        "time it in the same run")
    parser.add_argument("--f64", action="store_true",
                        help="run: also compare each output (and eager's) "
                        "with the module run in float64: normwise error and "
                        "the share of elements not the f64 result rounded")
    parser.add_argument("--no-torch-compile", action="store_true",
                        help="run --time: leave torch.compile out (its "
                        "compilation is most of a run's time)")
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    if args.step == "compile":
        if args.bb_compile_arg and not args.bb_compile:
            parser.error("--bb-compile-arg needs --bb-compile")
        return compile_all(args.directory, args.only, args.whole_threshold,
                           args.chip, args.round_dot_operands, args.sizes,
                           args.bb_compile, args.bb_compile_arg)
    against = [tuple(a.split("=", 1)) for a in args.against]
    if any(len(a) != 2 for a in against):
        parser.error("--against takes LABEL=DIR")
    return run_all(args.directory, args.device, args.only, args.time,
                   against, not args.no_torch_compile, args.f64)


if __name__ == "__main__":
    sys.exit(main())
