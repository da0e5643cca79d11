module {
  block.program @layernorm_matmul axes(a0 = 200 tiled, a1 = 384 tiled, a2 = 300 tiled) (%arg0: !block.array<200x384xf32>, %arg1: !block.array<384xf32>, %arg2: !block.array<384xf32>, %arg3: !block.array<384x300xf32>, %arg4: !block.array<300xf32>) -> !block.array<200x300xf32> {
    %0 = block.map [a0] -> !block.array<200xf32> {
      %6 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %7 = block.load %arg0 [a0, a1] : !block.array<200x384xf32> -> !block.tile<[a0, a1], f32>
        %8 = block.tile_reduce add %7 over [a1] : !block.tile<[a0, a1], f32>
        block.yield %8 : !block.tile<[a0], f32>
      }
      block.yield %6 : !block.tile<[a0], f32>
    }
    %1 = block.map [a0] -> !block.array<200xf32> {
      %6 = block.load %0 [a0] : !block.array<200xf32> -> !block.tile<[a0], f32>
      %7 = block.constant [] 3.840000e+02 : f32
      %8 = block.div %6, %7 : !block.tile<[a0], f32>, !block.tile<[], f32>
      block.yield %8 : !block.tile<[a0], f32>
    }
    %2 = block.map [a0] -> !block.array<200xf32> {
      %6 = block.load %1 [a0] : !block.array<200xf32> -> !block.tile<[a0], f32>
      %7 = block.reduce a1 combiners [add] -> !block.tile<[a0], f32> {
        %8 = block.load %arg0 [a0, a1] : !block.array<200x384xf32> -> !block.tile<[a0, a1], f32>
        %9 = block.sub %8, %6 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
        %10 = block.dot %9, %9 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a0, a1], f32>
        block.yield %10 : !block.tile<[a0], f32>
      }
      block.yield %7 : !block.tile<[a0], f32>
    }
    %3 = block.map [a0, a1] -> !block.array<200x384xf32> {
      %6 = block.load %arg0 [a0, a1] : !block.array<200x384xf32> -> !block.tile<[a0, a1], f32>
      %7 = block.load %1 [a0] : !block.array<200xf32> -> !block.tile<[a0], f32>
      %8 = block.sub %6, %7 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %9 = block.load %2 [a0] : !block.array<200xf32> -> !block.tile<[a0], f32>
      %10 = block.constant [] 3.840000e+02 : f32
      %11 = block.div %9, %10 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %12 = block.constant [] 9.99999974E-6 : f32
      %13 = block.add %11, %12 : !block.tile<[a0], f32>, !block.tile<[], f32>
      %14 = block.rsqrt %13 : !block.tile<[a0], f32>
      %15 = block.mul %8, %14 : !block.tile<[a0, a1], f32>, !block.tile<[a0], f32>
      %16 = block.load %arg1 [a1] : !block.array<384xf32> -> !block.tile<[a1], f32>
      %17 = block.mul %15, %16 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      %18 = block.load %arg2 [a1] : !block.array<384xf32> -> !block.tile<[a1], f32>
      %19 = block.add %17, %18 : !block.tile<[a0, a1], f32>, !block.tile<[a1], f32>
      block.yield %19 : !block.tile<[a0, a1], f32>
    }
    %4 = block.map [a0, a2] -> !block.array<200x300xf32> {
      %6 = block.reduce a1 combiners [add] -> !block.tile<[a0, a2], f32> {
        %7 = block.load %3 [a0, a1] : !block.array<200x384xf32> -> !block.tile<[a0, a1], f32>
        %8 = block.load %arg3 [a1, a2] : !block.array<384x300xf32> -> !block.tile<[a1, a2], f32>
        %9 = block.dot %7, %8 contract [a1] : !block.tile<[a0, a1], f32>, !block.tile<[a1, a2], f32>
        block.yield %9 : !block.tile<[a0, a2], f32>
      }
      block.yield %6 : !block.tile<[a0, a2], f32>
    }
    %5 = block.map [a0, a2] -> !block.array<200x300xf32> {
      %6 = block.load %4 [a0, a2] : !block.array<200x300xf32> -> !block.tile<[a0, a2], f32>
      %7 = block.load %arg4 [a2] : !block.array<300xf32> -> !block.tile<[a2], f32>
      %8 = block.add %6, %7 : !block.tile<[a0, a2], f32>, !block.tile<[a2], f32>
      block.yield %8 : !block.tile<[a0, a2], f32>
    }
    block.return %5 : !block.array<200x300xf32>
  }
}

