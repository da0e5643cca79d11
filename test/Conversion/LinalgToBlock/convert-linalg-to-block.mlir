// RUN: bb-opt %s --convert-linalg-to-block -split-input-file | FileCheck %s

// A named matmul: one map over the tiled output axes, a reduce over the tiled
// contraction axis, and a dot. The zero fill of the output is the identity:
// nothing is added to the result.
// CHECK-LABEL: block.program @matmul
// CHECK-SAME: axes(a0 = 300 tiled, a1 = 400 tiled, a2 = 500 tiled)
// CHECK-SAME: (%[[A:.*]]: !block.array<300x500xf32>, %[[B:.*]]: !block.array<500x400xf32>) -> !block.array<300x400xf32>
// CHECK:      %[[C:.*]] = block.map [a0, a1] -> !block.array<300x400xf32> {
// CHECK-NEXT:   %[[R:.*]] = block.reduce a2 combiners [add] -> !block.tile<[a0, a1], f32> {
// CHECK-NEXT:     %[[TA:.*]] = block.load %[[A]] [a0, a2] : !block.array<300x500xf32> -> !block.tile<[a0, a2], f32>
// CHECK-NEXT:     %[[TB:.*]] = block.load %[[B]] [a2, a1] : !block.array<500x400xf32> -> !block.tile<[a2, a1], f32>
// CHECK-NEXT:     %[[D:.*]] = block.dot %[[TA]], %[[TB]] contract [a2]
// CHECK-NEXT:     block.yield %[[D]] : !block.tile<[a0, a1], f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   block.yield %[[R]] : !block.tile<[a0, a1], f32>
// CHECK-NEXT: }
// CHECK-NEXT: block.return %[[C]]
func.func @matmul(%a: tensor<300x500xf32>, %b: tensor<500x400xf32>) -> tensor<300x400xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x400xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x400xf32>) -> tensor<300x400xf32>
  %c = linalg.matmul ins(%a, %b : tensor<300x500xf32>, tensor<500x400xf32>) outs(%f : tensor<300x400xf32>) -> tensor<300x400xf32>
  return %c : tensor<300x400xf32>
}

// -----

// A transposed matmul (weights [N, K]) reads the weight tile as [N, K]; a
// small contraction axis is whole, so the dot needs no reduce. The output is
// accumulated onto a real tensor, which is loaded and added.
// CHECK-LABEL: block.program @matmul_transpose_b
// CHECK-SAME: axes(a0 = 300 tiled, a1 = 400 tiled, a2 = 64 whole)
// CHECK:      block.map [a0, a1]
// CHECK-NEXT:   %[[TA:.*]] = block.load %arg0 [a0, a2] : !block.array<300x64xf32> -> !block.tile<[a0, a2], f32>
// CHECK-NEXT:   %[[TB:.*]] = block.load %arg1 [a1, a2] : !block.array<400x64xf32> -> !block.tile<[a1, a2], f32>
// CHECK-NEXT:   %[[D:.*]] = block.dot %[[TA]], %[[TB]] contract [a2]
// CHECK-NEXT:   %[[INIT:.*]] = block.load %arg2 [a0, a1]
// CHECK-NEXT:   %[[SUM:.*]] = block.add %[[INIT]], %[[D]]
// CHECK-NEXT:   block.yield %[[SUM]]
func.func @matmul_transpose_b(%a: tensor<300x64xf32>, %b: tensor<400x64xf32>, %c: tensor<300x400xf32>) -> tensor<300x400xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<300x64xf32>, tensor<400x64xf32>) outs(%c : tensor<300x400xf32>) -> tensor<300x400xf32>
  return %r : tensor<300x400xf32>
}

// -----

