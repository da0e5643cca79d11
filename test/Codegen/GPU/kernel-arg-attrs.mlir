// RUN: bb-opt %s --split-input-file --gpu-kernel-arg-attrs | FileCheck %s
// RUN: bb-opt %s --split-input-file --gpu-kernel-arg-attrs=align=32 | FileCheck %s --check-prefix=ALIGN32

// Every memref argument of a kernel is marked aligned and noalias (the
// runtime allocates each buffer with cuMemAlloc and passes none twice), so
// NVPTX may emit wide non-coherent loads. Scalars and the arguments of
// device functions that are not kernels keep no such attributes.
// CHECK-LABEL: gpu.func @kernel(
// CHECK-SAME: %{{.*}}: memref<64xf32> {llvm.align = 16 : i64, llvm.noalias},
// CHECK-SAME: %{{.*}}: f32,
// CHECK-SAME: %{{.*}}: memref<8x8xbf16> {llvm.align = 16 : i64, llvm.noalias})
// CHECK-SAME: kernel
// CHECK-LABEL: gpu.func @helper(
// CHECK-NOT: llvm.noalias
// CHECK: gpu.return

// ALIGN32: gpu.func @kernel(%{{.*}}: memref<64xf32> {llvm.align = 32 : i64, llvm.noalias}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%out: memref<64xf32>, %scale: f32, %in: memref<8x8xbf16>) kernel {
      gpu.return
    }
    gpu.func @helper(%buffer: memref<64xf32>) {
      gpu.return
    }
  }
}

// -----
// A kernel launched in clusters is compiled for them: nvvm.cluster_dim
// (.explicitcluster and .reqnctapercluster in its PTX).
// RUN: bb-opt %s --split-input-file --gpu-kernel-arg-attrs | FileCheck %s --check-prefix=CLUSTER
// CLUSTER-LABEL: gpu.func @clustered
// CLUSTER-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CLUSTER-LABEL: gpu.func @plain
// CLUSTER-NOT: nvvm.cluster_dim
module attributes {gpu.container_module} {
  func.func @entry(%buffer: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@clustered clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%buffer : memref<64xf32>)
    gpu.launch_func @kernels::@plain blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%buffer : memref<64xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @clustered(%out: memref<64xf32>) kernel {
      gpu.return
    }
    gpu.func @plain(%out: memref<64xf32>) kernel {
      gpu.return
    }
  }
}
