#!/usr/bin/env python3
"""SASS instructions of one k step of a register-A wgmma mainloop (the
norm + matmul GEMM kernel of gpu-warpgroup-matmul), from `cuobjdump -sass`:

    cuobjdump -sass KERNEL.cubin > K.sass && python3 scripts/sass-k-step.py K.sass

The step is the code from one `WARPGROUP.ARRIVE` to the next (the second k
step of the loop body); the refill of a slot (the first predicated branch
after the step's `WARPGROUP.DEPBAR`, over the `UTMALDG` copies) is taken by
one thread only, so it is counted apart. Prints the step's length, the
refill branch's, the instructions every warp runs and the most frequent
opcodes of those (docs/performance.md's predictions use these counts).
"""

import collections
import re
import sys


def main():
    ins = []
    for line in open(sys.argv[1]):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(@!?U?P\w+\s+)?([A-Z0-9_]+)\S*\s*(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(3), line.strip()))
    arrives = [i for i, x in enumerate(ins) if x[1] == "WARPGROUP" and "ARRIVE" in x[2]]
    if len(arrives) < 2:
        sys.exit("no register-A mainloop (fewer than two WARPGROUP.ARRIVE)")
    body = ins[arrives[0]:arrives[1]]
    depbar = next(i for i, x in enumerate(body) if "DEPBAR" in x[2])
    branch = next((i for i, x in enumerate(body)
                   if i > depbar and x[1] == "BRA" and "@" in x[2]), None)
    refill = []
    if branch is not None:
        target = int(re.search(r"BRA (0x[0-9a-f]+)", body[branch][2]).group(1), 16)
        region = [x for x in body if body[branch][0] < x[0] < target]
        if any(x[1] == "UTMALDG" for x in region):
            refill = region
    skipped = {x[0] for x in refill}
    every = [x for x in body if x[0] not in skipped]
    print(f"step {len(body)}, refill branch {len(refill)}, every warp {len(every)}")
    print(dict(collections.Counter(x[1] for x in every).most_common(12)))


if __name__ == "__main__":
    main()
