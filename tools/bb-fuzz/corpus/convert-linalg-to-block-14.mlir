func.func @axis_roles(%x: tensor<64x32xf32>, %w: tensor<32x200xf32>, %b: tensor<200xf32>) -> tensor<64x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x200xf32>) -> tensor<64x200xf32>
  %h = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x200xf32>) outs(%f : tensor<64x200xf32>) -> tensor<64x200xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %b : tensor<64x200xf32>, tensor<200xf32>) outs(%e : tensor<64x200xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x200xf32>
  return %y : tensor<64x200xf32>
}
