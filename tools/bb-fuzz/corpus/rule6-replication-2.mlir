block.program @negative_replication_moves_more_bytes axes(K = 129 tiled, N = 129 tiled)
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
