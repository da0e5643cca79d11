module {
  block.program @attention axes(a0 = 1000 tiled, a1 = 1000 tiled, a2 = 64 whole, a3 = 64 whole) (%arg0: !block.array<1000x64xf32>, %arg1: !block.array<1000x64xf32>, %arg2: !block.array<1000x64xf32>) -> !block.array<1000x64xf32> {
    %0 = block.map [a0, a1] -> !block.array<1000x1000xf32> {
      %7 = block.load %arg0 [a0, a2] : !block.array<1000x64xf32> -> !block.tile<[a0, a2], f32>
      %8 = block.load %arg1 [a1, a2] : !block.array<1000x64xf32> -> !block.tile<[a1, a2], f32>
      %9 = block.dot %7, %8 contract [a2] : !block.tile<[a0, a2], f32>, !block.tile<[a1, a2], f32>
      block.yield %9 : !block.tile<[a0, a1], f32>
    }
    %1 = block.map [a0, a1] -> !block.array<1000x1000xf32> {
      %7 = block.load %0 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
      %8 = block.constant [] 1.250000e-01 : f32
      %9 = block.mul %7, %8 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
      block.yield %9 : !block.tile<[a0, a1], f32>
    }
    %2 = block.map [a0] -> !block.array<1000xf32> {
      %7 = block.reduce a1 combiners [max] -> !block.tile<[a0], f32> {
        %8 = block.load %1 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
        %9 = block.tile_reduce max %8 over [a1] : !block.tile<[a0, a1], f32>
        block.yield %9 : !block.tile<[a0], f32>
      }
      block.yield %7 : !block.tile<[a0], f32>
    }
    %3 = block.map [a0, a1] -> !block.array<1000x1000xf32> {
      %7 = block.load %1 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
      %8 = block.load %2 [a0] : !block.array<1000xf32> -> !block.tile<[a0], f32>
      %9 = block.sub %7, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %10 = block.exp %9 : !block.tile<[a0, a1], f32>
      block.yield %10 : !block.tile<[a0, a1], f32>
    }
    %4 = block.map [a0] -> !block.array<1000xf32> {
      %7 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %8 = block.load %3 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
        %9 = block.tile_reduce add %8 over [a1] : !block.tile<[a0, a1], f32>
        block.yield %9 : !block.tile<[a0], f32>
      }
      block.yield %7 : !block.tile<[a0], f32>
    }
    %5 = block.map [a0, a1] -> !block.array<1000x1000xf32> {
      %7 = block.load %3 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
      %8 = block.load %4 [a0] : !block.array<1000xf32> -> !block.tile<[a0], f32>
      %9 = block.div %7, %8 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      block.yield %9 : !block.tile<[a0, a1], f32>
    }
    %6 = block.map [a0] -> !block.array<1000x64xf32> {
      %7 = block.reduce a1 combiners [add] -> !block.tile<[a0, a3], f32> {
        %8 = block.load %5 [a0, a1] : !block.array<1000x1000xf32> -> !block.tile<[a0, a1], f32>
        %9 = block.load %arg2 [a1, a3] : !block.array<1000x64xf32> -> !block.tile<[a1, a3], f32>
        %10 = block.dot %8, %9 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a1, a3], f32>
        block.yield %10 : !block.tile<[a0, a3], f32>
      }
      block.yield %7 : !block.tile<[a0, a3], f32>
    }
    block.return %6 : !block.array<1000x64xf32>
  }
}

