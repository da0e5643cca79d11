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
