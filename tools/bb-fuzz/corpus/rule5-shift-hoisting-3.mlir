block.program @split_terms axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %Z: !block.array<9xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s, %t = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %z = block.load %Z[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %p = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %q = block.tile_reduce add %z over [K] : !block.tile<[K], f32>
      %sum = block.add %q, %p : !block.tile<[], f32>, !block.tile<[M], f32>
      %diff = block.sub %p, %q : !block.tile<[M], f32>, !block.tile<[], f32>
      block.yield %sum, %diff : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.mul %s, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
