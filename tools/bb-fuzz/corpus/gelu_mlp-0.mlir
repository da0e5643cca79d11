#mn = affine_map<(m, n) -> (m, n)>
#n_ = affine_map<(m, n) -> (n)>
func.func @gelu_mlp(%x: tensor<130x256xf32>, %w1: tensor<1000x256xf32>, %b1: tensor<1000xf32>,
                    %w2: tensor<256x1000xf32>, %b2: tensor<256xf32>) -> tensor<130x256xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %e_h = tensor.empty() : tensor<130x1000xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%e_h : tensor<130x1000xf32>) -> tensor<130x1000xf32>
  %h = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w1 : tensor<130x256xf32>, tensor<1000x256xf32>)
      outs(%h0 : tensor<130x1000xf32>) -> tensor<130x1000xf32>
  %a = linalg.generic {indexing_maps = [#mn, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<130x1000xf32>, tensor<1000xf32>) outs(%e_h : tensor<130x1000xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %z = arith.addf %v, %b : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %e = math.erf %s : f32
    %e1 = arith.addf %e, %one : f32
    %zh = arith.mulf %z, %half : f32
    %g = arith.mulf %zh, %e1 : f32
    linalg.yield %g : f32
  } -> tensor<130x1000xf32>
  %e_y = tensor.empty() : tensor<130x256xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%e_y : tensor<130x256xf32>) -> tensor<130x256xf32>
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w2 : tensor<130x1000xf32>, tensor<256x1000xf32>)
      outs(%y0 : tensor<130x256xf32>) -> tensor<130x256xf32>
  %out = linalg.generic {indexing_maps = [#mn, #n_, #mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b2, %x : tensor<130x256xf32>, tensor<256xf32>, tensor<130x256xf32>) outs(%e_y : tensor<130x256xf32>) {
  ^bb0(%v: f32, %b: f32, %r: f32, %o: f32):
    %z = arith.addf %v, %b : f32
    %s = arith.addf %z, %r : f32
    linalg.yield %s : f32
  } -> tensor<130x256xf32>
  return %out : tensor<130x256xf32>
}
