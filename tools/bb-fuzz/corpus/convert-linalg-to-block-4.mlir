func.func @elementwise(%x: tensor<512x1024xf32>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %two = arith.constant 2.0 : f32
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<512x1024xf32>, tensor<1024xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.subf %a, %c : f32
    %m = arith.mulf %s, %two : f32
    %t = math.tanh %m : f32
    %n = arith.negf %t : f32
    %p = math.fpowi %n, %c2 : f32, i32
    linalg.yield %p : f32
  } -> tensor<512x1024xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<512x1024xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<512x1024xf32>
  return %z : tensor<512x1024xf32>
}
