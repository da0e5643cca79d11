func.func @unused_argmax(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<64xf32>
  %ei = tensor.empty() : tensor<64xi64>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %i0 = linalg.fill ins(%zero : i64) outs(%ei : tensor<64xi64>) -> tensor<64xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%v0, %i0 : tensor<64xf32>, tensor<64xi64>) {
  ^bb0(%a: f32, %best: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %nv = arith.maximumf %a, %best : f32
    %gt = arith.cmpf ogt, %a, %best : f32
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<64xf32>, tensor<64xi64>)
  return %r#0 : tensor<64xf32>
}
