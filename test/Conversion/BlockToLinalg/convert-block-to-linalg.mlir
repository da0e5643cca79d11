// RUN: bb-opt %s -split-input-file -verify-diagnostics --convert-block-to-linalg | FileCheck %s
// RUN: bb-opt %s -split-input-file -verify-diagnostics --convert-block-to-linalg=emit-c-interface | FileCheck %s --check-prefix=CIFACE

// A map becomes an scf.forall over the block grid: M = 100 in blocks of 32
// is 4 blocks, the last one partial (4 rows), so the M size is
// min(32, 100 - offset) and M-indexed tiles are dynamic; N = 64 in blocks of
// 16 divides, so N sizes stay static. Loads are extract_slices at the
// block offsets: a slice `N + 16` adds 16, a fixed index 0 is a unit
// dimension dropped from the result, and [D, N] read as [N, D] is a
// linalg.transpose. The dot is a contraction generic over (M, N, D) on an
// f32 accumulator filled with 0; the add broadcasts [N] along M through its
// indexing map; the yield is a parallel_insert_slice of the block.

// CHECK-DAG: #[[DOT_LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[DOT_RHS:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[DOT_OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @loads(
// CHECK-SAME: %[[X:.*]]: tensor<100x8xf32>, %[[W:.*]]: tensor<8x64xf32>, %[[B:.*]]: tensor<1x80xf32>) -> tensor<100x64xf32> {
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<100x64xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]], %[[J:.*]]) in (4, 4) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<100x64xf32>) {
// CHECK:   %[[C32:.*]] = arith.constant 32 : index
// CHECK:   %[[MOFF:.*]] = arith.muli %[[I]], %[[C32]] : index
// CHECK:   %[[C100:.*]] = arith.constant 100 : index
// CHECK:   %[[REST:.*]] = arith.subi %[[C100]], %[[MOFF]] : index
// CHECK:   %[[MSIZE:.*]] = arith.minsi %[[REST]], %[[C32]] : index
// CHECK:   %[[C16:.*]] = arith.constant 16 : index
// CHECK:   %[[NOFF:.*]] = arith.muli %[[J]], %[[C16]] : index
// CHECK-NOT: arith.minsi
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[MOFF]], 0] [%[[MSIZE]], 8] [1, 1] : tensor<100x8xf32> to tensor<?x8xf32>
// CHECK:   %[[WDN:.*]] = tensor.extract_slice %[[W]][0, %[[NOFF]]] [8, 16] [1, 1] : tensor<8x64xf32> to tensor<8x16xf32>
// CHECK:   %[[WND_INIT:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK:   %[[WND:.*]] = linalg.transpose ins(%[[WDN]] : tensor<8x16xf32>) outs(%[[WND_INIT]] : tensor<16x8xf32>) permutation = [1, 0]
// CHECK:   %[[BOFF:.*]] = arith.addi %[[NOFF]], %{{.*}} : index
// CHECK:   %[[BT:.*]] = tensor.extract_slice %[[B]][0, %[[BOFF]]] [1, 16] [1, 1] : tensor<1x80xf32> to tensor<16xf32>
// CHECK:   %[[ACC_INIT:.*]] = tensor.empty(%[[MSIZE]]) : tensor<?x16xf32>
// CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ACC_INIT]] : tensor<?x16xf32>)
// CHECK:   %[[S:.*]] = linalg.generic {indexing_maps = [#[[DOT_LHS]], #[[DOT_RHS]], #[[DOT_OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[XT]], %[[WND]] : tensor<?x8xf32>, tensor<16x8xf32>) outs(%[[ACC]] : tensor<?x16xf32>)
// CHECK:     arith.mulf
// CHECK:     arith.addf
// CHECK:   %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[COL]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[S]], %[[BT]] : tensor<?x16xf32>, tensor<16xf32>)
// CHECK:     arith.addf
// CHECK:   scf.forall.in_parallel {
// CHECK:     tensor.parallel_insert_slice %[[SUM]] into %[[OUT]][%[[MOFF]], %[[NOFF]]] [%[[MSIZE]], 16] [1, 1] : tensor<?x16xf32> into tensor<100x64xf32>
// CHECK: return %[[R]] : tensor<100x64xf32>

