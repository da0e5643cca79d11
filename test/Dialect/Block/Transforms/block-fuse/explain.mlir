// block-fuse{explain}: at the fixed point, each rule of the main loop says,
// per op, why it did not apply (every refusal is a notifyMatchFailure with a
// reason).

// A softmax over the query axis (a non-last axis) of the scores: the column
// statistics need all 1000 rows, so they cannot run inside the kernel over
// blocks of rows that computes O. Two kernels stay; rules 1, 2 and 3 say why.
// RUN: bb-opt %s -split-input-file --convert-linalg-to-block \
// RUN:   --block-fuse=explain -o /dev/null 2>&1 | FileCheck %s
// Explaining rewrites nothing: the same two kernels, then one kernel with
// two loops over the keys.
// RUN: bb-opt %s -split-input-file --convert-linalg-to-block \
// RUN:   --block-fuse=explain 2>/dev/null | FileCheck %s --check-prefix=IR

// First what applied, then (rules 8, 7, 4, 5, 9, 3, 1, 2) why not. Rule 3
// cannot run the statistics kernel (over the columns, iterating the rows
// a0 inside) in O's loop over the keys within a block of rows; rules 1 and
// 2 cannot merge kernels over different tiled axes.
// CHECK: explain: @column_softmax_attention: applied rule 1 x1, rule 3 x6, rule 7 x11, rule 9 x1
// CHECK: explain: rule 3 (map-into-reduce fusion) at explain.mlir:[[O:[0-9]+]]:8 (block.reduce): ProducerToMoveIntoReduce: map at explain.mlir:[[STATS:[0-9]+]]:8: its body names an axis iterated here and not by it
// CHECK-NOT: explain: rule 3 {{.*}} map at explain.mlir:[[STATS]]:8: its body names
// CHECK: explain: rule 1 (producer-consumer map fusion) at explain.mlir:[[O]]:8 (block.map): ProducerToFuse: map at explain.mlir:[[STATS]]:8: iterates other tiled axes than the consumer
// CHECK: explain: rule 2 (sibling map fusion) at explain.mlir:[[O]]:8 (block.map): SiblingToFuse: sibling map at explain.mlir:[[STATS]]:8: iterates other tiled axes

// IR:       block.program @column_softmax_attention
// IR-COUNT-2: block.map
// IR-NOT:   block.map
// IR:       block.program @attention
// IR-COUNT-1: block.map
// IR-COUNT-2: block.reduce a1
// IR-NOT:   block.map

#qk_q = affine_map<(m, n, d) -> (m, d)>
#qk_k = affine_map<(m, n, d) -> (n, d)>
#qk_s = affine_map<(m, n, d) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#n_ = affine_map<(m, n) -> (n)>
#pv_p = affine_map<(m, d, n) -> (m, n)>
#pv_v = affine_map<(m, d, n) -> (n, d)>
#pv_o = affine_map<(m, d, n) -> (m, d)>
func.func @column_softmax_attention(%q: tensor<1000x64xf32>, %k: tensor<300x64xf32>,
                     %v: tensor<300x64xf32>) -> tensor<1000x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_mn = tensor.empty() : tensor<1000x300xf32>
  %e_n = tensor.empty() : tensor<300xf32>
  %e_md = tensor.empty() : tensor<1000x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<1000x300xf32>) -> tensor<1000x300xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1000x64xf32>, tensor<300x64xf32>) outs(%s0 : tensor<1000x300xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1000x300xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_n : tensor<300xf32>) -> tensor<300xf32>
  %m = linalg.generic {indexing_maps = [#mn, #n_], iterator_types = ["reduction", "parallel"]}
      ins(%s : tensor<1000x300xf32>) outs(%m0 : tensor<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<300xf32>
  %e = linalg.generic {indexing_maps = [#mn, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<1000x300xf32>, tensor<300xf32>) outs(%e_mn : tensor<1000x300xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1000x300xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_n : tensor<300xf32>) -> tensor<300xf32>
  %l = linalg.generic {indexing_maps = [#mn, #n_], iterator_types = ["reduction", "parallel"]}
      ins(%e : tensor<1000x300xf32>) outs(%l0 : tensor<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<300xf32>
  %p = linalg.generic {indexing_maps = [#mn, #n_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<1000x300xf32>, tensor<300xf32>) outs(%e_mn : tensor<1000x300xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1000x300xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_md : tensor<1000x64xf32>) -> tensor<1000x64xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1000x300xf32>, tensor<300x64xf32>) outs(%o0 : tensor<1000x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<1000x64xf32>
  return %o : tensor<1000x64xf32>
}

// -----

// Attention whose exponent is scaled after the maximum is subtracted,
// exp((s - m) * c): the sum reads m other than through exp(x - m), so the
// online-softmax rewrite (rule 9) refuses, and the one kernel keeps two
// loops over the keys (m's, then l's and O's).
// CHECK: explain: @attention: applied rule 1 x2, rule 3 x9, rule 4 x2, rule 7 x18, rule 9 x1
// CHECK: explain: rule 9 (reduce-reduce fusion) at explain.mlir:{{[0-9]+}}:8 (block.reduce): ReduceToFuse: with the reduce at explain.mlir:{{[0-9]+}}:8: reads its maximum m other than through exp(x - m) in terms linear in the exponentials and summed
#qk_q = affine_map<(m, n, d) -> (m, d)>
#qk_k = affine_map<(m, n, d) -> (n, d)>
#qk_s = affine_map<(m, n, d) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
#m_ = affine_map<(m, n) -> (m)>
#pv_p = affine_map<(m, d, n) -> (m, n)>
#pv_v = affine_map<(m, d, n) -> (n, d)>
#pv_o = affine_map<(m, d, n) -> (m, d)>
func.func @attention(%q: tensor<1000x64xf32>, %k: tensor<1000x64xf32>,
                     %v: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %e_mn = tensor.empty() : tensor<1000x1000xf32>
  %e_m = tensor.empty() : tensor<1000xf32>
  %e_md = tensor.empty() : tensor<1000x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1000x64xf32>, tensor<1000x64xf32>) outs(%s0 : tensor<1000x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1000x1000xf32>
  %ss = linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<1000x1000xf32>) outs(%e_mn : tensor<1000x1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<1000x1000xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<1000xf32>) -> tensor<1000xf32>
  %m = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%ss : tensor<1000x1000xf32>) outs(%m0 : tensor<1000xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<1000xf32>
  %e = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%ss, %m : tensor<1000x1000xf32>, tensor<1000xf32>) outs(%e_mn : tensor<1000x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d0 = arith.subf %a, %b : f32
    %d = arith.mulf %d0, %scale : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1000x1000xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<1000xf32>) -> tensor<1000xf32>
  %l = linalg.generic {indexing_maps = [#mn, #m_], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<1000x1000xf32>) outs(%l0 : tensor<1000xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<1000xf32>
  %p = linalg.generic {indexing_maps = [#mn, #m_, #mn], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<1000x1000xf32>, tensor<1000xf32>) outs(%e_mn : tensor<1000x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1000x1000xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%e_md : tensor<1000x64xf32>) -> tensor<1000x64xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1000x1000xf32>, tensor<1000x64xf32>) outs(%o0 : tensor<1000x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<1000x64xf32>
  return %o : tensor<1000x64xf32>
}