// batch_matmul in bf16 with f32 accumulation: the batch axis is shared by
// both operands and the result; the dot takes the bf16 tiles directly. The
// batch axis is a row axis (never reduced, never innermost): tiled although
// it is small.
// CHECK-LABEL: block.program @batch_matmul_bf16
// CHECK-SAME: axes(a0 = 12 tiled, a1 = 300 tiled, a2 = 300 tiled, a3 = 64 whole)
// CHECK:      block.map [a0, a1, a2] -> !block.array<12x300x300xf32>
// CHECK:        %[[Q:.*]] = block.load %arg0 [a0, a1, a3] : !block.array<12x300x64xbf16> -> !block.tile<[a0, a1, a3], bf16>
// CHECK:        %[[K:.*]] = block.load %arg1 [a0, a3, a2] : !block.array<12x64x300xbf16> -> !block.tile<[a0, a3, a2], bf16>
// CHECK:        block.dot %[[Q]], %[[K]] contract [a3] : !block.tile<[a0, a1, a3], bf16>, !block.tile<[a0, a3, a2], bf16>
func.func @batch_matmul_bf16(%q: tensor<12x300x64xbf16>, %k: tensor<12x64x300xbf16>) -> tensor<12x300x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x300x300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x300x300xf32>) -> tensor<12x300x300xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<12x300x64xbf16>, tensor<12x64x300xbf16>) outs(%f : tensor<12x300x300xf32>) -> tensor<12x300x300xf32>
  return %s : tensor<12x300x300xf32>
}

// -----

// x @ x^T reads one array dimension in two roles: two axes of one extent.
// CHECK-LABEL: block.program @gram
// CHECK-SAME: axes(a0 = 1000 tiled, a1 = 1000 tiled, a2 = 32 whole)
// CHECK:        %[[L:.*]] = block.load %arg0 [a0, a2]
// CHECK:        %[[R:.*]] = block.load %arg0 [a1, a2]
// CHECK:        block.dot %[[L]], %[[R]] contract [a2]
func.func @gram(%x: tensor<1000x32xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %g = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %x : tensor<1000x32xf32>, tensor<1000x32xf32>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %g : tensor<1000x1000xf32>
}

// -----

// Elementwise ops with a broadcast written in the indexing map, a scalar
// constant captured from outside the body, and math ops. A consumer reads the
// producer's result with the producer's axes.
// CHECK-LABEL: block.program @elementwise
// CHECK-SAME: axes(a0 = 512 tiled, a1 = 1024 tiled)
// CHECK:      %[[E:.*]] = block.map [a0, a1] -> !block.array<512x1024xf32> {
// CHECK-NEXT:   %[[X:.*]] = block.load %arg0 [a0, a1] : !block.array<512x1024xf32> -> !block.tile<[a0, a1], f32>
// CHECK-NEXT:   %[[B:.*]] = block.load %arg1 [a1] : !block.array<1024xf32> -> !block.tile<[a1], f32>
// CHECK-NEXT:   %[[S:.*]] = block.sub %[[X]], %[[B]] : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
// CHECK-NEXT:   %[[C:.*]] = block.constant [] 2.000000e+00 : f32
// CHECK-NEXT:   %[[M:.*]] = block.mul %[[S]], %[[C]]
// CHECK-NEXT:   %[[T:.*]] = block.tanh %[[M]]
// CHECK-NEXT:   %[[N:.*]] = block.neg %[[T]]
// CHECK-NEXT:   %[[P:.*]] = block.mul %[[N]], %[[N]]
// CHECK-NEXT:   block.yield %[[P]] : !block.tile<[a0, a1], f32>
// CHECK:      block.map [a0, a1]
// CHECK-NEXT:   block.load %[[E]] [a0, a1]
// CHECK-NEXT:   block.exp
func.func @elementwise(%x: tensor<512x1024xf32>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %two = arith.constant 2.0 : f32
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<512x1024xf32>, tensor<1024xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.subf %a, %c : f32
    %m = arith.mulf %s, %two : f32
    %t = math.tanh %m : f32
    %n = arith.negf %t : f32
    %p = math.fpowi %n, %c2 : f32, i32
    linalg.yield %p : f32
  } -> tensor<512x1024xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<512x1024xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<512x1024xf32>
  return %z : tensor<512x1024xf32>
}

// -----

