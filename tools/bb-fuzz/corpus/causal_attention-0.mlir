#qk_q = affine_map<(m, n, d) -> (m, d)>
#qk_k = affine_map<(m, n, d) -> (n, d)>
#qk_s = affine_map<(m, n, d) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#pv_p = affine_map<(m, d, n) -> (m, n)>
#pv_v = affine_map<(m, d, n) -> (n, d)>
#pv_o = affine_map<(m, d, n) -> (m, d)>
func.func @causal_attention(%q: tensor<500x64xf32>, %k: tensor<500x64xf32>,
                            %v: tensor<500x64xf32>) -> tensor<500x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_mn = tensor.empty() : tensor<500x500xf32>
  %e_m = tensor.empty() : tensor<500xf32>
  %e_md = tensor.empty() : tensor<500x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<500x500xf32>) -> tensor<500x500xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<500x64xf32>, tensor<500x64xf32>) outs(%s0 : tensor<500x500xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<500x500xf32>
  %masked = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<500x500xf32>) outs(%e_mn : tensor<500x500xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<500x500xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<500xf32>) -> tensor<500xf32>
  %m = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<500x500xf32>) outs(%m0 : tensor<500xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<500xf32>
  %e = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %m : tensor<500x500xf32>, tensor<500xf32>) outs(%e_mn : tensor<500x500xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<500x500xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<500xf32>) -> tensor<500xf32>
  %l = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<500x500xf32>) outs(%l0 : tensor<500xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<500xf32>
  %p = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<500x500xf32>, tensor<500xf32>) outs(%e_mn : tensor<500x500xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<500x500xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_md : tensor<500x64xf32>) -> tensor<500x64xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<500x500xf32>, tensor<500x64xf32>) outs(%o0 : tensor<500x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<500x64xf32>
  return %o : tensor<500x64xf32>
}
