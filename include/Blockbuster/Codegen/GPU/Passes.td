//===- Passes.td - Tiled Linalg to the GPU dialect ---------*- tablegen -*-===//
//
// The GPU half of docs/design/03-lowering-and-runtime.md: per-block Linalg on
// tensors (the output of convert-block-to-linalg) -> buffers in global and
// workgroup memory -> thread-distributed loops in a gpu.launch per kernel ->
// NVVM -> PTX. `blockbuster-gpu-pipeline` (lib/Pipelines/GPUPipeline.cpp)
// strings these passes together with upstream ones.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_CODEGEN_GPU_PASSES_TD
#define BLOCKBUSTER_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUPromoteBlockTiles : Pass<"gpu-promote-block-tiles", "::mlir::ModuleOp"> {
  let summary = "Maps block grids to GPU blocks and puts block tiles in workgroup memory";
  let description = [{
    Runs on Linalg on tensors as `convert-block-to-linalg` emits it. Every
    outermost `scf.forall` of a function is one kernel: its dimensions get
    the mapping `#gpu.block<z, y, x>` (the last dimension is `x`), and every
    `tensor.empty` inside it becomes a `bufferization.alloc_tensor` in
    `#gpu.address_space<workgroup>`, so that one-shot bufferization puts
    the block's tiles in shared memory while slices of the program's arrays
    stay in global memory. A grid of no dimensions (a map whose axes are all
    whole) becomes a grid of one block; a grid of more than three
    dimensions (batch, heads and row tiles of a 4-D attention) keeps its
    last two as `x` and `y` and folds the leading ones into `z`, whose id is
    split back with division and remainder.
    Each function records its number of inputs in `blockbuster.num_inputs`,
    which the launch manifest needs once results have become out-params.
    The pass is idempotent; the GPU pipeline runs it before canonicalization
    (which would inline the body of an unmapped one-block grid into the host)
    and again after elementwise fusion (which makes new `tensor.empty` ops).
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
  ];
}