// A causal mask from linalg.index: global row and column indices.
// CHECK-LABEL: block.program @causal_mask
// CHECK:        %[[J:.*]] = block.iota a1 : !block.tile<[a1], index>
// CHECK-NEXT:   %[[I:.*]] = block.iota a0 : !block.tile<[a0], index>
// CHECK-NEXT:   %[[K:.*]] = block.compare le %[[J]], %[[I]] : !block.tile<[a1], index>, !block.tile<[a0], index>
// CHECK-NEXT:   %[[S:.*]] = block.load %arg0 [a0, a1]
// CHECK-NEXT:   %[[NINF:.*]] = block.constant [] 0xFF800000 : f32
// CHECK-NEXT:   %[[SEL:.*]] = block.select %[[K]], %[[S]], %[[NINF]] : !block.tile<[a1, a0], i1>, !block.tile<[a0, a1], f32>, !block.tile<[], f32>
// CHECK-NEXT:   %[[T:.*]] = block.broadcast %[[SEL]] : !block.tile<[a1, a0], f32> to !block.tile<[a0, a1], f32>
// CHECK-NEXT:   block.yield %[[T]] : !block.tile<[a0, a1], f32>
func.func @causal_mask(%s: tensor<500x500xf32>) -> tensor<500x500xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<500x500xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<500x500xf32>) outs(%e : tensor<500x500xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<500x500xf32>
  return %m : tensor<500x500xf32>
}

// -----

// Casts between element types.
// CHECK-LABEL: block.program @casts
// CHECK:        %[[X:.*]] = block.load %arg0 [a0] : !block.array<1000xbf16> -> !block.tile<[a0], bf16>
// CHECK-NEXT:   %[[F:.*]] = block.cast %[[X]] : !block.tile<[a0], bf16> to !block.tile<[a0], f32>
// CHECK:        block.cast %{{.*}} : !block.tile<[a0], f32> to !block.tile<[a0], f16>
func.func @casts(%x: tensor<1000xbf16>) -> tensor<1000xf16> {
  %e = tensor.empty() : tensor<1000xf16>
  %one = arith.constant 1.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xbf16>) outs(%e : tensor<1000xf16>) {
  ^bb0(%a: bf16, %o: f16):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %one : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000xf16>
  return %y : tensor<1000xf16>
}

// -----

// Reductions: max over a tiled axis (a reduce with an in-tile max), a sum
// over two whole axes (in-tile only), and a non-identity initial value that is
// combined after the reduce. linalg.reduce goes through its generic form.
// CHECK-LABEL: block.program @reductions
// CHECK-SAME: axes(a0 = 300 tiled, a1 = 1000 tiled, a2 = 8 whole, a3 = 16 whole, a4 = 4 whole, a5 = 700 tiled, a6 = 300 tiled)
// CHECK:      block.map [a0] -> !block.array<300xf32> {
// CHECK-NEXT:   block.reduce a1 combiners [max] -> !block.tile<[a0], f32> {
// CHECK-NEXT:     block.load %arg0 [a0, a1]
// CHECK-NEXT:     block.tile_reduce max %{{.*}} over [a1]
// CHECK:      block.map [] -> !block.array<4xf32> {
// CHECK-NEXT:   %[[T:.*]] = block.load %arg1 [a2, a3, a4]
// CHECK-NEXT:   %[[R:.*]] = block.tile_reduce add %[[T]] over [a2, a3] : !block.tile<[a2, a3, a4], f32>
// CHECK-NEXT:   %[[ONE:.*]] = block.constant [] 1.000000e+00 : f32
// CHECK-NEXT:   %[[S:.*]] = block.add %[[ONE]], %[[R]]
// CHECK-NEXT:   block.yield %[[S]] : !block.tile<[a4], f32>
// CHECK:      block.map [a6] -> !block.array<300xf32> {
// CHECK-NEXT:   block.reduce a5 combiners [min]
// CHECK:          block.tile_reduce min %{{.*}} over [a5]
func.func @reductions(%x: tensor<300x1000xf32>, %y: tensor<8x16x4xf32>, %z: tensor<700x300xf32>)
    -> (tensor<300xf32>, tensor<4xf32>, tensor<300xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<300xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<300x1000xf32>) outs(%m0 : tensor<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<300xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%one : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>],
                       iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%y : tensor<8x16x4xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n0 = linalg.fill ins(%inf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %n = linalg.reduce ins(%z : tensor<700x300xf32>) outs(%n0 : tensor<300xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %r = arith.minimumf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %m, %s, %n : tensor<300xf32>, tensor<4xf32>, tensor<300xf32>
}

// -----

// linalg.softmax decomposes into max, exp(x - max), sum and divide: four maps.
// The max starts from NaN, the identity of maxnumf: nothing is combined.
// CHECK-LABEL: block.program @softmax
// CHECK:      block.map [a0]
// CHECK:        block.tile_reduce max
// CHECK-NOT:    block.constant
// CHECK:      block.map [a0, a1]
// CHECK:        block.exp
// CHECK:      block.map [a0]
// CHECK:        block.tile_reduce add
// CHECK:      block.map [a0, a1]
// CHECK:        block.div
// CHECK-NOT:  block.map
func.func @softmax(%x: tensor<300x1000xf32>) -> tensor<300x1000xf32> {
  %e = tensor.empty() : tensor<300x1000xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<300x1000xf32>) outs(%e : tensor<300x1000xf32>) -> tensor<300x1000xf32>
  return %s : tensor<300x1000xf32>
}

