// A softmax over the last axis of a 6-D tensor: row axes enough for a block
// grid of more than three dimensions.
func.func @softmax_6d(%x: tensor<2x3x4x5x6x64xf32>) -> tensor<2x3x4x5x6x64xf32> {
  %e = tensor.empty() : tensor<2x3x4x5x6x64xf32>
  %s = linalg.softmax dimension(5) ins(%x : tensor<2x3x4x5x6x64xf32>) outs(%e : tensor<2x3x4x5x6x64xf32>) -> tensor<2x3x4x5x6x64xf32>
  return %s : tensor<2x3x4x5x6x64xf32>
}