// CIFACE-LABEL: func.func @loads(
// CIFACE-SAME: attributes {llvm.emit_c_interface}

block.program @loads axes(M = 100 tiled block 32, N = 64 tiled block 16, D = 8 whole)
    (%x: !block.array<100x8xf32>, %w: !block.array<8x64xf32>, %b: !block.array<1x80xf32>)
    -> !block.array<100x64xf32> {
  %y = block.map [M, N] -> !block.array<100x64xf32> {
    %t = block.load %x[M, D] : !block.array<100x8xf32> -> !block.tile<[M, D], f32>
    %wt = block.load %w[D, N] : !block.array<8x64xf32> -> !block.tile<[N, D], f32>
    %bb = block.load %b[0, N + 16] : !block.array<1x80xf32> -> !block.tile<[N], f32>
    %s = block.dot %t, %wt contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    %r = block.add %s, %bb : !block.tile<[M, N], f32>, !block.tile<[N], f32>
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<100x64xf32>
}

// -----

// A fixed index beside a kept dimension of size 1 (batch 1, a keepdim row
// statistic): the rank-reducing slice 1x128x1 -> 1x128 would not say which
// unit dimension it drops, and MLIR 22's canonicalizer rebuilt it with
// permuted sizes that its verifier rejects. The slice keeps its rank and a
// collapse drops the fixed dimension. Without a kept unit dimension the slice
// reduces the rank itself, as in @loads.

// CHECK-LABEL: func.func @unit_beside_fixed(
// CHECK-SAME: %[[ROW:.*]]: tensor<1x128x1xf32>
// CHECK: %[[FULL:.*]] = tensor.extract_slice %[[ROW]][0, %{{.*}}, 0] [1, 32, 1] [1, 1, 1] : tensor<1x128x1xf32> to tensor<1x32x1xf32>
// CHECK: tensor.collapse_shape %[[FULL]] {{\[}}[0], [1, 2]] : tensor<1x32x1xf32> into tensor<1x32xf32>
// CHECK: %[[VEC:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [32, 1] [1, 1] : tensor<128x1xf32> to tensor<32xf32>
// CHECK-NOT: tensor.collapse_shape

block.program @unit_beside_fixed axes(B = 1 whole, M = 128 tiled block 32)
    (%row: !block.array<1x128x1xf32>, %vec: !block.array<128x1xf32>)
    -> (!block.array<1x128xf32>, !block.array<128xf32>) {
  %r:2 = block.map [M] -> !block.array<1x128xf32>, !block.array<128xf32> {
    %t = block.load %row[B, M, 0] : !block.array<1x128x1xf32> -> !block.tile<[B, M], f32>
    %v = block.load %vec[M, 0] : !block.array<128x1xf32> -> !block.tile<[M], f32>
    block.yield %t, %v : !block.tile<[B, M], f32>, !block.tile<[M], f32>
  }
  block.return %r#0, %r#1 : !block.array<1x128xf32>, !block.array<128xf32>
}

// -----

// Masks: on i1, max is `or` and min is `and` (false < true), so a reduce
// with them starts from false and true; `ult` on integers compares unsigned.

// CHECK-LABEL: func.func @masks(
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[ALL0:.*]] = linalg.fill ins(%[[TRUE]] : i1)
// CHECK:      %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: %[[ANY0:.*]] = linalg.fill ins(%[[FALSE]] : i1)
// CHECK:      scf.for {{.*}} iter_args(%{{.*}} = %[[ALL0]], %{{.*}} = %[[ANY0]])
// CHECK:        arith.andi
// CHECK:        arith.ori
// CHECK:        arith.andi
// CHECK:        arith.ori
// CHECK:      arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK:      arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:      arith.andi %{{.*}}, %{{.*}} : i1

