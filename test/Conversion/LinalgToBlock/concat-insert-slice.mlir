// tensor.concat and static tensor.insert_slice (issue 12, item 3): RoPE's
// rotate_half, cat(-x2, x1) on the last dimension, in every Llama block, used
// to be refused. The result is written by one operator that stacks the
// pieces: the cut dimension is split into (groups, group), group = the
// greatest common divisor of the piece boundaries, each group a slice load
// `A + c` of the piece that holds it, chosen by a select on the iota of the
// groups axis. A concatenation is rewritten so in Linalg before reshape
// propagation (normalise-linalg-for-block: a generic over the split shape
// and a collapse_shape), so its readers iterate the split shape too and read
// the stacking kernel without a view between them: fusion takes the
// negation, the stacking and its readers into one kernel. An insert_slice is
// stacked by the converter (its result is a view of the stacking kernel).
// Slices of the result are loads with offsets, as for any array.

// RUN: bb-opt %s --convert-linalg-to-block | FileCheck %s
// RUN: bb-opt %s --convert-linalg-to-block --block-fuse | FileCheck %s --check-prefix=FUSED
// RUN: bb-run %s --entry rope --check | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry rope --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry uneven_rows --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry insert --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry returned --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry rotate_half_inserts --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry insert_row --check --fuse | FileCheck %s --check-prefix=NUM
// NUM-NOT: FAIL
// NUM: {{^PASS$}}

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sd = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// q * cos + rotate_half(q) * sin. One kernel after fusion: the readers of
// the concatenation (the product with sin, then the sum) iterate the head
// dimension as (2, 8) like the stacking kernel, and read it directly.
// CHECK-LABEL: block.program @rope
// CHECK-SAME: a3 = 2 tiled, a4 = 8 whole
// CHECK:      %[[NEG:.*]] = block.map [a0, a1, a2] -> !block.array<2x4x16x8xf32>
// CHECK:      %[[STACK:.*]] = block.map [a0, a1, a2, a3] -> !block.array<2x4x16x2x8xf32> {
// CHECK-NEXT:   %[[GROUP:.*]] = block.iota a3 : !block.tile<[a3], index>
// CHECK-NEXT:   %[[ZERO:.*]] = block.constant [] 0 : index
// CHECK-NEXT:   %[[FIRST:.*]] = block.compare eq %[[GROUP]], %[[ZERO]]
// CHECK-NEXT:   %[[X2:.*]] = block.load %[[NEG]] [a0, a1, a2, a4] : !block.array<2x4x16x8xf32> -> !block.tile<[a0, a1, a2, a4], f32>
// CHECK-NEXT:   %[[X1:.*]] = block.load %arg0 [a0, a1, a2, a4 + 0] : !block.array<2x4x16x16xf32> -> !block.tile<[a0, a1, a2, a4], f32>
// CHECK-NEXT:   %[[SEL:.*]] = block.select %[[FIRST]], %[[X2]], %[[X1]]
// CHECK-NEXT:   %[[OUT:.*]] = block.broadcast %[[SEL]] : !block.tile<[a3, a0, a1, a2, a4], f32> to !block.tile<[a0, a1, a2, a3, a4], f32>
// CHECK-NEXT:   block.yield %[[OUT]]
// CHECK:      block.load %[[STACK]] [a0, a1, a2, a3, a4]
// CHECK:      %[[RESULT:.*]] = block.view %{{.*}} : !block.array<2x4x16x2x8xf32> to !block.array<2x4x16x16xf32>
// CHECK-NEXT: block.return %[[RESULT]]
// FUSED-LABEL: block.program @rope
// FUSED:      block.map [a0, a1, a2, a3] -> !block.array<2x4x16x2x8xf32>
// FUSED:        block.neg
// FUSED-NOT:  block.map
// FUSED:      block.view
// FUSED-NEXT: block.return
func.func @rope(%x: tensor<2x4x16x16xf32>, %cos: tensor<16x16xf32>, %sin: tensor<16x16xf32>) -> tensor<2x4x16x16xf32> {
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %eh = tensor.empty() : tensor<2x4x16x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #sd, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %cos : tensor<2x4x16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16x16xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 8] [2, 4, 16, 8] [1, 1, 1, 1] : tensor<2x4x16x16xf32> to tensor<2x4x16x8xf32>
  %n = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x2 : tensor<2x4x16x8xf32>) outs(%eh : tensor<2x4x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [2, 4, 16, 8] [1, 1, 1, 1] : tensor<2x4x16x16xf32> to tensor<2x4x16x8xf32>
  %rot = tensor.concat dim(3) %n, %x1 : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #sd, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rot, %sin : tensor<2x4x16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%xc, %rs : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) outs(%e : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16x16xf32>
  return %out : tensor<2x4x16x16xf32>
}

