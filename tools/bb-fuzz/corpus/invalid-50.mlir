func.func @load_in_func(%x: !block.array<4xf32>) {
  %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
  return
}
