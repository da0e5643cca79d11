func.func @weights(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>) {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %h = arith.constant dense<0.5> : tensor<4xf32>
  %r = arith.constant dense_resource<elided> : tensor<2xi64>
  return %x, %w, %h, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi64>
}
