// GELU's erf as torch-mlir and the anchors write it, after the row kernels'
// fma contraction: x * 0.5 * (1 + erf(x * (1 / sqrt 2))) + r; then an erf
// plus a constant read twice, and a product by a scale that is not a power
// of two (expand-erf.test).
func.func @gelu(%x: f32, %r: f32) -> f32 {
  %a = arith.constant 0.707106769 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %s = arith.mulf %x, %a : f32
  %e = math.erf %s : f32
  %e1 = arith.addf %e, %one : f32
  %xh = arith.mulf %x, %half : f32
  %g = math.fma %xh, %e1, %r : f32
  return %g : f32
}

func.func @sum_read_twice(%x: f32) -> (f32, f32) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %e = math.erf %x : f32
  %e1 = arith.addf %one, %e : f32
  %xh = arith.mulf %x, %half : f32
  %g = arith.mulf %xh, %e1 : f32
  return %g, %e1 : f32, f32
}

func.func @not_a_power_of_two(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.3 : f32
  %e = math.erf %x : f32
  %e1 = arith.addf %e, %one : f32
  %xc = arith.mulf %x, %c : f32
  %g = arith.mulf %xc, %e1 : f32
  return %g : f32
}

// torch-mlir's GELU: x * ((1 + erf(x / sqrt 2)) * 0.5), the division by
// sqrt 2 rounded to f32.
func.func @torch_gelu(%x: f32) -> f32 {
  %sqrt2 = arith.constant 1.41421354 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %s = arith.divf %x, %sqrt2 : f32
  %e = math.erf %s : f32
  %e1 = arith.addf %e, %one : f32
  %h = arith.mulf %e1, %half : f32
  %g = arith.mulf %x, %h : f32
  return %g : f32
}
