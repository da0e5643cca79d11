// bf16 causal attention, 500 queries and keys, D = 64: the mask's row indices
// (block.iota of a partial edge block) become an index tile in shared memory.
// examples/linalg/causal_attention.mlir in bf16.
#qk_q = affine_map<(m, n, d) -> (m, d)>
#qk_k = affine_map<(m, n, d) -> (n, d)>
#qk_s = affine_map<(m, n, d) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#pv_p = affine_map<(m, d, n) -> (m, n)>
#pv_v = affine_map<(m, d, n) -> (n, d)>
#pv_o = affine_map<(m, d, n) -> (m, d)>
func.func @causal_attention(%q: tensor<500x64xbf16>, %k: tensor<500x64xbf16>,
                            %v: tensor<500x64xbf16>) -> tensor<500x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %ninf = arith.constant 0xFF80 : bf16
  %e_mn = tensor.empty() : tensor<500x500xbf16>
  %e_m = tensor.empty() : tensor<500xbf16>
  %e_md = tensor.empty() : tensor<500x64xbf16>
  %s0 = linalg.fill ins(%zero : bf16) outs(%e_mn : tensor<500x500xbf16>) -> tensor<500x500xbf16>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<500x64xbf16>, tensor<500x64xbf16>) outs(%s0 : tensor<500x500xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %p = arith.mulf %a, %b : bf16
    %r = arith.addf %acc, %p : bf16
    linalg.yield %r : bf16
  } -> tensor<500x500xbf16>
  %masked = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<500x500xbf16>) outs(%e_mn : tensor<500x500xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %a, %ninf : bf16
    linalg.yield %r : bf16
  } -> tensor<500x500xbf16>
  %m0 = linalg.fill ins(%ninf : bf16) outs(%e_m : tensor<500xbf16>) -> tensor<500xbf16>
  %m = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<500x500xbf16>) outs(%m0 : tensor<500xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %r = arith.maximumf %acc, %a : bf16
    linalg.yield %r : bf16
  } -> tensor<500xbf16>
  %e = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %m : tensor<500x500xbf16>, tensor<500xbf16>) outs(%e_mn : tensor<500x500xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %d = arith.subf %a, %b : bf16
    %r = math.exp %d : bf16
    linalg.yield %r : bf16
  } -> tensor<500x500xbf16>
  %l0 = linalg.fill ins(%zero : bf16) outs(%e_m : tensor<500xbf16>) -> tensor<500xbf16>
  %l = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<500x500xbf16>) outs(%l0 : tensor<500xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %r = arith.addf %acc, %a : bf16
    linalg.yield %r : bf16
  } -> tensor<500xbf16>
  %p = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<500x500xbf16>, tensor<500xbf16>) outs(%e_mn : tensor<500x500xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %r = arith.divf %a, %b : bf16
    linalg.yield %r : bf16
  } -> tensor<500x500xbf16>
  %o0 = linalg.fill ins(%zero : bf16) outs(%e_md : tensor<500x64xbf16>) -> tensor<500x64xbf16>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<500x500xbf16>, tensor<500x64xbf16>) outs(%o0 : tensor<500x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %x = arith.mulf %a, %b : bf16
    %r = arith.addf %acc, %x : bf16
    linalg.yield %r : bf16
  } -> tensor<500x64xbf16>
  return %o : tensor<500x64xbf16>
}
