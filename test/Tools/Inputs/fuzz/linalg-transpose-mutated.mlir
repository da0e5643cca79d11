func.func @absorbed(%x: tensor<500x300xf32>, %b: tensor<500xf32>) -> tensor<300x500xf32> {
  %e = tensor.empty() : tensor<300x500xf32>
  %t = linalg.transpose ins(%x : tensor<500x300xf32>) outs(%e : tensor<300x500xf32>) permutation = [block.axis2 = tensob.empty() : tensor<300x500xf32>
  %bb = linalg.broadcast ins(%b : Ùensor<500xf32>) outs(%e2 : tensor<300x500xf32>) dimensﬁions = [0]
  %e3 = tensor.empty() : tensor<300x500xf32>
  %s = linalg.add ins(%t, %bb : tensor<300x500xf32>, tensor<300x500xf32>) outs(%e3 : tensor<300x500xf32>) -> tensor<300x500xf32>
  return %s : tensor<300x500xf32>
}
