// Tests of --block-report: kernels, buffered edges, global bytes and
// intermediates of the three example pairs (unfused as a frontend writes
// them, fused as block-fuse must derive them), and the options on a small
// program written below.
//
// Every expected figure is computed by hand from the counting convention of
// lib/Dialect/Block/Analysis/FusionReport.cpp, not copied from the tool:
//   * a load of a tile with axes T, nested in maps and reduces that iterate
//     the axes I, reads prod_{a in T} extent(a) * prod_{a in I, a not in T}
//     nb(a) elements, where nb(a) = ceil(extent(a) / block(a));
//   * a map writes each of its result arrays once, whole;
//   * global_bytes = sum over kernels of bytes read + bytes written;
//   * buffered_edges = (array, reading kernel) pairs, the writer being
//     another kernel;
//   * intermediates = arrays some kernel loads that the program does not
//     return.
// Element sizes: f32 4 bytes, bf16 2 bytes.

//===----------------------------------------------------------------------===//
// Attention (attention.{unfused,fused}.mlir), M = N = 1024, D = 64 whole,
// f32, blocks M = 64, N = 64: nb(M) = nb(N) = 16.
//===----------------------------------------------------------------------===//

// RUN: bb-opt %examples/block/attention.unfused.mlir --block-report='block-sizes=M=64,N=64' -o /dev/null | FileCheck %s --check-prefix=ATTN-UNFUSED
// Six kernels, S, m, E, l, P, O:
//   S = map[M, N]: Q[M, D] 1024*64*nb(N)=16 = 1048576 el = 4194304 B
//                  K[N, D] 1024*64*nb(M)=16 = 1048576 el = 4194304 B
//                  write 1024*1024*4 = 4194304 B            -> 12582912
//   m = map[M] reduce N: S[M, N] 1024*1024*4 = 4194304 B,
//                  write 1024*4 = 4096 B                     ->  4198400
//   E = map[M, N]: S 4194304 B, m[M] 1024*nb(N)=16*4 = 65536 B,
//                  write 4194304 B                           ->  8454144
//   l = map[M] reduce N: as m                                ->  4198400
//   P = map[M, N]: as E                                      ->  8454144
//   O = map[M] reduce N: P 4194304 B, V[N, D] 1024*64*nb(M)=16*4
//                  = 4194304 B, write 1024*64*4 = 262144 B   ->  8650752
//   global_bytes = 12582912 + 4198400 + 8454144 + 4198400 + 8454144
//                  + 8650752 = 46538752
//   buffered edges: S->m, S->E, m->E, E->l, E->P, l->P, P->O = 7
//   intermediates, in kernel order: S [1024, 1024] (2 readers), m [1024],
//   E [1024, 1024] (2 readers), l [1024], P [1024, 1024] (1 reader).
// ATTN-UNFUSED:      "program": "attention",
// ATTN-UNFUSED:      "kernels": 6,
// ATTN-UNFUSED-NEXT: "buffered_edges": 7,
// ATTN-UNFUSED-NEXT: "global_bytes": 46538752,
// ATTN-UNFUSED:      "intermediates": [
// ATTN-UNFUSED-NEXT:   {
// ATTN-UNFUSED-NEXT:     "shape": [
// ATTN-UNFUSED-NEXT:       1024,
// ATTN-UNFUSED-NEXT:       1024{{$}}
// ATTN-UNFUSED-NEXT:     ],
// ATTN-UNFUSED-NEXT:     "element_type": "f32",
// ATTN-UNFUSED-NEXT:     "bytes": 4194304,
// ATTN-UNFUSED-NEXT:     "readers": 2
// ATTN-UNFUSED-NEXT:   },
// ATTN-UNFUSED-NEXT:   {
// ATTN-UNFUSED-NEXT:     "shape": [
// ATTN-UNFUSED-NEXT:       1024{{$}}
// ATTN-UNFUSED-NEXT:     ],
// ATTN-UNFUSED-NEXT:     "element_type": "f32",
// ATTN-UNFUSED-NEXT:     "bytes": 4096,
// ATTN-UNFUSED-NEXT:     "readers": 1
// ATTN-UNFUSED-NEXT:   },
// ATTN-UNFUSED-NEXT:   {
// ATTN-UNFUSED-NEXT:     "shape": [
// ATTN-UNFUSED-NEXT:       1024,
// ATTN-UNFUSED-NEXT:       1024{{$}}
// ATTN-UNFUSED-NEXT:     ],
// ATTN-UNFUSED-NEXT:     "element_type": "f32",
// ATTN-UNFUSED-NEXT:     "bytes": 4194304,
// ATTN-UNFUSED-NEXT:     "readers": 2
// ATTN-UNFUSED-NEXT:   },
// ATTN-UNFUSED-NEXT:   {
// ATTN-UNFUSED-NEXT:     "shape": [
// ATTN-UNFUSED-NEXT:       1024{{$}}
// ATTN-UNFUSED-NEXT:     ],
// ATTN-UNFUSED-NEXT:     "element_type": "f32",
// ATTN-UNFUSED-NEXT:     "bytes": 4096,
// ATTN-UNFUSED-NEXT:     "readers": 1
// ATTN-UNFUSED-NEXT:   },
// ATTN-UNFUSED-NEXT:   {
// ATTN-UNFUSED-NEXT:     "shape": [
// ATTN-UNFUSED-NEXT:       1024,
// ATTN-UNFUSED-NEXT:       1024{{$}}
// ATTN-UNFUSED-NEXT:     ],
// ATTN-UNFUSED-NEXT:     "element_type": "f32",
// ATTN-UNFUSED-NEXT:     "bytes": 4194304,
// ATTN-UNFUSED-NEXT:     "readers": 1
// ATTN-UNFUSED-NEXT:   }
// ATTN-UNFUSED-NEXT: ],
// ATTN-UNFUSED-NEXT: "per_kernel": [

