block.program @axis_mismatch axes(M = 512 tiled, D = 64 whole) (%x: !block.array<1024x64xf32>) -> !block.array<512x64xf32> {
  %y = block.map [M] -> !block.array<512x64xf32> {
    %t = block.load %x[M, D] : !block.array<1024x64xf32> -> !block.tile<[M, D], f32>
    block.yield %t : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<512x64xf32>
}
