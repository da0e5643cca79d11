block.program @negative_indirect_path axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %a over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.load %C[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.div %x, %c : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10x7xf32>
}
