// Everything outside the operator table stops the conversion with an error
// naming the op and the reason; nothing is skipped.
// RUN: bb-opt %s --convert-linalg-to-block -split-input-file -verify-diagnostics

func.func @convolution(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %o: tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op cannot be converted to a block program: convolutions are outside the operator table}}
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32>
  return %r : tensor<1x8x30x30xf32>
}

// -----

// expected-error @+1 {{argument #0 has type 'tensor<?x64xf32>'; only statically shaped tensors convert (dynamic shapes are not supported)}}
func.func @dynamic(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  return %x : tensor<?x64xf32>
}

// -----

func.func @reshape(%x: tensor<4x64xf32>) -> tensor<256xf32> {
  %shape = arith.constant dense<256> : tensor<1xi64>
  // expected-error @+1 {{'tensor.reshape' op cannot be converted to a block program: tensor.reshape with a shape operand is not supported (use tensor.expand_shape or tensor.collapse_shape)}}
  %r = tensor.reshape %x(%shape) : (tensor<4x64xf32>, tensor<1xi64>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

func.func @gather(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<64xf32>
  // expected-error @+1 {{'tensor.extract' op cannot be converted to a block program: gathers, slices, pads and concatenations of tensors are outside the operator table}}
  %v = tensor.extract %x[%c0] : tensor<64xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %f : tensor<64xf32>
}

// -----

func.func @tensor_constant() -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op is a tensor constant that is not a splat; block programs take arrays as arguments only (run --hoist-tensor-constants to make it one)}}
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op cannot be converted to a block program: ops with side effects are outside the operator table}}
  %r = func.call @call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @unsupported_body_op(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{'math.atan' op in the body of a linalg.generic cannot be converted to a block program: no block op computes it}}
    %t = math.atan %a : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @unordered_compare(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{'arith.cmpf' op in the body of a linalg.generic cannot be converted to a block program: the predicates 'ord', 'uno', 'true' and 'false' are not supported}}
    %c = arith.cmpf uno, %a, %zero : f32
    %s = arith.select %c, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @scalar_outside(%x: tensor<64xf32>, %v: f32) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  // expected-error @+1 {{'arith.addf' op cannot be converted to a block program: scalar computations outside Linalg ops are not supported (fold them to constants first)}}
  %s = arith.addf %v, %v : f32
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %f : tensor<64xf32>
}

// -----

func.func @argmax(%x: tensor<64x128xf32>) -> (tensor<64xf32>, tensor<64xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<64xf32>
  %ei = tensor.empty() : tensor<64xi64>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %i0 = linalg.fill ins(%zero : i64) outs(%ei : tensor<64xi64>) -> tensor<64xi64>
  // expected-error @+1 {{'linalg.generic' op cannot be converted to a block program: the yield of output #0 is not 'accumulator <op> term'}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%v0, %i0 : tensor<64xf32>, tensor<64xi64>) {
  ^bb0(%a: f32, %best: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %nv = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<64xf32>, tensor<64xi64>)
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xi64>
}

// -----

func.func @index_arithmetic(%x: tensor<66xf32>, %w: tensor<3xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-error @+1 {{'linalg.generic' op cannot be converted to a block program: indexing map #0 uses 'd0 + d1', which is not a loop dimension or a constant}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<66xf32>, tensor<3xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @uninitialised(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  // expected-error @+1 {{reads an uninitialised tensor (tensor.empty)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// expected-error @+1 {{argument #0 has element type 'f8E4M3FN', which block programs do not support}}
func.func @element_type(%x: tensor<64xf8E4M3FN>) -> tensor<64xf8E4M3FN> {
  return %x : tensor<64xf8E4M3FN>
}
