#!/usr/bin/env python3
"""Per-kernel device times of torch.compile's norm + matmul (the harness's
PyTorch code, scripts/bench-anchors.py) at one shape, measured as
kernel-times.py measures the artifacts: 20 calls, each after a 256 MiB
memset that flushes L2; the median microseconds of each kernel by name.

    python3 scripts/compile-kernel-times.py layernorm_matmul|rmsnorm_matmul M K N

Needs PyTorch and a CUDA device. It says which kernels torch.compile runs
and where its time goes (docs/performance.md, "Session 16": its LayerNorm
kernel and its GEMM against ours).
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

REPS = 20


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("layernorm_matmul", "rmsnorm_matmul"):
        print(__doc__, file=sys.stderr)
        return 2
    import torch
    from torch.profiler import ProfilerActivity, profile
    kind = __import__("bench-anchors").make_kinds(torch)[sys.argv[1]]
    m, k, n = (int(x) for x in sys.argv[2:])
    generator = torch.Generator(device="cuda")
    generator.manual_seed(1)

    def uniform(*shape):
        return (torch.rand(*shape, generator=generator, device="cuda") * 2 - 1).to(torch.bfloat16)

    x, gamma, w = uniform(m, k), uniform(k), uniform(k, n)
    inputs = (x, gamma, uniform(k), w) if sys.argv[1] == "layernorm_matmul" else (x, gamma, w)
    compiled = torch.compile(kind.model, dynamic=False)
    compiled(*inputs)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(REPS):
            flush.zero_()
            compiled(*inputs)
        torch.cuda.synchronize()
    times = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            times.setdefault(event.name, []).append(event.device_time)
    for name, us in times.items():
        print("%8.1f us x%d  %s" % (statistics.median(us), len(us), name[:150]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
