// Weights keep their names into the GPU artifact (docs/Artifact.md,
// "constant"): hoist-tensor-constants records each `dense_resource` key on
// the argument it makes, compileForGPU carries the argument attributes across
// convert-linalg-to-block, and the launch manifest writes the key on the input
// buffer, so a runtime binds weights by name. A torch-mlir key
// (torch_tensor_<shape>_<dtype>) and a parameter name as blockbuster.torch
// exports it; an ordinary input and the output have no "constant".
// RUN: rm -rf %t && bb-compile %s -o %t
// RUN: FileCheck %s --input-file=%t/manifest.json

// CHECK:      "buffers": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "bytes": 8192,
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "kind": "input",
// CHECK-NEXT:     "name": "arg0",
// CHECK-NEXT:     "position": 0,
// CHECK:        {
// CHECK-NEXT:     "bytes": 8192,
// CHECK-NEXT:     "constant": "proj.weight",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "kind": "input",
// CHECK-NEXT:     "name": "arg1",
// CHECK-NEXT:     "position": 1,
// CHECK:        {
// CHECK-NEXT:     "bytes": 128,
// CHECK-NEXT:     "constant": "torch_tensor_32_torch.float32",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "kind": "input",
// CHECK-NEXT:     "name": "arg2",
// CHECK-NEXT:     "position": 2,
// CHECK:        {
// CHECK-NEXT:     "bytes": 8192,
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "kind": "output",
// CHECK-NEXT:     "name": "res0",

#row = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @scale_shift(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %w = arith.constant dense_resource<"proj.weight"> : tensor<64x32xf32>
  %b = arith.constant dense_resource<torch_tensor_32_torch.float32> : tensor<32xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [#row, #row, #col, #row],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %b : tensor<64x32xf32>, tensor<64x32xf32>, tensor<32xf32>)
      outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %d : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
