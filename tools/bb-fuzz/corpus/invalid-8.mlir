func.func @scalar_outside(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %v = arith.constant 2.0 : f32
  %s = arith.addf %v, %v : f32
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %f : tensor<64xf32>
}
