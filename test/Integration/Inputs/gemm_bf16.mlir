// A plain bf16 GEMM as frontends write it (scripts/build-anchors.py's gemm):
// f32 accumulation, the result rounded to bf16. The sizes are replaced by
// test/Integration/gpu-wgmma.test.
#mn = affine_map<(m, n) -> (m, n)>
func.func @gemm(%lhs: tensor<MxKxbf16>, %rhs: tensor<KxNxbf16>) -> tensor<MxNxbf16> {
  %zero = arith.constant 0.0 : f32
  %e_acc = tensor.empty() : tensor<MxNxf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e_acc : tensor<MxNxf32>) -> tensor<MxNxf32>
  %acc = linalg.matmul ins(%lhs, %rhs : tensor<MxKxbf16>, tensor<KxNxbf16>)
                       outs(%acc0 : tensor<MxNxf32>) -> tensor<MxNxf32>
  %e_out = tensor.empty() : tensor<MxNxbf16>
  %out = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<MxNxf32>) outs(%e_out : tensor<MxNxbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<MxNxbf16>
  return %out : tensor<MxNxbf16>
}
