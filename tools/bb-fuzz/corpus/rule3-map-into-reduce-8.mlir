block.program @one_large_input axes(M = 64 tiled, D = 512 tiled)
    (%p: !block.array<64x512xf32>) -> (!block.array<64x512xf32>, !block.array<64xf32>) {
  %h = block.map [M, D] -> !block.array<64x512xf32> {
    %a = block.load %p[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
    %e = block.exp %a : !block.tile<[M, D], f32>
    block.yield %e : !block.tile<[M, D], f32>
  }
  %r = block.map [M] -> !block.array<64xf32> {
    %t = block.reduce D combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %h[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
      %y = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      block.yield %y : !block.tile<[M], f32>
    }
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %h, %r : !block.array<64x512xf32>, !block.array<64xf32>
}
