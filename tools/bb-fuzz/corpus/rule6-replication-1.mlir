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
