func.func @slices_and_copies(%x: tensor<4x384xf32>, %y: tensor<8x32xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %s = tensor.extract_slice %x[2, 64] [1, 256] [1, 1] : tensor<4x384xf32> to tensor<256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.transpose ins(%y : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) permutation = [1, 0]
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<32x8xf32> into tensor<256xf32>
  return %n, %flat : tensor<256xf32>, tensor<256xf32>
}
