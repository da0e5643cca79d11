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
      %s = block.dot %q, %k contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
      %mj = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      %d = block.sub %s, %mj : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %p = block.exp %d : !block.tile<[M, N], f32>
      %lj = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      %aj = block.dot %p, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
      block.yield %mj, %lj, %aj : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32>
    } combine {
    ^bb0(%ma: !block.tile<[M], f32>, %la: !block.tile<[M], f32>, %aa: !block.tile<[M, D], f32>,
         %mb: !block.tile<[M], f32>, %lb: !block.tile<[M], f32>, %ab: !block.tile<[M, D], f32>):
      %mx = block.max %ma, %mb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %da = block.sub %ma, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ea = block.exp %da : !block.tile<[M], f32>
      %db = block.sub %mb, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
      %eb = block.exp %db : !block.tile<[M], f32>
      %la2 = block.mul %la, %ea : !block.tile<[M], f32>, !block.tile<[M], f32>
      %lb2 = block.mul %lb, %eb : !block.tile<[M], f32>, !block.tile<[M], f32>
      %ln = block.add %la2, %lb2 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %aa2 = block.mul %aa, %ea : !block.tile<[M, D], f32>, !block.tile<[M], f32>
      %ab2 = block.mul %ab, %eb : !block.tile<[M, D], f32>, !block.tile<[M], f32>
      %an = block.add %aa2, %ab2 : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
      block.yield %mx, %ln, %an : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M, D], f32>
    }
    %o = block.div %acc, %l : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<1024x64xf32>
}