// Pieces of 3 and 5 rows: groups of one row, one load each (the unit
// group dimension is dropped); a slice of the result reads the stacking
// kernel's array with an offset.
// CHECK-LABEL: block.program @uneven_rows
// FUSED-LABEL: block.program @uneven_rows
// CHECK:      %[[STACK:.*]] = block.map [a0] -> !block.array<8x8xf32>
// CHECK-COUNT-8: block.load
// CHECK:      block.load %[[STACK]] [a0, a1]
// CHECK:      block.load %[[STACK]] [a2 + 2, a3]
func.func @uneven_rows(%a: tensor<3x8xf32>, %b: tensor<5x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
  %c = tensor.concat dim(0) %a, %b : (tensor<3x8xf32>, tensor<5x8xf32>) -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s = tensor.extract_slice %c[2, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  return %r, %s : tensor<8x8xf32>, tensor<4x8xf32>
}

// insert_slice of columns 4..11 into a 4x16 destination: groups of 4, the
// destination before and after the range, the source in it.
// CHECK-LABEL: block.program @insert
// CHECK:      %[[SQ:.*]] = block.map [a0] -> !block.array<4x8xf32>
// CHECK:      %[[STACK:.*]] = block.map [a0] -> !block.array<4x4x4xf32>
// CHECK:        block.load %arg0 [a0, a5 + 12]
// CHECK:        block.load %[[SQ]] [a0, a5 + 4]
// CHECK:        block.load %[[SQ]] [a0, a5 + 0]
// CHECK:        block.load %arg0 [a0, a5 + 0]
// CHECK:      block.view %[[STACK]] : !block.array<4x4x4xf32> to !block.array<4x16xf32>
func.func @insert(%d: tensor<4x16xf32>, %s: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %i = tensor.insert_slice %t into %d[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.addf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// A returned concatenation is a view of its stacking kernel.
// CHECK-LABEL: block.program @returned
// CHECK:      %[[STACK:.*]] = block.map [a0, a1] -> !block.array<4x8x2xf32>
// CHECK:      %[[CAT:.*]] = block.view %[[STACK]]
// CHECK-NEXT: block.return %[[CAT]]
func.func @returned(%a: tensor<4x6xf32>, %b: tensor<4x10xf32>) -> tensor<4x16xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<4x6xf32>, tensor<4x10xf32>) -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}

// rotate_half written as two rank-reducing inserts into an empty tensor
// (IREE's raise_special_ops test @test_slice_negate_cat_peephole): the
// outer insert reads the inner one's piece directly, so the inner insert,
// which alone would read the empty tensor, needs no kernel; the negation
// fuses into the stacking kernel.
// CHECK-LABEL: block.program @rotate_half_inserts
// CHECK:      %[[NEG:.*]] = block.map [a0] -> !block.array<32x64xf16>
// CHECK:      %[[STACK:.*]] = block.map [a0] -> !block.array<1x32x1x2x64xf16>
// CHECK:        block.load %arg0 [0, a0, 0, a1 + 0] : !block.array<1x32x1x128xf16> -> !block.tile<[a0, a1], f16>
// CHECK:        block.load %[[NEG]] [a0, a1] : !block.array<32x64xf16> -> !block.tile<[a0, a1], f16>
// CHECK:      %[[ROT:.*]] = block.view %[[STACK]]
// CHECK-NEXT: block.return %[[ROT]]
// FUSED-LABEL: block.program @rotate_half_inserts
// FUSED-COUNT-1: block.map
// FUSED-NOT: block.map
func.func @rotate_half_inserts(%arg0: tensor<1x32x1x128xf16>) -> tensor<1x32x1x128xf16> {
  %1 = tensor.empty() : tensor<1x32x1x128xf16>
  %2 = tensor.empty() : tensor<32x64xf16>
  %lo = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 32, 1, 64] [1, 1, 1, 1] : tensor<1x32x1x128xf16> to tensor<32x64xf16>
  %hi = tensor.extract_slice %arg0[0, 0, 0, 64] [1, 32, 1, 64] [1, 1, 1, 1] : tensor<1x32x1x128xf16> to tensor<32x64xf16>
  %3 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%hi : tensor<32x64xf16>) outs(%2 : tensor<32x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %5 = arith.negf %in : f16
    linalg.yield %5 : f16
  } -> tensor<32x64xf16>
  %first = tensor.insert_slice %3 into %1[0, 0, 0, 0] [1, 32, 1, 64] [1, 1, 1, 1] : tensor<32x64xf16> into tensor<1x32x1x128xf16>
  %both = tensor.insert_slice %lo into %first[0, 0, 0, 64] [1, 32, 1, 64] [1, 1, 1, 1] : tensor<32x64xf16> into tensor<1x32x1x128xf16>
  return %both : tensor<1x32x1x128xf16>
}

// A row inserted by a rank-reducing insert: the source lacks the cut
// dimension, so its load has no entry for it.
// CHECK-LABEL: block.program @insert_row
// FUSED-LABEL: block.program @insert_row
// CHECK:      block.map [] -> !block.array<8x1x8xf32>
// CHECK:        block.load %arg1 [a{{[0-9]+}}] : !block.array<8xf32>
func.func @insert_row(%d: tensor<8x8xf32>, %row: tensor<8xf32>) -> tensor<8x8xf32> {
  %r = tensor.insert_slice %row into %d[3, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
