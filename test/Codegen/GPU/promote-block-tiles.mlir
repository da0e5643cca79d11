// RUN: bb-opt %s --gpu-promote-block-tiles --split-input-file --verify-diagnostics | FileCheck %s

// The outermost forall is the kernel's block grid: its last dimension is x.
// Tiles made inside it go to workgroup memory; the program's arrays do not.
// CHECK-LABEL: func.func @grid
// CHECK-SAME: blockbuster.num_inputs = 1 : i64
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 2) shared_outs(%{{.*}} = %[[OUT]])
// CHECK:   bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<16x16xf32>
// CHECK-NOT: tensor.empty
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @grid(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %out = tensor.empty() : tensor<64x32xf32>
  %r = scf.forall (%i, %j) in (4, 2) shared_outs(%o = %out) -> tensor<64x32xf32> {
    %c16 = arith.constant 16 : index
    %oi = arith.muli %i, %c16 : index
    %oj = arith.muli %j, %c16 : index
    %t = tensor.extract_slice %x[%oi, %oj] [16, 16] [1, 1] : tensor<64x32xf32> to tensor<16x16xf32>
    %e = tensor.empty() : tensor<16x16xf32>
    %n = linalg.negf ins(%t : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%oi, %oj] [16, 16] [1, 1] : tensor<16x16xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}

// -----

// A map whose axes are all whole is a grid of no dimensions: one block.
// CHECK-LABEL: func.func @one_block
// CHECK: scf.forall (%{{.*}}) in (1) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   linalg.negf ins(%{{.*}}) outs(%[[O]]
// CHECK: } {mapping = [#gpu.block<x>]}
func.func @one_block(%x: tensor<8xf32>) -> tensor<8xf32> {
  %out = tensor.empty() : tensor<8xf32>
  %r = scf.forall () in () shared_outs(%o = %out) -> tensor<8xf32> {
    %n = linalg.negf ins(%x : tensor<8xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[0] [8] [1] : tensor<8xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// -----

// A grid of four dimensions ([B, H, S] row tiles and one more): the last two
// stay y and x, the leading two fold into z, and the original ids come back
// by division and remainder (the second leading id varies fastest).
// CHECK-LABEL: func.func @four_dimensional_grid
// CHECK: scf.forall (%[[Z:.*]], %[[Y:.*]], %[[X:.*]]) in (6, 4, 5) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   %[[C3:.*]] = arith.constant 3 : index
// CHECK:   %[[B:.*]] = arith.remui %[[Z]], %[[C3]] : index
// CHECK:   %[[A:.*]] = arith.divui %[[Z]], %[[C3]] : index
// CHECK:   tensor.extract_slice %{{.*}}[%[[A]], %[[B]], %[[Y]], %[[X]]] [1, 1, 1, 8]
// CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[A]], %[[B]], %[[Y]], %[[X]]]
// CHECK: } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @four_dimensional_grid(%x: tensor<2x3x4x40xf32>) -> tensor<2x3x4x40xf32> {
  %out = tensor.empty() : tensor<2x3x4x40xf32>
  %r = scf.forall (%a, %b, %c, %d) in (2, 3, 4, 5) shared_outs(%o = %out) -> tensor<2x3x4x40xf32> {
    %t = tensor.extract_slice %x[%a, %b, %c, %d] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<2x3x4x40xf32> to tensor<1x1x1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%a, %b, %c, %d] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x1x1x8xf32> into tensor<2x3x4x40xf32>
    }
  }
  return %r : tensor<2x3x4x40xf32>
}

// -----

func.func @four_dimensional_dynamic_grid(%x: tensor<2x2x2x2xf32>, %n: index) -> tensor<2x2x2x2xf32> {
  // expected-error @below {{a block grid of 4 dimensions without static trip counts does not map to a GPU grid (at most 3: x, y, z)}}
  %r = scf.forall (%a, %b, %c, %d) in (%n, 2, 2, 2) shared_outs(%o = %x) -> tensor<2x2x2x2xf32> {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<2x2x2x2xf32>
}
