func.func @f(%x: f32) {
  "test.use"(%aj) : (!block.tile<[M], f32>) -> ()
  %r = block.map [M] -> !block.array<4xf32> {
    %aj = block.constant [M] 1.0 : f32
  ^bb0(%ma: !block.tile<[M], f32>, %mb: !block.tile<[M], f32>):
    %da = block.sub %ma, %mx : !block.tile<[M], f32>, !block.tile<[M], f32>
