func.func @casts(%x: tensor<1000xbf16>) -> tensor<1000xf16> {
  %e = tensor.empty() : tensor<1000xf16>
  %one = arith.constant 1.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xbf16>) outs(%e : tensor<1000xf16>) {
  ^bb0(%a: bf16, %o: f16):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %one : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000xf16>
  return %y : tensor<1000xf16>
}
