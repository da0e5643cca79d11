// GELU as the anchors write it, x * 0.5 * (1 + erf(x * a)) with a = 1 /
// sqrt 2 rounded to f32, and as torch-mlir writes it, x * ((1 + erf(x / r))
// * 0.5) with r = sqrt 2 rounded to f32, against the same in f64 (the
// exact product x * a, the exact quotient x / r):
// the largest error of the normal CDF 0.5 (1 + erf(x a)) = GELU(x) / x,
// which gpu-expand-erf computes as one saturating fma, in units of 2^-24,
// over x = +-bitcast(2^-30 bits + 66 i) for i < 2^21: every 132nd f32 from
// 2^-30 to 8.0 and its negation (past the clamp 3.92 / a, where the
// saturation gives 0 and 1), one line per form; then the anchors' GELU of
// NaN, +inf and -10 (expand-erf.test).
func.func @gelu(%x: f32) -> f32 {
  %a = arith.constant 0.707106769 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %s = arith.mulf %x, %a : f32
  %e = math.erf %s : f32
  %e1 = arith.addf %e, %one : f32
  %xh = arith.mulf %x, %half : f32
  %g = arith.mulf %xh, %e1 : f32
  return %g : f32
}

func.func @torch_gelu(%x: f32) -> f32 {
  %r = arith.constant 1.41421354 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %s = arith.divf %x, %r : f32
  %e = math.erf %s : f32
  %e1 = arith.addf %e, %one : f32
  %h = arith.mulf %e1, %half : f32
  %g = arith.mulf %x, %h : f32
  return %g : f32
}

// |GELU(x) - GELU64(x)| / |x| / 2^-24, GELU(x) = %g, of x * a in f64.
func.func @error(%x: f32, %g: f32, %ad: f64) -> f32 {
  %xd = arith.extf %x : f32 to f64
  %sd = arith.mulf %xd, %ad : f64
  %ed = math.erf %sd : f64
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %e1 = arith.addf %ed, %one : f64
  %cdf = arith.mulf %e1, %half : f64
  %gd = arith.mulf %xd, %cdf : f64
  %g64 = arith.extf %g : f32 to f64
  %diff = arith.subf %g64, %gd : f64
  %abs = math.absf %diff : f64
  %xa = math.absf %xd : f64
  %rel = arith.divf %abs, %xa : f64
  %unit = arith.constant 5.9604644775390625E-8 : f64   // 2^-24
  %u = arith.divf %rel, %unit : f64
  %uf = arith.truncf %u : f64 to f32
  return %uf : f32
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2097152 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 0.707106769 : f32
  %a64 = arith.extf %a : f32 to f64
  %r = arith.constant 1.41421354 : f32
  %r64d = arith.extf %r : f32 to f64
  %one64 = arith.constant 1.0 : f64
  %r64 = arith.divf %one64, %r64d : f64
  %worst:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc0 = %zero, %acc1 = %zero) -> (f32, f32) {
    %ii = arith.index_cast %i : index to i32
    %stride = arith.constant 132 : i32
    %base = arith.constant 813694976 : i32      // 0x30800000, 2^-30
    %offset = arith.muli %ii, %stride : i32
    %bits = arith.addi %base, %offset : i32
    %x = arith.bitcast %bits : i32 to f32
    %nx = arith.negf %x : f32
    %gp = func.call @gelu(%x) : (f32) -> f32
    %gn = func.call @gelu(%nx) : (f32) -> f32
    %ep = func.call @error(%x, %gp, %a64) : (f32, f32, f64) -> f32
    %en = func.call @error(%nx, %gn, %a64) : (f32, f32, f64) -> f32
    %tp = func.call @torch_gelu(%x) : (f32) -> f32
    %tn = func.call @torch_gelu(%nx) : (f32) -> f32
    %etp = func.call @error(%x, %tp, %r64) : (f32, f32, f64) -> f32
    %etn = func.call @error(%nx, %tn, %r64) : (f32, f32, f64) -> f32
    %m0 = arith.maximumf %acc0, %ep : f32
    %m = arith.maximumf %m0, %en : f32
    %t0 = arith.maximumf %acc1, %etp : f32
    %t = arith.maximumf %t0, %etn : f32
    scf.yield %m, %t : f32, f32
  }
  vector.print %worst#0 : f32
  vector.print %worst#1 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %g_nan = func.call @gelu(%nan) : (f32) -> f32
  vector.print %g_nan : f32
  %inf = arith.constant 0x7F800000 : f32
  %g_inf = func.call @gelu(%inf) : (f32) -> f32
  vector.print %g_inf : f32
  %m10 = arith.constant -10.0 : f32
  %g_m10 = func.call @gelu(%m10) : (f32) -> f32
  vector.print %g_m10 : f32
  %c0i = arith.constant 0 : i32
  return %c0i : i32
}
