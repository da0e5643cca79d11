block.program @view_count axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  %v = block.view %x : !block.array<4x8xf32> to !block.array<16xf32>
  block.return
}
