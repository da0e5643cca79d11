// RUN: bb-opt %s --split-input-file --gpu-fuse-elementwise-tile-ops \
// RUN:   | FileCheck %s

#mk = affine_map<(m, k) -> (m, k)>
#m_ = affine_map<(m, k) -> (m)>
#k_ = affine_map<(m, k) -> (k)>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// The prologue of a dot (an RMSNorm of the A tile rounded to bf16) stays a
// generic of its own: fused, it would be recomputed for every n inside the
// contraction, whose body would no longer be ext(A) * ext(B). Its own
// producers (the broadcast inverse RMS) still fuse into it.
// CHECK-LABEL: func.func @norm_prologue_stays_out_of_dot
// CHECK:       %[[XN:.*]] = linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel"]
// CHECK:         math.rsqrt
// CHECK:         arith.truncf
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:    ins(%[[XN]], %{{.*}} : tensor<16x32xbf16>, tensor<32x64xbf16>)
// CHECK-NEXT:  ^bb0(%[[IA:.*]]: bf16, %[[IB:.*]]: bf16, %[[O:.*]]: f32):
// CHECK-NEXT:    %[[EA:.*]] = arith.extf %[[IA]]
// CHECK-NEXT:    %[[EB:.*]] = arith.extf %[[IB]]
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[EA]], %[[EB]]
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[O]], %[[P]]
// CHECK-NEXT:    linalg.yield %[[S]]
func.func @norm_prologue_stays_out_of_dot(
    %x: tensor<16x32xbf16>, %ss: tensor<16xf32>, %w: tensor<32x64xbf16>,
    %acc: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %eps = arith.constant 1.0e-6 : f32
  %e_m = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>,
                                        affine_map<(m) -> (m)>],
                       iterator_types = ["parallel"]}
      ins(%ss : tensor<16xf32>) outs(%e_m : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.addf %s, %eps : f32
    %q = math.rsqrt %v : f32
    linalg.yield %q : f32
  } -> tensor<16xf32>
  %e_mk = tensor.empty() : tensor<16x32xbf16>
  %xn = linalg.generic {indexing_maps = [#mk, #m_, #mk],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %r : tensor<16x32xbf16>, tensor<16xf32>)
      outs(%e_mk : tensor<16x32xbf16>) {
  ^bb0(%a: bf16, %q: f32, %o: bf16):
    %af = arith.extf %a : bf16 to f32
    %n = arith.mulf %af, %q : f32
    %t = arith.truncf %n : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x32xbf16>
  %y = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xn, %w : tensor<16x32xbf16>, tensor<32x64xbf16>)
      outs(%acc : tensor<16x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#mk = affine_map<(m, k) -> (m, k)>

// A widening cast fuses into the dot: the contraction lowerings read
// ext(A) in its body, and A stays bf16.
// CHECK-LABEL: func.func @widening_cast_fuses_into_dot
// CHECK-NOT:   linalg.generic
// CHECK:       linalg.generic
// CHECK-SAME:    ins(%{{.*}}, %{{.*}} : tensor<16x32xbf16>, tensor<32x64xf32>)
// CHECK:         arith.extf
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
func.func @widening_cast_fuses_into_dot(
    %x: tensor<16x32xbf16>, %w: tensor<32x64xf32>,
    %acc: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %xf = linalg.generic {indexing_maps = [#mk, #mk],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xbf16>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %af = arith.extf %a : bf16 to f32
    linalg.yield %af : f32
  } -> tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xf, %w : tensor<16x32xf32>, tensor<32x64xf32>)
      outs(%acc : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

#mk = affine_map<(m, k) -> (m, k)>
#m_ = affine_map<(m, k) -> (m)>

// A row reduction reads each element of its input once: the elementwise
// producer (x - mean, squared) fuses into it, as upstream fuses it.
// CHECK-LABEL: func.func @centred_square_fuses_into_row_sum
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "reduction"]
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
func.func @centred_square_fuses_into_row_sum(
    %x: tensor<16x32xf32>, %mean: tensor<16xf32>,
    %acc: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %d2 = linalg.generic {indexing_maps = [#mk, #m_, #mk],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<16x32xf32>, tensor<16xf32>)
      outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %mu: f32, %o: f32):
    %d = arith.subf %a, %mu : f32
    %sq = arith.mulf %d, %d : f32
    linalg.yield %sq : f32
  } -> tensor<16x32xf32>
  %s = linalg.generic {indexing_maps = [#mk, #m_],
                       iterator_types = ["parallel", "reduction"]}
      ins(%d2 : tensor<16x32xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

#ij = affine_map<(i, j) -> (i, j)>
#ikj = affine_map<(i, k, j) -> (i, k, j)>
#ij_k = affine_map<(i, k, j) -> (i, j)>

// A producer that reads its init (a reduce's state plus the last partial)
// does not fuse into a consumer that broadcasts it: upstream keeps its
// result as an output of the fused op, which every k would then read and
// write (bb-difftest seed 9797, program 289: a race between the threads of
// the k loop on the GPU).
// CHECK-LABEL: func.func @accumulating_producer_stays_out_of_broadcast
// CHECK:       %[[STATE:.*]] = linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel"]
// CHECK:         arith.addf
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:    ins(%{{.*}}, %[[STATE]] : tensor<8x65x5xf32>, tensor<8x5xf32>)
// CHECK-SAME:    outs(%{{.*}} : tensor<8x65x5xf32>)
// CHECK:         math.rsqrt
func.func @accumulating_producer_stays_out_of_broadcast(
    %x: tensor<8x65x5xf32>, %partial: tensor<8x5xf32>,
    %state: tensor<8x5xf32>) -> tensor<8x65x5xf32> {
  %eps = arith.constant 1.0e-5 : f32
  %sum = linalg.generic {indexing_maps = [#ij, #ij],
                         iterator_types = ["parallel", "parallel"]}
      ins(%partial : tensor<8x5xf32>) outs(%state : tensor<8x5xf32>) {
  ^bb0(%p: f32, %s: f32):
    %a = arith.addf %s, %p : f32
    linalg.yield %a : f32
  } -> tensor<8x5xf32>
  %e = tensor.empty() : tensor<8x65x5xf32>
  %y = linalg.generic {indexing_maps = [#ikj, #ij_k, #ikj],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum : tensor<8x65x5xf32>, tensor<8x5xf32>)
      outs(%e : tensor<8x65x5xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %a = arith.addf %s, %eps : f32
    %r = math.rsqrt %a : f32
    %n = arith.mulf %v, %r : f32
    linalg.yield %n : f32
  } -> tensor<8x65x5xf32>
  return %y : tensor<8x65x5xf32>
}

// -----

// A collapse that drops a unit dimension (the batch of one of a whole
// argument, as a 2-D attention block reads it) is not folded into the dot:
// folded by expansion, it gave the contraction a loop of extent 1 and a
// [16, 1, 16] result through an expand_shape, a form the register
// schedules of attention refuse (docs/GPUPipeline.md, "Which attention
// forms take wgmma"). The dot keeps its 2-D operands.
// CHECK-LABEL: func.func @unit_collapse_stays_out_of_dot
// CHECK:       %[[K:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]]
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:    ins(%{{.*}}, %[[K]] : tensor<16x16xbf16>, tensor<16x16xbf16>)
// CHECK-SAME:    outs(%{{.*}} : tensor<16x16xf32>)
// CHECK-NOT:   tensor.expand_shape
func.func @unit_collapse_stays_out_of_dot(
    %q: tensor<16x16xbf16>, %k3: tensor<1x16x16xbf16>,
    %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %k = tensor.collapse_shape %k3 [[0, 1], [2]]
      : tensor<1x16x16xbf16> into tensor<16x16xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<16x16xbf16>, tensor<16x16xbf16>)
      outs(%acc : tensor<16x16xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}
