func.func @sub_in_func(%a: !block.tile<[M], f32>) {
  %c = block.sub %a, %a : !block.tile<[M], f32>, !block.tile<[M], f32>
  return
}
