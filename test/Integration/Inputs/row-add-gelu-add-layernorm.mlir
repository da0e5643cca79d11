// add + GELU + add + LayerNorm over 64 rows of 768 (the anchor workload of
// scripts/build-anchors.py at M16384 N4096, scaled down): h = bf16(GELU(x +
// bias) + residual), then LayerNorm(h) with gamma and beta.
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @add_gelu_add_layernorm_m64_n768(%x: tensor<64x768xbf16>, %residual: tensor<64x768xbf16>, %bias: tensor<768xbf16>,
                  %gamma: tensor<768xbf16>, %beta: tensor<768xbf16>) -> tensor<64x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %e_h = tensor.empty() : tensor<64x768xbf16>
  %h = linalg.generic {indexing_maps = [#mn, #n_, #mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias, %residual : tensor<64x768xbf16>, tensor<768xbf16>, tensor<64x768xbf16>)
      outs(%e_h : tensor<64x768xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %res: bf16, %o: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %z = arith.addf %af, %bf : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %e = math.erf %s : f32
    %e1 = arith.addf %e, %one : f32
    %zh = arith.mulf %z, %half : f32
    %gl = arith.mulf %zh, %e1 : f32
    %rf = arith.extf %res : bf16 to f32
    %y = arith.addf %gl, %rf : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x768xbf16>
  %nf = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_m = tensor.empty() : tensor<64xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<64x768xbf16>) outs(%sum0 : tensor<64xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.addf %af, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<64xf32>) outs(%e_m : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %nf : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
  %sq = linalg.generic {indexing_maps = [#mn, #m_, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%h, %mean : tensor<64x768xbf16>, tensor<64xf32>) outs(%var0 : tensor<64xf32>) {
  ^bb0(%a: bf16, %mu: f32, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e_out = tensor.empty() : tensor<64x768xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #m_, #m_, #n_, #n_, #mn],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %mean, %sq, %gamma, %beta : tensor<64x768xbf16>, tensor<64xf32>, tensor<64xf32>, tensor<768xbf16>, tensor<768xbf16>)
      outs(%e_out : tensor<64x768xbf16>) {
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
  } -> tensor<64x768xbf16>
  return %out : tensor<64x768xbf16>
}
