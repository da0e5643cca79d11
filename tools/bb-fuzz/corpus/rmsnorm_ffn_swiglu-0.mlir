#md = affine_map<(m, d) -> (m, d)>
#m_ = affine_map<(m, d) -> (m)>
#d_ = affine_map<(m, d) -> (d)>
#mm_a = affine_map<(m, n, k) -> (m, k)>
#mm_b = affine_map<(m, n, k) -> (k, n)>
#mm_c = affine_map<(m, n, k) -> (m, n)>
#mf = affine_map<(m, f) -> (m, f)>
func.func @rmsnorm_ffn_swiglu(%x: tensor<100x512xbf16>, %g: tensor<512xbf16>,
                              %w1: tensor<512x1000xbf16>, %w3: tensor<512x1000xbf16>,
                              %w2: tensor<1000x512xbf16>) -> tensor<100x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %d = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %e_m = tensor.empty() : tensor<100xf32>
  %ss0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<100xf32>) -> tensor<100xf32>
  %ss = linalg.generic {indexing_maps = [#md, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x512xbf16>) outs(%ss0 : tensor<100xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<100xf32>
  %e_md = tensor.empty() : tensor<100x512xbf16>
  %xn = linalg.generic {indexing_maps = [#md, #m_, #d_, #md], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<100x512xbf16>, tensor<100xf32>, tensor<512xbf16>) outs(%e_md : tensor<100x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %ms = arith.divf %s, %d : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %af = arith.extf %a : bf16 to f32
    %n = arith.mulf %af, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %ng = arith.mulf %n, %gf : f32
    %t = arith.truncf %ng : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x512xbf16>
  %e_mf = tensor.empty() : tensor<100x1000xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e_mf : tensor<100x1000xf32>) -> tensor<100x1000xf32>
  %a1 = linalg.matmul ins(%xn, %w1 : tensor<100x512xbf16>, tensor<512x1000xbf16>)
                      outs(%a0 : tensor<100x1000xf32>) -> tensor<100x1000xf32>
  %a3 = linalg.matmul ins(%xn, %w3 : tensor<100x512xbf16>, tensor<512x1000xbf16>)
                      outs(%a0 : tensor<100x1000xf32>) -> tensor<100x1000xf32>
  %e_h = tensor.empty() : tensor<100x1000xbf16>
  %h = linalg.generic {indexing_maps = [#mf, #mf, #mf], iterator_types = ["parallel", "parallel"]}
      ins(%a1, %a3 : tensor<100x1000xf32>, tensor<100x1000xf32>) outs(%e_h : tensor<100x1000xbf16>) {
  ^bb0(%u: f32, %v: f32, %o: bf16):
    %nu = arith.negf %u : f32
    %ex = math.exp %nu : f32
    %den = arith.addf %one, %ex : f32
    %silu = arith.divf %u, %den : f32
    %p = arith.mulf %silu, %v : f32
    %t = arith.truncf %p : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x1000xbf16>
  %e_o = tensor.empty() : tensor<100x512xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<100x512xf32>) -> tensor<100x512xf32>
  %o = linalg.matmul ins(%h, %w2 : tensor<100x1000xbf16>, tensor<1000x512xbf16>)
                     outs(%o0 : tensor<100x512xf32>) -> tensor<100x512xf32>
  %ob = linalg.generic {indexing_maps = [#md, #md], iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<100x512xf32>) outs(%e_md : tensor<100x512xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<100x512xbf16>
  return %ob : tensor<100x512xbf16>
}
