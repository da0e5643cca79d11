//===- BlockOps.td - Operations of the block dialect -------*- tablegen -*-===//
//
// Structure ops (program, map, reduce, load, yield, return) and tile compute
// ops (dot, named elementwise ops, in-tile reductions, casts, constants,
// iota). Every op that names axes or carries tiles has the DeclaredAxes
// trait: its axes must be declared in the enclosing program's axis table.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKOPS_TD
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKOPS_TD

include "Blockbuster/Dialect/Block/IR/BlockBase.td"
include "Blockbuster/Dialect/Block/IR/BlockTypes.td"
include "Blockbuster/Dialect/Block/IR/BlockAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// Every axis named by the op (attributes and tile types of operands and
// results) is declared in the axis table of the enclosing block.program.
def DeclaredAxes : NativeOpTrait<"DeclaredAxes"> {
  let cppNamespace = "::blockbuster::block";
}

// Ops that compute on tiles live in the body of a map or a reduce.
def InBody : ParentOneOf<["MapOp", "ReduceOp"]>;

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

def Block_ProgramOp : Block_Op<"program", [
    FunctionOpInterface, IsolatedFromAbove, SingleBlock
  ]> {
  let summary = "a function over arrays, holding the axis table";
  let description = [{
    A block program: a function whose arguments and results are arrays in
    global memory. The `axes` table declares every axis the program uses:
    its extent, whether it is tiled or whole, and the block size of tiled
    axes once chosen. The body is a graph of top-level `block.map` ops; each
    top-level map is one kernel.

    ```mlir
    block.program @softmax axes(M = 4096 tiled block 64, N = 1024 whole)
        (%x: !block.array<4096x1024xf32>) -> !block.array<4096x1024xf32> {
      %y = block.map [M] -> !block.array<4096x1024xf32> {
        %t = block.load %x[M, N] : !block.array<4096x1024xf32> -> !block.tile<[M, N], f32>
        %m = block.tile_reduce max %t over [N] : !block.tile<[M, N], f32>
        %s = block.sub %t, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
        %e = block.exp %s : !block.tile<[M, N], f32>
        %l = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
        %p = block.div %e, %l : !block.tile<[M, N], f32>, !block.tile<[M], f32>
        block.yield %p : !block.tile<[M, N], f32>
      }
      block.return %y : !block.array<4096x1024xf32>
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    // The axis table: an array of #block.axis, names unique.
    TypedArrayAttrBase<Block_AxisAttr, "axis table">:$axes,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs
  );
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
                   "::llvm::ArrayRef<AxisAttr>":$axes)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// The table entry for `name`, or null when the axis is not declared.
    AxisAttr lookupAxis(::mlir::StringAttr name);
    /// The axis table as a range of AxisAttr.
    auto getAxisTable() { return getAxes().getAsRange<AxisAttr>(); }
  }];
}

def Block_ReturnOp : Block_Op<"return", [Pure, HasParent<"ProgramOp">,
    ReturnLike, Terminator]> {
  let summary = "returns arrays from a program";
  let description = [{
    ```mlir
    block.return %o : !block.array<1024x64xf32>
    ```
  }];
  let arguments = (ins Variadic<Block_AnyArray>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def Block_ViewOp : Block_Op<"view", [Pure, HasParent<"ProgramOp">]> {
  let summary = "reinterprets an array with another shape, moving no data";
  let description = [{
    The same elements in row-major order with another shape, as
    `tensor.expand_shape`, `tensor.collapse_shape` and `tensor.reshape` do:
    a view is metadata, not a kernel, and moves no bytes. Loads of the view
    read the underlying array.

    ```mlir
    %heads = block.view %x : !block.array<128x768xf32> to !block.array<128x12x64xf32>
    ```
  }];
  let arguments = (ins Block_AnyArray:$source);
  let results = (outs Block_AnyArray:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

def Block_MapOp : Block_Op<"map", [RecursiveMemoryEffects, DeclaredAxes,
    HasParent<"ProgramOp">, SingleBlock]> {
  let summary = "a parallel grid over tiled axes: one kernel";
  let description = [{
    One independent instance per block index of the listed tiled axes; on a
    GPU, one thread block per instance. The body loads tiles of arrays,
    computes, and yields one tile per result; the yielded tiles of all
    instances form the result arrays. A yielded tile's axes are exactly the
    map's axes plus whole axes (no two instances write the same block), and
    the result array's dimensions follow the tile's axis order.

    ```mlir
    %e = block.map [M, N] -> !block.array<1024x1024xf32> {
      %s = block.load %S[M, N] : !block.array<1024x1024xf32> -> !block.tile<[M, N], f32>
      %x = block.exp %s : !block.tile<[M, N], f32>
      block.yield %x : !block.tile<[M, N], f32>
    }
    ```
  }];
  let arguments = (ins TypedArrayAttrBase<StrAttr, "axis names">:$axes);
  let results = (outs Variadic<Block_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$body);
  // `[AXES] (-> TYPES)? attr-dict-with-keyword REGION`, written by hand so
  // that the region belongs to the operation state before it is parsed
  // (the generated parser frees it on an error while values in it may
  // still be used by forward references outside it).
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The yield that ends the body.
    YieldOp getYield();
  }];
}

def Block_ReduceOp : Block_Op<"reduce", [RecursiveMemoryEffects, DeclaredAxes,
    InBody]> {
  let summary = "a sequential fold over the blocks of one axis";
  let description = [{
    Runs its body once per block of `axis`, in order; each run yields one
    term per result, and the terms are folded into the results by the
    combiners. With `combiners [...]` each result has a built-in associative
    combiner (add, mul, max, min) whose identity is the initial value. With
    `init(...) ... combine {...}` the state starts at the `init` values and
    the `combine` region folds one term into the state: its block arguments
    are the state followed by the terms, and it yields the new state. That is
    how the online-softmax triple (m, l, acc) is written.

    ```mlir
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %k = block.load %K[N, D] : !block.array<1024x64xf32> -> !block.tile<[N, D], f32>
      %s = block.dot %q, %k contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
      %r = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %r : !block.tile<[M], f32>
    }
    ```
  }];
  let arguments = (ins
    StrAttr:$axis,
    OptionalAttr<Block_CombinerKindArrayAttr>:$combiners,
    Variadic<Block_AnyTile>:$inits
  );
  let results = (outs Variadic<Block_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$body, MaxSizedRegion<1>:$combiner);
  // `AXIS (combiners [KINDS])? (init(OPERANDS : TYPES))? -> TYPES
  // attr-dict-with-keyword REGION (combine REGION)?`, by hand for the same
  // reason as block.map's.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    YieldOp getYield();
    /// True when the combine region, not built-in combiners, folds terms.
    bool hasRegionCombiner() { return !getCombiner().empty(); }
    static ::llvm::StringRef getDefaultDialect() { return "block"; }
  }];
}

