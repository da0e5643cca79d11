func.func @views_and_scalars(%x: tensor<300x768xf32>, %s: f32) -> tensor<300x64xf32> {
  %heads = tensor.expand_shape %x [[0], [1, 2]] output_shape [300, 12, 64] : tensor<300x768xf32> into tensor<300x12x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x1x64xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<300x1x64xf32>) -> tensor<300x1x64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(t, d, h) -> (t, h, d)>, affine_map<(t, d, h) -> (t, 0, d)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%heads : tensor<300x12x64xf32>) outs(%o : tensor<300x1x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.addf %a, %acc : f32
    linalg.yield %p : f32
  } -> tensor<300x1x64xf32>
  %half = arith.constant dense<0.5> : tensor<300x64xf32>
  %e2 = tensor.empty() : tensor<300x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, d) -> (t, 0, d)>, affine_map<(t, d) -> (t, d)>, affine_map<(t, d) -> (t, d)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%sum, %half : tensor<300x1x64xf32>, tensor<300x64xf32>) outs(%e2 : tensor<300x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %s : f32
    %p = arith.addf %m, %b : f32
    linalg.yield %p : f32
  } -> tensor<300x64xf32>
  return %r : tensor<300x64xf32>
}
