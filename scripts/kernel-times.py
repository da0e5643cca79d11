#!/usr/bin/env python3
"""Per-kernel device times of artifacts built by scripts/build-anchors.py,
from torch.profiler's CUDA activity (the harness, bench-anchors.py, times
whole programs):

    python3 scripts/kernel-times.py ART NAME...

For each artifact ART/NAME: fresh random inputs, one untimed call, then 20
calls, each after a 256 MiB memset that flushes L2; prints the median
microseconds of each kernel (k0, k1, ... in launch order: the calls run
on one stream, so the i-th kernel event of each call, by start time, is
its i-th launch, whatever the kernels' names; until session 16 two
kernels of one name were told apart by duration, which mislabelled
kernels of similar length). Outputs are not checked here: bench-anchors.py
checks them. With NOPROF=1 it only makes the calls (for ncu, which
profiles by itself).
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from blockbuster import artifact as bb_artifact  # noqa: E402
from blockbuster import runtime  # noqa: E402

REPS = 20


def kernel_times(torch, art_root, name):
    art = bb_artifact.load(os.path.join(art_root, name))
    generator = torch.Generator(device="cuda")
    generator.manual_seed(1)
    dtypes = {k: getattr(torch, v[1]) for k, v in runtime.DTYPES.items()}
    inputs = [(torch.rand(b.shape, generator=generator, device="cuda") * 2 - 1)
              .to(dtypes[b.dtype]).contiguous() for b in art.inputs]
    prog = runtime.Program(art)
    try:
        (out,) = prog(*inputs)
        flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
        torch.cuda.synchronize()
        if os.environ.get("NOPROF"):
            for _ in range(6):
                prog(*inputs, outputs=[out], sync=False)
            torch.cuda.synchronize()
            return None
        cuda = torch.profiler.ProfilerActivity.CUDA
        with torch.profiler.profile(activities=[cuda]) as prof:
            for _ in range(REPS):
                flush.zero_()
                prog(*inputs, outputs=[out], sync=False)
            torch.cuda.synchronize()
    finally:
        prog.close()
    names = {launch.kernel for launch in art.launches}
    events = sorted((e for e in prof.events()
                     if e.device_type == torch.autograd.DeviceType.CUDA and e.name in names),
                    key=lambda e: e.time_range.start)
    count = len(art.launches)
    durations = [e.time_range.elapsed_us() for e in events[-REPS * count:]]
    per_kernel = [durations[i::count] for i in range(count)]
    return [statistics.median(d) for d in per_kernel if d]


def main():
    import torch
    art_root = sys.argv[1]
    for name in sys.argv[2:]:
        times = kernel_times(torch, art_root, name)
        if times is not None:
            print("%-48s %s" % (name, "  ".join(
                "k%d %.1f us" % (i, t) for i, t in enumerate(times))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
