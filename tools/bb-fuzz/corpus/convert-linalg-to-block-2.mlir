func.func @batch_matmul_bf16(%q: tensor<12x300x64xbf16>, %k: tensor<12x64x300xbf16>) -> tensor<12x300x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x300x300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x300x300xf32>) -> tensor<12x300x300xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<12x300x64xbf16>, tensor<12x64x300xbf16>) outs(%f : tensor<12x300x300xf32>) -> tensor<12x300x300xf32>
  return %s : tensor<12x300x300xf32>
}
