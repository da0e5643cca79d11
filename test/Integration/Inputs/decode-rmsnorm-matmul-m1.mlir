// RMSNorm + matmul at batch-1 decode size (M1 K4096 N4096), as scripts/build-anchors.py writes it.
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @rmsnorm_matmul_m1_k4096_n4096(%x: tensor<1x4096xbf16>, %g: tensor<4096xbf16>,
                  %w: tensor<4096x4096xbf16>) -> tensor<1x4096xbf16> {
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant 4096.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_m = tensor.empty() : tensor<1xf32>
  %ss0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<1xf32>) -> tensor<1xf32>
  %ss = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x4096xbf16>) outs(%ss0 : tensor<1xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %e_xn = tensor.empty() : tensor<1x4096xbf16>
  %xn = linalg.generic {indexing_maps = [#mn, #m_, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<1x4096xbf16>, tensor<1xf32>, tensor<4096xbf16>) outs(%e_xn : tensor<1x4096xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %ms = arith.divf %s, %nf : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %af = arith.extf %a : bf16 to f32
    %nn = arith.mulf %af, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %ng = arith.mulf %nn, %gf : f32
    %t = arith.truncf %ng : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x4096xbf16>
  %e_acc = tensor.empty() : tensor<1x4096xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e_acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %acc = linalg.matmul ins(%xn, %w : tensor<1x4096xbf16>, tensor<4096x4096xbf16>)
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
