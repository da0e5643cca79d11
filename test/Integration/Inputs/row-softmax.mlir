// softmax over rows of 512 bf16 (scripts/build-anchors.py softmax M=64 N=512).
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#n_ = affine_map<(m, n) -> (n)>
func.func @softmax_m64_n512(%x: tensor<64x512xbf16>) -> tensor<64x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_m = tensor.empty() : tensor<64xf32>
  %e_mn = tensor.empty() : tensor<64x512xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
  %mx = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x512xbf16>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %r = arith.maximumf %acc, %af : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<64x512xbf16>, tensor<64xf32>) outs(%e_mn : tensor<64x512xf32>) {
  ^bb0(%a: bf16, %b: f32, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
  %l = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<64x512xf32>) outs(%l0 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e_out = tensor.empty() : tensor<64x512xbf16>
  %out = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<64x512xf32>, tensor<64xf32>) outs(%e_out : tensor<64x512xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %r = arith.divf %a, %b : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x512xbf16>
  return %out : tensor<64x512xbf16>
}
