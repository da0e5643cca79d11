// The block-fuse driver (lib/Dialect/Block/Transforms/FusionDriver/BlockFuse.cpp):
// determinism, idempotence, the `order` and `max-steps` errors and the trace
// format, on a tiny program (A = exp(X), B = A * Y, C = rowsum(B)).

// The default order fuses the three kernels into one: rule 3 moves B, then
// A, into the reduce over N; rule 7 erases them once nobody reads them.
// RUN: bb-opt %s --block-fuse | FileCheck %s

// Determinism: two runs on the same input, byte for byte (this file and the
// block examples, which exercise every rule and the extend step).
// RUN: bb-opt %s --block-fuse > %t.1
// RUN: bb-opt %s --block-fuse > %t.2
// RUN: diff %t.1 %t.2
// RUN: bb-opt %examples/block/attention.unfused.mlir --block-fuse > %t.attn.1
// RUN: bb-opt %examples/block/attention.unfused.mlir --block-fuse > %t.attn.2
// RUN: diff %t.attn.1 %t.attn.2
// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.unfused.mlir --block-fuse > %t.ffn.1
// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.unfused.mlir --block-fuse > %t.ffn.2
// RUN: diff %t.ffn.1 %t.ffn.2
// RUN: bb-opt %examples/block/layernorm_matmul.unfused.mlir --block-fuse > %t.ln.1
// RUN: bb-opt %examples/block/layernorm_matmul.unfused.mlir --block-fuse > %t.ln.2
// RUN: diff %t.ln.1 %t.ln.2

// Idempotence: fusing the fused program again changes nothing.
// RUN: bb-opt %t.1 --block-fuse > %t.3
// RUN: diff %t.1 %t.3
// RUN: bb-opt %t.attn.1 --block-fuse | diff %t.attn.1 -
// RUN: bb-opt %t.ffn.1 --block-fuse | diff %t.ffn.1 -
// RUN: bb-opt %t.ln.1 --block-fuse | diff %t.ln.1 -

// Every rule of the catalogue but 6 and 10 may be named in `order` (rule 5,
// shift hoisting, included); rules 6 and 10 belong to the extend step;
// numbers outside 1 to 10 do not exist. Each is an error before anything
// runs.
// RUN: bb-opt %s --block-fuse=order=5 -o /dev/null
// RUN: not bb-opt %s --block-fuse=order=8,6 2>&1 | FileCheck %s --check-prefix=ORDER6
// ORDER6: error: block-fuse: rule 6 (replication) runs in the extend step, not in `order`
// RUN: not bb-opt %s --block-fuse=order=10 2>&1 | FileCheck %s --check-prefix=ORDER10
// ORDER10: error: block-fuse: rule 10 (axis untying) runs in the extend step, not in `order`
// RUN: not bb-opt %s --block-fuse=order=11 2>&1 | FileCheck %s --check-prefix=ORDER11
// ORDER11: error: block-fuse: rule 11 does not exist (rules are 1 to 10, and 0 for those of `rules=FILE`)
// RUN: not bb-opt %s --block-fuse=order=0 2>&1 | FileCheck %s --check-prefix=ORDER0
// ORDER0: error: block-fuse: rule 0 in `order` is the rules of `rules=FILE`, and no file is given

// max-steps bounds the rewrites (a driver bug would otherwise hang); the
// message names the bound.
// RUN: not bb-opt %s --block-fuse=max-steps=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAXSTEPS
// MAXSTEPS: driver.mlir:[[@LINE+21]]:1: error: block-fuse did not reach a fixed point after 1 rewrites

// The trace: `step N: rule R at FILE:LINE:COL: PATTERN: what changed`, one
// line per rewrite, on standard error, at the op the rule matched.
// RUN: bb-opt %s --block-fuse=trace -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE --match-full-lines
// TRACE:      step 1: rule 3 at driver.mlir:[[@LINE+30]]:10: FuseMapIntoReduce: moved map at driver.mlir:[[@LINE+23]]:8 into the reduce over N
// TRACE-NEXT: step 2: rule 7 at driver.mlir:[[@LINE+22]]:8: drop-dead-map-results: erased a map whose results nobody reads
// TRACE-NEXT: step 3: rule 3 at driver.mlir:[[@LINE+28]]:10: FuseMapIntoReduce: moved map at driver.mlir:[[@LINE+16]]:8 into the reduce over N
// TRACE-NEXT: step 4: rule 7 at driver.mlir:[[@LINE+15]]:8: drop-dead-map-results: erased a map whose results nobody reads
// TRACE-NOT:  {{.}}

// With `order=1,7`, rule 3 is out: rule 1 fuses A into B (B keeps no second
// output: only B read A), then nothing fuses B into the map over [M].
// RUN: bb-opt %s --block-fuse='order=1,7 trace' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE17 --match-full-lines
// TRACE17:      step 1: rule 1 at driver.mlir:[[@LINE+14]]:8: FuseProducerIntoConsumer: fused map at driver.mlir:[[@LINE+9]]:8 into its consumer map
// TRACE17-NOT:  {{.}}

// CHECK-LABEL: block.program @tiny
// CHECK-NEXT:    block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.reduce N combiners [add]
// CHECK-NOT:     block.map
block.program @tiny axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>) -> !block.array<10xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.mul %a, %y : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %b = block.load %B[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %b over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %C : !block.array<10xf32>
}
