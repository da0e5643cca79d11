"""bb-run's seeded inputs, reproduced in NumPy.

bb-run (tools/bb-run, docs/CPUExecution.md) fills a program's arguments in
order from one SplitMix64 stream: floats uniform in [-1, 1) rounded to the
element type (round to nearest even, directly from the double), i1 0 or 1,
other integers uniform in [-8, 8]; one draw per element. The same stream here
lets Python compare against ``bb-run --print`` and lets a GPU run use the
inputs a CPU run used.
"""

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def splitmix64(seed, start, count):
    """Draws ``start`` .. ``start + count - 1`` of the stream seeded by
    ``seed``, as uint64 (the stream's state is seed + (i + 1) * golden)."""
    with np.errstate(over="ignore"):
        i = np.arange(start + 1, start + count + 1, dtype=np.uint64)
        z = np.uint64(seed) + i * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def round_to_bf16_bits(x):
    """float64 -> bf16 bits (uint16), round to nearest even from the double
    (no double rounding through f32)."""
    x = np.asarray(x, dtype=np.float64)
    mantissa, exponent = np.frexp(x)               # x = m * 2^e, 0.5 <= |m| < 1
    rounded = np.ldexp(np.rint(mantissa * 256.0), exponent - 8)  # 8 bits
    bits = rounded.astype(np.float32).view(np.uint32)
    return (bits >> np.uint32(16)).astype(np.uint16)


def bf16_bits_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32)
            << np.uint32(16)).view(np.float32)


def f32_to_bf16_bits(x):
    """float32 -> bf16 bits, round to nearest even (as the compiled code and
    PyTorch do)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1)))
    out = (rounded >> np.uint64(16)).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, np.uint16(0x7FC0), out)


NUMPY_DTYPES = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32,
                "f64": np.float64, "i1": np.bool_, "i8": np.int8,
                "i16": np.int16, "i32": np.int32, "i64": np.int64}


def inputs(specs, seed=1):
    """bb-run's inputs for ``specs``, a list of (shape, dtype) in argument
    order. bf16 arrays are returned as uint16 bits."""
    arrays, start = [], 0
    for shape, dtype in specs:
        count = int(np.prod(shape, dtype=np.int64))
        draws = splitmix64(seed, start, count)
        start += count
        if dtype in ("f16", "bf16", "f32", "f64"):
            values = (draws >> np.uint64(11)).astype(np.float64) * 2.0**-52 - 1.0
            if dtype == "bf16":
                data = round_to_bf16_bits(values)
            else:
                data = values.astype(NUMPY_DTYPES[dtype])
        elif dtype == "i1":
            data = (draws & np.uint64(1)).astype(np.bool_)
        else:
            data = ((draws % np.uint64(17)).astype(np.int64) - 8).astype(
                NUMPY_DTYPES[dtype])
        arrays.append(data.reshape(shape))
    return arrays
