block.program @inline_whole_region_reduce axes(M = 10 tiled, D = 6 whole)
    (%X: !block.array<10x6xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %i0 = block.constant [M] 3.0 : f32
    %i1 = block.constant [M] 5.0 : f32
    %s, %k = block.reduce D init(%i0, %i1 : !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, D] : !block.array<10x6xf32> -> !block.tile<[M, D], f32>
      %t = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      block.yield %t, %t : !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>, %ta: !block.tile<[M], f32>, %tb: !block.tile<[M], f32>):
      %n = block.add %a, %ta : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %n, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %r = block.mul %s, %k : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