// -----

// Transposes and broadcasts make no map: their consumers load the source.
// CHECK-LABEL: block.program @absorbed
// CHECK-COUNT-1: block.map
// CHECK-NOT: block.map
// CHECK:        block.load %arg0 [a1, a0] : !block.array<500x300xf32> -> !block.tile<[a1, a0], f32>
// CHECK:        block.load %arg1 [a1] : !block.array<500xf32> -> !block.tile<[a1], f32>
func.func @absorbed(%x: tensor<500x300xf32>, %b: tensor<500xf32>) -> tensor<300x500xf32> {
  %e = tensor.empty() : tensor<300x500xf32>
  %t = linalg.transpose ins(%x : tensor<500x300xf32>) outs(%e : tensor<300x500xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<300x500xf32>
  %bb = linalg.broadcast ins(%b : tensor<500xf32>) outs(%e2 : tensor<300x500xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<300x500xf32>
  %s = linalg.add ins(%t, %bb : tensor<300x500xf32>, tensor<300x500xf32>) outs(%e3 : tensor<300x500xf32>) -> tensor<300x500xf32>
  return %s : tensor<300x500xf32>
}

// -----

// Returning an argument or a transposed argument writes it with a copy kernel.
// CHECK-LABEL: block.program @return_copy
// CHECK:      block.map [a0, a1] -> !block.array<300x500xf32>
// CHECK-NEXT:   %[[T:.*]] = block.load %arg0 [a1, a0] : !block.array<500x300xf32> -> !block.tile<[a1, a0], f32>
// CHECK-NEXT:   %[[B:.*]] = block.broadcast %[[T]] : !block.tile<[a1, a0], f32> to !block.tile<[a0, a1], f32>
// CHECK-NEXT:   block.yield %[[B]]
func.func @return_copy(%x: tensor<500x300xf32>) -> tensor<300x500xf32> {
  %e = tensor.empty() : tensor<300x500xf32>
  %t = linalg.transpose ins(%x : tensor<500x300xf32>) outs(%e : tensor<300x500xf32>) permutation = [1, 0]
  return %t : tensor<300x500xf32>
}

// -----

// A reshape of an argument is a view: no kernel, no data moved. A unit
// dimension written at index 0 (keepdim) is dropped by normalisation: the
// reduce writes [300, 64] and its consumer reads it with the same axes. A
// scalar argument is a 0-d array, loaded where a body reads it. A splat
// tensor constant is a fill: a scalar constant in the body.
// CHECK-LABEL: block.program @views_and_scalars
// CHECK-SAME: axes(a0 = 300 tiled, a1 = 64 whole, a2 = 12 whole)
// CHECK-SAME: (%[[X:.*]]: !block.array<300x768xf32>, %[[S:.*]]: !block.array<f32>)
// CHECK:      %[[V:.*]] = block.view %[[X]] : !block.array<300x768xf32> to !block.array<300x12x64xf32>
// CHECK:      %[[SUM:.*]] = block.map [a0] -> !block.array<300x64xf32> {
// CHECK-NEXT:   %[[T:.*]] = block.load %[[V]] [a0, a2, a1] : !block.array<300x12x64xf32> -> !block.tile<[a0, a2, a1], f32>
// CHECK-NEXT:   %[[R:.*]] = block.tile_reduce add %[[T]] over [a2]
// CHECK-NEXT:   block.yield %[[R]] : !block.tile<[a0, a1], f32>
// CHECK:      block.map [a0] -> !block.array<300x64xf32> {
// CHECK-NEXT:   %[[L:.*]] = block.load %[[SUM]] [a0, a1] : !block.array<300x64xf32> -> !block.tile<[a0, a1], f32>
// CHECK-NEXT:   %[[SC:.*]] = block.load %[[S]] [] : !block.array<f32> -> !block.tile<[], f32>
// CHECK-NEXT:   %[[M:.*]] = block.mul %[[L]], %[[SC]]
// CHECK-NEXT:   %[[HALF:.*]] = block.constant [] 5.000000e-01 : f32
// CHECK-NEXT:   %[[A:.*]] = block.add %[[M]], %[[HALF]]
// CHECK-NEXT:   block.yield %[[A]] : !block.tile<[a0, a1], f32>
func.func @views_and_scalars(%x: tensor<300x768xf32>, %s: f32) -> tensor<300x64xf32> {
  %heads = tensor.expand_shape %x [[0], [1, 2]] output_shape [300, 12, 64] : tensor<300x768xf32> into tensor<300x12x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x1x64xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<300x1x64xf32>) -> tensor<300x1x64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(t, d, h) -> (t, h, d)>, affine_map<(t, d, h) -> (t, 0, d)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%heads : tensor<300x12x64xf32>) outs(%o : tensor<300x1x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.addf %a, %acc : f32
    linalg.yield %p : f32
  } -> tensor<300x1x64xf32>
  %half = arith.constant dense<0.5> : tensor<300x64xf32>
  %e2 = tensor.empty() : tensor<300x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, d) -> (t, 0, d)>, affine_map<(t, d) -> (t, d)>, affine_map<(t, d) -> (t, d)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%sum, %half : tensor<300x1x64xf32>, tensor<300x64xf32>) outs(%e2 : tensor<300x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %s : f32
    %p = arith.addf %m, %b : f32
    linalg.yield %p : f32
  } -> tensor<300x64xf32>
  return %r : tensor<300x64xf32>
}

