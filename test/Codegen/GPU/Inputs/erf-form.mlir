func.func @erfs(%arg0: f32, %arg1: f64) -> (f32, f64) {
  %0 = math.erf %arg0 : f32
  %1 = math.erf %arg1 : f64
  return %0, %1 : f32, f64
}
