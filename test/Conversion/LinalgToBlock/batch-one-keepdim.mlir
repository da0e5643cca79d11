// Batch size 1 with a keepdim row statistic (issue 12, item 4): the max over
// the last axis of 1x128x128, expanded to 1x128x1, subtracted from the
// input. The block program reads the statistic with a fixed index beside the
// batch axis of extent 1; its CPU lowering was invalid ("slice along
// dimension 2 runs out-of-bounds: 127 >= 1", from MLIR's canonicalizer on an
// ambiguous rank-reducing slice, see convert-block-to-linalg.mlir). With
// batch 2 it always passed.

// RUN: bb-opt %s --convert-linalg-to-block | FileCheck %s
// RUN: bb-run %s --check | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --check --fuse --block-sizes=a1=1 | FileCheck %s --check-prefix=NUM
// RUN: bb-opt %s --convert-linalg-to-block --block-select --convert-block-to-linalg --canonicalize -o /dev/null

// CHECK-LABEL: block.program @rowmax_batch1
// CHECK-SAME: axes(a0 = 1 whole, a1 = 128 tiled, a2 = 128 whole)
// CHECK: %[[ROW:.*]] = block.view %{{.*}} : !block.array<1x128xf32> to !block.array<1x128x1xf32>
// CHECK: block.load %[[ROW]] [a0, a1, 0] : !block.array<1x128x1xf32> -> !block.tile<[a0, a1], f32>

// NUM: output #0 (1x128x128xf32): {{.*}} mismatches 0, nan 0 of 16384: PASS
// NUM-NEXT: {{^PASS$}}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
#keepdim = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @rowmax_batch1(%x: tensor<1x128x128xf32>) -> tensor<1x128x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty() : tensor<1x128xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x128xf32>) -> tensor<1x128xf32>
  %m = linalg.generic {indexing_maps = [#id3, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x128x128xf32>) outs(%f : tensor<1x128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<1x128xf32>
  %mk = tensor.expand_shape %m [[0], [1, 2]] output_shape [1, 128, 1] : tensor<1x128xf32> into tensor<1x128x1xf32>
  %e3 = tensor.empty() : tensor<1x128x128xf32>
  %s = linalg.generic {indexing_maps = [#id3, #keepdim, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mk : tensor<1x128x128xf32>, tensor<1x128x1xf32>) outs(%e3 : tensor<1x128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<1x128x128xf32>
  return %s : tensor<1x128x128xf32>
}