// RUN: bb-opt %examples/block/attention.fused.mlir --block-report='block-sizes=M=64,N=64' -o /dev/null | FileCheck %s --check-prefix=ATTN-FUSED
// One kernel, map[M] { Q[M, D]; reduce N { K[N, D]; V[N, D] } }:
//   Q[M, D] 1024*64*4 = 262144 B (iterated: M only)
//   K[N, D] 1024*64*nb(M)=16*4 = 4194304 B, V the same: 4194304 B
//   write O 1024*64*4 = 262144 B
//   global_bytes = 262144 + 4194304 + 4194304 + 262144 = 8912896
//   no buffered edge, no intermediate: no M x N array anywhere.
// ATTN-FUSED:      "program": "attention",
// ATTN-FUSED:      "kernels": 1,
// ATTN-FUSED-NEXT: "buffered_edges": 0,
// ATTN-FUSED-NEXT: "global_bytes": 8912896,
// ATTN-FUSED:      "intermediates": [],
// ATTN-FUSED-NOT:  1024,

//===----------------------------------------------------------------------===//
// LayerNorm + Matmul (layernorm_matmul.{unfused,fused}.mlir), M = 512,
// K = 768, N = 1024, f32, blocks M = 128, K = 32, N = 64 (distinct block
// counts, so that an axis mixed up shows): nb(M) = 4, nb(K) = 24, nb(N) = 16.
//===----------------------------------------------------------------------===//

