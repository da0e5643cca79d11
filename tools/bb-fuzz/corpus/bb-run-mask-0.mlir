block.program @mask axes(M = 10 tiled)
    (%mask: !block.array<10xi1>, %a: !block.array<10xi32>,
     %b: !block.array<10xi64>, %x: !block.array<10xf16>) -> !block.array<10xf32> {
  %r = block.map [M] -> !block.array<10xf32> {
    %c = block.load %mask[M] : !block.array<10xi1> -> !block.tile<[M], i1>
    %at = block.load %a[M] : !block.array<10xi32> -> !block.tile<[M], i32>
    %bt = block.load %b[M] : !block.array<10xi64> -> !block.tile<[M], i64>
    %xt = block.load %x[M] : !block.array<10xf16> -> !block.tile<[M], f16>
    %af = block.cast %at : !block.tile<[M], i32> to !block.tile<[M], f32>
    %bf = block.cast %bt : !block.tile<[M], i64> to !block.tile<[M], f32>
    %xf = block.cast %xt : !block.tile<[M], f16> to !block.tile<[M], f32>
    %bx = block.mul %bf, %xf : !block.tile<[M], f32>, !block.tile<[M], f32>
    %s = block.select %c, %af, %bx : !block.tile<[M], i1>, !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %r : !block.array<10xf32>
}
