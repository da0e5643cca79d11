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

func.func @four_dimensional_grid(%x: tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32> {
  // expected-error @below {{a block grid of 4 dimensions does not map to a GPU grid (at most 3: x, y, z)}}
  %r = scf.forall (%a, %b, %c, %d) in (2, 2, 2, 2) shared_outs(%o = %x) -> tensor<2x2x2x2xf32> {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<2x2x2x2xf32>
}
