// RUN: bb-opt %s --gpu-extern-dynamic-shared-memory | FileCheck %s
// RUN: bb-opt %s --gpu-extern-dynamic-shared-memory=alignment=16 | FileCheck %s --check-prefix=ALIGN16

// The zero-sized workgroup (addrspace 3) global that gpu.dynamic_shared_memory
// lowers to becomes external with a large alignment, so that NVPTX prints
// `.extern .shared .align A .b8 X[]` and not a 1-byte static variable. A
// larger alignment it has is kept; sized shared arrays and globals in other
// address spaces are left alone.
// CHECK: llvm.mlir.global external @dynamic_shared_memory() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global external @aligned_more() {addr_space = 3 : i32, alignment = 2048 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @generic_space() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

// ALIGN16: llvm.mlir.global external @dynamic_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64}
// ALIGN16: llvm.mlir.global external @aligned_more() {addr_space = 3 : i32, alignment = 2048 : i64}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @dynamic_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @aligned_more() {addr_space = 3 : i32, alignment = 2048 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @generic_space() {alignment = 16 : i64} : !llvm.array<0 x i8>
  }
}
