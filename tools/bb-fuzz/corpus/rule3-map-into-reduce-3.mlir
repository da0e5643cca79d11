block.program @negative_whole_producer axes(M = 10 tiled, K = 9 tiled, L = 9 whole)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
    %n = block.neg %g : !block.tile<[K], f32>
    block.yield %n : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %p = block.load %P[L] : !block.array<9xf32> -> !block.tile<[L], f32>
      %a = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %b = block.tile_reduce add %p over [L] : !block.tile<[L], f32>
      %t = block.mul %a, %b : !block.tile<[M], f32>, !block.tile<[], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
