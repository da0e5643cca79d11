block.program @attention axes(M = 1024 tiled, N = 1024 tiled, D = 64 whole)
    (%Q: !block.array<1024x64xf32>, %K: !block.array<1024x64xf32>,
     %V: !block.array<1024x64xf32>) -> !block.array<1024x64xf32> {
  %O = block.map [M] -> !block.array<1024x64xf32> {
    %q = block.load %Q[M, D] : !block.array<1024x64xf32> -> !block.tile<[M, D], f32>
    %m0 = block.constant [M] 0xFF800000 : f32
    %l0 = block.constant [M] 0.000000e+00 : f32
    %a0 = block.constant [M, D] 0.000000e+00 : f32
    %m, %l, %acc = block.reduce N init(%m0, %l0, %a0 : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32> {
      %k = block.load %K[N, D] : !block.array<1024x64xf32> -> !block.tile<[N, D], f32>
      %v = block.load %V[N, D] : !block.array<1024x64xf32> -> !block.tile<[N, D], f32>
      %s = block.dot %q, %k contract [D] : !block.tile<[M, D], f32>, !blo
