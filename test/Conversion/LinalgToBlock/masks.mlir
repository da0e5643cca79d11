// Masks and boolean logic as torch-mlir writes them (issue 12, item 2): i1
// andi/ori/xori in bodies (and = block.min, or = block.max on masks, which
// order false < true; xor = compare ne), andi/ori as reduction combiners
// (all = min, any = max), and every arith.cmpi predicate (the unsigned ones
// become the u predicates of block.compare, which compare integers unsigned).
// Each program used to be refused.

// RUN: bb-opt %s --convert-linalg-to-block | FileCheck %s
// RUN: bb-opt %s --convert-linalg-to-block --block-fuse | FileCheck %s --check-prefix=FUSED
// RUN: bb-run %s --entry safe_softmax --check | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry safe_softmax --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry causal --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry unsigned_compare --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry long_rows --check --fuse --seed 2 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry long_rows --check --fuse --seed 3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry signed_mask_max --check --fuse | FileCheck %s --check-prefix=NUM
// NUM-NOT: FAIL
// NUM: {{^PASS$}}

// _safe_softmax (SDPA's math path): rows whose every element is -inf give 0,
// not NaN. all(x == -inf) is a min reduction of the mask; its initial value
// true is min's identity, so nothing is combined after. Fused: one kernel.
// CHECK-LABEL: block.program @safe_softmax
// CHECK:      %[[INF:.*]] = block.compare eq %{{.*}}, %{{.*}} : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
// CHECK-NEXT: block.yield %[[INF]] : !block.tile<[a0, a1], i1>
// CHECK:      %[[ALL:.*]] = block.tile_reduce min %{{.*}} over [a1] : !block.tile<[a0, a1], i1>
// CHECK-NEXT: block.yield %[[ALL]] : !block.tile<[a0], i1>
// CHECK:      block.select %{{.*}}, %{{.*}}, %{{.*}} : !block.tile<[a0], i1>, !block.tile<[], f32>, !block.tile<[a0, a1], f32>
// FUSED-LABEL: block.program @safe_softmax
// FUSED-COUNT-1: block.map
// FUSED-NOT: block.map
// FUSED-LABEL: block.program @causal

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#rowk = affine_map<(d0, d1) -> (d0, 0)>

