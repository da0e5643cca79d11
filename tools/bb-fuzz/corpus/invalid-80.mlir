block.program @cast_axes axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M, N] 1.0 : f32
    %b = block.cast %a : !block.tile<[M, N], f32> to !block.tile<[N, M], bf16>
    block.yield
  }
  block.return
}
