func.func @matmul_transpose_b(%a: tensor<300x64xf32>, %b: tensor<400x64xf32>, %c: tensor<300x400xf32>) -> tensor<300x400xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<300x64xf32>, tensor<400x64xf32>) outs(%c : tensor<300x400xf32>) -> tensor<300x400xf32>
  return %r : tensor<300x400xf32>
}
