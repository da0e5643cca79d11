func.func @return_copy(%x: tensor<500x300xf32>) -> tensor<300x500xf32> {
  %e = tensor.empty() : tensor<300x500xf32>
  %t = linalg.transpose ins(%x : tensor<500x300xf32>) outs(%e : tensor<300x500xf32>) permutation = [1, 0]
  return %t : tensor<300x500xf32>
}