// RUN: bb-opt %examples/block/layernorm_matmul.unfused.mlir --block-report='block-sizes=M=128,K=32,N=64' -o /dev/null | FileCheck %s --check-prefix=LN-UNFUSED
// Four kernels, mu, var, Xn, Y:
//   mu  = map[M] reduce K: X[M, K] 512*768*4 = 1572864 B,
//         write 512*4 = 2048 B                                ->  1574912
//   var = map[M] { mu[M] 512*4 = 2048 B; reduce K: X 1572864 B },
//         write 2048 B                                        ->  1576960
//   Xn  = map[M, K]: X 1572864 B; mu[M] and var[M] 512*nb(K)=24*4
//         = 49152 B each; gamma[K] and beta[K] 768*nb(M)=4*4 = 12288 B
//         each; write 512*768*4 = 1572864 B                   ->  3268608
//   Y   = map[M, N] { reduce K: Xn[M, K] 512*768*nb(N)=16*4 = 25165824 B,
//         W[K, N] 768*1024*nb(M)=4*4 = 12582912 B; bias[N] 1024*nb(M)=4*4
//         = 16384 B }, write 512*1024*4 = 2097152 B           -> 39862272
//   global_bytes = 1574912 + 1576960 + 3268608 + 39862272 = 46282752
//   buffered edges: mu->var, mu->Xn, var->Xn, Xn->Y = 4
//   intermediates: mu [512] (2 readers), var [512], Xn [512, 768].
// LN-UNFUSED:      "program": "layernorm_matmul",
// LN-UNFUSED:      "kernels": 4,
// LN-UNFUSED-NEXT: "buffered_edges": 4,
// LN-UNFUSED-NEXT: "global_bytes": 46282752,
// LN-UNFUSED:      "intermediates": [
// LN-UNFUSED-NEXT:   {
// LN-UNFUSED-NEXT:     "shape": [
// LN-UNFUSED-NEXT:       512{{$}}
// LN-UNFUSED-NEXT:     ],
// LN-UNFUSED-NEXT:     "element_type": "f32",
// LN-UNFUSED-NEXT:     "bytes": 2048,
// LN-UNFUSED-NEXT:     "readers": 2
// LN-UNFUSED-NEXT:   },
// LN-UNFUSED-NEXT:   {
// LN-UNFUSED-NEXT:     "shape": [
// LN-UNFUSED-NEXT:       512{{$}}
// LN-UNFUSED-NEXT:     ],
// LN-UNFUSED-NEXT:     "element_type": "f32",
// LN-UNFUSED-NEXT:     "bytes": 2048,
// LN-UNFUSED-NEXT:     "readers": 1
// LN-UNFUSED-NEXT:   },
// LN-UNFUSED-NEXT:   {
// LN-UNFUSED-NEXT:     "shape": [
// LN-UNFUSED-NEXT:       512,
// LN-UNFUSED-NEXT:       768{{$}}
// LN-UNFUSED-NEXT:     ],
// LN-UNFUSED-NEXT:     "element_type": "f32",
// LN-UNFUSED-NEXT:     "bytes": 1572864,
// LN-UNFUSED-NEXT:     "readers": 1
// LN-UNFUSED-NEXT:   }
// LN-UNFUSED-NEXT: ],
// LN-UNFUSED-NEXT: "per_kernel": [

// RUN: bb-opt %examples/block/layernorm_matmul.fused.mlir --block-report='block-sizes=M=128,K=32,N=64' -o /dev/null | FileCheck %s --check-prefix=LN-FUSED
// One kernel, map[M, N] { reduce K { X[M, K]; W[K, N]; gamma[K]; beta[K] };
// bias[N] }:
//   X[M, K]  512*768*nb(N)=16*4 = 25165824 B
//   W[K, N]  768*1024*nb(M)=4*4 = 12582912 B
//   gamma[K] 768*nb(M)=4*nb(N)=16*4 = 196608 B, beta[K] the same
//   bias[N]  1024*nb(M)=4*4 = 16384 B
//   write Y  512*1024*4 = 2097152 B
//   global_bytes = 25165824 + 12582912 + 196608 + 196608 + 16384 + 2097152
//                = 40255488
// (X is read once per N block in both forms; what fusion removes here is
// the Xn round trip and the three passes over X that make mu, var, Xn.)
// LN-FUSED:      "program": "layernorm_matmul",
// LN-FUSED:      "kernels": 1,
// LN-FUSED-NEXT: "buffered_edges": 0,
// LN-FUSED-NEXT: "global_bytes": 40255488,
// LN-FUSED:      "intermediates": [],

//===----------------------------------------------------------------------===//
// RMSNorm + FFN-SwiGLU (rmsnorm_ffn_swiglu.{unfused,fused}.mlir), M = 256,
// D = 512, F = 1024, C = 512, bf16 storage (r is f32), blocks M = 64, D = 64,
// F = 64, C = 256: nb(M) = 4, nb(D) = 8, nb(F) = 16, nb(C) = 2.
//===----------------------------------------------------------------------===//

// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.unfused.mlir --block-report='block-sizes=M=64,D=64,F=64,C=256' -o /dev/null | FileCheck %s --check-prefix=FFN-UNFUSED
// Seven kernels, r, Xn, A1, A3, S, H, out:
//   r   = map[M] reduce D: X[M, D] 256*512*2 = 262144 B,
//         write 256*4 = 1024 B (f32)                          ->   263168
//   Xn  = map[M, D]: X 262144 B; r[M] 256*nb(D)=8*4 = 8192 B; g[D]
//         512*nb(M)=4*2 = 4096 B; write 256*512*2 = 262144 B  ->   536576
//   A1  = map[M, F] reduce D: Xn[M, D] 256*512*nb(F)=16*2 = 4194304 B,
//         W1[D, F] 512*1024*nb(M)=4*2 = 4194304 B,
//         write 256*1024*2 = 524288 B                         ->  8912896
//   A3  = as A1                                               ->  8912896
//   S   = map[M, F]: A1 524288 B, write 524288 B              ->  1048576
//   H   = map[M, F]: S and A3 524288 B each, write 524288 B   ->  1572864
//   out = map[M, C] reduce F: H[M, F] 256*1024*nb(C)=2*2 = 1048576 B,
//         W2[F, C] 1024*512*nb(M)=4*2 = 4194304 B,
//         write 256*512*2 = 262144 B                          ->  5505024
//   global_bytes = 263168 + 536576 + 2*8912896 + 1048576 + 1572864
//                  + 5505024 = 26752000
//   buffered edges: r->Xn, Xn->A1, Xn->A3, A1->S, S->H, A3->H, H->out = 7
//   intermediates: r [256] f32, Xn [256, 512] (2 readers), A1, A3, S, H
//   [256, 1024], all bf16.
// FFN-UNFUSED:      "program": "rmsnorm_ffn_swiglu",
// FFN-UNFUSED:      "kernels": 7,
// FFN-UNFUSED-NEXT: "buffered_edges": 7,
// FFN-UNFUSED-NEXT: "global_bytes": 26752000,
// FFN-UNFUSED:      "intermediates": [
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "f32",
// FFN-UNFUSED-NEXT:     "bytes": 1024,
// FFN-UNFUSED-NEXT:     "readers": 1
// FFN-UNFUSED-NEXT:   },
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256,
// FFN-UNFUSED-NEXT:       512{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "bf16",
// FFN-UNFUSED-NEXT:     "bytes": 262144,
// FFN-UNFUSED-NEXT:     "readers": 2
// FFN-UNFUSED-NEXT:   },
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256,
// FFN-UNFUSED-NEXT:       1024{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "bf16",
// FFN-UNFUSED-NEXT:     "bytes": 524288,
// FFN-UNFUSED-NEXT:     "readers": 1
// FFN-UNFUSED-NEXT:   },
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256,
// FFN-UNFUSED-NEXT:       1024{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "bf16",
// FFN-UNFUSED-NEXT:     "bytes": 524288,
// FFN-UNFUSED-NEXT:     "readers": 1
// FFN-UNFUSED-NEXT:   },
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256,
// FFN-UNFUSED-NEXT:       1024{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "bf16",
// FFN-UNFUSED-NEXT:     "bytes": 524288,
// FFN-UNFUSED-NEXT:     "readers": 1
// FFN-UNFUSED-NEXT:   },
// FFN-UNFUSED-NEXT:   {
// FFN-UNFUSED-NEXT:     "shape": [
// FFN-UNFUSED-NEXT:       256,
// FFN-UNFUSED-NEXT:       1024{{$}}
// FFN-UNFUSED-NEXT:     ],
// FFN-UNFUSED-NEXT:     "element_type": "bf16",
// FFN-UNFUSED-NEXT:     "bytes": 524288,
// FFN-UNFUSED-NEXT:     "readers": 1
// FFN-UNFUSED-NEXT:   }
// FFN-UNFUSED-NEXT: ],
// FFN-UNFUSED-NEXT: "per_kernel": [

// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.fused.mlir --block-report='block-sizes=M=64,D=64,F=64,C=256' -o /dev/null | FileCheck %s --check-prefix=FFN-FUSED
// One kernel, map[M, C] { reduce F { reduce D { X[M, D]; g[D]; W1[D, F];
// W3[D, F] }; W2[F, C] } }:
//   X[M, D]  256*512*nb(C)=2*nb(F)=16*2 = 8388608 B
//   g[D]     512*nb(M)=4*nb(C)=2*nb(F)=16*2 = 131072 B
//   W1[D, F] 512*1024*nb(M)=4*nb(C)=2*2 = 8388608 B, W3 the same
//   W2[F, C] 1024*512*nb(M)=4*2 = 4194304 B
//   write out 256*512*2 = 262144 B
//   global_bytes = 8388608 + 131072 + 2*8388608 + 4194304 + 262144
//                = 29753344
// More than the unfused 26752000 at these block sizes: the up-projection,
// with its reads of X, W1 and W3, is replicated across the nb(C) = 2 column
// blocks, and X is read again for every block of F (docs/design/02-fusion-rules.md: the
// trade is block-select's). FFN-FUSED-C1 below takes C in one block.
// FFN-FUSED:      "program": "rmsnorm_ffn_swiglu",
// FFN-FUSED:      "kernels": 1,
// FFN-FUSED-NEXT: "buffered_edges": 0,
// FFN-FUSED-NEXT: "global_bytes": 29753344,
// FFN-FUSED:      "intermediates": [],

// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.fused.mlir --block-report='block-sizes=M=64,D=64,F=64,C=512' -o /dev/null | FileCheck %s --check-prefix=FFN-FUSED-C1
// As above with nb(C) = 1:
//   X 256*512*1*16*2 = 4194304 B; g 512*4*1*16*2 = 65536 B;
//   W1, W3 512*1024*4*1*2 = 4194304 B each; W2 4194304 B; write 262144 B
//   global_bytes = 4194304 + 65536 + 3*4194304 + 262144 = 17104896
// FFN-FUSED-C1:      "block_sizes": {
// FFN-FUSED-C1:        "C": 512
// FFN-FUSED-C1:      "kernels": 1,
// FFN-FUSED-C1-NEXT: "buffered_edges": 0,
// FFN-FUSED-C1-NEXT: "global_bytes": 17104896,
// FFN-FUSED-C1:      "intermediates": [],

//===----------------------------------------------------------------------===//
// Options, on @edges below: M = 100 tiled with block 32 in the axis table
// (blocks 32, 32, 32, 4: nb(M) = 4, the last partial), N = 64 tiled with no
// block size, D = 16 whole.
//
//   P = map[M, N] { A[M, D]; B[N, D]; dot contract D }   (a 100 x 64 array)
//   r = map[M] { reduce N { P[M, N]; rowsum } }
//
// Local footprint, by the convention: a tile has the block size along
// iterated axes and the extent along the others; a value is live from its
// definition to its last use; a reduce's results are live while its body
// runs, on top of the body's own peak.
//===----------------------------------------------------------------------===//

