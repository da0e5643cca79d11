// The sums of 2 slabs of 64x96x96 values: the three reduced axes are whole
// (each at most 256), so a block of the converted program holds a whole
// 64x96x96 f32 slab, 2.25 MiB, over the CPU target's 2 MiB.
func.func @slab_sums(%x: tensor<2x64x96x96xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(b, i, j, k) -> (b, i, j, k)>,
                       affine_map<(b, i, j, k) -> (b)>],
      iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : tensor<2x64x96x96xf32>) outs(%fill : tensor<2xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
  } -> tensor<2xf32>
  return %sum : tensor<2xf32>
}
