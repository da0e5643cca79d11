// RUN: bb-opt %s --gpu-tensor-map-params | FileCheck %s

// A kernel parameter of TMA descriptor type becomes a pointer, cast back at
// the kernel's entry; the launch passes the host's descriptor through the
// inverse cast (which the launch manifest reads through). Other parameters
// are left alone.

!map = !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// CHECK-LABEL: func.func @host
// CHECK:       %[[D:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[P:.*]] = builtin.unrealized_conversion_cast %[[D]] : !nvgpu.tensormap.descriptor<{{.*}}> to !llvm.ptr
// CHECK:       gpu.launch_func @k::@k {{.*}} args(%[[P]] : !llvm.ptr, %arg0 : memref<256x256xbf16>)
// CHECK:       gpu.func @k(%[[ARG:.*]]: !llvm.ptr, %[[X:.*]]: memref<256x256xbf16>) kernel
// CHECK-NEXT:    %[[MAP:.*]] = builtin.unrealized_conversion_cast %[[ARG]] : !llvm.ptr to !nvgpu.tensormap.descriptor<{{.*}}>
// CHECK-NEXT:    nvgpu.tma.prefetch.descriptor %[[MAP]]
module attributes {gpu.container_module} {
  func.func @host(%x: memref<256x256xbf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %u = memref.cast %x : memref<256x256xbf16> to memref<*xbf16>
    %d = nvgpu.tma.create.descriptor %u box[%c128, %c64] : memref<*xbf16> -> !map
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%d : !map, %x : memref<256x256xbf16>)
    return
  }
  gpu.module @k {
    gpu.func @k(%m: !map, %y: memref<256x256xbf16>) kernel {
      nvgpu.tma.prefetch.descriptor %m : !map
      gpu.return
    }
  }
}
