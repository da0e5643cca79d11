#id = affine_map<(m) -> (m)>
func.func @mask(%mask: tensor<10xi1>, %a: tensor<10xi32>, %b: tensor<10xi64>,
                %x: tensor<10xf16>) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%mask, %a, %b, %x : tensor<10xi1>, tensor<10xi32>, tensor<10xi64>, tensor<10xf16>)
      outs(%e : tensor<10xf32>) {
  ^bb0(%c: i1, %ai: i32, %bi: i64, %xh: f16, %o: f32):
    %af = arith.sitofp %ai : i32 to f32
    %bf = arith.sitofp %bi : i64 to f32
    %xf = arith.extf %xh : f16 to f32
    %bx = arith.mulf %bf, %xf : f32
    %s = arith.select %c, %af, %bx : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}
