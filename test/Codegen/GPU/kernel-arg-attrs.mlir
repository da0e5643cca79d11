// RUN: bb-opt %s --gpu-kernel-arg-attrs | FileCheck %s
// RUN: bb-opt %s --gpu-kernel-arg-attrs=align=32 | FileCheck %s --check-prefix=ALIGN32

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
