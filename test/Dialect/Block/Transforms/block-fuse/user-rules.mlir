// User rules at run time: block-fuse{rules=FILE} runs the PDL patterns of
// FILE (mlir-pdll output of a PDLL file written against Rules/Common.pdll)
// as rule 0, first, or where `order` places 0.

// RUN: mlir-pdll %examples/rules/double-negation.pdll -x=mlir \
// RUN:   -I %src_root/lib/Dialect/Block/Transforms -I %src_root/include \
// RUN:   -I %mlir_include_dir -o %t.negation.mlir
// RUN: mlir-pdll %S/Inputs/sibling-first.pdll -x=mlir \
// RUN:   -I %src_root/lib/Dialect/Block/Transforms -I %src_root/include \
// RUN:   -I %mlir_include_dir -o %t.sibling.mlir
// RUN: mlir-pdll %S/Inputs/wrong-tier.pdll -x=mlir \
// RUN:   -I %src_root/lib/Dialect/Block/Transforms -I %src_root/include \
// RUN:   -I %mlir_include_dir -o %t.wrong-tier.mlir

// First (no 0 in `order`): the user's rule folds -(-x) in the producer
// before rule 1 fuses it into the consumer.
// RUN: bb-opt %s --block-fuse="rules=%t.negation.mlir trace" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIRST
// FIRST:      step 1: rule 0 at user-rules.mlir:{{[0-9]+}}:11: FoldDoubleNegation: folded a double negation
// FIRST-NEXT: step 2: rule 7 at {{.*}}: erase-dead-op: erased an unused block.neg
// FIRST-NEXT: step 3: rule 1 at {{.*}}: FuseProducerIntoConsumer: fused map at
// FIRST:      block.map [M]
// FIRST-NOT:  block.neg
// FIRST:      block.yield

// Last: rule 1 fuses first, then the user's rule folds in the fused map.
// RUN: bb-opt %s --block-fuse="rules=%t.negation.mlir order=8,7,4,5,9,3,1,2,0 trace" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAST
// LAST:      step 1: rule 1 at {{.*}}: FuseProducerIntoConsumer
// LAST-NOT:  rule 0
// LAST:      step 5: rule 0 at {{.*}}: FoldDoubleNegation: folded a double negation
// LAST-NEXT: step 6: rule 7 at {{.*}}: erase-dead-op

// The vocabulary in a user rule: sibling fusion as rule 0, before rule 1
// (the built-in rule 2 is not run). The first two readers of X fuse (rule
// 0), then the fused map absorbs the producer (rule 1).
// RUN: bb-opt %s --block-fuse="rules=%t.sibling.mlir trace order=0,1" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIBLING
// SIBLING:      step 1: rule 0 at {{.*}}: UserSiblingFusion: fused sibling map at {{.*}}, which reads a common array
// SIBLING-NEXT: step 2: rule 1 at {{.*}}: FuseProducerIntoConsumer
// SIBLING-NOT:  step

// A tier the values do not have: rule 1's shape with the consumer's results
// unbuffered. B, which could absorb A, is refused by the tier (A and C by
// the named condition, which PDL checks on the root before the tiers of
// its results); nothing is rewritten.
// RUN: bb-opt %s --block-fuse="rules=%t.wrong-tier.mlir order=0 trace explain" \
// RUN:   2>&1 | FileCheck %s --check-prefix=TIER
// TIER-NOT:   step
// TIER:       explain: @negations: applied nothing
// TIER-NEXT:  explain: rule 0 (user rules) at user-rules.mlir:[[A:[0-9]+]]:8 (block.map): ProducerToFuse: loads no array a map writes
// TIER-NEXT:  explain: rule 0 (user rules) at user-rules.mlir:[[B:[0-9]+]]:8 (block.map): Unbuffered: result #0 of block.map at user-rules.mlir:[[B]]:8 is a buffered array
// TIER-NEXT:  explain: rule 0 (user rules) at user-rules.mlir:{{[0-9]+}}:8 (block.map): ProducerToFuse: loads no array a map writes
// TIER-COUNT-3: block.map

// Errors: the file, what it holds (a link rewrite takes its own
// constraint's results), and `order=0` without a file.
// RUN: not bb-opt %s --block-fuse=rules=%t.missing -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: block-fuse: cannot load rules from '{{.*}}missing'
// RUN: not bb-opt %s --block-fuse=rules=%S/Inputs/no-patterns.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: block-fuse: '{{.*}}no-patterns.mlir' holds no pdl.pattern
// RUN: not bb-opt %s --block-fuse=rules=%S/Inputs/not-in-vocabulary.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: not-in-vocabulary.mlir:5:5: error: block-fuse: native rewrite 'NotAVocabularyWord' is not in the fusion vocabulary
// RUN: not bb-opt %s --block-fuse=rules=%S/Inputs/misused-link.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: misused-link.mlir:8:5: error: block-fuse: native rewrite 'FuseWithReduce' takes the results of constraint 'ReduceToFuse' and that constraint's root, FuseWithReduce(ReduceToFuse(root), root)
// RUN: not bb-opt %s --block-fuse=order=0,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: block-fuse: rule 0 in `order` is the rules of `rules=FILE`, and no file is given

block.program @negations axes(M = 10 tiled)
    (%X: !block.array<10xf32>) -> (!block.array<10xf32>, !block.array<10xf32>) {
  %A = block.map [M] -> !block.array<10xf32> {
    %x = block.load %X[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %n = block.neg %x : !block.tile<[M], f32>
    %nn = block.neg %n : !block.tile<[M], f32>
    block.yield %nn : !block.tile<[M], f32>
  }
  %B = block.map [M] -> !block.array<10xf32> {
    %a = block.load %A[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %x = block.load %X[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.add %a, %x : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %x = block.load %X[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %x : !block.tile<[M], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  block.return %B, %C : !block.array<10xf32>, !block.array<10xf32>
}
