// RMSNorm + matmul in bf16 storage, f32 statistics and accumulation, the normalised
// rows rounded to bf16 before the matmul: scripts/build-anchors.py's rmsnorm_matmul
// with @M@, @K@ and @N@ left for sed (@K@ also in the f32 divisor @K@.0).
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @rmsnorm_matmul_bf16(%x: tensor<@M@x@K@xbf16>, %g: tensor<@K@xbf16>,
                  %w: tensor<@K@x@N@xbf16>) -> tensor<@M@x@N@xbf16> {
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant @K@.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_m = tensor.empty() : tensor<@M@xf32>
  %ss0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<@M@xf32>) -> tensor<@M@xf32>
  %ss = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<@M@x@K@xbf16>) outs(%ss0 : tensor<@M@xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<@M@xf32>
  %e_xn = tensor.empty() : tensor<@M@x@K@xbf16>
  %xn = linalg.generic {indexing_maps = [#mn, #m_, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<@M@x@K@xbf16>, tensor<@M@xf32>, tensor<@K@xbf16>) outs(%e_xn : tensor<@M@x@K@xbf16>) {
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
  } -> tensor<@M@x@K@xbf16>
  %e_acc = tensor.empty() : tensor<@M@x@N@xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e_acc : tensor<@M@x@N@xf32>) -> tensor<@M@x@N@xf32>
  %acc = linalg.matmul ins(%xn, %w : tensor<@M@x@K@xbf16>, tensor<@K@x@N@xbf16>)
                       outs(%acc0 : tensor<@M@x@N@xf32>) -> tensor<@M@x@N@xf32>
  %e_out = tensor.empty() : tensor<@M@x@N@xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<@M@x@N@xf32>) outs(%e_out : tensor<@M@x@N@xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<@M@x@N@xbf16>
  return %out : tensor<@M@x@N@xbf16>
}