// -----

// A max-with-index reduction whose index output nobody reads is a plain max.
// CHECK-LABEL: block.program @unused_argmax
// CHECK:      block.map [a0] -> !block.array<64xf32> {
// CHECK-NEXT:   block.load
// CHECK-NEXT:   block.tile_reduce max
// CHECK-NEXT:   block.yield
// CHECK-NOT:  block.iota
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

// -----

// A static slice is read in place: the load slices with an offset, and a
// rank-reducing slice indexes the dropped dimension at a fixed position. A
// reshape of a transposed view writes the transpose out first (a copy
// kernel), then views it.
// CHECK-LABEL: block.program @slices_and_copies
// CHECK:      block.map
// CHECK-NEXT:   block.load %arg0 [2, a0 + 64] : !block.array<4x384xf32> -> !block.tile<[a0], f32>
// CHECK:      %[[COPY:.*]] = block.map
// CHECK-NEXT:   %[[T:.*]] = block.load %arg1 [{{a[0-9]}}, {{a[0-9]}}] : !block.array<8x32xf32> -> !block.tile<[{{a[0-9]}}, {{a[0-9]}}], f32>
// CHECK-NEXT:   %[[B:.*]] = block.broadcast %[[T]]
// CHECK-NEXT:   block.yield %[[B]]
// CHECK:      block.view %[[COPY]] : !block.array<32x8xf32> to !block.array<256xf32>
func.func @slices_and_copies(%x: tensor<4x384xf32>, %y: tensor<8x32xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %s = tensor.extract_slice %x[2, 64] [1, 256] [1, 1] : tensor<4x384xf32> to tensor<256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %t = linalg.transpose ins(%y : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) permutation = [1, 0]
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<32x8xf32> into tensor<256xf32>
  return %n, %flat : tensor<256xf32>, tensor<256xf32>
}

// -----