block.program @masks axes(M = 8 tiled block 4, N = 16 tiled block 8)
    (%a: !block.array<8x16xi1>, %b: !block.array<8xi32>)
    -> (!block.array<8xi1>, !block.array<8xi1>, !block.array<8xi1>) {
  %r:3 = block.map [M] -> !block.array<8xi1>, !block.array<8xi1>, !block.array<8xi1> {
    %all, %any = block.reduce N combiners [min, max] -> !block.tile<[M], i1>, !block.tile<[M], i1> {
      %t = block.load %a[M, N] : !block.array<8x16xi1> -> !block.tile<[M, N], i1>
      %lo = block.tile_reduce min %t over [N] : !block.tile<[M, N], i1>
      %hi = block.tile_reduce max %t over [N] : !block.tile<[M, N], i1>
      block.yield %lo, %hi : !block.tile<[M], i1>, !block.tile<[M], i1>
    }
    %x = block.load %b[M] : !block.array<8xi32> -> !block.tile<[M], i32>
    %zero = block.constant [] 0 : i32
    %below = block.compare ult %x, %zero : !block.tile<[M], i32>, !block.tile<[], i32>
    %either = block.max %below, %all : !block.tile<[M], i1>, !block.tile<[M], i1>
    %both = block.min %either, %any : !block.tile<[M], i1>, !block.tile<[M], i1>
    block.yield %all, %any, %both : !block.tile<[M], i1>, !block.tile<[M], i1>, !block.tile<[M], i1>
  }
  block.return %r#0, %r#1, %r#2 : !block.array<8xi1>, !block.array<8xi1>, !block.array<8xi1>
}

// -----

// A reduce becomes an scf.for over the blocks of its axis (K = 100 in
// blocks of 48: 3 blocks, the last one of 4) with the state as iter_args.
// Built-in combiners start from their identity and fold each term into the
// state in place; a bf16 sum accumulates in f32 and rounds once after the
// loop, an i32 max starts from the smallest i32. A combine region starts
// from `init` and is inlined with (state, term).

