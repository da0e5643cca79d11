// RUN: bb-opt %examples/block/attention.fused.mlir --block-select=block-sizes=M=48,N=40 --blockbuster-gpu-pipeline > %t.1
// RUN: FileCheck %s --implicit-check-not=TimeInMs < %t.1
// The output is deterministic: a second run prints the same bytes.
// RUN: bb-opt %examples/block/attention.fused.mlir --block-select=block-sizes=M=48,N=40 --blockbuster-gpu-pipeline > %t.2
// RUN: cmp %t.1 %t.2

// FlashAttention with partial edge blocks (1024 = 21 * 48 + 16) becomes one
// kernel launch from a host function on memrefs (the output an out-param),
// the kernel PTX for sm_90 in a gpu.binary, and the launch manifest.
// CHECK: module attributes {blockbuster.manifest = {attention = "{
// CHECK-SAME: \22entry\22: \22attention\22
// CHECK-SAME: \22dynamic_smem\22: [[SMEM:[0-9]+]]
// CHECK-SAME: \22grid\22: [\0A {{ *}}22,
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.*]]: memref<1024x64xf32>, %[[K:.*]]: memref<1024x64xf32>, %[[V:.*]]: memref<1024x64xf32>, %[[O:.*]]: memref<1024x64xf32>)
// CHECK-SAME: blockbuster.num_inputs = 3
// CHECK: %[[SIZE:.*]] = arith.constant [[SMEM]] : i32
// CHECK: gpu.launch_func @attention_kernel::@attention_kernel blocks in (%c22, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %[[SIZE]] args(%[[Q]] : memref<1024x64xf32>, %[[K]] : memref<1024x64xf32>, %[[V]] : memref<1024x64xf32>, %[[O]] : memref<1024x64xf32>)
// CHECK-NEXT: return
// CHECK: gpu.binary @attention_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// The dynamic shared memory is extern (LLVM 22 workaround) and the kernel
// arguments are aligned.
// CHECK-SAME: assembly = "{{.*}}.target sm_90
// CHECK-SAME: .extern .shared .align 1024 .b8 __dynamic_shmem__0[]
// CHECK-SAME: .entry attention_kernel(
// CHECK-SAME: .param .u64 .ptr .align 16 attention_kernel_param_0
// CHECK-SAME: bar.sync
// CHECK-NOT: gpu.module
