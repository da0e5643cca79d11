// Rule 6, replication (lib/Dialect/Block/Transforms/Rules/Replication.cpp),
// tried by block-fuse's extend step when the main loop is done: a map over
// more tiled axes ([M, N]) that reads the blocks of a map over fewer ([M])
// runs the producer's body itself. The step is kept only when the program's
// estimated time on the target drops (CostModel.h, at the axis table's block
// sizes, else 128); otherwise it is rolled back. More global bytes are no
// reason to roll back: a launch costs more than a few re-read kilobytes. The main
// loop here is cleanup only (rule 7), which cannot fuse anything, so every
// fusion below is the extend step's.

// RUN: bb-opt %s -split-input-file --block-fuse='order=7 extend=true' | FileCheck %s
// RUN: bb-opt %s -split-input-file --block-fuse='order=7 extend=true trace' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE
// Without the extend step, nothing is replicated.
// RUN: bb-opt %s -split-input-file --block-fuse='order=7 extend=false' | FileCheck %s --check-prefix=NOEXT

// RUN: bb-opt %s --block-fuse='order=7 extend=true' -o %t
// RUN: bb-run %t --entry replicate_row_factor --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry negative_producer_names_consumer_axis --check --reference %s --block-sizes=M=4,N=3 | FileCheck %s --check-prefix=NUM
// RUN: bb-run %t --entry replicate_renaming_reduced_axis --check --reference %s --block-sizes=M=64,N=128 | FileCheck %s --check-prefix=NUM
// NUM: PASS

// r = rsqrt(v) over [M], read by a map over [M, N]: the producer's body is
// cloned into the consumer (recomputed for every block of N), and cleanup
// erases the producer, one kernel fewer: kept.

// CHECK-LABEL: block.program @replicate_row_factor
// CHECK-SAME:    (%[[X:[^:]+]]: !block.array<10x7xf32>, %[[V:[^:]+]]: !block.array<10xf32>)
// CHECK-NEXT:    %[[Y:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      %[[LV:.*]] = block.load %[[V]] [M]
// CHECK-NEXT:      %[[E:.*]] = block.exp %[[LV]] : !block.tile<[M], f32>
// CHECK-NEXT:      %[[LX:.*]] = block.load %[[X]] [M, N]
// CHECK-NEXT:      %[[P:.*]] = block.mul %[[LX]], %[[E]]
// CHECK-NEXT:      block.yield %[[P]]
// CHECK-NEXT:    }
// CHECK-NEXT:    block.return %[[Y]]

// TRACE:      step 1: rule 6 at rule6-replication.mlir:[[@LINE+12]]:8: ReplicateProducer: replicated map at rule6-replication.mlir:[[@LINE+7]]:8 into a map over more axes
// TRACE-NEXT: step 2: rule 7 at rule6-replication.mlir:[[@LINE+6]]:8: drop-dead-map-results: erased a map whose results nobody reads

// NOEXT-LABEL: block.program @replicate_row_factor
// NOEXT-NEXT:    block.map [M] -> !block.array<10xf32>
block.program @replicate_row_factor axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %V: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %E = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %v : !block.tile<[M], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %y = block.mul %x, %e : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The producer is also a program output, so it stays; its replica would
// load a whole row of X (D = 64) for every block of N instead of one
// element of E: more global bytes, same kernel count, a longer estimate.
// Rolled back: the program is unchanged.

// CHECK-LABEL: block.program @negative_replication_does_not_pay
// CHECK-NEXT:    %[[E:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, D]
// CHECK-NEXT:      block.tile_reduce add
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, N]
// CHECK-NEXT:      block.load %[[E]] [M]
// CHECK:         block.return %[[Y]], %[[E]]

