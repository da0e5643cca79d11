// RUN: bb-opt %s --split-input-file --gpu-launch-manifest=chip=sm_90a --verify-diagnostics | FileCheck %s

// The host side of an entry as the runtime executes it: the arguments as
// inputs and outputs by position (blockbuster.num_inputs splits them), an
// allocation as an intermediate, a reshape as its buffer, and the launches
// in order with constant grid, block and shared memory and each parameter
// a buffer or a scalar. The manifest is a JSON string per entry on the
// module.
// The keys print sorted.
// CHECK: module attributes {blockbuster.manifest = {entry = "{
// CHECK-SAME: \22buffers\22: [
// CHECK-SAME: \22bytes\22: 128,\0A{{ *}}\22dtype\22: \22f32\22,\0A{{ *}}\22kind\22: \22input\22,\0A{{ *}}\22name\22: \22arg0\22,\0A{{ *}}\22position\22: 0,\0A{{ *}}\22shape\22: [\0A{{ *}}4,\0A{{ *}}8\0A{{ *}}]
// CHECK-SAME: \22bytes\22: 64,\0A{{ *}}\22dtype\22: \22bf16\22,\0A{{ *}}\22kind\22: \22output\22,\0A{{ *}}\22name\22: \22res0\22,\0A{{ *}}\22position\22: 0,
// CHECK-SAME: \22bytes\22: 128,\0A{{ *}}\22dtype\22: \22f32\22,\0A{{ *}}\22kind\22: \22intermediate\22,\0A{{ *}}\22name\22: \22tmp0\22,
// CHECK-SAME: \22entry\22: \22entry\22,\0A{{ *}}\22format\22: \22blockbuster-artifact\22,
// CHECK-SAME: \22launches\22: [
// CHECK-SAME: \22block\22: [\0A{{ *}}128,\0A{{ *}}1,\0A{{ *}}1\0A{{ *}}],\0A{{ *}}\22dynamic_smem\22: 0,\0A{{ *}}\22grid\22: [\0A{{ *}}4,\0A{{ *}}1,\0A{{ *}}1\0A{{ *}}],\0A{{ *}}\22kernel\22: \22k\22,\0A{{ *}}\22module\22: \22first\22,
// CHECK-SAME: \22params\22: [\0A{{ *}}{\0A{{ *}}\22buffer\22: \22arg0\22\0A{{ *}}},\0A{{ *}}{\0A{{ *}}\22buffer\22: \22tmp0\22\0A{{ *}}},\0A{{ *}}{\0A{{ *}}\22scalar\22: \22i64\22,\0A{{ *}}\22value\22: 32\0A{{ *}}}\0A{{ *}}]
// CHECK-SAME: \22dynamic_smem\22: 512,{{.*}}\22module\22: \22second\22,
// CHECK-SAME: \22params\22: [\0A{{ *}}{\0A{{ *}}\22buffer\22: \22tmp0\22\0A{{ *}}},\0A{{ *}}{\0A{{ *}}\22buffer\22: \22res0\22\0A{{ *}}}\0A{{ *}}]
// CHECK-SAME: \22modules\22: [\0A{{ *}}{\0A{{ *}}\22name\22: \22first\22,\0A{{ *}}\22ptx\22: \22first.ptx\22\0A{{ *}}},\0A{{ *}}{\0A{{ *}}\22name\22: \22second\22,\0A{{ *}}\22ptx\22: \22second.ptx\22
// CHECK-SAME: \22target\22: {\0A{{ *}}\22chip\22: \22sm_90a\22,\0A{{ *}}\22features\22: \22+ptx80\22\0A{{ *}}},\0A{{ *}}\22version\22: 1
module attributes {gpu.container_module} {
  func.func @entry(%x: memref<4x8xf32>, %out: memref<32xbf16>) attributes {blockbuster.num_inputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 512 : i32
    %n = arith.constant 32 : index
    %tmp = memref.alloc() : memref<32xf32>
    %view = memref.expand_shape %tmp [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
    gpu.launch_func @first::@k blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<4x8xf32>, %view : memref<4x8xf32>, %n : index)
    gpu.launch_func @second::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %smem args(%tmp : memref<32xf32>, %out : memref<32xbf16>)
    memref.dealloc %tmp : memref<32xf32>
    return
  }
  gpu.module @first {
    gpu.func @k(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %n: index) kernel {
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @k(%a: memref<32xf32>, %b: memref<32xbf16>) kernel {
      gpu.return
    }
  }
}

// -----

// A launch in clusters records them ("cluster"); the runtimes then launch
// it with the cluster dimension attribute. A launch without has no key.
// CHECK-LABEL: clustered_entry = "{
// CHECK-SAME: \22cluster\22: [\0A{{ *}}2,\0A{{ *}}1,\0A{{ *}}1\0A{{ *}}],\0A{{ *}}\22dynamic_smem\22: 0,\0A{{ *}}\22grid\22: [\0A{{ *}}4,
// CHECK-SAME: \22kernel\22: \22clustered\22,
// CHECK-NOT: cluster
// CHECK-SAME: \22kernel\22: \22plain\22,
module attributes {gpu.container_module} {
  func.func @clustered_entry(%x: memref<64xf32>) attributes {blockbuster.num_inputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@clustered clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<64xf32>)
    gpu.launch_func @kernels::@plain blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @clustered(%a: memref<64xf32>) kernel {
      gpu.return
    }
    gpu.func @plain(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Host arithmetic would have to run on the device's host: refused, with the
// op located.
module attributes {gpu.container_module} {
  func.func @entry(%x: memref<4xf32>, %out: memref<4xf32>) attributes {blockbuster.num_inputs = 1 : i64} {
    // expected-error @below {{the GPU runtime cannot execute this host operation; only buffer allocations, reshapes and kernel launches can be in an entry}}
    memref.copy %x, %out : memref<4xf32> to memref<4xf32>
    return
  }
}

// -----

// A kernel parameter must be a buffer of the entry or an integer constant.
module attributes {gpu.container_module} {
  func.func @entry(%x: memref<4xf32>, %out: memref<4xf32>) attributes {blockbuster.num_inputs = 1 : i64} {
    %c1 = arith.constant 1 : index
    %scale = arith.constant 2.5 : f32
    // expected-error @below {{kernel operand #1 is neither a buffer of the entry nor a constant}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>, %scale : f32)
    return
  }
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>, %s: f32) kernel {
      gpu.return
    }
  }
}
