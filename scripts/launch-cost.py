#!/usr/bin/env python3
"""Host time of launching an artifact through the Python runtime.

    python3 scripts/launch-cost.py ART_DIR... [--calls 2000]

For each artifact: random inputs on the device, then `--calls` calls of
`Program.__call__(*inputs, outputs=..., sync=False)` (the whole call: the
tensor checks, the stream, the launches) and of `Program.launch(pointers,
stream)` (the launches alone), timed on the host with perf_counter, the
stream synchronised every 100 calls so the launch queue never fills. Prints
microseconds per call and per kernel. Needs PyTorch and a CUDA device.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from blockbuster import artifact as bb_artifact  # noqa: E402
from blockbuster import runtime  # noqa: E402


def per_call_us(torch, fn, calls):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    spent = 0.0
    for start in range(0, calls, 100):
        t0 = time.perf_counter()
        for _ in range(min(100, calls - start)):
            fn()
        spent += time.perf_counter() - t0
        torch.cuda.synchronize()
    return spent / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("artifacts", nargs="+")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    import torch
    dtypes = {k: getattr(torch, v[1]) for k, v in runtime.DTYPES.items()}
    print("| artifact | kernels | call us | call us / kernel | launch us | "
          "launch us / kernel |")
    print("|---|---|---|---|---|---|")
    for path in args.artifacts:
        art = bb_artifact.load(path)
        prog = runtime.Program(art)
        inputs = [torch.zeros(b.shape, dtype=dtypes[b.dtype], device="cuda")
                  for b in art.inputs]
        outputs = [torch.empty(b.shape, dtype=dtypes[b.dtype], device="cuda")
                   for b in art.outputs]
        call = per_call_us(torch, lambda: prog(*inputs, outputs=outputs,
                                               sync=False), args.calls)
        pointers = {b.name: t.data_ptr() for b, t in
                    zip(art.inputs + art.outputs, inputs + outputs)}
        stream = torch.cuda.current_stream().cuda_stream
        launch = per_call_us(torch, lambda: prog.launch(pointers, stream),
                             args.calls)
        n = len(art.launches)
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (
            os.path.basename(os.path.normpath(path)), n, call, call / n,
            launch, launch / n), flush=True)
        prog.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
