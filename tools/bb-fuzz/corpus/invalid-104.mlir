block.program @view_in_body axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  block.map [M] {
    %v = block.view %x : !block.array<4x8xf32> to !block.array<32xf32>
    block.yield
  }
  block.return
}
