block.program @softmax_non_last_axis axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<13xf32> {
  %O = block.map [N] -> !block.array<13xf32> {
    %m = block.reduce M combiners [max] -> !block.tile<[N], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [M] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[N], f32>
    }
    %l, %a = block.reduce M combiners [add, add] -> !block.tile<[N], f32>, !block.tile<[N], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [M] : !block.tile<[M, N], f32>
      %es = block.mul %e, %s : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %u = block.tile_reduce add %es over [M] : !block.tile<[M, N], f32>
      block.yield %t, %u : !block.tile<[N], f32>, !block.tile<[N], f32>
    }
    %y = block.div %a, %l : !block.tile<[N], f32>, !block.tile<[N], f32>
    block.yield %y : !block.tile<[N], f32>
  }
  block.return %O : !block.array<13xf32>
}
