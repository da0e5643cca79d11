func.func @absorbed(%x: tensor<500x300xf32>, %b: tensor<500xf32>) -> tensor<300x500xf32> {
  %e = tensor.empty() : tensor<300x500xf32>
  %t = linalg.transpose ins(%x : tensor<500x300xf32>) outs(%e : tensor<300x500xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<300x500xf32>
  %bb = linalg.broadcast ins(%b : tensor<500xf32>) outs(%e2 : tensor<300x500xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<300x500xf32>
  %s = linalg.add ins(%t, %bb : tensor<300x500xf32>, tensor<300x500xf32>) outs(%e3 : tensor<300x500xf32>) -> tensor<300x500xf32>
  return %s : tensor<300x500xf32>
}
