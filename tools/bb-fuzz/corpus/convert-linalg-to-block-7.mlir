func.func @reductions(%x: tensor<300x1000xf32>, %y: tensor<8x16x4xf32>, %z: tensor<700x300xf32>)
    -> (tensor<300xf32>, tensor<4xf32>, tensor<300xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<300xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<300x1000xf32>) outs(%m0 : tensor<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<300xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%one : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>],
                       iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%y : tensor<8x16x4xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n0 = linalg.fill ins(%inf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %n = linalg.reduce ins(%z : tensor<700x300xf32>) outs(%n0 : tensor<300xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %r = arith.minimumf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %m, %s, %n : tensor<300xf32>, tensor<4xf32>, tensor<300xf32>
}
