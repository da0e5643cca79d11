//===- BlockAttrs.td - Axes and enums ----------------------*- tablegen -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKATTRS_TD
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKATTRS_TD

include "Blockbuster/Dialect/Block/IR/BlockBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Block_AxisKind : I32EnumAttr<"AxisKind", "how an axis is iterated", [
    // Iterated in blocks by the map or reduce that names it.
    I32EnumAttrCase<"Tiled", 0, "tiled">,
    // Never iterated: one block spans the whole extent (a head dimension).
    I32EnumAttrCase<"Whole", 1, "whole">
  ]> {
  let cppNamespace = "::blockbuster::block";
  let genSpecializedAttr = 0;
}

def Block_CombinerKind : I32EnumAttr<"CombinerKind",
    "an associative and commutative combiner", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Mul", 1, "mul">,
    // On i1 masks (false < true) max is `or` and min is `and`.
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">
  ]> {
  let cppNamespace = "::blockbuster::block";
  let genSpecializedAttr = 0;
}

def Block_CombinerKindAttr : EnumAttr<Block_Dialect, Block_CombinerKind, "combiner">;
def Block_CombinerKindArrayAttr : TypedArrayAttrBase<Block_CombinerKindAttr,
    "array of combiner kinds">;

def Block_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "a comparison", [
    // Ordered: false when a float operand is NaN. Integers compare signed.
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>,
    // Floats: unordered, true when an operand is NaN. Integers: ult ... uge
    // compare unsigned (as arith.cmpi's u predicates); ueq and une are for
    // floats only.
    I32EnumAttrCase<"ueq", 6>, I32EnumAttrCase<"une", 7>,
    I32EnumAttrCase<"ult", 8>, I32EnumAttrCase<"ule", 9>,
    I32EnumAttrCase<"ugt", 10>, I32EnumAttrCase<"uge", 11>
  ]> {
  let cppNamespace = "::blockbuster::block";
  let genSpecializedAttr = 0;
}
def Block_ComparePredicateAttr : EnumAttr<Block_Dialect, Block_ComparePredicate,
    "predicate">;

def Block_AxisAttr : AttrDef<Block_Dialect, "Axis"> {
  let mnemonic = "axis";
  let summary = "one entry of a program's axis table";
  let description = [{
    A named axis: its extent, whether it is tiled or whole, and, for tiled
    axes, the block size once one is chosen. Block sizes are not part of the
    fused program's structure: `block-select` fills them in, so one fused
    program can be re-tuned without re-fusing.

    ```mlir
    #block.axis<N = 1024 tiled>
    #block.axis<N = 1024 tiled block 64>
    #block.axis<D = 64 whole>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "int64_t":$extent,
    "::blockbuster::block::AxisKind":$kind,
    // Unset (std::nullopt) until block-select or the user binds it.
    OptionalParameter<"std::optional<int64_t>">:$blockSize
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isTiled() const { return getKind() == AxisKind::Tiled; }
    bool isWhole() const { return getKind() == AxisKind::Whole; }
    /// Printed form without the `#block.axis<...>` wrapper, as used in the
    /// program's axis table: `N = 1024 tiled block 64`.
    void printBody(::mlir::AsmPrinter &printer) const;
    static AxisAttr parseBody(::mlir::AsmParser &parser);
  }];
}

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKATTRS_TD
