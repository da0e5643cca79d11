block.program @view_element_type axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  %v = block.view %x : !block.array<4x8xf32> to !block.array<32xf16>
  block.return
}
