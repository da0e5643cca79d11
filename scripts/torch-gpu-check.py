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
      error <= 1e-4 for f32, 2e-2 for bf16, no NaN. With --time, every
      export that passes is then timed against PyTorch on the same module
      in the same run: CUDA-graph replays of the artifact (weights bound,
      output preallocated), of model(x) (eager) and of torch.compile(model),
      the median of triton.testing.do_bench (L2 flushed between runs).

    .venv-torch/bin/python scripts/torch-gpu-check.py compile DIR
    python3 scripts/torch-gpu-check.py run DIR [--device 0] [--time]

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


def compile_all(directory, only, whole_threshold=0):
    import blockbuster.torch as bbt
    from blockbuster import capi

    c = corpus()
    index = {}
    for name, module, size, batch in c.corpus():
        if only and not any(o in name for o in only):
            continue
        model, inputs = c.build(module, size, batch)
        entry = {"module": module, "size": size, "batch": batch}
        try:
            text, _ = bbt.export(model, *inputs, name=name)
            capi.compile(text, target="gpu",
                         output_dir=os.path.join(directory, name),
                         whole_threshold=whole_threshold)
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


def time_against_torch(torch, run, model, inputs, out):
    """Median milliseconds of CUDA-graph replays: (blockbuster, eager,
    torch.compile); a contender that fails is None."""
    from triton.testing import do_bench
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    graphed = __import__("gpu-bench").graphed
    given = iter(inputs)
    tensors = [run._state[b.constant].detach().contiguous()
               if b.constant is not None else next(given)
               for b in run.artifact.inputs]
    compiled = torch.compile(model, dynamic=False)
    contenders = (
        lambda: run.program(*tensors, outputs=[out], sync=False),
        lambda: model(*inputs),
        lambda: compiled(*inputs))
    timings = []
    for fn in contenders:
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


def run_all(directory, device, only=(), timed=False):
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
            out = run(*inputs)
        except Exception as error:  # a runtime refusal is a failure here
            failed += 1
            print("%s: FAIL: %s" % (name, first_line(error)), flush=True)
            continue
        with torch.no_grad():
            ref = model(*inputs)
        tolerance = 2e-2 if ref.dtype in (torch.bfloat16, torch.float16) \
            else 1e-4
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
        if ok and timed:
            ms = time_against_torch(torch, run, model, inputs, out)
            print("%s: time (CUDA graphs, median ms): blockbuster %s, eager "
                  "%s, torch.compile %s" % (name, *(
                      "%.4f" % t if t is not None else "-" for t in ms)),
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
    parser.add_argument("--time", action="store_true",
                        help="run: time each passing export against eager "
                        "and torch.compile (CUDA graphs)")
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    if args.step == "compile":
        return compile_all(args.directory, args.only, args.whole_threshold)
    return run_all(args.directory, args.device, args.only, args.time)


if __name__ == "__main__":
    sys.exit(main())
