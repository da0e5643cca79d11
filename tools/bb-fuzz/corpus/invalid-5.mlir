func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
