block.program @dot_integer axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1 : i32
    %b = block.constant [N, D] 1 : i32
    %c = "block.dot"(%a, %b) <{contract = ["D"]}> : (!block.tile<[M, D], i32>, !block.tile<[N, D], i32>) -> !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}
