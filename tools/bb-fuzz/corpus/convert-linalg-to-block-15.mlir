func.func @axis_roles_vectors(%x: tensor<100x128xf32>, %v: tensor<200xf32>) -> (tensor<100x1xf32>, tensor<200xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x1xf32>) -> tensor<100x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x128xf32>) outs(%f : tensor<100x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<100x1xf32>
  %ev = tensor.empty() : tensor<200xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%v : tensor<200xf32>) outs(%ev : tensor<200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  return %s, %n : tensor<100x1xf32>, tensor<200xf32>
}
