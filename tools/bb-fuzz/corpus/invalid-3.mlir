func.func @gather(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<64xf32>
  return %x : tensor<64xf32>
}
