block.program @attention axes(M = 1024 tiled, N = 1024 tiled, D = 64 whole)
    (%Q: !block.array<1024x64xf32>, %K: !block.array<1024x64xf32>,
     %V: !block.array<1024x64xf32>) -> !block.array<1024x64xf32> {
      block.yield %mj, %lj, %aj : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32>
    %m, %l, %acc = block.reduce N init(%m0, %l0, %a0 : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32> {
      %aj = block.dot %p, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %aa: !block.tile<[M, D], f32>,
         %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>, %ab: !block.tile<[M, D], f32>):
      %da = block.sub %ma, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %db = block.sub %mb, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %la2 = block.mul %la, %ea : !block.tile<[M], f32>, !block.tile<[M], f32>
      %lb2 = block.mul %lb, %eb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ln = block.add %la2, %lb2 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %aa2 = block.mul %aa, %ea : !block.tile<[M, D], f32>, !block.tile<[M], f32>
      %ab2 = block.mul %ab, %eb : !block.tile<[M, D], f32>, !block.tile<[M], f32>
