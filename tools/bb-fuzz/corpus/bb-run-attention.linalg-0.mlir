#qk_q = affine_map<(m, n, d) -> (m, d)>
#qk_k = affine_map<(m, n, d) -> (n, d)>
#qk_s = affine_map<(m, n, d) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#m = affine_map<(m, n) -> (m)>
func.func @attention(%q: tensor<100x16xf32>, %k: tensor<72x16xf32>,
                     %v: tensor<72x16xf32>) -> tensor<100x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_mn = tensor.empty() : tensor<100x72xf32>
  %e_m = tensor.empty() : tensor<100xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<100x72xf32>) -> tensor<100x72xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<100x16xf32>, tensor<72x16xf32>) outs(%s0 : tensor<100x72xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<100x72xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %mx = linalg.generic {indexing_maps = [#mn, #m], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<100x72xf32>) outs(%m0 : tensor<100xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %e = linalg.generic {indexing_maps = [#mn, #m, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<100x72xf32>, tensor<100xf32>) outs(%e_mn : tensor<100x72xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<100x72xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %l = linalg.generic {indexing_maps = [#mn, #m], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<100x72xf32>) outs(%l0 : tensor<100xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %p = linalg.generic {indexing_maps = [#mn, #m, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<100x72xf32>, tensor<100xf32>) outs(%e_mn : tensor<100x72xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<100x72xf32>
  %e_md = tensor.empty() : tensor<100x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_md : tensor<100x16xf32>) -> tensor<100x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<100x72xf32>, tensor<72x16xf32>)
                     outs(%o0 : tensor<100x16xf32>) -> tensor<100x16xf32>
  return %o : tensor<100x16xf32>
}