// Whole or tiled follows an axis' role, then its extent. Rows (a0: never
// reduced, never the innermost dimension of a matrix) are tiled at any
// extent above 1, so that the grid has one instance per block of rows
// however few there are. The contraction axis (a2, 32) and the output's
// feature axis (a1, 200) are whole up to whole-threshold (256). A vector's
// only axis says nothing about rows: the bias reads a1 as its innermost
// dimension, and is no reason to tile it.
// CHECK-LABEL: block.program @axis_roles
// CHECK-SAME: axes(a0 = 64 tiled, a1 = 200 whole, a2 = 32 whole)
// CHECK:      block.map [a0] -> !block.array<64x200xf32>
// CHECK:      block.map [a0] -> !block.array<64x200xf32>
func.func @axis_roles(%x: tensor<64x32xf32>, %w: tensor<32x200xf32>, %b: tensor<200xf32>) -> tensor<64x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x200xf32>) -> tensor<64x200xf32>
  %h = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x200xf32>) outs(%f : tensor<64x200xf32>) -> tensor<64x200xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %b : tensor<64x200xf32>, tensor<200xf32>) outs(%e : tensor<64x200xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x200xf32>
  return %y : tensor<64x200xf32>
}

// -----

// A program over vectors only: the axis is a row axis (tiled although it is
// below the threshold). Row statistics (a1, reduced) stay whole; the vector
// of row sums does not make a0 a feature axis. The keepdim result is a view
// of the [100] row sums.
// CHECK-LABEL: block.program @axis_roles_vectors
// CHECK-SAME: axes(a0 = 100 tiled, a1 = 128 whole, a2 = 200 tiled)
// CHECK:      %[[SUMS:.*]] = block.map [a0] -> !block.array<100xf32>
// CHECK:      %[[KEEP:.*]] = block.view %[[SUMS]] : !block.array<100xf32> to !block.array<100x1xf32>
// CHECK:      block.return %[[KEEP]], %{{.*}} : !block.array<100x1xf32>, !block.array<200xf32>
func.func @axis_roles_vectors(%x: tensor<100x128xf32>, %v: tensor<200xf32>) -> (tensor<100x1xf32>, tensor<200xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x1xf32>) -> tensor<100x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x128xf32>) outs(%f : tensor<100x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<100x1xf32>
  %ev = tensor.empty() : tensor<200xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%v : tensor<200xf32>) outs(%ev : tensor<200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  return %s, %n : tensor<100x1xf32>, tensor<200xf32>
}

// -----

// A returned view shares memory with its source. Where the source is an
// argument or another result, the view's result gets a copy kernel: the GPU
// writes every result into a buffer of its own. A view of a value that is
// not returned stays a view.
// CHECK-LABEL: block.program @returned_views
// CHECK-SAME: (%[[X:.*]]: !block.array<64x32xf32>)
// CHECK:      %[[VX:.*]] = block.view %[[X]] : !block.array<64x32xf32> to !block.array<2048xf32>
// CHECK:      %[[N:.*]] = block.map [{{.*}}] -> !block.array<64x32xf32>
// CHECK:      %[[VN:.*]] = block.view %[[N]] : !block.array<64x32xf32> to !block.array<2048xf32>
// CHECK:      %[[CX:.*]] = block.map [{{.*}}] -> !block.array<2048xf32> {
// CHECK-NEXT:   block.load %[[VX]]
// CHECK:      %[[CN:.*]] = block.map [{{.*}}] -> !block.array<2048xf32> {
// CHECK-NEXT:   block.load %[[VN]]
// CHECK:      block.return %[[CX]], %[[N]], %[[CN]]
func.func @returned_views(%x: tensor<64x32xf32>) -> (tensor<2048xf32>, tensor<64x32xf32>, tensor<2048xf32>) {
  %vx = tensor.collapse_shape %x [[0, 1]] : tensor<64x32xf32> into tensor<2048xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %n = linalg.negf ins(%x : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %vn = tensor.collapse_shape %n [[0, 1]] : tensor<64x32xf32> into tensor<2048xf32>
  return %vx, %n, %vn : tensor<2048xf32>, tensor<64x32xf32>, tensor<2048xf32>
}
