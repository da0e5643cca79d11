// LayerNorm over rows of 768 bf16 (scripts/build-anchors.py layernorm M=100 N=768).
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @layernorm_m100_n768(%x: tensor<100x768xbf16>, %gamma: tensor<768xbf16>, %beta: tensor<768xbf16>)
    -> tensor<100x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_m = tensor.empty() : tensor<100xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %sum = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x768xbf16>) outs(%sum0 : tensor<100xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.addf %af, %acc : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<100xf32>) outs(%e_m : tensor<100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %nf : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %sq = linalg.generic {indexing_maps = [#mn, #m_, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<100x768xbf16>, tensor<100xf32>) outs(%var0 : tensor<100xf32>) {
  ^bb0(%a: bf16, %mu: f32, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %e_out = tensor.empty() : tensor<100x768xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #m_, #m_, #n_, #n_, #mn],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<100x768xbf16>, tensor<100xf32>, tensor<100xf32>, tensor<768xbf16>, tensor<768xbf16>)
      outs(%e_out : tensor<100x768xbf16>) {
  ^bb0(%a: bf16, %mu: f32, %s: f32, %g: bf16, %b: bf16, %o: bf16):
    %var = arith.divf %s, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %nn = arith.mulf %d, %rstd : f32
    %gf = arith.extf %g : bf16 to f32
    %ng = arith.mulf %nn, %gf : f32
    %bf = arith.extf %b : bf16 to f32
    %r = arith.addf %ng, %bf : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x768xbf16>
  return %out : tensor<100x768xbf16>
}
