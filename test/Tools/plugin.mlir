// Stock mlir-opt (from the LLVM installation, not bb-opt) loads the block
// dialect and passes from the plugin, round-trips a block program and runs
// block-report. Plugin passes must be named inside --pass-pipeline: flags are
// parsed before plugins load.
//
// RUN: mlir-opt --load-dialect-plugin=%blockbuster_plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt --load-dialect-plugin=%blockbuster_plugin --load-pass-plugin=%blockbuster_plugin \
// RUN:   --pass-pipeline='builtin.module(block-report{block-sizes=M=16})' %s -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT
// Without the plugin, mlir-opt does not know the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// ROUNDTRIP: block.program @scale axes(M = 64 tiled, D = 8 whole)
// ROUNDTRIP: block.map [M] -> !block.array<64x8xf32>
// ROUNDTRIP: block.mul %{{.*}}, %{{.*}} : !block.tile<[M, D], f32>, !block.tile<[], f32>

// 64x8 f32 read and written once: 2 * 2048 bytes; 512 multiplies.
// REPORT: "program": "scale"
// REPORT: "M": 16
// REPORT: "kernels": 1
// REPORT: "buffered_edges": 0
// REPORT: "global_bytes": 4096
// REPORT: "flops": 512

// NOPLUGIN: error: Dialect `block' not found for custom op 'block.program'

block.program @scale axes(M = 64 tiled, D = 8 whole)
    (%x: !block.array<64x8xf32>) -> !block.array<64x8xf32> {
  %y = block.map [M] -> !block.array<64x8xf32> {
    %t = block.load %x[M, D] : !block.array<64x8xf32> -> !block.tile<[M, D], f32>
    %two = block.constant [] 2.0 : f32
    %r = block.mul %t, %two : !block.tile<[M, D], f32>, !block.tile<[], f32>
    block.yield %r : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<64x8xf32>
}
