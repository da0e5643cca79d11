module {
  block.program @mha axes(a0 = 8 tiled, a1 = 300 tiled, a2 = 300 tiled, a3 = 64 whole, a4 = 64 whole) (%arg0: !block.array<8x300x64xf32>, %arg1: !block.array<8x300x64xf32>, %arg2: !block.array<8x300x64xf32>) -> !block.array<8x300x64xf32> {
    %0 = block.map [a0, a1, a2] -> !block.array<8x300x300xf32> {
      %6 = block.load %arg0 [a0, a1, a3] : !block.array<8x300x64xf32> -> !block.tile<[a0, a1, a3], f32>
      %7 = block.load %arg1 [a0, a2, a3] : !block.array<8x300x64xf32> -> !block.tile<[a0, a2, a3], f32>
      %8 = block.dot %6, %7 contract [a3] : !block.tile<[a0, a1, a3], f32>, !block.tile<[a0, a2, a3], f32>
      block.yield %8 : !block.tile<[a0, a1, a2], f32>
    }
    %1 = block.map [a0, a1] -> !block.array<8x300xf32> {
      %6 = block.reduce a2 combiners [max] -> !block.tile<[a0, a1], f32> {
        %7 = block.load %0 [a0, a1, a2] : !block.array<8x300x300xf32> -> !block.tile<[a0, a1, a2], f32>
        %8 = block.tile_reduce max %7 over [a2] : !block.tile<[a0, a1, a2], f32>
        block.yield %8 : !block.tile<[a0, a1], f32>
      }
      block.yield %6 : !block.tile<[a0, a1], f32>
    }
    %2 = block.map [a0, a1, a2] -> !block.array<8x300x300xf32> {
      %6 = block.load %0 [a0, a1, a2] : !block.array<8x300x300xf32> -> !block.tile<[a0, a1, a2], f32>
      %7 = block.load %1 [a0, a1] : !block.array<8x300xf32> -> !block.tile<[a0, a1], f32>
      %8 = block.sub %6, %7 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1], f32>
      %9 = block.exp %8 : !block.tile<[a0, a1, a2], f32>
      block.yield %9 : !block.tile<[a0, a1, a2], f32>
    }
    %3 = block.map [a0, a1] -> !block.array<8x300xf32> {
      %6 = block.reduce a2 combiners [add] -> !block.tile<[a0, a1], f32> {
        %7 = block.load %2 [a0, a1, a2] : !block.array<8x300x300xf32> -> !block.tile<[a0, a1, a2], f32>
        %8 = block.tile_reduce add %7 over [a2] : !block.tile<[a0, a1, a2], f32>
        block.yield %8 : !block.tile<[a0, a1], f32>
      }
      block.yield %6 : !block.tile<[a0, a1], f32>
    }
    %4 = block.map [a0, a1, a2] -> !block.array<8x300x300xf32> {
      %6 = block.load %2 [a0, a1, a2] : !block.array<8x300x300xf32> -> !block.tile<[a0, a1, a2], f32>
      %7 = block.load %3 [a0, a1] : !block.array<8x300xf32> -> !block.tile<[a0, a1], f32>
      %8 = block.div %6, %7 : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a1], f32>
      block.yield %8 : !block.tile<[a0, a1, a2], f32>
    }
    %5 = block.map [a0, a1] -> !block.array<8x300x64xf32> {
      %6 = block.reduce a2 combiners [add] -> !block.tile<[a0, a1, a4], f32> {
        %7 = block.load %4 [a0, a1, a2] : !block.array<8x300x300xf32> -> !block.tile<[a0, a1, a2], f32>
        %8 = block.load %arg2 [a0, a2, a4] : !block.array<8x300x64xf32> -> !block.tile<[a0, a2, a4], f32>
        %9 = block.dot %7, %8 contract [a2] : !block.tile<[a0, a1, a2], f32>, !block.tile<[a0, a2, a4], f32>
        block.yield %9 : !block.tile<[a0, a1, a4], f32>
      }
      block.yield %6 : !block.tile<[a0, a1, a4], f32>
    }
    block.return %5 : !block.array<8x300x64xf32>
  }
}

