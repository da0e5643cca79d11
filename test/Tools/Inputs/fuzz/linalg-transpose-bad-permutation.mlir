func.func @f(%x: tensor<4x3xf32>, %e: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %t = linalg.transpose ins(%x : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = x
  return %t : tensor<3x4xf32>
}
