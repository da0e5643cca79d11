// RMSNorm followed by a projection in bf16 storage with f32 statistics and
// accumulation, as a Llama-style frontend emits the normalised input of an
// attention or FFN projection:
//   out = (x * rsqrt(mean(x^2) + eps) * g) @ W
// M = 100 tokens, K = 512, N = 384 (not multiples of usual block sizes).
#mk = affine_map<(m, k) -> (m, k)>
#m_ = affine_map<(m, k) -> (m)>
#k_ = affine_map<(m, k) -> (k)>
#mn = affine_map<(m, n) -> (m, n)>
func.func @rmsnorm_matmul(%x: tensor<100x512xbf16>, %g: tensor<512xbf16>,
                          %w: tensor<512x384xbf16>) -> tensor<100x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_m = tensor.empty() : tensor<100xf32>
  %ss0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %ss = linalg.generic {indexing_maps = [#mk, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x512xbf16>) outs(%ss0 : tensor<100xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %e_mk = tensor.empty() : tensor<100x512xbf16>
  %xn = linalg.generic {indexing_maps = [#mk, #m_, #k_, #mk], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<100x512xbf16>, tensor<100xf32>, tensor<512xbf16>) outs(%e_mk : tensor<100x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %ms = arith.divf %s, %k : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %af = arith.extf %a : bf16 to f32
    %n = arith.mulf %af, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %ng = arith.mulf %n, %gf : f32
    %t = arith.truncf %ng : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x512xbf16>
  %e_acc = tensor.empty() : tensor<100x384xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%e_acc : tensor<100x384xf32>) -> tensor<100x384xf32>
  %y = linalg.matmul ins(%xn, %w : tensor<100x512xbf16>, tensor<512x384xbf16>)
                     outs(%y0 : tensor<100x384xf32>) -> tensor<100x384xf32>
  %e_mn = tensor.empty() : tensor<100x384xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<100x384xf32>) outs(%e_mn : tensor<100x384xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x384xbf16>
  return %out : tensor<100x384xbf16>
}
