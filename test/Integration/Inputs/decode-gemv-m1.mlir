// A plain GEMV at batch-1 decode size (M1 K4096 N4096), as scripts/build-anchors.py writes it.
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @gemm_m1_k4096_n4096(%lhs: tensor<1x4096xbf16>, %rhs: tensor<4096x4096xbf16>) -> tensor<1x4096xbf16> {
  %zero = arith.constant 0.0 : f32
  %e_acc = tensor.empty() : tensor<1x4096xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e_acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %acc = linalg.matmul ins(%lhs, %rhs : tensor<1x4096xbf16>, tensor<4096x4096xbf16>)
                       outs(%acc0 : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %e_out = tensor.empty() : tensor<1x4096xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<1x4096xf32>) outs(%e_out : tensor<1x4096xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x4096xbf16>
  return %out : tensor<1x4096xbf16>
}
