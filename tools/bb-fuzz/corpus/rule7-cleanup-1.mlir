block.program @hoist_loop_invariant axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %e = block.exp %v : !block.tile<[M], f32>
      %c = block.constant [K] 2.0 : f32
      %i = block.iota K : !block.tile<[K], i64>
      %f = block.cast %i : !block.tile<[K], i64> to !block.tile<[K], f32>
      %p = block.mul %x, %e : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %q = block.mul %p, %c : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %r = block.mul %q, %f : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce add %r over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
