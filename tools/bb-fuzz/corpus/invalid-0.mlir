func.func @convolution(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %o: tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32>
  return %r : tensor<1x8x30x30xf32>
}
