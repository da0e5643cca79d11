// blockbuster-cpu-pipeline takes a block program with bound block sizes to
// the LLVM dialect for the host CPU: nothing of the block, func, scf,
// linalg, tensor, memref, arith, math or cf dialects is left, and each
// program has a C interface (`_mlir_ciface_<name>`, memref descriptors by
// pointer: the inputs, then the outputs as out-params).
//
// RUN: bb-opt %examples/block/attention.fused.mlir --block-select='block-sizes=M=48,N=40' \
// RUN:   --blockbuster-cpu-pipeline | FileCheck %s --check-prefix=ATTN \
// RUN:   --implicit-check-not="block." --implicit-check-not="func.func" --implicit-check-not="scf." \
// RUN:   --implicit-check-not="linalg." --implicit-check-not="tensor." --implicit-check-not="memref." \
// RUN:   --implicit-check-not="arith." --implicit-check-not="math." --implicit-check-not="cf." \
// RUN:   --implicit-check-not="unrealized_conversion_cast"
// ATTN: llvm.func @attention(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64
// ATTN-SAME: attributes {llvm.emit_c_interface}
// ATTN: llvm.func @_mlir_ciface_attention(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}

// The bf16 mega-kernel: bf16 <-> f32 conversions are integer bit operations
// (arith-expand), so no soft-float runtime call is left.
// RUN: bb-opt %examples/block/rmsnorm_ffn_swiglu.fused.mlir --block-select='block-sizes=M=48,D=96,F=200,C=100' \
// RUN:   --blockbuster-cpu-pipeline | FileCheck %s --check-prefix=FFN \
// RUN:   --implicit-check-not="block." --implicit-check-not="func.func" --implicit-check-not="linalg." \
// RUN:   --implicit-check-not="arith." --implicit-check-not="__truncsfbf2" --implicit-check-not="__extendbfsf2"
// FFN: llvm.func @_mlir_ciface_rmsnorm_ffn_swiglu(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)

// Without block sizes the pipeline stops at convert-block-to-linalg.
// RUN: not bb-opt %examples/block/attention.fused.mlir --blockbuster-cpu-pipeline 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: error: 'block.program' op tiled axis 'M' of @attention has no block size; run block-select first

// The pipeline is registered beside the passes.
// RUN: bb-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --blockbuster-cpu-pipeline
// HELP-SAME: Lowers block programs (block sizes bound) to the LLVM dialect for the host CPU
