func.func @f16_sum(%x: tensor<4x8192xf16>) -> tensor<4xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8192xf16>) outs(%init : tensor<4xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %p = math.absf %a : f16
    %r = arith.addf %p, %acc : f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  return %s : tensor<4xf16>
}
