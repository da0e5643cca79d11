// RUN: bb-opt %s --gpu-kernel-arg-attrs | FileCheck %s

// gpu-flash-attention marks its kernels (an op with
// blockbuster.occupancy_by_shared_memory): such a kernel gets nvvm.minctasm,
// the blocks per SM its launch's shared memory and threads allow, so that
// ptxas does not use more registers than that many blocks leave: 68 KB and
// 128 threads: 228 KB / (68 + 1) KB = 3 blocks (170 registers a thread); 36
// KB: 6 blocks by shared memory, 4 by a floor of 128 registers a thread;
// marked with 192 (the overlap schedule's S in flight), 2 blocks.
// An unmarked kernel gets nothing.

// CHECK-LABEL: gpu.func @attention
// CHECK-SAME: nvvm.minctasm = 3 : i32
// CHECK-LABEL: gpu.func @small
// CHECK-SAME: nvvm.minctasm = 4 : i32
// CHECK-LABEL: gpu.func @overlap
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-LABEL: gpu.func @other
// CHECK-NOT: nvvm.minctasm

module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %bytes = arith.constant 69632 : i32
    %small = arith.constant 36864 : i32
    gpu.launch_func @kernels::@attention blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %bytes
    gpu.launch_func @kernels::@small blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %small
    gpu.launch_func @kernels::@overlap blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %small
    gpu.launch_func @kernels::@other blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
  gpu.module @kernels {
    gpu.func @attention() kernel {
      %t = gpu.thread_id x {blockbuster.occupancy_by_shared_memory}
      gpu.return
    }
    gpu.func @small() kernel {
      %t = gpu.thread_id x {blockbuster.occupancy_by_shared_memory}
      gpu.return
    }
    gpu.func @overlap() kernel {
      %t = gpu.thread_id x {blockbuster.occupancy_by_shared_memory = 192 : i64}
      gpu.return
    }
    gpu.func @other() kernel {
      %t = gpu.thread_id x
      gpu.return
    }
  }
}
