func.func @element_type(%x: tensor<64xf8E4M3FN>) -> tensor<64xf8E4M3FN> {
  return %x : tensor<64xf8E4M3FN>
}
