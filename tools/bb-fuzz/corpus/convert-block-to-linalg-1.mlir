block.program @reduces axes(M = 64 tiled block 64, K = 100 tiled block 48)
    (%x: !block.array<64x100xbf16>, %y: !block.array<64x100xi32>)
    -> (!block.array<64xbf16>, !block.array<64xi32>, !block.array<64xf32>) {
  %s, %m, %l = block.map [M] -> !block.array<64xbf16>, !block.array<64xi32>, !block.array<64xf32> {
    %s, %m = block.reduce K combiners [add, max] -> !block.tile<[M], bf16>, !block.tile<[M], i32> {
      %t = block.load %x[M, K] : !block.array<64x100xbf16> -> !block.tile<[M, K], bf16>
      %u = block.load %y[M, K] : !block.array<64x100xi32> -> !block.tile<[M, K], i32>
      %r = block.tile_reduce add %t over [K] : !block.tile<[M, K], bf16>
      %v = block.tile_reduce max %u over [K] : !block.tile<[M, K], i32>
      block.yield %r, %v : !block.tile<[M], bf16>, !block.tile<[M], i32>
    }
    %l0 = block.constant [M] 1.0 : f32
    %l = block.reduce K init(%l0 : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, K] : !block.array<64x100xbf16> -> !block.tile<[M, K], bf16>
      %f = block.cast %t : !block.tile<[M, K], bf16> to !block.tile<[M, K], f32>
      %r = block.tile_reduce min %f over [K] : !block.tile<[M, K], f32>
      block.yield %r : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %c = block.mul %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %s, %m, %l : !block.tile<[M], bf16>, !block.tile<[M], i32>, !block.tile<[M], f32>
  }
  block.return %s, %m, %l : !block.array<64xbf16>, !block.array<64xi32>, !block.array<64xf32>
}
