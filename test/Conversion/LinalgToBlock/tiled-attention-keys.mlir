// convert-linalg-to-block's tiled-attention-keys: the keys of attention (an
// axis a contraction makes, a statistic reduces and another contraction
// reduces: softmax(Q K^T) V) are tiled at any extent above 1, so that a
// sequence of 16 (whole below whole-threshold) is a reduce over key blocks,
// the form of gpu-flash-attention's register schedule (compileForGPU's
// third conversion candidate). SDPA exported from PyTorch in bf16, 2 heads
// of 16 over 16 positions: the keys a3.
// RUN: bb-opt %S/../../Inputs/torch/sdpa_bf16_tiny_b1.mlir --convert-linalg-to-block | FileCheck %s --check-prefix=DEFAULT
// RUN: bb-opt %S/../../Inputs/torch/sdpa_bf16_tiny_b1.mlir --convert-linalg-to-block=tiled-attention-keys=true | FileCheck %s --check-prefix=KEYS
// DEFAULT: axes(a0 = 2 tiled, a1 = 16 tiled, a2 = 16 whole, a3 = 16 whole, a4 = 16 whole)
// KEYS: axes(a0 = 2 tiled, a1 = 16 tiled, a2 = 16 whole, a3 = 16 tiled, a4 = 16 whole)
// KEYS: block.reduce a3

// A GELU MLP (the hidden axis made by one dot and reduced by the next, but
// by no statistic) keeps its axes.
// RUN: bb-opt %S/../../Inputs/torch/gelu_mlp_tiny_b1.mlir --pass-pipeline="builtin.module(hoist-tensor-constants,convert-linalg-to-block{tiled-attention-keys=true})" | FileCheck %s --check-prefix=MLP
// MLP: axes(a0 = 16 tiled, a1 = 64 whole, a2 = 32 whole, a3 = 32 whole)
