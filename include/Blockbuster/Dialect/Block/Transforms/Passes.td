//===- Passes.td - Passes on block programs ----------------*- tablegen -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlockReport : Pass<"block-report", "::mlir::ModuleOp"> {
  let summary = "Prints the fusion report of every block program as JSON";
  let description = [{
    For each `block.program` in the module, in order, writes one JSON object
    with the figures that fusion is judged by (docs/FusionReport.md):

    - `kernels`: number of top-level maps (one kernel each);
    - `buffered_edges`: (array, reading kernel) pairs where one kernel loads
      an array another kernel wrote: each is a round trip through global
      memory;
    - `global_bytes`: bytes loaded and yielded, each load counted once per
      block of the enclosing maps and reduces whose axes it does not have;
    - `flops`: dots count 2 per multiply-add, other compute 1 per element;
    - `local_bytes_peak`: the largest peak, over kernels, of the bytes of
      tiles live at once in one instance; `register_bytes_peak` and
      `shared_bytes_peak` split it: reduce states (accumulators) live in
      registers, other tiles in shared memory;

    plus `intermediates` (arrays written by one kernel and read by another)
    and `per_kernel` detail, each kernel with its `estimate` on `target`
    (blocks per SM, splits, waves, memory and compute time, the serial work
    of a block of a decode program, and the time with the launch, in
    nanoseconds), and the program's `estimated_ns`, the sum. With
    `serial-work=false` the estimate is the one block-fuse's extend step
    judges by (no serial work). Block
    sizes come from `block-sizes`, else from the axis table, else
    `default-block-size`. The IR is not changed.

    ```
    bb-opt attention.mlir --block-report='block-sizes=M=64,N=64' -o /dev/null
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to ('-' for standard output)">,
    ListOption<"blockSizeOverrides", "block-sizes", "std::string",
               "Block sizes as AXIS=SIZE, overriding the axis table">,
    Option<"defaultBlockSize", "default-block-size", "int64_t",
           /*default=*/"128",
           "Block size of tiled axes that have none in the table">,
    Option<"target", "target", "std::string", /*default=*/"\"h100\"",
           "Target of the time estimates: h100, h200 or cpu">,
    Option<"serialWork", "serial-work", "bool", /*default=*/"true",
           "Count the serial work of blocks in decode programs (false: the "
           "estimate block-fuse's extend step judges by)">
  ];
}

def BlockSelect : Pass<"block-select", "::mlir::ModuleOp"> {
  let summary = "Binds the block size of every tiled axis of every block program";
  let description = [{
    Fills in the block sizes of the axis table of every `block.program`, so
    that `convert-block-to-linalg` can lower it. Fusion never depends on
    block sizes (docs/BlockPrograms.md): this pass only tunes.

    For each tiled axis, in order of precedence:

    1. a size given by the `block-sizes` option (`AXIS=SIZE`), clamped to
       the axis' extent: explicit sizes always win;
    2. a size already in the axis table;
    3. the heuristic below.

    Cost model: the axes left to it get powers of two up to the target's
    `maxBlockSize` (128), clamped to their extents: first one common size
    `s` for all of them, then each axis on its own, in table order, round
    after round while that lowers the estimate. Only sizes at which every
    kernel with an axis left to it fits on chip count (a kernel whose every
    tiled axis the table sizes was sized by the pass that wrote them:
    block-warpgroup-gemm-blocks' GEMMs, whose ring and accumulators the
    estimate does not model, beside a row kernel whose rows it chooses) (docs/FusionReport.md: on h100 and h200,
    `shared_bytes_peak` within the shared memory and `register_bytes_peak`,
    the reduce states, within the register budget; on the CPU,
    `local_bytes_peak` within the L2); among them the lowest estimated time
    wins (docs/FusionReport.md, "Estimates": per kernel, the larger of its
    bytes over the memory (and L2) bandwidth and its FLOPs over the matrix
    and vector rates, divided by the share of the SMs its grid keeps busy in
    waves, plus a launch cost; ties go to the larger size):

    | target | SMs | shared memory | registers for reduce states | bandwidth | L2 | bf16 matrix / f32 | per kernel |
    |---|---|---|---|---|---|---|---|
    | `h100` | 132 | 228 KB per SM | 128 KB (256 threads x 128 of their 255 registers) | 3.0 TB/s | 50 MB, 4.4 TB/s | 700 / 67 TFLOP/s | 4 us |
    | `h200` | 132 | 228 KB per SM | 128 KB | 4.3 TB/s | 50 MB, 4.4 TB/s | 790 / 67 TFLOP/s | 4 us |
    | `cpu` | 1 core | 2 MB L2 (tiles and states together) | - | 20 GB/s | - | 50 / 50 GFLOP/s | 0.1 us |

    Snapshots: programs marked `block.snapshot_of = "NAME"` (what
    `block-fuse{keep-snapshots}` leaves: the unfused program and the program
    before each kept replication) compete with `@NAME`; the candidate with
    the lowest estimate at its best sizes replaces `@NAME`, and the others
    are erased. A candidate that fits on chip at no size drops out; only
    when none fits is that an error.

    Attention blocks in registers (on GPU targets): a kernel that the GPU
    pipeline's `gpu-flash-attention` runs with every tile in registers (a
    reduce over key blocks whose S = Q K^T reads two loaded 16-bit tiles
    and whose P V reads a computed 16-bit P and a loaded V; FlashAttention
    in docs/GPUPipeline.md) takes it only with one (batch, head) per block
    and at most 16 query rows per warp of the `threads` the blocks run
    with. Its blocks are then bound before the cost model runs: batch and
    head axes 1, 16 x threads / 32 queries (64 at 128 threads; fewer
    would idle warps), and 64 keys, or fewer where S, O and Q would take
    more than the target's 128 state registers per thread (none fits: the
    cost model sizes it like any kernel). With `wgmma-attention` (the GPU
    pipeline on sm_90a with a wgmma `attention-mma`) and a head of 128 or
    more: 128 keys where S, O and Q take at most 160 registers per thread
    (S = Q K^T as wgmma m64n128k16, two blocks per SM with up to 255
    registers each: at D = 128 measured 1.06-1.12x faster for the single
    pass and 0.99-1.07x for the exact form, at D = 64 not faster;
    docs/performance.md). Keys given in `block-sizes` may be up to 128
    and are not checked against registers. Sizes in `block-sizes` for its
    queries or batch axes other than the schedule's win (then the cost
    model chooses); the schedule's own sizes keep it. Among snapshots, a candidate that has such a kernel
    wins over those that do not: the estimate charges neither the generic
    path's shared-memory round trip and barrier per tile op nor the
    register path's savings (measured 7x on B4 H32 S2048 D128). f32
    attention (the pass takes 16-bit dots only) is chosen as before.

    If even `s = 1` does not fit (a whole axis too large for the target can
    make that happen; bb-compile then converts again with more axes tiled),
    the
    pass fails with an error that names the program and the budget its peak
    exceeds; sizes
    that are all explicit or already in the table are not checked. Whole
    axes have no block size and are left alone. Naming an axis in
    `block-sizes` that no program declares, or that is whole, is an error.

    ```mlir
    // bb-opt --block-select='block-sizes=N=64 target=h100'
    block.program @attention axes(M = 1024 tiled, N = 1024 tiled, D = 64 whole) ...
    // becomes
    block.program @attention axes(M = 1024 tiled block 128, N = 1024 tiled block 64, D = 64 whole) ...
    ```
  }];
  let options = [
    ListOption<"blockSizeOverrides", "block-sizes", "std::string",
               "Block sizes as AXIS=SIZE; they win over the table and the "
               "heuristic">,
    Option<"target", "target", "std::string", /*default=*/"\"h100\"",
           "Target whose limits and rates the cost model uses: h100, "
           "h200 or cpu">,
    Option<"localMemoryBytes", "local-memory-bytes", "int64_t",
           /*default=*/"0",
           "On-chip bytes a block may use, below the target's (0: the "
           "target's); bb-compile lowers it when the lowering packs a "
           "block's tiles into more than the estimate">,
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block of the GPU lowering: an attention kernel "
           "in registers takes at most 16 query rows per warp of them">,
    Option<"wgmmaAttention", "wgmma-attention", "bool", /*default=*/"false",
           "The GPU lowering runs attention blocks in registers on wgmma "
           "(sm_90a): with a head of 128 or more, 128 keys per block">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "With wgmma-attention: f32 attention kernels (f32 Q, K, V and "
           "P) run in registers on tf32 wgmma (gpu-flash-attention's "
           "allow-tf32), at most 64 keys per block; without it they keep "
           "the cost model's blocks">,
    Option<"decodeGemv", "decode-gemv", "bool", /*default=*/"true",
           "The GPU lowering runs gpu-decode-gemv: a decode kernel with its "
           "blocks costs that schedule's serial work (false: the generic "
           "lowering's, as bb-compile --decode-gemv=false lowers it)">,
    Option<"pricePrologues", "price-prologues", "bool", /*default=*/"true",
           "A GEMM that computes its A tiles in its k loop costs the stall "
           "of its prologue (TargetDescription::prologueFlopsPerSecond; "
           "false: nothing, as bb-compile --price-prologues=false)">
  ];
}

def BlockWarpgroupGemmBlocks
    : Pass<"block-warpgroup-gemm-blocks", "::mlir::ModuleOp"> {
  let summary = "Binds 128 x 256 x 64 blocks of plain GEMM programs, and the "
                "FFN's blocks (sm_90a)";
  let description = [{
    Run before `block-select` when compiling for sm_90a (bb-compile does):
    a program that is one kernel whose only reduction is one dot
    `A[m, k] * B[k, n]` of whole f16/bf16 arguments with 16-byte aligned
    rows (any elementwise epilogue after it), or that ends with such a
    kernel whose reduce computes A elementwise from one such argument tile
    (reading besides it only tiles along m computed before the reduce,
    loads of vectors along k and constants: LayerNorm/RMSNorm + matmul,
    whose row-statistics kernels over m alone come first), and whose m, n
    and k axes
    are tiled and still open, gets blocks of 128 (m) x 256 (n) x 64 (k) in
    its axis table, the tile of `gpu-warpgroup-matmul`'s two-warpgroup
    schedule (docs/GPUPipeline.md). Where fewer 128 x 256 blocks than the
    target has SMs (one such block fills an SM's shared memory) but
    `gpu-warpgroup-matmul` would split the k steps of 128 x 128 blocks
    to fill them (the rule of include/Blockbuster/Support/SplitFactor.h
    with two blocks per SM, at most 4 splits, at least 16 k steps each;
    `split-max-blocks` its option of that name, 0: never), the program
    gets 128 x 128 x 64 blocks and the `block.warpgroup_split` mark, by
    which `block-select` prefers it to its other forms (M128 K4096 N4096:
    the statistics kernel and 32 x 4 split GEMM blocks instead of decode
    blocks of 16 rows; the cost model prices neither the wgmma schedule
    nor its split). Left to `block-select` instead: m shorter than 128,
    n shorter than 128 (256 without the split), k of one step (64 or
    less), and grids neither 128 x 256 blocks nor the split fill.

    An RMSNorm + SwiGLU FFN (kernels over m alone, then a kernel over
    (m, n) whose reduce over k does two dots of one A tile computed from an
    argument tile, B[k, n] of two arguments, an elementwise epilogue, then a
    plain GEMM over (m, n2) of that kernel's result and an argument [n, n2])
    gets blocks of 128 (m) x 128 (n) x 64 (k): `gpu-warpgroup-matmul` runs
    the two up projections on one mainloop with two 64 x 128 accumulators
    per warpgroup. The down projection's k blocks are then 128 (its ring
    still steps by 64) and its n2 blocks 256, or 128 where fewer 128 x 256
    blocks than SMs. Only where all four axes are open, m is at least 128,
    k more than 64 and the up projections' grid fills the SMs, or, with
    `split-max-blocks` above 0, does not (M128 F11008: 86 blocks of the
    up projections, each streaming its two B tiles once, and a down
    projection of 32 blocks that `gpu-warpgroup-matmul` splits), with the
    mark then.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"h100\"",
           "Target whose SM count decides: h100 or h200">,
    Option<"splitMaxBlocks", "split-max-blocks", "int64_t",
           /*default=*/"264",
           "gpu-warpgroup-matmul's split-max-blocks: grids of 128-row "
           "blocks too small for the SMs take 128 x 128 blocks where their "
           "k steps split across at most this many blocks fill them (0: "
           "only grids that fill the SMs unsplit)">
  ];
}

def BlockDecodeGemvBlocks
    : Pass<"block-decode-gemv-blocks", "::mlir::ModuleOp"> {
  let summary = "Binds the blocks of gpu-decode-gemv in decode programs";
  let description = [{
    Run before `block-select` (bb-compile does, unless `--decode-gemv=false`):
    every dot `A[m, k] * B[k, n]` of 16-bit elements whose B is a load of a
    rank-2 array, whose m and n are grid axes of its kernel, still open and
    tiled, with m of at most 128 rows and n of at least 64 columns, gets
    blocks of min(m, 16) rows (one mma.sync tile: every row of the block
    reads the weights once) and 64 columns (one warp's k16 step of
    gpu-decode-gemv) in the program's axis table; a vector-matrix product
    x[k] * B[k, n] (M1, no rows axis) gets the 64 columns alone. A program
    where one axis
    would get two sizes is left to `block-select`, which keeps the sizes
    already in the table and chooses the rest (k, and every other program).
  }];
}

def BlockFuse : Pass<"block-fuse", "::mlir::ModuleOp"> {
  let summary = "Fuses block programs with the ordered rule catalogue";
  let description = [{
    The greedy ordered driver of docs/FusionRules.md. For every
    `block.program`, it walks the hierarchy breadth-first (the program, its
    kernels, their bodies, ...) and tries the rule sets in the priority
    order `order`; after any rewrite it restarts from the first rule.

    When no rule applies, the extend step tries rule 6 (replication: a
    producer recomputed where it is read, in a map, or in a reduce when
    rule 3's profitability refuses it: a contraction it would repeat, or
    global bytes it adds) at the
    first op (breadth-first) where it applies, runs the main loop again,
    and keeps the result only if the program's estimated time on `target`
    is strictly lower than before: the sum over its kernels of the cost
    model's estimate (docs/FusionReport.md, "Estimates"), with the block
    sizes of the axis table, else 128. Bytes are not the criterion: more
    bytes are no reason to roll back (recomputing row statistics per block
    of output columns costs less than a launch and a round trip through
    global memory). Otherwise the program goes back to the last kept state
    and the search goes on at the next op. After a kept step the search
    goes on from the same position, and the ops of the kernels the step
    changed that the search had passed are tried again first. A first
    phase leaves out producers whose body names an axis the consumer
    iterates; a second, from the first op again, takes those that name it
    only inside reduces over it (the copy reduces over a fresh axis of the
    same extent). Then rule 10 (axis untying) applies wherever it matches,
    each time followed by the main loop: a kernel whose array a loop of
    another kernel reads (an operand replication left materialised) and
    the kernels of its row statistics get fresh axes, the row axis whole,
    and the main loop fuses them into one row kernel. It is not judged at
    the extend step's blocks (128 rows are no whole-row kernel's): the
    state before it is a snapshot that block-select weighs at its own.

    Deterministic: the same input gives the same output. Every rule removes
    a buffered edge, an op or moves work one way only, so the driver
    terminates; running it twice changes nothing.

    With `rules=FILE`, the PDL patterns of FILE (written against the
    fusion vocabulary of docs/FusionRules.md, "User rules at run time") run
    as rule 0: first, or where `order` places 0.

    With `trace`, each rewrite prints a line to standard error: the rule,
    the op it matched, the pattern that fired (a C++ pattern's debug name,
    a PDL pattern's `pdl.pattern` name) and what it did:

    ```
    step 1: rule 3 at attention.block.mlir:16:12: FuseMapIntoReduce: moved map at attention.block.mlir:9:10 into the reduce over a1
    ```

    With `explain`, at the fixed point of each program, it prints how many
    rewrites of each rule were kept, then tries every rule of the main
    loop at every op and prints each reason a pattern gave for refusing
    (`notifyMatchFailure`), rule by rule in priority order, op by op
    breadth-first:

    ```
    explain: @attention: applied rule 1 x2, rule 3 x9, rule 4 x2, rule 7 x21, rule 9 x2
    explain: rule 1 (producer-consumer map fusion) at a.mlir:62:8 (block.map): ProducerToFuse: map at a.mlir:49:8: iterates other tiled axes than the consumer
    ```

    The pass statistics `rule-1` to `rule-10` count the kept rewrites of
    each rule (`-mlir-pass-statistics`; an LLVM built without statistics,
    as a release build, prints none).
  }];
  let options = [
    ListOption<"order", "order", "unsigned",
               "Rule sets in priority order (ablation); default "
               "8,7,4,5,9,3,1,2 (0 places the rules of `rules=FILE`)">,
    Option<"extend", "extend", "bool", /*default=*/"true",
           "Try replication (rule 6) when nothing else applies, keeping "
           "it when the estimated time on `target` drops, then axis "
           "untying (rule 10) of the operands it left materialised">,
    Option<"trace", "trace", "bool", /*default=*/"false",
           "Print one line per rewrite to standard error">,
    Option<"maxSteps", "max-steps", "unsigned", /*default=*/"100000",
           "Stop with an error after this many rewrites (a driver bug)">,
    Option<"target", "target", "std::string", /*default=*/"\"h100\"",
           "Target whose estimated time judges the extend step (h100, h200, "
           "cpu)">,
    Option<"keepSnapshots", "keep-snapshots", "bool", /*default=*/"false",
           "Keep the unfused program and the program as it was before each "
           "kept replication, as sibling programs @NAME_snapshotK marked "
           "block.snapshot_of, for block-select to choose from">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of PDL patterns (mlir-pdll -x=mlir of a PDLL file that "
           "includes Rules/Common.pdll) run as rule 0: where `order` puts "
           "0, else first">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "At the fixed point, print to standard error why each rule of "
           "the main loop did not apply at each op, one line per reason">,
    Option<"divideAfterRounding", "divide-after-rounding", "bool",
           /*default=*/"false",
           "Rule 4 also rewrites dot(cast(x / s), w) as dot(cast(x), w) / s "
           "(inexact: rounds x instead of x / s; for attention with P "
           "rounded to 16 bits, the single-pass online softmax instead of "
           "the exact two-pass form)">,
    Option<"divideAfterBF16Rounding", "divide-after-bf16-rounding", "bool",
           /*default=*/"false",
           "`divide-after-rounding` for casts to bf16 only: bf16 has f32's "
           "exponent range, so rounding x instead of x / s moves the "
           "rounding error (at most half a bf16 ulp of each term, as "
           "before) but cannot overflow where x / s did not (an f16 cast "
           "can); bb-compile's default (docs/FusionRules.md)">,
    Option<"roundDotOperands", "round-dot-operands", "bool",
           /*default=*/"false",
           "Rule 8 also rewrites dot(x, f32(b)), x f32 and b a 16-bit float "
           "tile, as dot(x rounded to b's type, b) (inexact: x loses its "
           "low mantissa bits; attention's f32 P against V widened from "
           "bf16 then takes one bf16 P V, P rounded as PyTorch's own flash "
           "kernels round it, instead of the three exact ones of P's bf16 "
           "parts that gpu-flash-attention issues without it)">,
    Option<"pricePrologues", "price-prologues", "bool", /*default=*/"true",
           "The extend step prices a GEMM's A prologue recomputed per block "
           "of its columns (TargetDescription::prologueFlopsPerSecond; "
           "false: the prologue costs nothing, and LayerNorm + matmul "
           "keeps its normalisation in the GEMM's k loop)">
  ];
  let statistics = [
    Statistic<"rule1Applications", "rule-1", "Rewrites by rule 1 (producer-consumer map fusion)">,
    Statistic<"rule2Applications", "rule-2", "Rewrites by rule 2 (sibling map fusion)">,
    Statistic<"rule3Applications", "rule-3", "Rewrites by rule 3 (map-into-reduce fusion)">,
    Statistic<"rule4Applications", "rule-4", "Rewrites by rule 4 (scale hoisting)">,
    Statistic<"rule5Applications", "rule-5", "Rewrites by rule 5 (shift hoisting)">,
    Statistic<"rule6Applications", "rule-6", "Rewrites by rule 6 (replication, kept tries only)">,
    Statistic<"rule7Applications", "rule-7", "Rewrites by rule 7 (cleanup)">,
    Statistic<"rule8Applications", "rule-8", "Rewrites by rule 8 (structure normalisation)">,
    Statistic<"rule9Applications", "rule-9", "Rewrites by rule 9 (reduce-reduce fusion)">,
    Statistic<"rule10Applications", "rule-10", "Rewrites by rule 10 (axis untying, kept tries only)">
  ];
  let dependentDialects = [
    "::blockbuster::block::BlockDialect",
    "::mlir::pdl::PDLDialect",
    "::mlir::pdl_interp::PDLInterpDialect"
  ];
}

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD
