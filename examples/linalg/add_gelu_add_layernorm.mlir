// A transformer block's epilogue chain in bf16 storage with f32 arithmetic,
// as a frontend emits F.layer_norm(F.gelu(x + bias) + r): the bias add, the
// exact (erf) GELU and the residual add in one elementwise op whose result
// is stored in bf16, then LayerNorm over the feature axis (mean, variance,
// normalisation with gamma and beta). M = 200 rows, N = 384 features.
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @add_gelu_add_layernorm(%x: tensor<200x384xbf16>, %r: tensor<200x384xbf16>,
                                  %bias: tensor<384xbf16>, %gamma: tensor<384xbf16>,
                                  %beta: tensor<384xbf16>) -> tensor<200x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %n = arith.constant 384.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_mn = tensor.empty() : tensor<200x384xbf16>
  %h = linalg.generic {indexing_maps = [#mn, #n_, #mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias, %r : tensor<200x384xbf16>, tensor<384xbf16>, tensor<200x384xbf16>)
      outs(%e_mn : tensor<200x384xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %res: bf16, %o: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %t = arith.addf %af, %bf : f32
    %s = arith.mulf %t, %rsqrt2 : f32
    %e = math.erf %s : f32
    %e1 = arith.addf %e, %one : f32
    %th = arith.mulf %t, %half : f32
    %gelu = arith.mulf %th, %e1 : f32
    %rf = arith.extf %res : bf16 to f32
    %sum = arith.addf %gelu, %rf : f32
    %y = arith.truncf %sum : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<200x384xbf16>
  %e_m = tensor.empty() : tensor<200xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<200xf32>) -> tensor<200xf32>
  %sum = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<200x384xbf16>) outs(%s0 : tensor<200xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %y = arith.addf %af, %acc : f32
    linalg.yield %y : f32
  } -> tensor<200xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<200xf32>) outs(%e_m : tensor<200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.divf %a, %n : f32
    linalg.yield %y : f32
  } -> tensor<200xf32>
  %sq = linalg.generic {indexing_maps = [#mn, #m_, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%h, %mean : tensor<200x384xbf16>, tensor<200xf32>) outs(%s0 : tensor<200xf32>) {
  ^bb0(%a: bf16, %mu: f32, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %y = arith.addf %d2, %acc : f32
    linalg.yield %y : f32
  } -> tensor<200xf32>
  %out = linalg.generic {indexing_maps = [#mn, #m_, #m_, #n_, #n_, #mn],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h, %mean, %sq, %gamma, %beta : tensor<200x384xbf16>, tensor<200xf32>, tensor<200xf32>, tensor<384xbf16>, tensor<384xbf16>)
      outs(%e_mn : tensor<200x384xbf16>) {
  ^bb0(%a: bf16, %mu: f32, %s: f32, %g: bf16, %b: bf16, %o: bf16):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %nn = arith.mulf %d, %rstd : f32
    %gf = arith.extf %g : bf16 to f32
    %ng = arith.mulf %nn, %gf : f32
    %bf = arith.extf %b : bf16 to f32
    %y0 = arith.addf %ng, %bf : f32
    %y = arith.truncf %y0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<200x384xbf16>
  return %out : tensor<200x384xbf16>
}