def GPUFuseElementwiseTileOps
    : Pass<"gpu-fuse-elementwise-tile-ops", "::mlir::ModuleOp"> {
  let summary = "Fuses elementwise tile ops without replicating their work";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (same patterns: elementwise
    fusion, reshape folding by expansion, constant folding) with one more
    condition: a producer is not fused into a consumer with reduction loops
    unless the consumer reads each of its elements once (the operand's
    indexing map is a permutation of the consumer's loops) or it is a pure
    widening cast (one `arith.extf` of its only input). Upstream fuses the
    prologue of a dot (a LayerNorm's normalisation, rounded to bf16) into
    the contraction itself: the fused generic recomputes the prologue for
    every column of the result, k-step by k-step, and, its body no longer
    being `ext(A) * ext(B)`, the contraction reaches neither
    `gpu-contractions-to-mma` nor `gpu-contractions-to-fma`. Kept apart,
    the prologue writes its tile once and the dot runs on tensor cores.
    Row reductions of an elementwise tile (a sum of squares of `x - mean`)
    still fuse: each element is read once. A `tensor.collapse_shape` that
    only drops dimensions of extent 1 (a batch of one, a 2-D block reading
    a [1, S, D] argument) is not folded into a contraction: the fold buys
    nothing and gives the dot a loop of extent 1 and a result with a unit
    dimension after its rows, which the attention register schedules
    (`gpu-flash-attention`) refuse.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GPUCarryLoopStateInPlace
    : Pass<"gpu-carry-loop-state-in-place", "::mlir::ModuleOp"> {
  let summary = "Keeps the state of reduce loops in the buffers it starts in";
  let description = [{
    Bufferization lets an `scf.for` yield a buffer allocated in its body (a
    reduce's new state). Inside a kernel every allocation gets a fixed place
    in shared memory, so a buffer must not outlive the iteration that
    allocated it. For every memref `iter_arg` of an `scf.for` inside a
    block grid, this pass copies the yielded buffer into the initial buffer
    at the end of the body (`linalg.copy`, distributed like every other
    tile op), forwards the initial buffer to every use of the `iter_arg` and
    of the loop result, and yields the initial buffer unchanged.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GPUContractionsToMMA
    : Pass<"gpu-contractions-to-mma", "::mlir::ModuleOp"> {
  let summary = "Runs f16/bf16 tile contractions on tensor cores (mma.sync)";
  let description = [{
    The GPU lowering of `block.dot`. Inside every block grid, each
    contraction `linalg.generic` on buffers computing
    `C[b.., m, n] += ext(A[b.., m, k]) * ext(B[b.., k, n])` with f16 or bf16
    `A` and `B` and an f32 `C` becomes:

    1. a thread forall staging `A` and `B` into workgroup memory, padded
       with zeros to multiples of the m16n8k16 shape (tiles at partial edge
       blocks have dynamic extents; the padded size is their constant upper
       bound), each in the orientation that keeps its source's contiguous
       dimension contiguous (coalesced loads; ldmatrix reads it with or
       without `.trans`), rows padded by 16 bytes against bank conflicts;
       groups of 16 bytes inside the tile whose source address is aligned
       (tested at run time) are one `cp.async` from global memory (one
       vector copy within shared memory), the others element by element;
       each thread waits for its copies before the barrier;
    2. a warp forall (`#gpu.warp<linear_dim_0>`): each warp takes work items
       of 16 rows x up to 8 n fragments and loops over k in steps of 16 with
       `nvgpu.ldmatrix` (x4 for A, x2 for B) and `nvvm.mma.sync`
       (m16n8k16, f32 accumulators in registers);
    3. each lane adding the accumulator elements it owns that lie inside the
       tile to `C`.

    Batch dimensions become sequential loops. Other contractions (f32, a
    dot without an m or n dimension such as a row sum of squares) are left
    to `gpu-distribute-to-threads`. Runs before it; requires `threads` to be
    a multiple of 32.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUFlashAttention
    : Pass<"gpu-flash-attention", "::mlir::ModuleOp"> {
  let summary = "Runs fused attention blocks with their tiles in registers";
  let description = [{
    The schedule of FlashAttention-2 (mma.sync) for a block whose work is
    attention-shaped (docs/design/06-fast-kernels.md, section 3, shape 2)
    and whose query rows fit 16 per warp (`threads / 2` rows: 64 at 128
    threads): every workgroup buffer of the block is either a row vector
    (one value per query row: the softmax statistics, query positions) or a
    query-rows x columns tile, and it is computed by fills, copies,
    elementwise ops, row reductions over the columns (add, mul, max, min),
    reduce loops (`scf.for`) and dots `C[m, n] += A[m, k] * B[n, k]` (or
    `B[k, n]`) with bf16 or f16 operands and f32 accumulation, where A is a
    tile of a global array (Q) or a 16-bit tile of the block (P), and B a
    tile of a global array (K or V); or A an f32 tile of the block and B a
    bf16 one widened in the dot's body (item 8). Every tile lives in the registers of
    the mma.sync m16n8k16 accumulator layout (lane l of warp w holds rows
    16 w + l / 4 and + 8, columns 2 (l % 4) + 8 j and + 1):

    1. A's fragments are loaded once from global memory; B's tile is copied
       into shared memory (16-byte `cp.async`, rows padded by 16 bytes,
       rows past the tile's end zero) one iteration ahead of its use in a
       loop (two slots, one copy group per operand), and read with
       `ldmatrix` (`.trans` when its rows are the contracted axis);
       S = Q K^T and O += P V run on `nvvm.mma.sync` with the accumulators
       in registers, and P's registers (two adjacent n8 accumulator tiles)
       are the A operand of P V without leaving the registers;
    2. elementwise ops clone their body per register (row vectors broadcast
       along the columns, `linalg.index` is the element's row and column);
       row reductions fold each lane's registers and combine the four lanes
       of a quad with two xor shuffles;
    3. the state of a reduce loop (running maximum, sum, accumulator)
       becomes loop-carried registers (`iter_args`);
    4. the result is stored from the registers, two adjacent columns at a
       time, bounds-checked at partial edge blocks;
    5. a dot whose tile's one reader keeps it only through
       `select(c, f(S), g)`, with `c` comparing a column position and a row
       position that grow with their index (a causal mask built from
       `linalg.index`): its reduce loop stops before the key tiles the mask
       discards whole, where an abstract evaluation of the loop body proves
       that such an iteration leaves the loop's state unchanged (else such
       a tile skips its dot); a tile the mask keeps whole runs the mask's
       body with `c` true, a tile crossing the diagonal compares constant
       column offsets with one threshold per row;
    6. f32 `math.exp` becomes `ex2.approx.ftz` of the argument times
       log2(e), with a constant factor of the argument (the softmax scale)
       folded into one fma; the thread id is marked
       `blockbuster.occupancy_by_shared_memory`, which
       `gpu-kernel-arg-attrs` turns into `nvvm.minctasm`;
    7. a reduce loop in rule 9's online form whose P V reads a rounding
       marked `blockbuster.rescalable` (the single pass under
       divide-after-rounding or round-dot-operands), or the exponential
       itself unrounded (f32 P: only f32 roundings move), first takes
       FlashAttention's combine, on its linalg ops: M = max(m, m_j) before
       the exponent, P = exp(S - M), l = l alpha + rowsum(P), and P V
       accumulated into O alpha (no second accumulator, no product by
       beta = exp(m_j - M)); the rounding of P moves past the positive
       factor beta, which the mark allows (lib/Codegen/GPU/
       RunningMaxCombine.h). A rounding without the mark keeps the
       program's combine;
    8. a dot of an f32 tile of the block (P) and a bf16 global tile
       widened in its body (V: PyTorch's SDPA exported as is keeps P in
       f32) splits P's registers into `f32-operand-parts` bf16 parts, a
       pair of elements at a time: part 0 the rounding of P, each next
       part the rounding of what the earlier ones leave (an exact f32
       difference). Three parts sum to P exactly (for |P| >= 2^-110) and
       products of bf16 values are exact in f32, so P V stays the
       program's f32 dot, summed by the tensor cores: one mma.sync or
       register-A wgmma per part and k16 step on the same B, into the
       same accumulator. Two parts leave at most 2^-17 |P| out.

    With `mma=wgmma` (the GPU pipeline's default on sm_90a) a block of 4
    or 8 warps (one or two consumer warpgroups of 64 query rows) whose Q,
    K and V are views `[1, .., 1, rows, D]` (D a multiple of 64, or 16,
    32 or 48 in one zero-filled box of 64 columns with P V's n padded to
    64; at most 128 key rows; or the whole argument in a grid of one
    block) of function arguments takes the wgmma schedule instead, as
    does a block without a reduce loop (one key tile), its K and V copied
    once like Q (on mma.sync such a block keeps the generic path): one
    TMA descriptor per array before the grid, Q copied once into shared
    memory, K and V through one TMA ring per reduce loop (a
    slot per operand and one more, an mbarrier per slot, a block barrier
    before each refill), S = Q K^T as wgmma m64n64k16 or m64n128k16 from
    shared memory and P V as wgmma m64nDk16 with P's registers as A (the
    accumulators in the same registers as above), P's division by a row's
    sum as a product with the row's reciprocal. `mma=wgmma-qk` puts S
    alone on wgmma; `mma=wgmma-overlap` also issues a loop's S = Q K^T an
    iteration ahead (its wgmma running while the softmax reads the previous
    S), in a loop whose only dot it is or that then has P V; `mma=wgmma-pingpong` has the two
    warpgroups of an 8-warp block take turns issuing their dots (named
    barriers 1 and 2) and the later one to release a ring slot refill it,
    with no block barrier before a dot. A block the wgmma schedule
    refuses is rebuilt on mma.sync.

    Columns past a partial key tile's end are left out of reductions and
    contribute zero to P V. The program's own ops run on the registers, so
    the exact two-pass form (P normalised, then rounded to bf16) stays
    exact (on wgmma up to P's reciprocal: within 1.5 ulp of f32). A block with anything else (more rows than 16 per warp, a column
    broadcast, a tile read through a view, another loop form) keeps the
    generic path unchanged.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block (a multiple of 32; 16 query rows per warp)">,
    Option<"mma", "mma", "std::string", /*default=*/"\"sync\"",
           "The dots' instructions: sync (mma.sync, K and V by cp.async), "
           "wgmma-qk (S = Q K^T on wgmma with Q and K by TMA; sm_90a), "
           "wgmma (both dots on wgmma, P V with P from registers and V by "
           "TMA; sm_90a), wgmma-overlap (wgmma, and a loop's S = Q K^T, "
           "its only dot or followed by P V, issued an iteration ahead: its "
           "wgmma runs while the softmax reads the previous S), "
           "wgmma-pingpong (wgmma; a "
           "block of two consumer warpgroups takes turns issuing the dots, "
           "without a block barrier before each)">,
    Option<"f32OperandParts", "f32-operand-parts", "int64_t",
           /*default=*/"3",
           "A dot of an f32 tile of the block (P) and a bf16 global tile "
           "widened in its body (V; PyTorch's SDPA exported as is): the "
           "bf16 parts P is split into, each a dot into the same f32 "
           "accumulator: 3 (exact: the parts sum to P) or 2 (within 2^-17 "
           "of P)">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "f32 attention (S = Q K^T of two f32 global tiles, P V of an f32 "
           "P and an f32 global V) on the wgmma schedule with tf32 operands "
           "(10-bit mantissas, inexact: the user's choice; P rounded to "
           "tf32 in registers, V transposed into shared memory); without "
           "it f32 dots stay exact f32">,
    Option<"vWaitEarly", "v-wait-early", "bool", /*default=*/"false",
           "wgmma schedules of one warpgroup: the iteration's V tile waited "
           "for right after S = Q K^T's wgmmas are issued, instead of at P "
           "V (its try_wait loop no longer splits the softmax)">,
    Option<"printRefusals", "print-refusals", "bool", /*default=*/"false",
           "A remark on each attention block grid not taken in registers "
           "or not on wgmma (with `mma` a wgmma form), with the reason">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUSinkPrologueStatistics
    : Pass<"gpu-sink-prologue-statistics", "::mlir::ModuleOp"> {
  let summary = "Moves RMSNorm's statistics kernel into the GEMM blocks "
                "that read it";
  let description = [{
    A block grid (the statistics kernel) that accumulates the sum of
    squares of a bf16 array's rows over k steps into a vector of the host
    (a zero-filled f32 tile, a k loop of `extf(x) * extf(x)` reductions
    added into it, one copy to the vector), read only by the prologue of a
    GEMM block that gpu-warpgroup-matmul runs with A in registers (two
    consumer warpgroups: a 128 x 256 accumulator, or two of 128 x 128) as
    its only row input, used in the row factor alone (RMSNorm's rstd),
    whose raw tile is the kernel's tile of the same array over the same k
    steps: the kernel's body moves to the start of the GEMM block (its row
    block as the GEMM block's), the prologue reads the tile, and the
    kernel, the vector and its views go. Exact (the same ops per block);
    gpu-warpgroup-matmul's `prologue-statistics` then folds the loop into
    its mainloop, so that X is read once. The GPU pipeline runs it on
    sm_90a with `wgmma-prologue-statistics` (and register A with the row
    factor in the accumulator), before gpu-row-kernels, which would lower
    the kernel; that option is off by default: on the H100 the sums cost
    the GEMM kernel more than the statistics kernel takes
    (docs/performance.md, session 11).

    With `small-grids` (the pipeline's `wgmma-split-statistics`, on by
    default) it also sinks into blocks of grids with fewer blocks than
    `sms`, which gpu-warpgroup-matmul splits across the k steps where it
    can: 128 x 128 blocks of one warpgroup too, whose slot rewrite then
    accumulates the sums (the row factor left to the accumulator), each
    split's sums combined with its partials (RMSNorm + matmul M128 K4096
    N4096: one kernel instead of a statistics kernel and the GEMM).
    `register-blocks` (the pipeline's `wgmma-prologue-statistics`) keeps
    the form above for blocks of two warpgroups on any grid.
  }];
  let options = [
    Option<"registerBlocks", "register-blocks", "bool", /*default=*/"true",
           "Blocks of two consumer warpgroups (register A), on any grid">,
    Option<"smallGrids", "small-grids", "bool", /*default=*/"true",
           "Blocks of one or two warpgroups (128 x 128 and 128 x 256 "
           "accumulator columns) on grids of fewer blocks than `sms`">,
    Option<"sms", "sms", "int64_t", /*default=*/"132",
           "Streaming multiprocessors (H100 SXM, H200)">,
  ];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GPUWarpgroupMatmul
    : Pass<"gpu-warpgroup-matmul", "::mlir::ModuleOp"> {
  let summary = "Runs 128 x 128 and 128 x 256 GEMM blocks on Hopper: a TMA "
                "ring and wgmma";
  let description = [{
    The sm_90a schedule of a block that computes one 128 x 128 or 128 x 256
    tile of `A[M, K] * B[K, N]` (f16 or bf16 arrays in global memory, rows
    16-byte aligned, f32 accumulation), whatever the block's own k step (a
    k loop of one dot added into a zero-filled accumulator tile, or one
    whole-k dot into it). A 128 x 128 tile is one warpgroup's (two
    m64n128k16 per k16); a 128 x 256 tile (the blocks that
    `block-warpgroup-gemm-blocks` gives plain GEMMs) is two consumer
    warpgroups', 64 rows each (one m64n256k16 per k16, B read from shared
    memory once per k16 instead of twice), and the grid gets
    `blockbuster.block_threads = 256`. The block's reduce becomes:

    1. on the host, one TMA descriptor per operand
       (`nvgpu.tma.create.descriptor`, 128-byte swizzle, out-of-bounds
       elements read as zero): boxes of 128 x 64 elements of A and 64 x 64
       of B, which become `tensor_map` kernel parameters in the manifest;
    2. in the block, a ring of `stages` shared-memory slots of one k step of
       64 (A 128 x 64, B 64 x 128 or 64 x 256 as swizzled 64 x 64 boxes),
       one mbarrier each; thread 0 fills the first `stages - 1` slots, and
       in step i each warpgroup waits for slot i, runs `nvgpu.warpgroup.mma`
       (f32 accumulators in registers across the whole loop, wgmma groups
       left in flight one step), then thread 0 refills the slot step i - 1
       read with step i + stages - 1. With two warpgroups, each one's first
       thread arrives on a second mbarrier of the slot once its step i - 1
       is done, and thread 0 waits for both before the refill;
    3. after the loop, with `fragment-epilogue` (the default), an epilogue
       that is one elementwise op from the accumulator (or its corner at
       partial edge blocks) to a tile only copied to global memory (the
       bf16 cast, bias, activation) is applied to each thread's accumulator
       registers; for 16-bit results the four lanes of each quad exchange
       their column pairs (three `gpu.shuffle xor`) so that each stores 8
       adjacent columns with one 16-byte store, bounds-checked at partial
       edge blocks (loads of other epilogue inputs clamped to the target),
       32-bit results two columns at once: no shared memory, one barrier
       fewer. Otherwise the fragments are stored into an f32 tile that
       replaces the old accumulator (a view of its corner at partial edge
       blocks), and the epilogue is lowered as before;
    4. with `group-rows` G > 0, the block's tile is taken in grouped order
       (the block ids of a two-dimensional grid renumbered so that
       consecutive blocks sweep G rows of tiles column by column): the
       blocks resident at one time share A rows and B columns in L2.

    A grid of fewer blocks than `sms` whose epilogue runs on the fragments
    splits its k steps across S blocks (`split-max-blocks` > 0; S by the
    rule of include/Blockbuster/Support/SplitFactor.h, at most 4, a power
    of two that divides the steps and leaves each split 16 or more, with as
    many blocks per SM as the ring's shared memory allows): the grid gets
    a third dimension (#gpu.block<z>), split s runs steps [s T/S,
    (s + 1) T/S) of the ring (its TMA coordinates and the prologue's
    column inputs offset by s T/S), then stores its accumulator registers
    into its slot of an f32 partials buffer (an intermediate; per group of
    4 registers the block's threads side by side, 16-byte stores); after
    the block's barrier thread 0 fences (acquire-release at GPU scope) and
    counts the block in on the tile's counter (an i32 `workspace`); the
    block that counts last fences again, zeroes the counter (a replayed
    CUDA graph needs no memset) and, after a barrier, sums the S partials
    in split order (its own read back like the others': the same sum
    whichever block is last) and runs the epilogue on the sums. RMSNorm's
    row factor is applied to each split's registers before its store, or
    with prologue statistics in the mainloop (`prologue-statistics`, a
    statistics loop that gpu-sink-prologue-statistics put in the block),
    after the combine: each split stores its rows' sums of squares as one
    more group of 4 partials, first, and the last block computes the row
    factors from their sums in split order. The statistics come from the
    register fragments, or where the slot is rewritten, from its chunks
    (the 8 lanes of a row summed by shuffles, handed to the rows of the
    accumulator registers through shared memory), the A element then
    without its row factor too. Not split: the epilogue through shared
    memory. At partial edge tiles the epilogue's 16-byte stores are
    predicated in straight-line code (inline PTX), not branched around:
    with branches ptxas issued the combine's loads before the first and
    spilled about 1 KB.

    `stages` 0 (the default) takes 3 slots for 128 x 128 tiles (96 KB: two
    blocks share an SM, one's epilogue overlapping the other's mainloop),
    4 for a split grid of 128 x 128 tiles with at most one block per SM,
    and 4 for 128 x 256 (192 KB). On the H100 (docs/performance.md) 128 x 256
    blocks with the register epilogue run bf16 4096^3 at 0.92x cuBLAS,
    128 x 128 blocks through shared memory at 0.75x.

    A 128 x 128 or 128 x 256 block whose A tile it computes itself,
    elementwise from a tile of a global array of the same 16-bit type (the
    normalised rows of LayerNorm or RMSNorm + matmul: inputs read at
    (m, k), loop-invariant row inputs at (m), views of global vectors at
    (k)), takes the same schedule with a prologue: TMA stages the raw tile
    as A. With `prologue-registers` (the default) and two warpgroups, each
    warpgroup loads its 64 rows of the raw slot straight into wgmma's A
    fragment layout (`ldmatrix.x4` on the swizzle), applies the op's body
    to the registers (the part that reads only row inputs once, before the
    mainloop; gamma/beta pairs loaded before the slot's wait) and issues
    `wgmma.mma_async` with A from registers (inline assembly: upstream's
    wgmma ops take descriptors only), two k steps per loop iteration so
    that the A registers written are never those of the wgmma in flight;
    the slot is released after the wgmma that read its B, and the refill
    is a branch of the second warpgroup's first thread. Otherwise (or with
    one warpgroup, whose two A sets would not fit beside its 128
    accumulators) each warpgroup applies the body to its rows of the
    slot's A part in place (16-byte chunks of the 128-byte swizzle), then
    `fence.proxy.async`. With `prologue-ahead` (the default) step i
    issues its wgmma, releases and refills step i - 1's slot as a plain
    GEMM does, rewrites step i + 1's slot while its wgmma runs and meets
    the warpgroup's warps at a barrier; without, step i rewrites its own
    slot, waits for step i - 1's wgmma group and synchronises the block
    before thread 0 refills that slot and step i's wgmma starts. The
    arithmetic and the rounding to 16 bits are the op's own, except that
    with `prologue-row-scale` (the default) a register-A body whose
    rounded result is a product with factors of the row inputs alone
    (RMSNorm's `truncf(x * rstd * gamma)`) leaves those factors to the
    accumulator: the A registers are the rest of the product, rounded
    (`x * gamma` as one bf16x2 multiply per register, exact for two 16-bit
    values), and each accumulator row is multiplied by its factor after
    the mainloop (a rounding before rstd instead of after it; the error
    against fp32 is unchanged, docs/GPUPipeline.md). With
    `prologue-statistics` (the default), where that row factor comes from
    the prologue's only row input and that input is the sum of squares of
    the raw rows, accumulated by a k loop of the block before the mainloop
    over the same tiles (what gpu-sink-prologue-statistics makes of
    RMSNorm's statistics kernel), the loop goes: each thread adds the
    squares of its ldmatrix pairs in f32 (widened by a shift or a mask,
    one fma each) into two sums the mainloop carries, and after it two
    butterfly shuffles per row total the quad's sums, from which the row
    factor follows.

    Two dots of one such computed A tile in one k loop, each into an
    accumulator of its own, 128 x 128 tiles with B tiles of two arrays at
    the same place (the gate and up projections of an RMSNorm + SwiGLU
    FFN, whose epilogue reads both accumulators), share one mainloop: a
    slot holds A, then the 64 x 128 part of each B; each of two warpgroups
    computes its 64 rows of A in registers once per k16 and issues one
    m64n256k16 over both B parts, which lie side by side at the
    descriptor's leading-byte stride, into its two 64 x 128 accumulators
    (the registers of one 64 x 256; `products-one-wgmma=false`: one
    m64n128k16 into each) in one wgmma group; the epilogue op's body runs
    on both accumulators' registers at the same positions. Only with
    `prologue-registers` and an epilogue on the fragments; otherwise both
    dots are left to `gpu-contractions-to-mma`.

    With `producer`, a block of two consumer warpgroups whose epilogue runs
    on the fragments and whose grid is not split gets a third, producer
    warpgroup (`blockbuster.block_threads = 384`): after the mbarriers are
    published the block branches; the producer lowers its registers
    (`nvvm.setmaxregister decrease 40`) and its first thread issues every
    slot's copies, each once both consumer warpgroups released the slot's
    previous use (one empty mbarrier per slot); the consumers raise theirs
    (`increase 232`), wait for each slot, multiply, release the slot of
    the step before, and run the epilogue in their branch after a named
    barrier of their 256 threads. With `persistent` as well, the grid of
    such a block becomes min(`sms`, tiles) blocks looping over the tiles
    in the grouped order (`group-rows`), the ring and its barriers kept
    across tiles and a tile's last slot released after its mainloop, so
    that the producer loads the next tile during this tile's last steps
    and epilogue (registers 56 and 224); not for a register prologue that
    keeps row values in the mainloop (LayerNorm's: spills) nor for blocks
    that compute before their reduce.

    With `cluster-multicast` too, a persistent grid that stream-K does not
    share out and whose tiles have an even number of rows runs in clusters
    of two blocks (`blockbuster.cluster_blocks = 2`; min(`sms` / 2, pairs)
    clusters): the cluster loops over pairs of tiles, two rows by one
    column, in the grouped order of `group-rows` / 2 pair rows, the block of
    rank r (its block id modulo 2) on the pair's row r. Both read the same
    B: each block's producer loads its A tile and half of the slot's B
    boxes, multicast to both blocks (TMA `multicast_mask`); a slot's full
    mbarrier expects the whole slot, its empty mbarrier counts both blocks'
    consumer warpgroups, which release each slot in their own block and,
    through `mapa` and a remote arrive, in the partner. The inits are
    published to the cluster (`fence.mbarrier_init`, the cluster's
    barrier) before any remote access, and the consumers pass the cluster's
    barrier again before they exit.

    Other contractions are left to `gpu-contractions-to-mma`. The GPU
    pipeline runs this pass for `chip=sm_90a` only, before that one;
    `threads` must be 128 (one warpgroup: the pipeline's own thread count),
    otherwise the pass does nothing.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Shared-memory slots of the copy ring (0: 3 for 128 x 128 "
           "tiles, 4 for 128 x 256)">,
    Option<"groupRows", "group-rows", "int64_t", /*default=*/"8",
           "Rows of tiles per group of the launch order (0: row by row)">,
    Option<"fragmentEpilogue", "fragment-epilogue", "bool",
           /*default=*/"true",
           "Applies an elementwise epilogue to the accumulator registers "
           "and stores the results straight to global memory">,
    Option<"prologueRegisters", "prologue-registers", "bool",
           /*default=*/"true",
           "A blocks with a prologue: each warp loads its rows of the raw "
           "tile into wgmma's A fragment layout (ldmatrix), applies the "
           "prologue there and issues register-A wgmmas (off: the slot's A "
           "part rewritten in shared memory, `prologue-ahead` says when)">,
    Option<"prologueRegistersOneWarpgroup",
           "prologue-registers-one-warpgroup", "bool", /*default=*/"true",
           "With `prologue-registers`, also 128 x 128 blocks of one "
           "warpgroup (two sets of 32 A registers beside 128 accumulators) "
           "where every tile is whole and the mainloop takes the "
           "statistics (`prologue-statistics`; RMSNorm's A element x * "
           "gamma): no slot rewrite, proxy fence or warpgroup barrier per "
           "k step">,
    Option<"prologueRowScale", "prologue-row-scale", "bool",
           /*default=*/"true",
           "Register-A prologues whose rounded result is a product with "
           "factors of the row inputs alone (RMSNorm's rstd): those factors "
           "scale the accumulator rows after the mainloop, the rest is "
           "rounded per element (a 16-bit pair multiply where it is "
           "extf(x) * extf(gamma)); off: the op's body as written">,
    Option<"producer", "producer", "bool", /*default=*/"false",
           "Blocks of two consumer warpgroups with the epilogue on the "
           "fragments, unsplit: a third (producer) warpgroup issues the TMA "
           "copies (384 threads, setmaxnreg 40 for it and 232 for the "
           "consumers, full and empty mbarriers per slot)">,
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "Blocks of the producer form on a persistent grid: min(sms, "
           "tiles) blocks, each looping over tiles in grouped order with "
           "the ring and its barriers kept across them, so that the "
           "producer loads a tile's first steps during the previous tile's "
           "last steps and epilogue">,
    Option<"streamK", "stream-k", "bool", /*default=*/"true",
           "GEMM blocks of one product (a register-A prologue's row factor "
           "applied to each partial) on a persistent grid whose tiles are "
           "no whole number of waves, and at least "
           "`stream-k-min-waves` waves of them: the tiles of the "
           "last whole wave and the partial one are shared out as equal "
           "ranges of k steps, one per block (stream-K), the blocks in up "
           "to 8 groups whose block j runs the same k steps of neighbouring "
           "tiles (CUTLASS's stream-K groups, for L2 reuse); a tile that "
           "two blocks share is summed from both partials by the one that "
           "counts in last">,
    Option<"streamKMinWaves", "stream-k-min-waves", "int64_t",
           /*default=*/"5",
           "Stream-K only on grids of at least this many waves of tiles "
           "(over fewer, the shared tiles' partial sums and weaker L2 reuse "
           "cost more than the partial wave's idle blocks: 4096^3's 3.9 "
           "waves measured 2% slower)">,
    Option<"productsOneWgmma", "products-one-wgmma", "bool",
           /*default=*/"true",
           "Two register-A products of 128 x 128 tiles (SwiGLU's gate and "
           "up): one m64n256k16 per m64 and k16 over both products' B "
           "boxes, which lie side by side in the slot at the descriptor's "
           "leading-byte stride (the accumulator's registers 64 on are the "
           "second product's), instead of one m64n128k16 per product">,
    Option<"clusterMulticast", "cluster-multicast", "bool",
           /*default=*/"false",
           "Blocks of the producer form on a persistent grid that stream-K "
           "does not share out, whose tiles have an even number of rows: "
           "clusters of "
           "two blocks that run the two row tiles of one column side by "
           "side, each loading half of the shared B part of a slot and "
           "multicasting it to both (TMA multicast), the slot's empty "
           "mbarriers counting both blocks' consumers">,
    Option<"clusterMulticastUnaligned", "cluster-multicast-unaligned",
           "bool", /*default=*/"true",
           "cluster-multicast's clusters where B's rows are not whole "
           "128-byte lines (N x 2 bytes; measured 5-15% faster there on "
           "an H200, neutral where only M or K is uneven; "
           "docs/performance.md, \"Session 19: clusters\")">,
    Option<"prologueContractFma", "prologue-contract-fma", "bool",
           /*default=*/"true",
           "A blocks with a prologue: its body with fused multiply-adds "
           "before it is cloned, `(x - mean) * rstd` as `fma(x, rstd, "
           "-(mean * rstd))` (the product once per row) and `* gamma + "
           "beta` as one fma (f32 rounding differences; FmaContraction.h)">,
    Option<"prologueAhead", "prologue-ahead", "bool", /*default=*/"true",
           "A blocks with a prologue: rewrites step i + 1's A part while "
           "step i's wgmma runs, so that the next wgmma is queued behind "
           "the running one (off: step i's, after step i - 1's wgmma)">,
    Option<"prologueStatistics", "prologue-statistics", "bool",
           /*default=*/"true",
           "Prologues whose row factor the accumulator takes and whose "
           "only row input is the sum of squares of the raw rows, "
           "accumulated by a k loop of the block before the mainloop "
           "(RMSNorm's statistics): the mainloop adds the squares of its A "
           "fragments (or of the slot's chunks it rewrites, the row factor "
           "then left out of the rewrite) instead, shuffles total them "
           "after it, a split grid combines each split's sums with its "
           "partials, and the loop goes (off: the loop stays)">,
    Option<"splitMaxBlocks", "split-max-blocks", "int64_t",
           /*default=*/"264",
           "Grids of fewer blocks than `sms` with the epilogue on the "
           "fragments split their k steps across at most this many blocks, "
           "combined in fixed order by the last (0: no split)">,
    Option<"sms", "sms", "int64_t", /*default=*/"132",
           "Streaming multiprocessors (H100 SXM, H200)">,
    Option<"sharedMemoryPerSM", "shared-memory-per-sm", "int64_t",
           /*default=*/"233472", "Shared memory per SM in bytes (H100)">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUTensorMapParams
    : Pass<"gpu-tensor-map-params", "::mlir::ModuleOp"> {
  let summary = "Passes TMA descriptors to kernels as pointers";
  let description = [{
    After outlining, a kernel that uses a TMA descriptor made on the host
    (`nvgpu.tma.create.descriptor`) takes it as a
    `!nvgpu.tensormap.descriptor` parameter, which `convert-gpu-to-nvvm`
    cannot lower (docs/design/05-gpu-lowering-notes.md, gotcha 6). The
    runtime passes a device
    pointer to the 128-byte CUtensorMap it encoded (docs/Artifact.md,
    `tensor_map` parameters), so each such parameter becomes `!llvm.ptr`,
    cast back to the descriptor type at the kernel's entry, and each launch
    passes the descriptor through the inverse cast, which the launch
    manifest reads through.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUContractionsToFMA
    : Pass<"gpu-contractions-to-fma", "::mlir::ModuleOp"> {
  let summary = "Runs the other tile contractions register-tiled on FMA units";
  let description = [{
    The lowering of `block.dot` for tiles `gpu-contractions-to-mma` does not
    take (f32 operands). A contraction `linalg.generic` on buffers inside a
    block grid computing `C[m, n] += A[m, k] * B[k, n]` (each
    operand optionally widened by `extf`) with an f32 `C` becomes a thread
    forall in which each thread owns a register tile of `C`: rows
    `r + R * i` and columns `c + 8 * j` of the threads' `R x 8`
    arrangement. Per k it loads its elements of A's column and B's row and
    applies the op's own body to every pair; rows and columns outside a
    partial edge tile are computed on clamped indices and not stored.
    Accumulators start from `C`, or from zero when `C` is a zero-filled
    tile that is then added into a reduce state, which the threads then
    update directly. Tiles needing more than 64 accumulators per thread
    and batched dots (measured slower this way on attention with a dot per
    head of 8 x 8 x 8) stay with `gpu-distribute-to-threads`.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GPUDecodeRowFactor
    : Pass<"gpu-decode-row-factor", "::mlir::ModuleOp"> {
  let summary = "Leaves RMSNorm's row factor to a decode block's "
                "accumulators and sums its squares in the dot loop";
  let description = [{
    A block grid's dot loop whose 16-bit contractions of at most 16 rows
    (a decode block; at M1 a vector-matrix product, given its unit rows
    dimension back first on a copy, as gpu-decode-gemv does) read one A tile computed elementwise from a raw tile
    of X whose only row input is the sum of squares of X's rows
    (RMSNorm's statistics, accumulated by a loop over the same k steps
    before it) used in a row factor alone (`truncf(x * rstd(sum) *
    gamma)`): the A element becomes `truncf(x * gamma)`, each accumulator
    row is multiplied by its factor after the loop, and the statistics
    loop's work moves into the dot loop. gpu-split-reductions then combines
    the splits' partial sums with their accumulators, and gpu-decode-gemv
    takes the squares from the A fragments it loads: X is read once per
    block and k range instead of whole by every block. Rounding moves
    before the row factor, as on the Hopper GEMM blocks' register
    prologue (docs/GPUPipeline.md, "Decode GEMV blocks"). The GPU pipeline
    runs it before the split where `decode-gemv` and `decode-row-factor`
    are on.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
  ];
}

def GPUDecodeGemv : Pass<"gpu-decode-gemv", "::mlir::ModuleOp"> {
  let summary = "Streams the weights of decode blocks into registers";
  let description = [{
    Kernel shape 4 of the fast-kernel design (docs/GPUPipeline.md, "Decode
    GEMV blocks"). A block grid whose dot loop (a top-level `scf.for`)
    holds one or two tile contractions C[m, n] += ext(A[m, k]) * ext(B[k, n])
    of one 16-bit A of at most 16 rows (a view of global memory, or one
    elementwise prologue of global rows, row scalars and columns: a norm)
    against static [Tk, Tn] views B of global weights (Tn a multiple of 64,
    Tk of 16 x the warps sharing a column group), each added into an f32
    accumulator tile, keeps the loop in registers: each lane loads 16 bytes
    of four weight rows per k16 step, an iteration ahead (inline
    `ld.global.nc`, which LLVM cannot fold to the top of the iteration, on
    grids of at most `weights-ahead-max-blocks` blocks), optionally
    prefetched into L2 further ahead (`prefetch-bytes`), and feeds them as
    the B fragments of 8 n8 tiles of
    `mma.sync` m16n8k16 (no shared memory), the A fragment through the
    prologue from 16-byte loads of its operands (the k order of a warp's
    k16 steps permuted alike for A and B so that a lane's elements are
    contiguous, `activation-vectors`), an iteration ahead too where the
    weights are (`activations-ahead`); after the loop the warps of a column
    group add their accumulators into the tile in warp order. The tiled row
    reductions before the loop (a norm's statistics) take the row-kernel
    schedule. A block whose dot loop holds a vector-matrix product
    C[n] += x[k] * W[k, n] instead (M1: the converter dropped the unit rows
    dimension, the statistics are 0-d) first gets its unit rows dimension
    back, x viewed as a row of its [1, K] array, and is then lowered as a
    block of one row. Anything else keeps the generic path; `print-refusals`
    says why (a remark on each block grid not taken).
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block (where the grid does not say)">,
    Option<"printRefusals", "print-refusals", "bool", /*default=*/"false",
           "A remark on each block grid not taken, with the reason">,
    Option<"prefetchBytes", "prefetch-bytes", "int64_t",
           /*default=*/"0",
           "Weight bytes of a block prefetched into L2 ahead of its loop "
           "(whole iterations, at least one; 0: no prefetch)">,
    Option<"weightsAheadMaxBlocks", "weights-ahead-max-blocks", "int64_t",
           /*default=*/"264",
           "On grids of at most this many blocks (default: two per SM of "
           "the H100's 132; 0: none), the next iteration's weights by loads "
           "LLVM cannot fold (inline ld.global.nc), in flight across the "
           "loop's back edge">,
    Option<"weightsAheadIterations", "weights-ahead-iterations", "int64_t",
           /*default=*/"0",
           "Where the weights are ahead, how many loop iterations ahead "
           "(each costs 16 registers per k16 step a lane loads; 0: as many "
           "whole iterations of the block's weights as `weights-ahead-bytes` "
           "holds, at least one)">,
    Option<"weightsAheadBytes", "weights-ahead-bytes", "int64_t",
           /*default=*/"32768",
           "Where the weights are ahead and `weights-ahead-iterations` is 0: "
           "the bytes of a block's weights in flight ahead, in whole "
           "iterations (at least one)">,
    Option<"activationsAhead", "activations-ahead", "bool",
           /*default=*/"true",
           "Where the weights are ahead and the block has one dot, the A "
           "fragment's loads (x and the norm's vectors) an iteration ahead "
           "too (inline ld.global.nc)">,
    Option<"activationVectors", "activation-vectors", "bool",
           /*default=*/"true",
           "The k16 steps of a warp's iteration take k in an order (the "
           "same for A and B: a sum's order) that makes each lane's A "
           "elements contiguous, loaded by 16-byte vectors (off: 4-byte "
           "pairs per step)">,
    Option<"weightsBeforeStatistics", "weights-before-statistics", "bool",
           /*default=*/"false",
           "In blocks of one dot whose weights are ahead, the first "
           "iteration's loads (and the activations' where they are ahead) "
           "issued before the row statistics, which then run in the GEMV's "
           "warps, a barrier after them">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPURowKernels : Pass<"gpu-row-kernels", "::mlir::ModuleOp"> {
  let summary = "Runs whole-row blocks one row per warp, rows in registers";
  let description = [{
    Kernel shape 3 of the fast-kernel design (docs/GPUPipeline.md, "Row
    kernels"). A block grid whose body, besides index arithmetic, subviews
    of kernel arguments and workgroup allocations, is a sequence of
    `linalg.fill`, `linalg.generic` and `memref.copy` ops over [R, N] rows
    (indexing maps (r, n), (r) and (n); R and N static, N a multiple of 32)
    keeps its rows in registers. A row is split over P warps (a power of
    two up to 8) so that a lane holds at most `max-row-elements-per-lane`
    of its elements; a block runs at most 4 warps (and `threads`): blocks
    of more rows are split into several blocks along x (or loop), blocks of
    fewer rows launch fewer threads (`blockbuster.block_threads`). Each
    lane owns V columns of every chunk of 32 P V (V elements = 16 bytes of
    the narrowest global element type, or fewer where N needs it) and loads
    them as one `vector.load`, all of a row's loads before their first use;
    with `async-row-copies`, where a lane's 16-byte pieces of the rows read
    from global memory are more than 4 (more than ptxas issues together:
    it places the rest of the loads just before their uses), the rows are
    first copied into shared memory by `nvgpu.device_async_copy`, every
    copy before one wait, at most 24 KB a block, and each lane reads back
    the pieces it copied; every buffer of the row is SSA values; the part of a
    body that is the same for the whole row is emitted once per row, and a
    division by it becomes a reciprocal per row and a multiplication per
    element; a row reduction (`yield combiner(out, f(...))`, combiner
    addf, mulf, maximumf, minimumf, maxnumf or minnumf on f32) folds a
    lane's elements into 4 interleaved partials, then five `gpu.shuffle
    xor` give every lane its warp's total, and the P totals of a row are
    combined in warp order through shared memory after a barrier; results
    leave in `vector.store`s (row scalars from lane 0). Every other body
    keeps the generic path (shared-memory tiles).
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
    Option<"maxRowElementsPerLane", "max-row-elements-per-lane", "int64_t",
           /*default=*/"32",
           "The most elements of a row one lane keeps in registers">,
    Option<"contractFma", "contract-fma", "bool", /*default=*/"true",
           "Elementwise bodies with fused multiply-adds: `(x - m) * r` of "
           "row values m, r as `fma(x, r, -(m * r))` (m * r once per row), "
           "`a * b + c` as `fma(a, b, c)`, a row sum of products "
           "`out + a * b` (a variance) with one fma per element (f32 "
           "rounding differences; FmaContraction.h)">,
    Option<"asyncRowCopies", "async-row-copies", "bool", /*default=*/"true",
           "Rows read from global memory in 16-byte pieces, more than 4 a "
           "lane, are copied into shared memory by cp.async (at most 24 KB "
           "a block), every copy before one wait, and read back from there: "
           "ptxas issues so many `ld.global.nc` loads in groups just before "
           "their uses, a DRAM latency each">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUSplitReductions
    : Pass<"gpu-split-reductions", "::mlir::ModuleOp"> {
  let summary = "Splits the reduce loops of small grids across blocks";
  let description = [{
    Kernel shape 4 of the fast-kernel design (decode GEMV). A block grid of
    fewer than `min-blocks` blocks (at most two grid dimensions) whose body
    has top-level `scf.for` loops (lower bound 0, step 1, one constant trip
    count T) holding tile contractions, whose accumulators are f32
    workgroup buffers zero-filled before the loops, only added to in them
    (`out = out + x`) and read after the last one, and which write nothing
    else outside workgroup memory, gets a third grid dimension
    (`#gpu.block<z>`) of S splits: split s runs iterations
    [s T/S, (s+1) T/S). S is a power of two up to `max-splits` dividing T
    with at least `min-iterations` iterations per split and at most
    `max-blocks` blocks in the grid, the one of least estimated time (or no
    split): waves x (P + T / S + 1), where P counts the iterations of the
    body's other loops (a norm's statistics, run whole by every split) and
    a wave is `sms` x the blocks that fit on an SM by threads
    (`threads-per-sm`) and by shared memory (`shared-memory-per-sm`; the
    body's workgroup buffers plus its contractions' global operands).

    The partials are combined in the same launch, in a fixed order (the
    result does not depend on the order blocks finish): each split copies
    its accumulators into its own slot of an f32 partials buffer
    [S, blocks, tile...] (an intermediate of the artifact); after a
    barrier, thread 0 increments the tile's counter (`memref.atomic_rmw
    addi` on an i32 buffer with the `blockbuster.workspace` attribute:
    zeroed by the runtime when it is allocated) between two GPU-scope
    acquire-release fences (`llvm.fence syncscope("device") acq_rel`:
    the release publishes the block's partials, the acquire the other
    splits'); the block that sees S - 1 sums the S
    partials in split order into its accumulators, resets the counter to
    zero (so the next launch, or a replayed CUDA graph, finds it zeroed)
    and runs the rest of the body (the epilogue).
  }];
  let options = [
    Option<"minBlocks", "min-blocks", "int64_t", /*default=*/"132",
           "Grids of this many blocks or more are not split (the H100's "
           "SMs)">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"1056",
           "The most blocks of a split grid (8 per SM of an H100)">,
    Option<"maxSplits", "max-splits", "int64_t", /*default=*/"16",
           "The most splits of one loop">,
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"4",
           "The fewest loop iterations of one split">,
    Option<"sms", "sms", "int64_t", /*default=*/"132",
           "Streaming multiprocessors (H100 SXM)">,
    Option<"sharedMemoryPerSM", "shared-memory-per-sm", "int64_t",
           /*default=*/"233472", "Shared memory per SM in bytes (H100)">,
    Option<"threadsPerSM", "threads-per-sm", "int64_t", /*default=*/"2048",
           "Resident threads per SM (H100)">,
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block (where the grid does not say)">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GPUWarpRowReductions
    : Pass<"gpu-warp-row-reductions", "::mlir::ModuleOp"> {
  let summary = "Gives each row of a tile reduction to one warp (shuffles)";
  let description = [{
    Inside every block grid, a `linalg.generic` on buffers that reduces one
    loop into one f32 output, with a body `yield combiner(out, f(inputs))`
    (`combiner` one of addf, mulf, maximumf, minimumf, maxnumf, minnumf;
    `out` used once), where the reduced loop is the innermost dimension of
    the first input and spans at least 32 elements, becomes a warp forall
    (`#gpu.warp<linear_dim_0>`): warps take rows (the parallel loops,
    linearised) in turn; each lane folds elements lane, lane + 32, ... with
    the op's own body starting from the combiner's identity; five
    `gpu.shuffle xor` steps combine the lanes; lane 0 folds the total into
    the output. Row maxima and sums of softmax, normalisation statistics
    and full reductions take this path; column reductions (coalesced one
    thread per column), short rows and dots (a contraction with m and n
    loops) stay with `gpu-distribute-to-threads`.
    The reduction is reassociated, as every parallel reduction is.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GPUDistributeToThreads
    : Pass<"gpu-distribute-to-threads", "::mlir::ModuleOp"> {
  let summary = "Tiles every tile op of a block onto the threads of the block";
  let description = [{
    Inside every block grid (`scf.forall` mapped to `#gpu.block`), each
    Linalg op on buffers is tiled with `scf.forall` over the threads of the
    block (`#gpu.thread<linear_dim_i>` mappings): the parallel loops are
    split into `threads` chunks (1-D) or a 2-D arrangement of 4 x 32 / 32 x
    4 (rank >= 2, innermost loops), reduction loops stay whole inside a
    thread. Ops without parallel loops (a full reduction to a scalar, a 0-d
    fill) run on one thread. `memref.copy` becomes `linalg.copy` first.
    Mapping the foralls to threads later inserts a barrier after each, which
    orders every producer before its consumers.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GPUMapGridToLaunch : Pass<"gpu-map-grid-to-launch", "::mlir::ModuleOp"> {
  let summary = "Turns block grids into gpu.launch and thread foralls into thread ids";
  let description = [{
    Every `scf.forall` mapped to `#gpu.block` (static trip counts) becomes a
    `gpu.launch` with that grid and `threads` x 1 x 1 threads; nested
    foralls mapped to threads are then mapped with upstream's
    `mapNestedForallToThreadsImpl`, which guards foralls using fewer
    threads and places a `gpu.barrier` after each. A grid with
    `blockbuster.cluster_blocks = n` (gpu-warpgroup-matmul's
    `cluster-multicast`) launches in clusters of n x 1 x 1 blocks; n must
    divide the grid's x extent.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
  ];
}

def GPUPackWorkgroupMemory
    : Pass<"gpu-pack-workgroup-memory", "::mlir::ModuleOp"> {
  let summary = "Places workgroup allocations in one dynamic shared memory buffer";
  let description = [{
    `memref.alloc` in workgroup memory inside a `gpu.launch` lowers to a
    per-thread malloc in MLIR 22 (docs/design/05-gpu-lowering-notes.md,
    gotcha 2). This pass gives
    every such allocation a fixed, aligned offset in the launch's dynamic
    shared memory (`gpu.dynamic_shared_memory` + `memref.view`) and sets
    `dynamic_shared_memory_size`. Dynamic sizes are bounded with the value
    bounds analysis (a partial edge block is never larger than a full one);
    an unbounded size is an error. Each element takes the bytes that the
    data layout gives its type, as the LLVM lowering stores it: an `i1`
    mask takes a byte, an `index` (a `block.iota` tile) 8 bytes unless a
    DLTI spec says otherwise. Allocations whose lifetimes (first to
    last use, in the launch's top-level order) do not overlap share space.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"128",
           "Byte alignment of every buffer">,
    Option<"limit", "limit", "int64_t", /*default=*/"232448",
           "Shared memory per block in bytes (227 KB on sm_90)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def GPUKernelArgAttrs : Pass<"gpu-kernel-arg-attrs", "::mlir::ModuleOp"> {
  let summary = "Marks kernel memref arguments aligned and noalias";
  let description = [{
    Adds `llvm.align` and `llvm.noalias` to the memref arguments of every
    kernel `gpu.func`, so that NVPTX emits 16-byte and non-coherent loads
    (docs/design/05-gpu-lowering-notes.md, gotcha 9). The runtime allocates
    every buffer with
    cuMemAlloc (256-byte aligned) and never passes one buffer twice.

    A kernel with an op marked `blockbuster.occupancy_by_shared_memory`
    (gpu-flash-attention's) gets `nvvm.minctasm` = the blocks its launch's
    dynamic shared memory and threads allow on an SM (228 KB, 1 KB
    reserved per block, 2048 threads), as long as that leaves ptxas at
    least 128 registers per thread: ptxas otherwise may spend registers
    on scheduling freedom until fewer blocks fit than the shared memory
    allows (the causal attention kernel: 243 registers, 2 blocks per SM,
    instead of 168 and 3 with no spill). A mark with an integer value
    leaves at least that many registers per thread instead (the attention
    loop that issues the next S = Q K^T before the softmax: 128 and S's
    registers, 192 with 128 keys).

    A kernel launched in clusters (`gpu.launch_func ... clusters in`) gets
    `nvvm.cluster_dim`: its PTX says `.explicitcluster` and
    `.reqnctapercluster`.
  }];
  let options = [
    Option<"align", "align", "int64_t", /*default=*/"16", "Alignment in bytes">,
  ];
}

def GPUExternDynamicSharedMemory
    : Pass<"gpu-extern-dynamic-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Works around LLVM 22's lowering of dynamic shared memory";
  let description = [{
    `gpu.dynamic_shared_memory` lowers to an internal zero-sized
    `addrspace(3)` global that NVPTX prints as a 1-byte static variable
    (docs/design/05-gpu-lowering-notes.md, gotcha 3). Giving such globals
    external linkage and a
    large alignment makes NVPTX print `.extern .shared .align A .b8 X[]`.
    Run after convert-gpu-to-nvvm, before gpu-module-to-binary.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"1024",
           "Alignment of the dynamic shared memory">,
  ];
}

def GPUExpandErf : Pass<"gpu-expand-erf"> {
  let summary = "f32 erf as one rational function, no libdevice call";
  let description = [{
    Rewrites every f32 `math.erf` as `x * P(x^2) / Q(x^2)` with x clamped
    to [-3.92, 3.92] (beyond it erf rounds to +-1), P and Q of degree 5: 10
    fmas, two multiplications, a reciprocal and the clamp (16 SASS
    instructions), against libdevice's `__nv_erff`, about 22 (two
    polynomials of degree 6 whose coefficients are selected per element by
    `|x| >= 1.003`, then `1 - 2^p` above it). Measured on every
    non-negative f32 against erf in f64: at most 7.0 ulp with an exact
    reciprocal (libdevice's erff: 2 ulp); `approximate-reciprocal` (the
    default) uses `rcp.approx.ftz.f32` (NVVM), within 1 ulp of the
    reciprocal, at most 9.0 ulp (docs/GPUPipeline.md, "Row kernels", and
    test/Codegen/GPU/expand-erf.test). NaN propagates (`minimumf` /
    `maximumf`). Runs on any op: the GPU pipeline runs it on the kernel
    modules before the NVVM conversion; `approximate-reciprocal=false`
    gives an `arith.divf` that the CPU can run.

    An erf in a linear context is expanded with it: `erf(x * a)` (or `erf(x
    / c)`) for a constant a takes a into the coefficients and the clamp
    (3.92 / |a|; the product's rounding is left out: at most 5.2 ulp
    against erf of the exact product on the test's sweep), `erf + k` for a
    constant k becomes the last product's fma, and where that sum's one use
    multiplies it by a power of two 2^j (torch-mlir's GELU, `x * ((1 +
    erf(x / sqrt 2)) * 0.5)`) or by `y * 2^j` (the power of two then moving
    onto the sum), the coefficients take 2^j (exact). GELU's `x * 0.5
    * (1 + erf(x * (1 / sqrt 2)))` then costs the rational function and one
    product: 3 instructions an element fewer. That sum, `0.5 (1 + erf)` (or
    `0.5 (1 - erf)`), lies in [0, 1], so only x^2 is clamped and the fma
    saturates instead (a non-NaN max and min, which ptxas folds into
    `FFMA.SAT`; NaN propagates through the product with x): one more.
  }];
  let options = [
    Option<"approximateReciprocal", "approximate-reciprocal", "bool",
           /*default=*/"true",
           "The reciprocal of Q as nvvm.rcp.approx.ftz.f (false: arith.divf)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def GPUPairBF16RoundTrips : Pass<"gpu-pair-bf16-round-trips"> {
  let summary = "Rounds two f32 values to bf16 and back with one conversion";
  let description = [{
    A program that rounds an intermediate to bf16 and reads it again in f32
    (`arith.extf(arith.truncf(x))`: add + GELU + add + LayerNorm's h, kept
    for its statistics) costs a kernel that clones its body per element one
    `cvt.rn.bf16.f32` (`F2F.BF16.F32`, a conversion at a quarter of the FMA
    rate) and one `cvt.f32.bf16` per element. This pass takes such round
    trips two at a time, in the order of their block, and rounds each pair
    with one `cvt.rn.bf16x2.f32` (the two truncs packed into a
    `vector<2xbf16>`, which LLVM selects as that instruction), widening the
    halves of the word by a shift and a mask (BF16Widening.h): 1.5
    instructions an element instead of 2, none of them F2F. Bit-exact (the
    same round-to-nearest-even of each element). A pair is formed only where
    the first round trip's users all follow the second's (same block), so
    moving its value there keeps it dominating them; a trunc with other
    users stays as it is. The GPU pipeline runs it on the kernel modules
    before the NVVM conversion.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUDropBinaryTimings : Pass<"gpu-drop-binary-timings", "::mlir::ModuleOp"> {
  let summary = "Drops compile timings from gpu.binary objects";
  let description = [{
    gpu-module-to-binary records compile times (`LLVMIRToISATimeInMs`) in
    each object's properties, which makes the printed IR differ from run to
    run. This pass removes every property whose name ends in `TimeInMs`.
  }];
}

def GPULaunchManifest : Pass<"gpu-launch-manifest", "::mlir::ModuleOp"> {
  let summary = "Records the host side of every entry as a launch manifest";
  let description = [{
    Runs after kernel outlining, while the host functions are still on
    memrefs. For every public function it records the buffers (inputs,
    outputs, intermediates allocated on the host) and the `gpu.launch_func`
    ops in order, with grid, block, dynamic shared memory and which buffer
    each kernel parameter is (and the cluster dimensions of a launch in
    clusters), as a JSON string attribute
    `blockbuster.manifest` on the function's module (docs/Artifact.md has
    the schema; `bb-compile` writes it out). Host operations other than
    allocations, views that keep the base pointer (expand/collapse shape),
    launches and constants are errors: the runtime could not execute them.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"", "Target chip">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features">,
  ];
}

def GPUWriteReshapedResultsInPlace
    : Pass<"gpu-write-reshaped-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Kernels write a result returned reshaped into its "
                "out-parameter";
  let description = [{
    Runs after buffer-results-to-out-params. A function that returns a
    reshape of a buffer it computes (a `[1, S, D]` result that is the
    `expand_shape` of the `[S, D]` array a kernel writes) ends with a
    `memref.copy` of the reshaped buffer into the out-parameter: a host
    operation the GPU runtime cannot execute, and one more pass over the
    data. Where the copy's source is an `expand_shape` or `collapse_shape`
    of an allocation of the function and its target is an argument, both
    with identity layouts, the allocation is replaced by the inverse
    reshape of the argument and the copy is erased: the kernels write the
    result in place, through a view.

    ```mlir
    // Before
    %a = memref.alloc() : memref<128x64xf32>
    ... kernels write %a ...
    %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 128, 64] ...
    memref.copy %e, %out : memref<1x128x64xf32> to memref<1x128x64xf32>
    // After
    %a = memref.collapse_shape %out [[0, 1], [2]]
        : memref<1x128x64xf32> into memref<128x64xf32>
    ... kernels write %a ...
    ```
  }];
}

#endif // BLOCKBUSTER_CODEGEN_GPU_PASSES_TD