def Block_YieldOp : Block_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["MapOp", "ReduceOp"]>]> {
  let summary = "ends a map body, a reduce body or a combine region";
  let description = [{
    In a map body it yields the tiles that become blocks of the map's result
    arrays; in a reduce body, the terms of one iteration; in a combine
    region, the new state.

    ```mlir
    block.yield %a, %b : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    ```
  }];
  let arguments = (ins Variadic<Block_AnyTile>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

def Block_LoadOp : Block_Op<"load", [Pure, DeclaredAxes, InBody]> {
  let summary = "reads the current block of an array into local memory";
  let description = [{
    Reads the block of `source` selected by the current block indices of the
    enclosing map and reduces. The index list has one entry per array
    dimension:

    - `A`: axis A indexes the dimension (its extent equals A's extent);
    - `A + c`: a static slice: dimension index = index of A plus `c`;
    - `c`: a fixed index; the dimension does not appear in the tile (use it
      for unit dimensions that broadcast).

    Axes not iterated by an enclosing map or reduce are read whole. The
    result tile has exactly the indexing axes, in any order: a load with a
    permuted order is a transposed read, never a materialised transpose.

    ```mlir
    %k = block.load %K[N, D] : !block.array<1024x64xf32> -> !block.tile<[N, D], f32>
    %b = block.load %bias[0, N] : !block.array<1x4096xf32> -> !block.tile<[N], f32>
    %w = block.load %wqkv[K, N + 4096] : !block.array<4096x12288xbf16> -> !block.tile<[K, N], bf16>
    ```
  }];
  let arguments = (ins
    Block_AnyArray:$source,
    // One entry per array dimension: an axis name, or "" for a fixed index.
    TypedArrayAttrBase<StrAttr, "index axes">:$indexAxes,
    // Per dimension: the slice offset of an axis entry, the index of a fixed one.
    DenseI64ArrayAttr:$offsets
  );
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = [{
    $source custom<LoadIndices>($indexAxes, $offsets) attr-dict `:`
    type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile compute
//===----------------------------------------------------------------------===//

def Block_DotOp : Block_Op<"dot", [Pure, DeclaredAxes, InBody,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "named-axis contraction with f32 accumulation";
  let description = [{
    An einsum over axis names: the result has the axes of `lhs` that are not
    contracted, then those of `rhs` that are neither contracted nor already
    present (shared uncontracted axes are batch axes). Products are summed in
    f32 whatever the operand element type, so the result is always f32.
    Transposes are free: `[N, D]` and `[D, N]` operands are the same
    contraction.

    ```mlir
    %s = block.dot %q, %k contract [D] : !block.tile<[M, D], bf16>, !block.tile<[N, D], bf16>
    // %s : !block.tile<[M, N], f32>
    ```
  }];
  let arguments = (ins Block_FloatTile:$lhs, Block_FloatTile:$rhs,
                       TypedArrayAttrBase<StrAttr, "axis names">:$contract);
  let results = (outs Block_FloatTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `contract` custom<AxisList>($contract) attr-dict `:`
    type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

// Binary elementwise ops broadcast by axis name: the result has the axes of
// `lhs` followed by those of `rhs` that `lhs` lacks. Element types match.
class Block_BinaryOp<string mnemonic, string doc, list<Trait> traits = [],
                     string note = "">
    : Block_Op<mnemonic, !listconcat(traits, [Pure, DeclaredAxes, InBody,
        DeclareOpInterfaceMethods<InferTypeOpInterface>])> {
  let summary = "elementwise " # doc # ", broadcasting by axis name";
  let description = [{
    Elementwise }] # doc # [{ of two tiles of one element type. Operands are
    matched by axis name: an axis present in only one operand is broadcast
    along. The result has the axes of `lhs`, then those of `rhs` that `lhs`
    lacks.}] # note # [{

    ```mlir
    %r = block.}] # mnemonic # [{ %a, %b : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    // %r : !block.tile<[M, N], f32>
    ```
  }];
  let arguments = (ins Block_AnyTile:$lhs, Block_AnyTile:$rhs);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let hasVerifier = 1;
}

def Block_AddOp : Block_BinaryOp<"add", "sum", [Commutative]>;
def Block_SubOp : Block_BinaryOp<"sub", "difference">;
def Block_MulOp : Block_BinaryOp<"mul", "product", [Commutative]>;
def Block_DivOp : Block_BinaryOp<"div", "quotient">;
def Block_MaxOp : Block_BinaryOp<"max", "maximum", [Commutative], [{
    Integers compare signed, except i1: a mask orders false < true, so `max`
    of masks is their `or` (a reduction with `max` is `any`).}]>;
def Block_MinOp : Block_BinaryOp<"min", "minimum", [Commutative], [{
    Integers compare signed, except i1: a mask orders false < true, so `min`
    of masks is their `and` (a reduction with `min` is `all`).}]>;

// Unary floating-point ops keep the operand's type.
class Block_UnaryOp<string mnemonic, string doc>
    : Block_Op<mnemonic, [Pure, DeclaredAxes, InBody, SameOperandsAndResultType]> {
  let summary = "elementwise " # doc;
  let description = [{
    Elementwise }] # doc # [{ of a floating-point tile.

    ```mlir
    %r = block.}] # mnemonic # [{ %a : !block.tile<[M, N], f32>
    ```
  }];
  let arguments = (ins Block_FloatTile:$operand);
  let results = (outs Block_FloatTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Block_NegOp : Block_UnaryOp<"neg", "negation">;
def Block_AbsOp : Block_UnaryOp<"abs", "absolute value">;
def Block_ExpOp : Block_UnaryOp<"exp", "natural exponential">;
def Block_LogOp : Block_UnaryOp<"log", "natural logarithm">;
def Block_SqrtOp : Block_UnaryOp<"sqrt", "square root">;
def Block_RsqrtOp : Block_UnaryOp<"rsqrt", "reciprocal square root">;
def Block_TanhOp : Block_UnaryOp<"tanh", "hyperbolic tangent">;
def Block_SiluOp : Block_UnaryOp<"silu", "SiLU, x * sigmoid(x)">;
def Block_ErfOp : Block_UnaryOp<"erf", "error function">;
def Block_SinOp : Block_UnaryOp<"sin", "sine">;
def Block_CosOp : Block_UnaryOp<"cos", "cosine">;
def Block_GeluOp : Block_UnaryOp<"gelu",
    "GELU, x * (1 + erf(x / sqrt(2))) / 2 (the exact form, PyTorch's default)">;

def Block_SelectOp : Block_Op<"select", [Pure, DeclaredAxes, InBody,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise choice by a mask, broadcasting by axis name";
  let description = [{
    `cond ? true_value : false_value`, elementwise. The three operands
    broadcast by axis name; the result has the axes of `cond`, then those of
    `true_value` and `false_value` not yet present.

    ```mlir
    %r = block.select %causal, %s, %neg_inf : !block.tile<[M, N], i1>, !block.tile<[M, N], f32>, !block.tile<[], f32>
    ```
  }];
  let arguments = (ins Block_BoolTile:$condition, Block_AnyTile:$true_value,
                       Block_AnyTile:$false_value);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    type($condition) `,` type($true_value) `,` type($false_value)
  }];
  let hasVerifier = 1;
}

def Block_CompareOp : Block_Op<"compare", [Pure, DeclaredAxes, InBody,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise comparison to an i1 mask, broadcasting by axis name";
  let description = [{
    Compares two tiles of one element type. For floats, `eq` ... `ge` are
    ordered (false when an operand is NaN) and `ueq` ... `uge` unordered
    (true when an operand is NaN), as `arith.cmpf`'s `o*` and `u*`
    predicates. Integers and indices compare signed with `lt` ... `ge` and
    unsigned with `ult` ... `uge`, as `arith.cmpi`'s `s*` and `u*`
    predicates (`ueq` and `une` are for floats only). Broadcasting and
    result axes as for binary ops.

    ```mlir
    %causal = block.compare ge %row, %col : !block.tile<[M], index>, !block.tile<[N], index>
    // %causal : !block.tile<[M, N], i1>
    ```
  }];
  let arguments = (ins Block_ComparePredicateAttr:$predicate,
                       Block_AnyTile:$lhs, Block_AnyTile:$rhs);
  let results = (outs Block_BoolTile:$result);
  let assemblyFormat = [{
    custom<ComparePredicate>($predicate) $lhs `,` $rhs attr-dict `:`
    type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def Block_TileReduceOp : Block_Op<"tile_reduce", [Pure, DeclaredAxes, InBody,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "reduction inside one tile along some of its axes";
  let description = [{
    Folds the listed axes of a tile with an associative combiner (a row sum,
    a row max). Unlike `block.reduce`, it iterates no blocks: it works on the
    tile already in local memory. The result has the remaining axes in order.

    ```mlir
    %m = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
    // %m : !block.tile<[M], f32>
    ```
  }];
  let arguments = (ins Block_CombinerKindAttr:$kind, Block_AnyTile:$operand,
                       TypedArrayAttrBase<StrAttr, "axis names">:$reduced);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = [{
    custom<CombinerKind>($kind) $operand `over` custom<AxisList>($reduced)
    attr-dict `:` type($operand)
  }];
  let hasVerifier = 1;
}

def Block_BroadcastOp : Block_Op<"broadcast", [Pure, DeclaredAxes, InBody]> {
  let summary = "gives a tile more axes, or its axes another order";
  let description = [{
    The result has every axis of the operand, plus possibly others along
    which the value is repeated, in any order. Name broadcasting makes this
    unnecessary between compute ops; it is needed where axis order or
    presence is structural: a map yields tiles in the order of its result
    array's dimensions, with all of the map's axes.

    ```mlir
    %b = block.broadcast %bias : !block.tile<[N], f32> to !block.tile<[M, N], f32>
    %t = block.broadcast %x : !block.tile<[N, M], f32> to !block.tile<[M, N], f32>
    ```
  }];
  let arguments = (ins Block_AnyTile:$operand);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
}

def Block_CastOp : Block_Op<"cast", [Pure, DeclaredAxes, InBody]> {
  let summary = "converts the element type of a tile";
  let description = [{
    Converts between f32, f16, bf16, f64 and integer element types (floats
    round to nearest even; float to integer truncates toward zero; integers
    are signed). The axes do not change.

    ```mlir
    %h = block.cast %x : !block.tile<[M, D], f32> to !block.tile<[M, D], bf16>
    ```
  }];
  let arguments = (ins Block_AnyTile:$operand);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
}

def Block_ConstantOp : Block_Op<"constant", [Pure, DeclaredAxes,
    InBody, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "a tile filled with one value";
  let description = [{
    A tile over the listed axes (none for a scalar) whose every element is
    `value`. The element type is the type of `value`.

    ```mlir
    %zero = block.constant [M, D] 0.000000e+00 : f32
    %ninf = block.constant [] 0xFF800000 : f32
    ```
  }];
  let arguments = (ins TypedArrayAttrBase<StrAttr, "axis names">:$axes,
                       TypedAttrInterface:$value);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = "custom<AxisList>($axes) $value attr-dict";
  let hasVerifier = 1;
}

def Block_IotaOp : Block_Op<"iota", [Pure, DeclaredAxes, InBody]> {
  let summary = "the global index along an axis of each element of a block";
  let description = [{
    A one-axis tile holding, for each element of the current block of `axis`,
    its index in the whole array (block offset plus position). Combined with
    `block.compare` and `block.select` it writes masks, such as causal ones.

    ```mlir
    %row = block.iota M : !block.tile<[M], index>
    ```
  }];
  let arguments = (ins StrAttr:$axis);
  let results = (outs Block_AnyTile:$result);
  let assemblyFormat = "custom<AxisName>($axis) attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKOPS_TD
