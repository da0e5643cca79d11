// RUN: bb-opt %s --gpu-pack-workgroup-memory --split-input-file --verify-diagnostics | FileCheck %s

#wg = #gpu.address_space<workgroup>
// %a and %b are live at once and get separate space; %c is allocated after
// the barrier that follows the last use of %a and reuses its bytes. The
// partial edge block's dynamic size (min(rest, 32)) is bounded by 32.
// CHECK-LABEL: func.func @lifetimes
// CHECK: %[[SIZE:.*]] = arith.constant 16384 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:   %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:   memref.view %[[SMEM]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
// CHECK:   memref.view %[[SMEM]][%c8192{{.*}}][%{{.*}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?x64xf32, #gpu.address_space<workgroup>>
// CHECK:   memref.view %[[SMEM]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
func.func @lifetimes(%x: memref<100x64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %rows = arith.minsi %n, %c32 : index
    %a = memref.alloc() : memref<32x64xf32, #wg>
    %b = memref.alloc(%rows) : memref<?x64xf32, #wg>
    linalg.copy ins(%a : memref<32x64xf32, #wg>) outs(%a : memref<32x64xf32, #wg>)
    linalg.exp ins(%a : memref<32x64xf32, #wg>) outs(%a : memref<32x64xf32, #wg>)
    gpu.barrier
    %c = memref.alloc() : memref<32x64xf32, #wg>
    linalg.copy ins(%c : memref<32x64xf32, #wg>) outs(%c : memref<32x64xf32, #wg>)
    linalg.copy ins(%b : memref<?x64xf32, #wg>) outs(%b : memref<?x64xf32, #wg>)
    gpu.terminator
  }
  return
}

// -----

func.func @unbounded(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{cannot bound the size of this workgroup buffer: dimension 0 has no constant upper bound}}
    %a = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @too_large() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{the block's tiles need 262144 bytes of shared memory, more than the 232448 a block can have; choose smaller block sizes}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<256x256xf32, #gpu.address_space<workgroup>>
    linalg.copy ins(%a : memref<256x256xf32, #gpu.address_space<workgroup>>) outs(%a : memref<256x256xf32, #gpu.address_space<workgroup>>)
    gpu.terminator
  }
  return
}

// -----

#wg = #gpu.address_space<workgroup>
// An i1 mask tile takes a byte per element, as LLVM stores i1: 16x127 masks
// need 2032 bytes (2048 aligned), not 254, or the f32 tile placed after it
// overlaps its rows.
// CHECK-LABEL: func.func @mask_bytes
// CHECK: %[[SIZE:.*]] = arith.constant 2176 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:   memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x127xi1, #gpu.address_space<workgroup>>
// CHECK:   memref.view %{{.*}}[%c2048{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
func.func @mask_bytes() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = memref.alloc() : memref<16x127xi1, #wg>
    %x = memref.alloc() : memref<32xf32, #wg>
    linalg.copy ins(%m : memref<16x127xi1, #wg>) outs(%m : memref<16x127xi1, #wg>)
    linalg.copy ins(%x : memref<32xf32, #wg>) outs(%x : memref<32xf32, #wg>)
    gpu.terminator
  }
  return
}

// -----

#wg = #gpu.address_space<workgroup>
// An index tile (block.iota of a partial edge block) takes the data layout's
// index width, 64 bits: 128 indices are 1024 bytes.
// CHECK-LABEL: func.func @index_bytes
// CHECK: %[[SIZE:.*]] = arith.constant 1152 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:   memref.view %{{.*}}[%c0{{.*}}][%{{.*}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xindex, #gpu.address_space<workgroup>>
// CHECK:   memref.view %{{.*}}[%c1024{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
func.func @index_bytes(%n: index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %rows = arith.minsi %n, %c128 : index
    %i = memref.alloc(%rows) : memref<?xindex, #wg>
    %x = memref.alloc() : memref<32xf32, #wg>
    linalg.copy ins(%i : memref<?xindex, #wg>) outs(%i : memref<?xindex, #wg>)
    linalg.copy ins(%x : memref<32xf32, #wg>) outs(%x : memref<32xf32, #wg>)
    gpu.terminator
  }
  return
}

// -----

// An allocation's own alignment is kept: the 1024-byte aligned ring of a
// TMA pipeline (128-byte swizzled tiles need it) that is placed after a
// 1152-byte buffer starts at 2048, not at 1152.
// CHECK-LABEL: func.func @alignment
// CHECK: %[[SIZE:.*]] = arith.constant 3072 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:   memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1100xi8, #gpu.address_space<workgroup>>
// CHECK:   memref.view %{{.*}}[%c2048{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xi8, #gpu.address_space<workgroup>>
func.func @alignment() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<1100xi8, #gpu.address_space<workgroup>>
    %ring = memref.alloc() {alignment = 1024 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
    linalg.copy ins(%a : memref<1100xi8, #gpu.address_space<workgroup>>) outs(%a : memref<1100xi8, #gpu.address_space<workgroup>>)
    linalg.copy ins(%ring : memref<1024xi8, #gpu.address_space<workgroup>>) outs(%ring : memref<1024xi8, #gpu.address_space<workgroup>>)
    gpu.terminator
  }
  return
}
