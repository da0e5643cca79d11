block.program @negative_reads_a_derived_value axes(M = 10 tiled, N = 13 tiled)
    (%X: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %n = block.constant [] 13.0 : f32
    %mu = block.div %s, %n : !block.tile<[M], f32>, !block.tile<[], f32>
    %v = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %x, %mu : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %d2 = block.mul %d, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %t = block.tile_reduce add %d2 over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %v : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
