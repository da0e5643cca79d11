// RUN: bb-opt %s --gpu-split-reductions | FileCheck %s
// RUN: bb-opt %s --gpu-split-reductions=min-blocks=4 | FileCheck %s --check-prefix=FILLED
// RUN: bb-opt %s --gpu-split-reductions="sms=1 threads-per-sm=512" | FileCheck %s --check-prefix=WAVES

// A decode GEMV: 4 blocks of 16 x 32 outputs, each summing 16 k tiles. The
// grid gets a third dimension of 4 splits (16 / 4 = 4 iterations each, the
// fewest allowed); each split stores its partial into its own slot, thread
// 0 counts it in between two GPU-scope acquire-release fences (one thread's:
// no membar by every thread), and the last one sums the 4 slots in order
// and runs the epilogue (the bf16 cast and the store).
// CHECK-LABEL: func.func @gemv
// CHECK-DAG: %[[PARTIALS:.*]] = memref.alloc() : memref<4x4x16x32xf32>
// CHECK-DAG: %[[COUNTERS:.*]] = memref.alloc() {blockbuster.workspace} : memref<4xi32>
// CHECK: scf.forall (%[[Y:.*]], %[[X:.*]], %[[S:.*]]) in (1, 4, 4)
// CHECK:   %[[BEGIN:.*]] = arith.muli %[[S]], %c4
// CHECK:   %[[END:.*]] = arith.addi %[[BEGIN]], %c4
// CHECK:   %[[ACC:.*]] = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
// CHECK:   linalg.fill {{.*}} outs(%[[ACC]]
// CHECK:   scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:   }
// CHECK:   %[[SLOT:.*]] = memref.subview %[[PARTIALS]][%[[S]], %[[B:.*]], 0, 0] [1, 1, 16, 32]
// CHECK:   memref.copy %[[ACC]], %[[SLOT]]
// CHECK-NOT: nvvm.memory.barrier
// CHECK:   gpu.barrier
// CHECK:   scf.forall (%{{.*}}) in (1)
// CHECK:     llvm.fence syncscope("device") acq_rel
// CHECK:     %[[BEFORE:.*]] = memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]][%[[B]]]
// CHECK:     arith.cmpi eq, %[[BEFORE]], %c3_i32
// CHECK-NEXT: llvm.fence syncscope("device") acq_rel
// CHECK:   } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK:   scf.if
// CHECK-NOT: nvvm.memory.barrier
// CHECK:     %[[ALL:.*]] = memref.subview %[[PARTIALS]][0, %[[B]], 0, 0] [4, 1, 16, 32]
// CHECK:     linalg.fill {{.*}} outs(%[[ACC]]
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[ALL]] {{.*}} outs(%[[ACC]]
// CHECK:     memref.store %{{.*}}, %[[COUNTERS]][%[[B]]]
// CHECK:     arith.truncf
// CHECK:     memref.copy
// CHECK:   }
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}

