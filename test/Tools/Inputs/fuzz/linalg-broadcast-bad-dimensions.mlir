func.func @f(%x: tensor<4xf32>, %e: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %t = linalg.broadcast ins(%x : tensor<4xf32>) outs(%e : tensor<3x4xf32>) dimensions = x
  return %t : tensor<3x4xf32>
}
