// LayerNorm + matmul in bf16 storage, f32 statistics and accumulation, the normalised
// rows rounded to bf16 before the matmul: scripts/build-anchors.py's layernorm_matmul
// with @M@, @K@ and @N@ left for sed (@K@ also in the f32 divisor @K@.0).
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @layernorm_matmul_bf16(%x: tensor<@M@x@K@xbf16>, %gamma: tensor<@K@xbf16>, %beta: tensor<@K@xbf16>,
                  %w: tensor<@K@x@N@xbf16>) -> tensor<@M@x@N@xbf16> {
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant @K@.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_m = tensor.empty() : tensor<@M@xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<@M@xf32>) -> tensor<@M@xf32>
  %sum = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<@M@x@K@xbf16>) outs(%sum0 : tensor<@M@xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.addf %af, %acc : f32
    linalg.yield %r : f32
  } -> tensor<@M@xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<@M@xf32>) outs(%e_m : tensor<@M@xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %nf : f32
    linalg.yield %r : f32
  } -> tensor<@M@xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<@M@xf32>) -> tensor<@M@xf32>
  %sq = linalg.generic {indexing_maps = [#mn, #m_, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<@M@x@K@xbf16>, tensor<@M@xf32>) outs(%var0 : tensor<@M@xf32>) {
  ^bb0(%a: bf16, %mu: f32, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<@M@xf32>
  %e_xn = tensor.empty() : tensor<@M@x@K@xbf16>
  %xn = linalg.generic {indexing_maps = [#mn, #m_, #m_, #n_, #n_, #mn],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<@M@x@K@xbf16>, tensor<@M@xf32>, tensor<@M@xf32>, tensor<@K@xbf16>, tensor<@K@xbf16>)
      outs(%e_xn : tensor<@M@x@K@xbf16>) {
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
