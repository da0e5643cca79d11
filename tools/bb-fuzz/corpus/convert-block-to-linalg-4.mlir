block.program @unbound axes(M = 64 tiled, N = 64 tiled, K = 32 tiled block 16)
    (%x: !block.array<64x64xf32>) -> !block.array<64x64xf32> {
  %y = block.map [M, N] -> !block.array<64x64xf32> {
    %t = block.load %x[M, N] : !block.array<64x64xf32> -> !block.tile<[M, N], f32>
    block.yield %t : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<64x64xf32>
}