// Block sizes from the table; N has none, so the default 128 applies,
// clamped to the extent 64: nb(N) = 1.
//   P: A[M, D] 100*16*nb(N)=1 = 1600 el (exact with the partial block; not
//      4*32*16 = 2048) = 6400 B; B[N, D] 64*16*nb(M)=4 = 4096 el = 16384 B;
//      write 100*64*4 = 25600 B                               ->  48384
//   r: P[M, N] 100*64 el = 25600 B, write 100*4 = 400 B       ->  26000
//   global_bytes = 48384 + 26000 = 74384
//   local, P: a 32*16*4 = 2048, b 64*16*4 = 4096, p 32*64*4 = 8192, all
//      live while the dot runs: 14336
//   local, r: reduce body: p 32*64*4 = 8192 + t 32*4 = 128 = 8320, plus the
//      reduce's state 32*4 = 128: 8448
//   local_bytes_peak = max(14336, 8448) = 14336
//   registers hold reduce states, shared memory the other tiles:
//   P: no reduce, registers 0, shared 14336; r: the state 128 in
//   registers, the body's 8320 in shared memory
//   register_bytes_peak = 128, shared_bytes_peak = max(14336, 8320) = 14336
// RUN: bb-opt %s --block-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// TABLE:      "program": "edges",
// TABLE-NEXT: "block_sizes": {
// TABLE-NEXT:   "M": 32,
// TABLE-NEXT:   "N": 64,
// TABLE-NEXT:   "D": 16
// TABLE-NEXT: },
// TABLE-NEXT: "kernels": 2,
// TABLE-NEXT: "buffered_edges": 1,
// TABLE-NEXT: "global_bytes": 74384,
// TABLE:      "local_bytes_peak": 14336,
// TABLE-NEXT: "register_bytes_peak": 128,
// TABLE-NEXT: "shared_bytes_peak": 14336,
// TABLE-NEXT: "intermediates": [
// TABLE-NEXT:   {
// TABLE-NEXT:     "shape": [
// TABLE-NEXT:       100,
// TABLE-NEXT:       64{{$}}
// TABLE-NEXT:     ],
// TABLE-NEXT:     "element_type": "f32",
// TABLE-NEXT:     "bytes": 25600,
// TABLE-NEXT:     "readers": 1
// TABLE-NEXT:   }
// TABLE-NEXT: ],
// TABLE:        "instances": 4,
// TABLE-NEXT:   "global_bytes_read": 22784,
// TABLE-NEXT:   "global_bytes_written": 25600,
// TABLE:        "local_bytes_peak": 14336,
// TABLE-NEXT:   "register_bytes_peak": 0,
// TABLE-NEXT:   "shared_bytes_peak": 14336
// TABLE:        "instances": 4,
// TABLE-NEXT:   "global_bytes_read": 25600,
// TABLE-NEXT:   "global_bytes_written": 400,
// TABLE:        "local_bytes_peak": 8448,
// TABLE-NEXT:   "register_bytes_peak": 128,
// TABLE-NEXT:   "shared_bytes_peak": 8320

// default-block-size=16 reaches N only (M keeps its table block 32):
// nb(N) = 4.
//   P: A 100*16*nb(N)=4 = 6400 el = 25600 B; B 4096 el = 16384 B;
//      write 25600 B                                          ->  67584
//   r: unchanged                                              ->  26000
//   global_bytes = 67584 + 26000 = 93584
//   local, P: a 2048 + b 16*16*4 = 1024 + p 32*16*4 = 2048 = 5120
//   local, r: p 2048 + t 128 + state 128 = 2304
//   local_bytes_peak = 5120; P has nb(M)*nb(N) = 16 instances
// RUN: bb-opt %s --block-report='default-block-size=16' -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// DEFAULT:      "block_sizes": {
// DEFAULT-NEXT:   "M": 32,
// DEFAULT-NEXT:   "N": 16,
// DEFAULT-NEXT:   "D": 16
// DEFAULT-NEXT: },
// DEFAULT-NEXT: "kernels": 2,
// DEFAULT-NEXT: "buffered_edges": 1,
// DEFAULT-NEXT: "global_bytes": 93584,
// DEFAULT:      "local_bytes_peak": 5120,
// DEFAULT:      "instances": 16,
// DEFAULT-NEXT: "global_bytes_read": 41984,
// DEFAULT:      "local_bytes_peak": 2304

// block-sizes overrides the table: M = 48, blocks 48, 48, 4: nb(M) = 3.
//   P: A 1600 el = 6400 B; B 1024*nb(M)=3 = 3072 el = 12288 B;
//      write 25600 B                                          ->  44288
//   r: 26000; global_bytes = 44288 + 26000 = 70288
//   local, P: a 48*16*4 = 3072 + b 4096 + p 48*64*4 = 12288 = 19456
// RUN: bb-opt %s --block-report='block-sizes=M=48' -o /dev/null | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE:      "M": 48,
// OVERRIDE:      "global_bytes": 70288,
// OVERRIDE:      "local_bytes_peak": 19456,

