func.func @gram(%x: tensor<1000x32xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %g = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %x : tensor<1000x32xf32>, tensor<1000x32xf32>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %g : tensor<1000x1000xf32>
}