// TRACE:      step 1: rule 6 at rule6-replication.mlir:[[@LINE+9]]:8: ReplicateProducer: replicated map at
// TRACE-NEXT: rolled back steps 1 to 1: replication did not lower the estimated time on h100 (8.25 us, not below 8.14 us)
block.program @negative_replication_does_not_pay axes(M = 10 tiled, N = 7 tiled, D = 64 whole)
    (%X: !block.array<10x64xf32>, %Z: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10xf32>) {
  %E = block.map [M] -> !block.array<10xf32> {
    %x = block.load %X[M, D] : !block.array<10x64xf32> -> !block.tile<[M, D], f32>
    %e = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %z = block.load %Z[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %y = block.mul %z, %e : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y, %E : !block.array<10x7xf32>, !block.array<10xf32>
}

// -----

// The sum of a vector, broadcast back along another axis (difftest 1:182):
// the replica reduces the whole input again for each of the two blocks of
// N (blocks of 128), 1548 bytes instead of 1044, and saves a launch: kept
// (the byte criterion this step had until the cost model knew the machine
// rolled it back).

// CHECK-LABEL: block.program @replication_moves_more_bytes_saves_a_launch
// CHECK-NEXT:    block.map [N] -> !block.array<129xf32> {
// CHECK-NEXT:      block.reduce K
// CHECK-NOT:     block.map

// TRACE:      step 1: rule 6 at rule6-replication.mlir:[[@LINE+12]]:8: ReplicateProducer: replicated map at rule6-replication.mlir:[[@LINE+4]]:8 into a map over more axes
// TRACE-NEXT: step 2: rule 7 at rule6-replication.mlir:[[@LINE+3]]:8: drop-dead-map-results: erased a map whose results nobody reads
block.program @replication_moves_more_bytes_saves_a_launch axes(K = 129 tiled, N = 129 tiled)
    (%X: !block.array<129xf32>) -> !block.array<129xf32> {
  %S = block.map [] -> !block.array<f32> {
    %s = block.reduce K combiners [add] -> !block.tile<[], f32> {
      %x = block.load %X[K] : !block.array<129xf32> -> !block.tile<[K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[K], f32>
      block.yield %t : !block.tile<[], f32>
    }
    block.yield %s : !block.tile<[], f32>
  }
  %Y = block.map [N] -> !block.array<129xf32> {
    %s = block.load %S[] : !block.array<f32> -> !block.tile<[], f32>
    %y = block.broadcast %s : !block.tile<[], f32> to !block.tile<[N], f32>
    block.yield %y : !block.tile<[N], f32>
  }
  block.return %Y : !block.array<129xf32>
}

// -----

// The same at 2^20 elements: the replica would read the 4 MB input once per
// block of N (8192 blocks: 34 GB, about 11 ms on an H100) to save one launch
// of a few microseconds. Rolled back.

// CHECK-LABEL: block.program @negative_replication_rereads_a_large_input
// CHECK-NEXT:    %[[S:.*]] = block.map [] -> !block.array<f32> {
// CHECK:         block.map [N] -> !block.array<1048576xf32> {
// CHECK-NEXT:      block.load %[[S]] []

// TRACE:      step 1: rule 6 at rule6-replication.mlir:[[@LINE+13]]:8: ReplicateProducer: replicated map at rule6-replication.mlir:[[@LINE+5]]:8 into a map over more axes
// TRACE-NEXT: step 2: rule 7 at rule6-replication.mlir:[[@LINE+4]]:8: drop-dead-map-results: erased a map whose results nobody reads
// TRACE-NEXT: rolled back steps 1 to 2: replication did not lower the estimated time on h100 ({{.*}} us, not below {{.*}} us)
block.program @negative_replication_rereads_a_large_input axes(K = 1048576 tiled, N = 1048576 tiled)
    (%X: !block.array<1048576xf32>) -> !block.array<1048576xf32> {
  %S = block.map [] -> !block.array<f32> {
    %s = block.reduce K combiners [add] -> !block.tile<[], f32> {
      %x = block.load %X[K] : !block.array<1048576xf32> -> !block.tile<[K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[K], f32>
      block.yield %t : !block.tile<[], f32>
    }
    block.yield %s : !block.tile<[], f32>
  }
  %Y = block.map [N] -> !block.array<1048576xf32> {
    %s = block.load %S[] : !block.array<f32> -> !block.tile<[], f32>
    %y = block.broadcast %s : !block.tile<[], f32> to !block.tile<[N], f32>
    block.yield %y : !block.tile<[N], f32>
  }
  block.return %Y : !block.array<1048576xf32>
}

// -----

// Regression: E over [M] sums a row of A over the whole of N. Cloned into
// the map over [M, N], its load of A would read one block of N and the sum
// would be partial (the rule did this, and the replicated program computed
// a wrong result). E's body names N, which the consumer iterates: nothing
// is replicated.

// CHECK-LABEL: block.program @negative_producer_names_consumer_axis
// CHECK-NEXT:    %[[E:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, N]
// CHECK-NEXT:      block.tile_reduce add %{{.*}} over [N]
// CHECK-NEXT:      block.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, N]
// CHECK-NEXT:      block.load %[[E]] [M]

// TRACE-NOT:  step
block.program @negative_producer_names_consumer_axis axes(M = 10 tiled, N = 7 tiled)
    (%A: !block.array<10x7xf32>, %X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %E = block.map [M] -> !block.array<10xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.tile_reduce add %a over [N] : !block.tile<[M, N], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %y = block.mul %x, %e : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The consumer reads another block of the producer's array (a fixed
// element, the same for every instance): not the block its instance would
// compute. Nothing is replicated.

// CHECK-LABEL: block.program @negative_fixed_index
// CHECK-NEXT:    %[[E:.*]] = block.map [M] -> !block.array<10xf32> {
// CHECK:         block.map [M, N] -> !block.array<10x7xf32> {
// CHECK-NEXT:      block.load %{{.*}} [M, N]
// CHECK-NEXT:      block.load %[[E]] [3] : !block.array<10xf32> -> !block.tile<[], f32>
block.program @negative_fixed_index axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %V: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %E = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %v : !block.tile<[M], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[3] : !block.array<10xf32> -> !block.tile<[], f32>
    %y = block.mul %x, %e : !block.tile<[M, N], f32>, !block.tile<[], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}

// -----

// The extend step's second phase (ReplicationOptions::renameReducedAxes):
// E over [M] sums each row of A in a reduce over N and a map over [M, N]
// reads the sums (a LayerNorm's statistics and its normalisation, the last
// kernels of nn.TransformerEncoderLayer). E names N only inside its reduce
// over N, so its copy in the consumer reduces over a fresh axis N_1 of N's
// extent, and each instance sums whole rows: one kernel.

// CHECK-LABEL: block.program @replicate_renaming_reduced_axis axes(M = 256 tiled, N = 512 tiled, N_1 = 512 tiled)
// CHECK-NEXT:    block.map [M, N] -> !block.array<256x512xf32> {
// CHECK-NEXT:      block.reduce N_1 combiners [add] -> !block.tile<[M], f32> {
// CHECK-NEXT:        block.load %{{.*}} [M, N_1] : !block.array<256x512xf32> -> !block.tile<[M, N_1], f32>
// CHECK-NEXT:        block.tile_reduce add %{{.*}} over [N_1]
// CHECK:           block.load %{{.*}} [M, N] : !block.array<256x512xf32> -> !block.tile<[M, N], f32>
// CHECK:         block.return
// NOEXT-LABEL: block.program @replicate_renaming_reduced_axis axes(M = 256 tiled, N = 512 tiled)
// NOEXT:         block.map [M] -> !block.array<256xf32>

// TRACE: step 1: rule 6 at rule6-replication.mlir:[[@LINE+11]]:8: ReplicateProducer: replicated map at rule6-replication.mlir:[[@LINE+3]]:8 into a map over more axes
block.program @replicate_renaming_reduced_axis axes(M = 256 tiled, N = 512 tiled)
    (%A: !block.array<256x512xf32>) -> !block.array<256x512xf32> {
  %E = block.map [M] -> !block.array<256xf32> {
    %e = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %a = block.load %A[M, N] : !block.array<256x512xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %a over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    }
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<256x512xf32> {
    %a = block.load %A[M, N] : !block.array<256x512xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[M] : !block.array<256xf32> -> !block.tile<[M], f32>
    %y = block.sub %a, %e : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<256x512xf32>
}
