// scale_add with an f16 second argument: does not match the artifact.
func.func @scale_add(%x: tensor<10x100xf32>, %y: tensor<10x100xf16>) -> tensor<10x100xf32> {
  return %x : tensor<10x100xf32>
}
