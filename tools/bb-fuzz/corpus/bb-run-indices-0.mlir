block.program @indices axes(M = 10 tiled, N = 3 whole)
    () -> (!block.array<10x3xi32>, !block.array<10x3xbf16>) {
  %r, %h = block.map [M] -> !block.array<10x3xi32>, !block.array<10x3xbf16> {
    %m = block.iota M : !block.tile<[M], i32>
    %n = block.iota N : !block.tile<[N], i32>
    %ten = block.constant [] 10 : i32
    %mm = block.mul %m, %ten : !block.tile<[M], i32>, !block.tile<[], i32>
    %s = block.add %mm, %n : !block.tile<[M], i32>, !block.tile<[N], i32>
    %f = block.cast %s : !block.tile<[M, N], i32> to !block.tile<[M, N], f32>
    %half = block.constant [] 0.5 : f32
    %fh = block.mul %f, %half : !block.tile<[M, N], f32>, !block.tile<[], f32>
    %b = block.cast %fh : !block.tile<[M, N], f32> to !block.tile<[M, N], bf16>
    block.yield %s, %b : !block.tile<[M, N], i32>, !block.tile<[M, N], bf16>
  }
  block.return %r, %h : !block.array<10x3xi32>, !block.array<10x3xbf16>
}
