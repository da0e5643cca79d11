block.program @hoist_invariant_reduce axes(M = 64 tiled, D = 512 tiled, F = 1024 tiled)
    (%x: !block.array<64x512xf32>, %w: !block.array<64x1024xf32>) -> !block.array<64xf32> {
  %o = block.map [M] -> !block.array<64xf32> {
    %r = block.reduce F combiners [add] -> !block.tile<[M], f32> {
      %ss = block.reduce D combiners [add] -> !block.tile<[M], f32> {
        %t = block.load %x[M, D] : !block.array<64x512xf32> -> !block.tile<[M, D], f32>
        %s = block.tile_reduce add %t over [D] : !block.tile<[M, D], f32>
        block.yield %s : !block.tile<[M], f32>
      }
      %wt = block.load %w[M, F] : !block.array<64x1024xf32> -> !block.tile<[M, F], f32>
      %p = block.mul %wt, %ss : !block.tile<[M, F], f32>, !block.tile<[M], f32>
      %q = block.tile_reduce add %p over [F] : !block.tile<[M, F], f32>
      block.yield %q : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %o : !block.array<64xf32>
}
