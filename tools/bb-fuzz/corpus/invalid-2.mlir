func.func @reshape(%x: tensor<4x64xf32>) -> tensor<256xf32> {
  %shape = arith.constant dense<256> : tensor<1xi64>
  %r = tensor.reshape %x(%shape) : (tensor<4x64xf32>, tensor<1xi64>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
