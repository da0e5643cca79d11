// C + A.B accumulated into the argument C: bufferized in place, the run
// overwrites C's buffer (the input of bb-run-f64-oracle.test).
func.func @accumulate(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>,
                      %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
