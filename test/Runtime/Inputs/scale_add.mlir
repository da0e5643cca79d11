// The function of the hand-made artifact Inputs/artifacts/scale_add:
// out = 2.5 * x + y, for bb-run's expected outputs in gpu-difftest.test.
#id = affine_map<(i, j) -> (i, j)>
func.func @scale_add(%x: tensor<10x100xf32>, %y: tensor<10x100xf32>) -> tensor<10x100xf32> {
  %e = tensor.empty() : tensor<10x100xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<10x100xf32>, tensor<10x100xf32>) outs(%e : tensor<10x100xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 2.5 : f32
    %s = arith.mulf %a, %c : f32
    %t = arith.addf %s, %b : f32
    linalg.yield %t : f32
  } -> tensor<10x100xf32>
  return %r : tensor<10x100xf32>
}