// With min-blocks=4 the grid of 4 blocks counts as filling the machine.
// FILLED-LABEL: func.func @gemv
// FILLED: scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// FILLED-NOT: atomic_rmw
// On a machine of one SM that holds 4 blocks of 128 threads, a split adds
// waves: 16 iterations in one wave unsplit, 2 waves of 8 + 1 with S = 2,
// 4 waves of 4 + 1 with S = 4. The estimate keeps the loop whole.
// WAVES-LABEL: func.func @gemv
// WAVES: scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// WAVES-NOT: atomic_rmw
// WAVES: return
#wg = #gpu.address_space<workgroup>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn3 = affine_map<(m, n, k) -> (m, n)>
#mn = affine_map<(m, n) -> (m, n)>
func.func @gemv(%a: memref<16x512xbf16>, %w: memref<512x128xbf16>,
                %out: memref<16x128xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%y, %x) in (1, 4) {
    %n0 = arith.muli %x, %c32 : index
    %acc = memref.alloc() : memref<16x32xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16x32xf32, #wg>)
    scf.for %k = %c0 to %c16 step %c1 {
      %k0 = arith.muli %k, %c32 : index
      %at = memref.subview %a[0, %k0] [16, 32] [1, 1] : memref<16x512xbf16> to memref<16x32xbf16, strided<[512, 1], offset: ?>>
      %wt = memref.subview %w[%k0, %n0] [32, 32] [1, 1] : memref<512x128xbf16> to memref<32x32xbf16, strided<[128, 1], offset: ?>>
      %t = memref.alloc() : memref<16x32xf32, #wg>
      linalg.fill ins(%zero : f32) outs(%t : memref<16x32xf32, #wg>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%at, %wt : memref<16x32xbf16, strided<[512, 1], offset: ?>>, memref<32x32xbf16, strided<[128, 1], offset: ?>>)
          outs(%t : memref<16x32xf32, #wg>) {
      ^bb0(%p: bf16, %q: bf16, %o: f32):
        %pf = arith.extf %p : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %m = arith.mulf %pf, %qf : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
          ins(%t : memref<16x32xf32, #wg>) outs(%acc : memref<16x32xf32, #wg>) {
      ^bb0(%i: f32, %o: f32):
        %s = arith.addf %o, %i : f32
        linalg.yield %s : f32
      }
    }
    %r = memref.alloc() : memref<16x32xbf16, #wg>
    linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<16x32xf32, #wg>) outs(%r : memref<16x32xbf16, #wg>) {
    ^bb0(%i: f32, %o: bf16):
      %c = arith.truncf %i : f32 to bf16
      linalg.yield %c : bf16
    }
    %dst = memref.subview %out[0, %n0] [16, 32] [1, 1] : memref<16x128xbf16> to memref<16x32xbf16, strided<[128, 1], offset: ?>>
    memref.copy %r, %dst : memref<16x32xbf16, #wg> to memref<16x32xbf16, strided<[128, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// A running maximum (online softmax's state) is not a sum of its
// iterations: the loop stays whole.
// CHECK-LABEL: func.func @running_max
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// CHECK-NOT: atomic_rmw
// CHECK: return
func.func @running_max(%a: memref<16x512xbf16>, %w: memref<512x128xbf16>,
                       %out: memref<16x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%y, %x) in (1, 4) {
    %n0 = arith.muli %x, %c32 : index
    %acc = memref.alloc() : memref<16x32xf32, #wg>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16x32xf32, #wg>)
    scf.for %k = %c0 to %c16 step %c1 {
      %k0 = arith.muli %k, %c32 : index
      %at = memref.subview %a[0, %k0] [16, 32] [1, 1] : memref<16x512xbf16> to memref<16x32xbf16, strided<[512, 1], offset: ?>>
      %wt = memref.subview %w[%k0, %n0] [32, 32] [1, 1] : memref<512x128xbf16> to memref<32x32xbf16, strided<[128, 1], offset: ?>>
      %t = memref.alloc() : memref<16x32xf32, #wg>
      linalg.fill ins(%zero : f32) outs(%t : memref<16x32xf32, #wg>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn3], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%at, %wt : memref<16x32xbf16, strided<[512, 1], offset: ?>>, memref<32x32xbf16, strided<[128, 1], offset: ?>>)
          outs(%t : memref<16x32xf32, #wg>) {
      ^bb0(%p: bf16, %q: bf16, %o: f32):
        %pf = arith.extf %p : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %m = arith.mulf %pf, %qf : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#mn, #mn], iterator_types = ["parallel", "parallel"]}
          ins(%t : memref<16x32xf32, #wg>) outs(%acc : memref<16x32xf32, #wg>) {
      ^bb0(%i: f32, %o: f32):
        %s = arith.maximumf %o, %i : f32
        linalg.yield %s : f32
      }
    }
    %dst = memref.subview %out[0, %n0] [16, 32] [1, 1] : memref<16x128xf32> to memref<16x32xf32, strided<[128, 1], offset: ?>>
    memref.copy %acc, %dst : memref<16x32xf32, #wg> to memref<16x32xf32, strided<[128, 1], offset: ?>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
