// The largest error, in ulp of the f32 result, of f32 math.erf(x * a), a =
// 1 / sqrt 2 rounded to f32 (GELU's erf), against math.erf in f64 of the
// exact product x * a, over x = bitcast(2^-30 bits + 66 i) for i < 2^22:
// every 66th f32 from 2^-30 to 8.0 (past the folded clamp, 3.92 / a).
// gpu-expand-erf takes the product into its coefficients, so the product's
// rounding is not in the result (expand-erf.test).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4194304 : index
  %zero = arith.constant 0.0 : f32
  %a = arith.constant 0.707106769 : f32
  %ad = arith.extf %a : f32 to f64
  %worst = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %ii = arith.index_cast %i : index to i32
    %stride = arith.constant 66 : i32
    %base = arith.constant 813694976 : i32      // 0x30800000, 2^-30
    %offset = arith.muli %ii, %stride : i32
    %bits = arith.addi %base, %offset : i32
    %x = arith.bitcast %bits : i32 to f32
    %s = arith.mulf %x, %a : f32
    %e = math.erf %s : f32
    %xd = arith.extf %x : f32 to f64
    %sd = arith.mulf %xd, %ad : f64
    %r = math.erf %sd : f64
    %rf = arith.truncf %r : f64 to f32
    %rb = arith.bitcast %rf : f32 to i32
    %c23 = arith.constant 23 : i32
    %c255 = arith.constant 255 : i32
    %shifted = arith.shrui %rb, %c23 : i32
    %biased = arith.andi %shifted, %c255 : i32
    %e64 = arith.extui %biased : i32 to i64
    // ulp(r) = 2^(exponent of r as an f32 - 23), from its biased exponent.
    %bias = arith.constant 873 : i64            // 1023 - 127 - 23
    %exp = arith.addi %e64, %bias : i64
    %c52 = arith.constant 52 : i64
    %ulpbits = arith.shli %exp, %c52 : i64
    %ulp = arith.bitcast %ulpbits : i64 to f64
    %ed = arith.extf %e : f32 to f64
    %diff = arith.subf %ed, %r : f64
    %abs = math.absf %diff : f64
    %ulps = arith.divf %abs, %ulp : f64
    %u = arith.truncf %ulps : f64 to f32
    %m = arith.maximumf %acc, %u : f32
    scf.yield %m : f32
  }
  vector.print %worst : f32
  %c0i = arith.constant 0 : i32
  return %c0i : i32
}