// CHECK-DAG: #[[RID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @reduces(
// CHECK-SAME: %[[X:.*]]: tensor<64x100xbf16>, %[[Y:.*]]: tensor<64x100xi32>) -> (tensor<64xbf16>, tensor<64xi32>, tensor<64xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (1) shared_outs(%[[O0:.*]] = %{{.*}}, %[[O1:.*]] = %{{.*}}, %[[O2:.*]] = %{{.*}})
// CHECK:   %[[MOFF:.*]] = arith.muli %[[I]]
// CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   %[[SUM0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK:   %[[IMIN:.*]] = arith.constant -2147483648 : i32
// CHECK:   %[[MAX0:.*]] = linalg.fill ins(%[[IMIN]] : i32) outs(%{{.*}} : tensor<64xi32>)
// CHECK:   %[[C0:.*]] = arith.constant 0 : index
// CHECK:   %[[C3:.*]] = arith.constant 3 : index
// CHECK:   %[[C1:.*]] = arith.constant 1 : index
// CHECK:   %[[LOOP:.*]]:2 = scf.for %[[K:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[SUM:.*]] = %[[SUM0]], %[[MAX:.*]] = %[[MAX0]]) -> (tensor<64xf32>, tensor<64xi32>) {
// CHECK:     %[[KOFF:.*]] = arith.muli %[[K]]
// CHECK:     %[[KSIZE:.*]] = arith.minsi
// CHECK:     %[[XT:.*]] = tensor.extract_slice %[[X]][%[[MOFF]], %[[KOFF]]] [64, %[[KSIZE]]] [1, 1] : tensor<64x100xbf16> to tensor<64x?xbf16>
// CHECK:     %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[MOFF]], %[[KOFF]]] [64, %[[KSIZE]]] [1, 1] : tensor<64x100xi32> to tensor<64x?xi32>
// tile_reduce add over bf16: f32 accumulator, then one rounding to bf16.
// CHECK:     %[[ROWSUM:.*]] = linalg.generic {indexing_maps = [#[[RID2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[XT]] : tensor<64x?xbf16>) outs(%{{.*}} : tensor<64xf32>)
// CHECK:       arith.extf %{{.*}} : bf16 to f32
// CHECK:       arith.addf
// CHECK:     %[[ROWSUM_BF16:.*]] = linalg.generic {{.*}} ins(%[[ROWSUM]] : tensor<64xf32>) outs(%{{.*}} : tensor<64xbf16>)
// CHECK:       arith.truncf %{{.*}} : f32 to bf16
// CHECK:     %[[ROWMAX:.*]] = linalg.generic {indexing_maps = [#[[RID2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[YT]] : tensor<64x?xi32>)
// CHECK:       arith.maxsi
// The fold into the state, in place.
// CHECK:     %[[NEXT_SUM:.*]] = linalg.generic {indexing_maps = [#[[ID1]], #[[ID1]]], iterator_types = ["parallel"]} ins(%[[ROWSUM_BF16]] : tensor<64xbf16>) outs(%[[SUM]] : tensor<64xf32>)
// CHECK:       arith.extf
// CHECK:       arith.addf
// CHECK:     %[[NEXT_MAX:.*]] = linalg.generic {indexing_maps = [#[[ID1]], #[[ID1]]], iterator_types = ["parallel"]} ins(%[[ROWMAX]] : tensor<64xi32>) outs(%[[MAX]] : tensor<64xi32>)
// CHECK:       arith.maxsi
// CHECK:     scf.yield %[[NEXT_SUM]], %[[NEXT_MAX]] : tensor<64xf32>, tensor<64xi32>
// CHECK:   %[[S_BF16:.*]] = linalg.generic {{.*}} ins(%[[LOOP]]#0 : tensor<64xf32>) outs(%{{.*}} : tensor<64xbf16>)
// CHECK:     arith.truncf
// Region combiner: init 1.0, state * term.
// CHECK:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:   %[[INIT:.*]] = linalg.fill ins(%[[ONE]] : f32)
// CHECK:   %[[PROD:.*]] = scf.for %{{.*}} iter_args(%[[STATE:.*]] = %[[INIT]]) -> (tensor<64xf32>) {
// CHECK:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:     %[[ROWMIN:.*]] = linalg.generic
// CHECK:       arith.minimumf
// CHECK:     %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[STATE]], %[[ROWMIN]] : tensor<64xf32>, tensor<64xf32>)
// CHECK:       arith.mulf
// CHECK:     scf.yield %[[NEXT]] : tensor<64xf32>
// CHECK:   scf.forall.in_parallel {
// CHECK:     tensor.parallel_insert_slice %[[S_BF16]] into %[[O0]][%[[MOFF]]] [64] [1]
// CHECK:     tensor.parallel_insert_slice %[[LOOP]]#1 into %[[O1]][%[[MOFF]]] [64] [1]
// CHECK:     tensor.parallel_insert_slice %[[PROD]] into %[[O2]][%[[MOFF]]] [64] [1]

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

// -----

// Elementwise ops are parallel generics whose indexing maps place each
// operand's axes by name: [N] - [M, N] iterates (N, M), the result's axis
// order. f16 arithmetic runs in f32 and rounds once per op; gelu is the erf
// form, silu x * 1 / (1 + exp(-x)). iota is linalg.index plus the block
// offset (M is iterated, N is whole so it has none); compare on index is
// a signed cmpi; a scalar constant is a 0-d fill; select and broadcast
// read their operands by name; index casts are arith.index_cast.

// CHECK-DAG: #[[E_M:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[E_T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[E_ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[E_ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[E_N:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[E_SCALAR:.*]] = affine_map<(d0, d1) -> ()>

// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME: %[[X:.*]]: tensor<8x6xf16>, %[[Y:.*]]: tensor<6xf16>)
// CHECK: scf.forall (%[[I:.*]]) in (2)
// CHECK:   %[[MOFF:.*]] = arith.muli %[[I]]
// CHECK:   %[[A:.*]] = tensor.extract_slice %[[X]][%[[MOFF]], 0] [4, 6] [1, 1] : tensor<8x6xf16> to tensor<4x6xf16>
// CHECK:   %[[SUB:.*]] = linalg.generic {indexing_maps = [#[[E_M]], #[[E_T]], #[[E_ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[Y]], %[[A]] : tensor<6xf16>, tensor<4x6xf16>) outs(%{{.*}} : tensor<6x4xf16>)
// CHECK:     %[[L:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:     %[[R:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:     %[[D:.*]] = arith.subf %[[L]], %[[R]] : f32
// CHECK:     %[[DH:.*]] = arith.truncf %[[D]] : f32 to f16
// CHECK:     linalg.yield %[[DH]] : f16
// CHECK:   %[[GELU:.*]] = linalg.generic {{.*}} ins(%[[SUB]] : tensor<6x4xf16>)
// CHECK:     %[[GX:.*]] = arith.extf
// CHECK:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:     %[[GONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:     %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
// CHECK:     %[[GS:.*]] = arith.mulf %[[GX]], %[[RSQRT2]] : f32
// CHECK:     %[[ERF:.*]] = math.erf %[[GS]] : f32
// CHECK:     %[[G1:.*]] = arith.addf %[[GONE]], %[[ERF]] : f32
// CHECK:     %[[G2:.*]] = arith.mulf %[[GX]], %[[G1]] : f32
// CHECK:     %[[G3:.*]] = arith.mulf %[[G2]], %[[HALF]] : f32
// CHECK:     arith.truncf %[[G3]] : f32 to f16
// CHECK:   %[[SILU:.*]] = linalg.generic {{.*}} ins(%[[GELU]] : tensor<6x4xf16>)
// CHECK:     %[[SX:.*]] = arith.extf
// CHECK:     %[[SONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:     %[[SNEG:.*]] = arith.negf %[[SX]] : f32
// CHECK:     %[[SEXP:.*]] = math.exp %[[SNEG]] : f32
// CHECK:     %[[SDEN:.*]] = arith.addf %[[SONE]], %[[SEXP]] : f32
// CHECK:     %[[SIG:.*]] = arith.divf %[[SONE]], %[[SDEN]] : f32
// CHECK:     arith.mulf %[[SX]], %[[SIG]] : f32
// CHECK:   %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SILU]] : tensor<6x4xf16>)
// CHECK:     math.exp %{{.*}} : f32
// CHECK:   %[[RSQRT:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<6x4xf16>)
// CHECK:     math.rsqrt %{{.*}} : f32
// CHECK:   %[[TANH:.*]] = linalg.generic {{.*}} ins(%[[RSQRT]] : tensor<6x4xf16>)
// CHECK:     math.tanh %{{.*}} : f32
// CHECK:   %[[ROWS:.*]] = linalg.generic {indexing_maps = [#[[E_ID1]]], iterator_types = ["parallel"]} outs(%{{.*}} : tensor<4xindex>)
// CHECK:     %[[RI:.*]] = linalg.index 0 : index
// CHECK:     %[[RG:.*]] = arith.addi %[[RI]], %[[MOFF]] : index
// CHECK:     linalg.yield %[[RG]] : index
// CHECK:   %[[COLS:.*]] = linalg.generic {indexing_maps = [#[[E_ID1]]], iterator_types = ["parallel"]} outs(%{{.*}} : tensor<6xindex>)
// CHECK:     %[[CI:.*]] = linalg.index 0 : index
// CHECK-NEXT: linalg.yield %[[CI]] : index
// CHECK:   %[[MASK:.*]] = linalg.generic {indexing_maps = [#[[E_M]], #[[E_N]], #[[E_ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[ROWS]], %[[COLS]] : tensor<4xindex>, tensor<6xindex>) outs(%{{.*}} : tensor<4x6xi1>)
// CHECK:     arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK:   %[[ZH:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:   %[[Z:.*]] = linalg.fill ins(%[[ZH]] : f16) outs(%{{.*}} : tensor<f16>) -> tensor<f16>
// CHECK:   %[[SEL:.*]] = linalg.generic {indexing_maps = [#[[E_ID]], #[[E_T]], #[[E_SCALAR]], #[[E_ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[MASK]], %[[TANH]], %[[Z]] : tensor<4x6xi1>, tensor<6x4xf16>, tensor<f16>) outs(%{{.*}} : tensor<4x6xf16>)
// CHECK:     arith.select
// CHECK:   %[[BCAST:.*]] = linalg.generic {{.*}} ins(%[[SEL]] : tensor<4x6xf16>) outs(%{{.*}} : tensor<4x6xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:   linalg.yield %[[IN]] : f16
// CHECK:   linalg.generic {{.*}} ins(%[[ROWS]] : tensor<4xindex>) outs(%{{.*}} : tensor<4xi32>)
// CHECK:     arith.index_cast %{{.*}} : index to i32
// CHECK:   %[[KI:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4xi32>, tensor<6xi32>) outs(%{{.*}} : tensor<4x6xi32>)
// CHECK:     arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:   scf.forall.in_parallel {
// CHECK:     tensor.parallel_insert_slice %[[BCAST]] into %{{.*}}[%[[MOFF]], 0] [4, 6] [1, 1] : tensor<4x6xf16> into tensor<8x6xf16>
// CHECK:     tensor.parallel_insert_slice %[[KI]] into %{{.*}}[%[[MOFF]], 0] [4, 6] [1, 1] : tensor<4x6xi32> into tensor<8x6xi32>

