"""Comparing outputs with a reference, with the tolerances of
docs/design/03-lowering-and-runtime.md and bb-run (docs/CPUExecution.md): rtol
1e-4 for f32 programs, 2e-2 when an input or output is f16 or bf16; element i
passes when |out - ref| <= atol + rtol * |ref| with atol = rtol * max|ref| (the
output's scale), and the whole output passes when no element fails, none is NaN
and the normwise error ||out - ref|| / ||ref|| is at most rtol."""

import numpy as np

NARROW = ("f16", "bf16")


def default_rtol(dtypes):
    return 2e-2 if any(d in NARROW for d in dtypes) else 1e-4


class Comparison:
    def __init__(self, out, ref, rtol, atol=None):
        out = np.asarray(out, dtype=np.float64)
        ref = np.asarray(ref, dtype=np.float64)
        if out.shape != ref.shape:
            raise ValueError("output shape %s, reference %s" % (out.shape, ref.shape))
        self.rtol = rtol
        finite_ref = np.abs(ref[np.isfinite(ref)])
        self.scale = float(finite_ref.max()) if finite_ref.size else 0.0
        self.atol = rtol * self.scale if atol is None else atol
        nan = np.isnan(out) | np.isnan(ref)
        self.nans = int(nan.sum())
        err = np.where(nan, 0.0, np.abs(out - ref))
        # inf - inf (both -inf, say) is NaN; equal values are exact.
        err = np.where(out == ref, 0.0, err)
        self.max_abs_err = float(err.max()) if err.size else 0.0
        bad = (err > self.atol + rtol * np.abs(ref)) | nan
        self.mismatches = int(bad.sum()) - self.nans
        ref_norm = np.linalg.norm(np.where(nan, 0.0, ref))
        err_norm = np.linalg.norm(err)
        self.norm_rel_err = (0.0 if err_norm == 0 else
                             float("inf") if ref_norm == 0 else
                             float(err_norm / ref_norm))
        self.first_bad = (tuple(int(i) for i in np.argwhere(bad)[0])
                          if bad.any() else None)
        self.passed = (self.nans == 0 and self.mismatches == 0
                       and self.norm_rel_err <= rtol)

    def summary(self):
        return ("max_abs_err %.3g (atol %.3g), norm_rel_err %.3g, mismatches %d,"
                " nan %d: %s" % (self.max_abs_err, self.atol, self.norm_rel_err,
                                 self.mismatches, self.nans,
                                 "PASS" if self.passed else "FAIL"))
