module {
  block.program @gelu_mlp axes(a0 = 130 tiled, a1 = 1000 tiled, a2 = 256 tiled) (%arg0: !block.array<130x256xf32>, %arg1: !block.array<1000x256xf32>, %arg2: !block.array<1000xf32>, %arg3: !block.array<256x1000xf32>, %arg4: !block.array<256xf32>) -> !block.array<130x256xf32> {
    %0 = block.map [a0, a1] -> !block.array<130x1000xf32> {
      %4 = block.reduce a2 combiners [add] -> !block.tile<[a0, a1], f32> {
        %5 = block.load %arg0 [a0, a2] : !block.array<130x256xf32> -> !block.tile<[a0, a2], f32>
        %6 = block.load %arg1 [a1, a2] : !block.array<1000x256xf32> -> !block.tile<[a1, a2], f32>
        %7 = block.dot %5, %6 contract [a2] : !block.tile<[a0, a2], f32>, !block.tile<[a1, a2], f32>
        block.yield %7 : !block.tile<[a0, a1], f32>
      }
      block.yield %4 : !block.tile<[a0, a1], f32>
    }
    %1 = block.map [a0, a1] -> !block.array<130x1000xf32> {
      %4 = block.load %0 [a0, a1] : !block.array<130x1000xf32> -> !block.tile<[a0, a1], f32>
      %5 = block.load %arg2 [a1] : !block.array<1000xf32> -> !block.tile<[a1], f32>
      %6 = block.add %4, %5 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %7 = block.constant [] 5.000000e-01 : f32
      %8 = block.mul %6, %7 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
      %9 = block.constant [] 0.707106769 : f32
      %10 = block.mul %6, %9 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
      %11 = block.erf %10 : !block.tile<[a0, a1], f32>
      %12 = block.constant [] 1.000000e+00 : f32
      %13 = block.add %11, %12 : !block.tile<[a0, a1], f32>, !block.tile<[], f32>
      %14 = block.mul %8, %13 : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
      block.yield %14 : !block.tile<[a0, a1], f32>
    }
    %2 = block.map [a0, a2] -> !block.array<130x256xf32> {
      %4 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
        %5 = block.load %1 [a0, a1] : !block.array<130x1000xf32> -> !block.tile<[a0, a1], f32>
        %6 = block.load %arg3 [a2, a1] : !block.array<256x1000xf32> -> !block.tile<[a2, a1], f32>
        %7 = block.dot %5, %6 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a2, a1], f32>
        block.yield %7 : !block.tile<[a0, a2], f32>
      }
      block.yield %4 : !block.tile<[a0, a2], f32>
    }
    %3 = block.map [a0, a2] -> !block.array<130x256xf32> {
      %4 = block.load %2 [a0, a2] : !block.array<130x256xf32> -> !block.tile<[a0, a2], f32>
      %5 = block.load %arg4 [a2] : !block.array<256xf32> -> !block.tile<[a2], f32>
      %6 = block.add %4, %5 : !block.tile<[a0, a2], f32>, !block.tile<[a2], f32>
      %7 = block.load %arg0 [a0, a2] : !block.array<130x256xf32> -> !block.tile<[a0, a2], f32>
      %8 = block.add %6, %7 : !block.tile<[a0, a2], f32>, !block.tile<[a0, a2], f32>
      block.yield %8 : !block.tile<[a0, a2], f32>
    }
    block.return %3 : !block.array<130x256xf32>
  }
}

