#mk = affine_map<(m, k) -> (m, k)>
#m_ = affine_map<(m, k) -> (m)>
#k_ = affine_map<(m, k) -> (k)>
#mm_a = affine_map<(m, n, k) -> (m, k)>
#mm_b = affine_map<(m, n, k) -> (k, n)>
#mm_c = affine_map<(m, n, k) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#n_ = affine_map<(m, n) -> (n)>
func.func @layernorm_matmul(%x: tensor<200x384xf32>, %gamma: tensor<384xf32>,
                            %beta: tensor<384xf32>, %w: tensor<384x300xf32>,
                            %bias: tensor<300xf32>) -> tensor<200x300xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 384.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_m = tensor.empty() : tensor<200xf32>
  %e_mk = tensor.empty() : tensor<200x384xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<200xf32>) -> tensor<200xf32>
  %sum = linalg.generic {indexing_maps = [#mk, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<200x384xf32>) outs(%sum0 : tensor<200xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<200xf32>) outs(%e_m : tensor<200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %k : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  %var0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<200xf32>) -> tensor<200xf32>
  %sq = linalg.generic {indexing_maps = [#mk, #m_, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<200x384xf32>, tensor<200xf32>) outs(%var0 : tensor<200xf32>) {
  ^bb0(%a: f32, %mu: f32, %acc: f32):
    %d = arith.subf %a, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  %xn = linalg.generic {indexing_maps = [#mk, #m_, #m_, #k_, #k_, #mk],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<200x384xf32>, tensor<200xf32>, tensor<200xf32>, tensor<384xf32>, tensor<384xf32>)
      outs(%e_mk : tensor<200x384xf32>) {
  ^bb0(%a: f32, %mu: f32, %s: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %s, %k : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %d = arith.subf %a, %mu : f32
    %n = arith.mulf %d, %rstd : f32
    %ng = arith.mulf %n, %g : f32
    %r = arith.addf %ng, %b : f32
    linalg.yield %r : f32
  } -> tensor<200x384xf32>
  %e_mn = tensor.empty() : tensor<200x300xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<200x300xf32>) -> tensor<200x300xf32>
  %y = linalg.matmul ins(%xn, %w : tensor<200x384xf32>, tensor<384x300xf32>)
                     outs(%y0 : tensor<200x300xf32>) -> tensor<200x300xf32>
  %out = linalg.generic {indexing_maps = [#mn, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<200x300xf32>, tensor<300xf32>) outs(%e_mn : tensor<200x300xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<200x300xf32>
  return %out : tensor<200x300xf32>
}
