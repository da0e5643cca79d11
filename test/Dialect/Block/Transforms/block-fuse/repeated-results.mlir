// A max written with maximumf and one with maxnumf are both block.max: rule
// 7 merges the two reduces, and the fused program would return one array
// twice. On the GPU the second result was a host copy that the runtime
// cannot execute ("the GPU runtime cannot execute this host operation",
// bb-difftest seed 6161 programs 15, 110, 195). The map that writes the
// array now yields its tile once more, as a result of its own.

// RUN: bb-opt %s --convert-linalg-to-block --block-fuse | FileCheck %s
// RUN: bb-run %s --entry two_maxima --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: bb-run %s --entry max_and_keepdim_max --check --fuse | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t && bb-compile %s --entry two_maxima -o %t && FileCheck %s --check-prefix=GPU --input-file=%t/manifest.json
// RUN: rm -rf %t && bb-compile %s --entry max_and_keepdim_max -o %t && FileCheck %s --check-prefix=VIEW --input-file=%t/manifest.json

// CHECK-LABEL: block.program @two_maxima
// CHECK:       %[[K:.*]]:3 = block.map [] -> !block.array<13xf32>, !block.array<f32>, !block.array<f32> {
// CHECK:         block.tile_reduce max
// CHECK-NOT:     block.tile_reduce
// CHECK:         block.yield %{{.*}}, %[[MAX:.*]], %[[MAX]] :
// CHECK:       block.return %[[K]]#1, %[[K]]#2, %[[K]]#0
// NUM-NOT: FAIL
// NUM: {{^PASS$}}
// One launch writes all three out-parameters.
// GPU: "launches"
// GPU-DAG: "buffer": "res0"
// GPU-DAG: "buffer": "res1"
// GPU-DAG: "buffer": "res2"
func.func @two_maxima(%x: tensor<13xf32>, %y: tensor<13xf32>) -> (tensor<f32>, tensor<f32>, tensor<13xf32>) {
  %e = tensor.empty() : tensor<13xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<13xf32>) outs(%e : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<13xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %s = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%n : tensor<13xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %m2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%n : tensor<13xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maxnumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %p = linalg.mul ins(%n, %y : tensor<13xf32>, tensor<13xf32>) outs(%e : tensor<13xf32>) -> tensor<13xf32>
  return %m1, %m2, %p : tensor<f32>, tensor<f32>, tensor<13xf32>
}

// The same rows' max returned as [13] and as keepdim [13, 1]: rule 7
// merges the reduces and the [13, 1] result is a view of the [13] array
// (bb-difftest seed 9595, program 47). The view is re-made on a result of
// its own.
// CHECK-LABEL: block.program @max_and_keepdim_max
// CHECK:       %[[R:.*]]:2 = block.map [a0] -> !block.array<13xf32>, !block.array<13xf32> {
// CHECK:         block.yield %[[MAX:.*]], %[[MAX]] :
// CHECK:       %[[V:.*]] = block.view %[[R]]#1 : !block.array<13xf32> to !block.array<13x1xf32>
// CHECK:       block.return %[[R]]#0, %[[V]]
// One launch writes both out-parameters.
// VIEW: "launches"
// VIEW-DAG: "buffer": "res0"
// VIEW-DAG: "buffer": "res1"
func.func @max_and_keepdim_max(%x: tensor<13x3xf32>) -> (tensor<13xf32>, tensor<13x1xf32>) {
  %m = arith.constant -1.0 : f32
  %e1 = tensor.empty() : tensor<13xf32>
  %i1 = linalg.fill ins(%m : f32) outs(%e1 : tensor<13xf32>) -> tensor<13xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<13x3xf32>) outs(%i1 : tensor<13xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %e2 = tensor.empty() : tensor<13x1xf32>
  %i2 = linalg.fill ins(%m : f32) outs(%e2 : tensor<13x1xf32>) -> tensor<13x1xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<13x3xf32>) outs(%i2 : tensor<13x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<13x1xf32>
  return %r1, %r2 : tensor<13xf32>, tensor<13x1xf32>
}
