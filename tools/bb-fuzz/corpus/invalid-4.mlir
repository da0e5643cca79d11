func.func @tensor_constant() -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %w : tensor<4xf32>
}