block.program @elementwise axes(M = 8 tiled block 4, N = 6 whole)
    (%x: !block.array<8x6xf16>, %y: !block.array<6xf16>)
    -> (!block.array<8x6xf16>, !block.array<8x6xi32>) {
  %r, %k = block.map [M] -> !block.array<8x6xf16>, !block.array<8x6xi32> {
    %a = block.load %x[M, N] : !block.array<8x6xf16> -> !block.tile<[M, N], f16>
    %b = block.load %y[N] : !block.array<6xf16> -> !block.tile<[N], f16>
    %s = block.sub %b, %a : !block.tile<[N], f16>, !block.tile<[M, N], f16>
    %g = block.gelu %s : !block.tile<[N, M], f16>
    %si = block.silu %g : !block.tile<[N, M], f16>
    %e = block.exp %si : !block.tile<[N, M], f16>
    %rs = block.rsqrt %e : !block.tile<[N, M], f16>
    %t = block.tanh %rs : !block.tile<[N, M], f16>
    %row = block.iota M : !block.tile<[M], index>
    %col = block.iota N : !block.tile<[N], index>
    %mask = block.compare ge %row, %col : !block.tile<[M], index>, !block.tile<[N], index>
    %z = block.constant [] 0.0 : f16
    %sel = block.select %mask, %t, %z : !block.tile<[M, N], i1>, !block.tile<[N, M], f16>, !block.tile<[], f16>
    %o = block.broadcast %sel : !block.tile<[M, N], f16> to !block.tile<[M, N], f16>
    %ri = block.cast %row : !block.tile<[M], index> to !block.tile<[M], i32>
    %ci = block.cast %col : !block.tile<[N], index> to !block.tile<[N], i32>
    %ki = block.add %ri, %ci : !block.tile<[M], i32>, !block.tile<[N], i32>
    block.yield %o, %ki : !block.tile<[M, N], f16>, !block.tile<[M, N], i32>
  }
  block.return %r, %k : !block.array<8x6xf16>, !block.array<8x6xi32>
}

// -----

// A bf16 dot extends its operands to f32 and accumulates in f32; casts are
// the matching arith conversions (i1 masks convert as 0 or 1); the other
// unary and binary float ops map one to one, compare predicates to cmpf's
// ordered and unordered ones. A broadcast adds an axis.

