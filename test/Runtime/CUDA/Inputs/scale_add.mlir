// What the hand-made artifact artifacts/scale_add computes: 2.5 * x + y.
// On a machine with a GPU and the built tools:
//   bb-run --device=cuda artifacts/scale_add --check --reference scale_add.mlir
#id = affine_map<(i, j) -> (i, j)>
func.func @scale_add(%x: tensor<10x100xf32>, %y: tensor<10x100xf32>) -> tensor<10x100xf32> {
  %a = arith.constant 2.5 : f32
  %e = tensor.empty() : tensor<10x100xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<10x100xf32>, tensor<10x100xf32>) outs(%e : tensor<10x100xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %s = arith.mulf %xv, %a : f32
    %t = arith.addf %s, %yv : f32
    linalg.yield %t : f32
  } -> tensor<10x100xf32>
  return %r : tensor<10x100xf32>
}
