block.program @region_init_kept axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %five = block.constant [M] 5.0 : f32
    %a = block.reduce N init(%five : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    } combine {
    ^bb0(%x: !block.tile<[M], f32>, %y: !block.tile<[M], f32>):
      %z = block.add %x, %y : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %z : !block.tile<[M], f32>
    }
    %b = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %r = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