// CHECK-LABEL: func.func @dot_and_casts(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x5xbf16>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK:   %[[DA:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[DB:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[DP:.*]] = arith.mulf %[[DA]], %[[DB]] : f32
// CHECK:   arith.addf %{{.*}}, %[[DP]] : f32
// CHECK: arith.negf %{{.*}} : f32
// CHECK: math.absf %{{.*}} : f32
// CHECK: math.log %{{.*}} : f32
// CHECK: math.sqrt %{{.*}} : f32
// CHECK: math.erf %{{.*}} : f32
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf uge, %{{.*}}, %{{.*}} : f32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<4x5xbf16>) outs(%{{.*}} : tensor<4x3x5xbf16>)

block.program @dot_and_casts axes(M = 4 tiled block 4, K = 8 whole, N = 5 whole, B = 3 whole)
    (%a: !block.array<4x8xbf16>, %b: !block.array<8x5xbf16>) -> !block.array<4x3x5xbf16> {
  %r = block.map [M] -> !block.array<4x3x5xbf16> {
    %at = block.load %a[M, K] : !block.array<4x8xbf16> -> !block.tile<[M, K], bf16>
    %bt = block.load %b[K, N] : !block.array<8x5xbf16> -> !block.tile<[K, N], bf16>
    %d = block.dot %at, %bt contract [K] : !block.tile<[M, K], bf16>, !block.tile<[K, N], bf16>
    %n = block.neg %d : !block.tile<[M, N], f32>
    %ab = block.abs %n : !block.tile<[M, N], f32>
    %lg = block.log %ab : !block.tile<[M, N], f32>
    %sq = block.sqrt %ab : !block.tile<[M, N], f32>
    %er = block.erf %lg : !block.tile<[M, N], f32>
    %sn = block.sin %er : !block.tile<[M, N], f32>
    %cs = block.cos %sn : !block.tile<[M, N], f32>
    %dv = block.div %cs, %sq : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %mx = block.max %dv, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %mn = block.min %mx, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %i = block.cast %mn : !block.tile<[M, N], f32> to !block.tile<[M, N], i32>
    %f = block.cast %i : !block.tile<[M, N], i32> to !block.tile<[M, N], f32>
    %lt = block.compare lt %f, %mn : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %uge = block.compare uge %f, %mn : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %lf = block.cast %lt : !block.tile<[M, N], i1> to !block.tile<[M, N], f32>
    %h = block.cast %lf : !block.tile<[M, N], f32> to !block.tile<[M, N], bf16>
    %o = block.broadcast %h : !block.tile<[M, N], bf16> to !block.tile<[M, B, N], bf16>
    block.yield %o : !block.tile<[M, B, N], bf16>
  }
  block.return %r : !block.array<4x3x5xbf16>
}

// -----

// Refusal: a tiled axis without a block size; every such axis is named.

// expected-error @below {{tiled axis 'M' of @unbound has no block size; run block-select first}}
// expected-error @below {{tiled axis 'N' of @unbound has no block size; run block-select first}}
block.program @unbound axes(M = 64 tiled, N = 64 tiled, K = 32 tiled block 16)
    (%x: !block.array<64x64xf32>) -> !block.array<64x64xf32> {
  %y = block.map [M, N] -> !block.array<64x64xf32> {
    %t = block.load %x[M, N] : !block.array<64x64xf32> -> !block.tile<[M, N], f32>
    block.yield %t : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<64x64xf32>
}

// -----

// Refusal: a tile holding the whole extent of N, used inside the reduce
// that iterates N, where an N-indexed tile is one block.

block.program @whole_inside_block axes(M = 8 tiled block 8, N = 16 tiled block 4)
    (%x: !block.array<8x16xf32>) -> !block.array<8xf32> {
  %y = block.map [M] -> !block.array<8xf32> {
    %whole = block.load %x[M, N] : !block.array<8x16xf32> -> !block.tile<[M, N], f32>
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<8x16xf32> -> !block.tile<[M, N], f32>
      // expected-error @below {{cannot be lowered: operand #1 spans the whole extent of axis 'N'}}
      %p = block.mul %t, %whole : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %s = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<8xf32>
}