// output= writes the report to a file; standard output then carries only
// the IR.
// RUN: bb-opt %s --block-report='output=%t' | FileCheck %s --check-prefix=STDOUT
// RUN: FileCheck %s --check-prefix=TABLE < %t
// STDOUT-NOT:  "kernels"
// STDOUT:      block.program @edges
// STDOUT-NOT:  "kernels"

// A block size must be positive.
// RUN: not bb-opt %s --block-report='block-sizes=M=0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: block-report: block size 'M=0' is not of the form AXIS=SIZE with a positive SIZE
// RUN: not bb-opt %s --block-report='default-block-size=0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-DEFAULT
// BAD-DEFAULT: error: block-report: default-block-size must be positive
// A typo in an axis name, a whole axis, or an axis set twice is an error,
// not a silent fall-back to default sizes.
// RUN: not bb-opt %s --block-report='block-sizes=Q=16' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-AXIS
// BAD-AXIS: error: block-report: block-sizes names axis 'Q', which no program declares as a tiled axis
// RUN: not bb-opt %s --block-report='block-sizes=D=8' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-WHOLE
// BAD-WHOLE: error: block-report: block-sizes names axis 'D', which no program declares as a tiled axis
// RUN: not bb-opt %s --block-report='block-sizes=M=16,M=32' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-TWICE
// BAD-TWICE: error: block-report: block-sizes sets axis 'M' twice

// FLOPs: P's dot 2*100*64*16 = 204800; r's tile_reduce reads 100*64 = 6400
// elements, and its built-in add folds one [M] term per block of N into the
// state: 100 * nb(N)=1 = 100. Total 211300.
// RUN: bb-opt %s --block-report -o /dev/null | FileCheck %s --check-prefix=FLOPS
// FLOPS: "flops": 211300,

block.program @edges axes(M = 100 tiled block 32, N = 64 tiled, D = 16 whole)
    (%A: !block.array<100x16xf32>, %B: !block.array<64x16xf32>) -> !block.array<100xf32> {
  %P = block.map [M, N] -> !block.array<100x64xf32> {
    %a = block.load %A[M, D] : !block.array<100x16xf32> -> !block.tile<[M, D], f32>
    %b = block.load %B[N, D] : !block.array<64x16xf32> -> !block.tile<[N, D], f32>
    %p = block.dot %a, %b contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  %r = block.map [M] -> !block.array<100xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[M, N] : !block.array<100x64xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %r : !block.array<100xf32>
}

// -----
// A view moves no bytes and is no kernel; a kernel reading a view of another
// kernel's array is one buffered edge, and the array is an intermediate.
//   P: write 64*32*4 = 8192 B (reads nothing);
//   Q: reads the view 2048*4 = 8192 B, writes 8192 B.
// RUN: bb-opt %s -split-input-file --block-report -o /dev/null | FileCheck %s --check-prefix=VIEW
// VIEW:      "program": "viewed",
// VIEW:      "kernels": 2,
// VIEW-NEXT: "buffered_edges": 1,
// VIEW-NEXT: "global_bytes": 24576,
// VIEW:      "intermediates": [
// VIEW-NEXT:   {
// VIEW-NEXT:     "shape": [
// VIEW-NEXT:       64,
// VIEW-NEXT:       32
// VIEW-NEXT:     ],
block.program @viewed axes(M = 64 tiled block 16, N = 32 whole, X = 2048 tiled block 256)
    () -> !block.array<2048xf32> {
  %p = block.map [M] -> !block.array<64x32xf32> {
    %c = block.constant [M, N] 1.0 : f32
    block.yield %c : !block.tile<[M, N], f32>
  }
  %v = block.view %p : !block.array<64x32xf32> to !block.array<2048xf32>
  %q = block.map [X] -> !block.array<2048xf32> {
    %t = block.load %v[X] : !block.array<2048xf32> -> !block.tile<[X], f32>
    block.yield %t : !block.tile<[X], f32>
  }
  block.return %q : !block.array<2048xf32>
}
