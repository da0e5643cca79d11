func.func @mha(%q: tensor<8x300x64xf32>, %k: tensor<8x300x64xf32>,
               %v: tensor<8x300x64xf32>) -> tensor<8x300x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e_kt = tensor.empty() : tensor<8x64x300xf32>
  %kt = linalg.transpose ins(%k : tensor<8x300x64xf32>) outs(%e_kt : tensor<8x64x300xf32>) permutation = [0, 2, 1]
  %e_s = tensor.empty() : tensor<8x300x300xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<8x300x300xf32>) -> tensor<8x300x300xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x300x64xf32>, tensor<8x64x300xf32>)
                           outs(%s0 : tensor<8x300x300xf32>) -> tensor<8x300x300xf32>
  %e_p = tensor.empty() : tensor<8x300x300xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x300x300xf32>) outs(%e_p : tensor<8x300x300xf32>) -> tensor<8x300x300xf32>
  %e_o = tensor.empty() : tensor<8x300x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<8x300x64xf32>) -> tensor<8x300x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x300x300xf32>, tensor<8x300x64xf32>)
                           outs(%o0 : tensor<8x300x64xf32>) -> tensor<8x300x64xf32>
  return %o : tensor<8x300x64xf32>
}
