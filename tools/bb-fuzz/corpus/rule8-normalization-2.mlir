block.program @fold_broadcasts axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %B: !block.array<7xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %same = block.broadcast %x : !block.tile<[M, N], f32> to !block.tile<[M, N], f32>
    %b = block.load %B[N] : !block.array<7xf32> -> !block.tile<[N], f32>
    %b1 = block.broadcast %b : !block.tile<[N], f32> to !block.tile<[N, M], f32>
    %b2 = block.broadcast %b1 : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
    %s = block.add %same, %b2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