func.func @safe_softmax(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %thr = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  // Make some rows all -inf: x < 0.5 becomes -inf.
  %xm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.cmpf olt, %a, %thr : f32
    %s = arith.select %c, %ninf, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %sm = linalg.softmax dimension(1) ins(%xm : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %eb = tensor.empty() : tensor<8x4xi1>
  %isinf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xm : tensor<8x4xf32>) outs(%eb : tensor<8x4xi1>) {
  ^bb0(%a: f32, %o: i1):
    %c = arith.cmpf oeq, %a, %ninf : f32
    linalg.yield %c : i1
  } -> tensor<8x4xi1>
  %er = tensor.empty() : tensor<8x1xi1>
  %ft = linalg.fill ins(%true : i1) outs(%er : tensor<8x1xi1>) -> tensor<8x1xi1>
  %all = linalg.generic {indexing_maps = [#id, #rowk], iterator_types = ["parallel", "reduction"]}
      ins(%isinf : tensor<8x4xi1>) outs(%ft : tensor<8x1xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %r = arith.andi %a, %acc : i1
    linalg.yield %r : i1
  } -> tensor<8x1xi1>
  %out = linalg.generic {indexing_maps = [#rowk, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%all, %sm : tensor<8x1xi1>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%m: i1, %s: f32, %o: f32):
    %r = arith.select %m, %zero, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %out : tensor<8x4xf32>
}

// A causal mask as torch writes it: andi of cmpi (unsigned predicates
// included) on linalg.index values; any() of a row (ori with xori), and
// xor/or of masks in a map.
// CHECK-LABEL: block.program @causal
// CHECK:      %[[ROW:.*]] = block.iota a0 : !block.tile<[a0], index>
// CHECK-NEXT: %[[COL:.*]] = block.iota a1 : !block.tile<[a1], index>
// CHECK-NEXT: %[[LOWER:.*]] = block.compare uge %[[ROW]], %[[COL]] : !block.tile<[a0], index>, !block.tile<[a1], index>
// CHECK-NEXT: %[[C12:.*]] = block.constant [] 12 : index
// CHECK-NEXT: %[[LEFT:.*]] = block.compare ult %[[COL]], %[[C12]]
// CHECK-NEXT: %[[BOTH:.*]] = block.min %[[LOWER]], %[[LEFT]] : !block.tile<[a0, a1], i1>, !block.tile<[a1], i1>
// CHECK:      block.select %[[BOTH]]
// CHECK:      %[[TRUE:.*]] = block.constant [] true
// CHECK-NEXT: %[[NOT:.*]] = block.compare ne %{{.*}}, %[[TRUE]] : !block.tile<[a2, a3], i1>, !block.tile<[], i1>
// CHECK:      %[[TERM:.*]] = block.min %[[NOT]], %{{.*}}
// CHECK-NEXT: block.tile_reduce max %[[TERM]] over [a3]
// CHECK:      %[[XOR:.*]] = block.compare ne
// CHECK-NEXT: block.max %[[XOR]]
// FUSED: block.map
// FUSED: block.map
// FUSED-NOT: block.map
// FUSED-LABEL: block.program @unsigned_compare
func.func @causal(%s: tensor<16x16xf32>, %m: tensor<16x16xi1>) -> (tensor<16x16xf32>, tensor<16xi1>, tensor<16x16xi1>) {
  %ninf = arith.constant 0xFF800000 : f32
  %false = arith.constant false
  %true = arith.constant true
  %c12 = arith.constant 12 : index
  %e = tensor.empty() : tensor<16x16xf32>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi uge, %i, %j : index
    %lt = arith.cmpi ult, %j, %c12 : index
    %keep = arith.andi %le, %lt : i1
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %er = tensor.empty() : tensor<16xi1>
  %ff = linalg.fill ins(%false : i1) outs(%er : tensor<16xi1>) -> tensor<16xi1>
  %any = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<16x16xi1>) outs(%ff : tensor<16xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %n = arith.xori %a, %true : i1
    %before = arith.cmpi ult, %j, %i : index
    %t = arith.andi %n, %before : i1
    %r = arith.ori %acc, %t : i1
    linalg.yield %r : i1
  } -> tensor<16xi1>
  %eb = tensor.empty() : tensor<16x16xi1>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x16xi1>) outs(%eb : tensor<16x16xi1>) {
  ^bb0(%a: i1, %out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %g = arith.cmpi ugt, %i, %j : index
    %r = arith.xori %a, %g : i1
    %q = arith.ori %r, %g : i1
    linalg.yield %q : i1
  } -> tensor<16x16xi1>
  return %o, %any, %x : tensor<16x16xf32>, tensor<16xi1>, tensor<16x16xi1>
}

// Unsigned comparisons of signed integers: -3 <u 5 is false. Each
// predicate sets one bit of the result.
// CHECK-LABEL: block.program @unsigned_compare
// CHECK: block.compare ult %{{.*}}, %{{.*}} : !block.tile<[a0], i32>, !block.tile<[a0], i32>
// CHECK: block.compare ule
// CHECK: block.compare ugt
// CHECK: block.compare uge
func.func @unsigned_compare(%a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %e = tensor.empty() : tensor<64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xi32>, tensor<64xi32>) outs(%e : tensor<64xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %lt = arith.cmpi ult, %x, %y : i32
    %le = arith.cmpi ule, %x, %y : i32
    %gt = arith.cmpi ugt, %x, %y : i32
    %ge = arith.cmpi uge, %x, %y : i32
    %b0 = arith.select %lt, %c1, %c0 : i32
    %b1 = arith.select %le, %c2, %c0 : i32
    %b2 = arith.select %gt, %c4, %c0 : i32
    %b3 = arith.select %ge, %c8, %c0 : i32
    %s0 = arith.addi %b0, %b1 : i32
    %s1 = arith.addi %b2, %b3 : i32
    %s = arith.addi %s0, %s1 : i32
    linalg.yield %s : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}

// all() and any() over a row long enough to be tiled: block.reduce with the
// min and max combiners on i1 (identities true and false). Row i of all()
// is false only where a and b are not both true at column 150 i.
// CHECK-LABEL: block.program @long_rows
// CHECK-SAME: a1 = 600 tiled
// CHECK: block.reduce a1 combiners [min, max] -> !block.tile<[a0], i1>, !block.tile<[a0], i1>
// FUSED-LABEL: block.program @long_rows
// FUSED-COUNT-1: block.map
// FUSED-NOT: block.map
// FUSED-LABEL: block.program @signed_mask_max
func.func @long_rows(%m: tensor<4x600xi1>, %n: tensor<4x600xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %true = arith.constant true
  %false = arith.constant false
  %e = tensor.empty() : tensor<4xi1>
  %t = linalg.fill ins(%true : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %f = linalg.fill ins(%false : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%m, %n : tensor<4x600xi1>, tensor<4x600xi1>) outs(%t, %f : tensor<4xi1>, tensor<4xi1>) {
  ^bb0(%a: i1, %b: i1, %all: i1, %any: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.constant 150 : index
    %k = arith.muli %i, %c : index
    %elsewhere = arith.cmpi ne, %j, %k : index
    %ab = arith.andi %a, %b : i1
    %fewfalse = arith.ori %ab, %elsewhere : i1
    %i2 = arith.index_cast %i : index to i64
    %j2 = arith.index_cast %j : index to i64
    %c300 = arith.constant 300 : i64
    %past = arith.cmpi sgt, %j2, %c300 : i64
    %odd = arith.cmpi eq, %i2, %j2 : i64
    %x = arith.xori %past, %odd : i1
    %y = arith.andi %x, %ab : i1
    %nall = arith.andi %all, %fewfalse : i1
    %nany = arith.ori %y, %any : i1
    linalg.yield %nall, %nany : i1, i1
  } -> (tensor<4xi1>, tensor<4xi1>)
  return %r#0, %r#1 : tensor<4xi1>, tensor<4xi1>
}

// maxsi and minsi of masks order true (-1) below false: maxsi is `and`,
// block.min, and minsi is `or`, block.max.
// CHECK-LABEL: block.program @signed_mask_max
// CHECK: %[[AND:.*]] = block.min %{{.*}}, %{{.*}} : !block.tile<[a0], i1>, !block.tile<[a0], i1>
// CHECK: block.max %[[AND]], %{{.*}} : !block.tile<[a0], i1>, !block.tile<[a0], i1>
func.func @signed_mask_max(%a: tensor<64xi1>, %b: tensor<64xi1>, %c: tensor<64xi1>) -> tensor<64xi1> {
  %e = tensor.empty() : tensor<64xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b, %c : tensor<64xi1>, tensor<64xi1>, tensor<64xi1>) outs(%e : tensor<64xi1>) {
  ^bb0(%x: i1, %y: i1, %z: i1, %o: i1):
    %and = arith.maxsi %x, %y : i1
    %or = arith.minsi %and, %z : i1
    linalg.yield %or : i1
  } -> tensor<64xi1>
  return %r : tensor<64xi1>
}
