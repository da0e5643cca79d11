//===- BlockTypes.td - Buffered and unbuffered types -------*- tablegen -*-===//
//
// The two memory tiers are two types, so the tier of every SSA value can be
// read off the IR and checked by verifiers: compute ops accept only tiles,
// only loads read arrays, and only top-level maps produce arrays.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTYPES_TD
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTYPES_TD

include "Blockbuster/Dialect/Block/IR/BlockBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Block_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Block_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Block_ArrayType : Block_Type<"Array", "array"> {
  let summary = "a buffered value: a whole array in global memory";
  let description = [{
    An array of static shape in global memory (HBM on a GPU). Arrays are SSA
    values with value semantics, like tensors; bufferisation happens only when
    lowering. Every use of an array by a `block.load` in another kernel is a
    round trip through global memory: a *buffered edge*.

    ```mlir
    !block.array<1024x64xbf16>
    ```
  }];
  // Static extents only: the fusion report and the cost model need sizes.
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static extent of each dimension">:$shape,
    "::mlir::Type":$elementType
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Number of elements of the whole array.
    int64_t getNumElements() const;
  }];
}

def Block_TileType : Block_Type<"Tile", "tile"> {
  let summary = "an unbuffered value: a block of an array in local memory";
  let description = [{
    A tile lives on chip (shared memory or registers). Its dimensions are
    named by axes of the enclosing program; the extent of each is the axis'
    block size when an enclosing map or reduce iterates the axis, and the
    axis' whole extent otherwise. A tile with one axis is a row or column
    vector of a block; a tile with no axes is a scalar.

    Axes are ordered: the order is the layout of the tile and, for the tiles
    a map yields, the order of the result array's dimensions. Elementwise ops
    and contractions match operands by axis name, never by position.

    ```mlir
    !block.tile<[M, N], f32>   // a block of an M x N array
    !block.tile<[M], f32>      // one value per row of the block
    !block.tile<[], f32>       // a scalar
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "axis names, in layout order">:$axes,
    "::mlir::Type":$elementType
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getAxes().size(); }
    /// Position of `axis` in this tile, or std::nullopt if it is absent.
    std::optional<unsigned> getAxisPosition(::mlir::StringAttr axis) const;
    bool hasAxis(::mlir::StringAttr axis) const {
      return getAxisPosition(axis).has_value();
    }
    /// The same axes with another element type.
    TileType withElementType(::mlir::Type elementType) const;
  }];
}

def Block_AnyArray : Type<CPred<"::llvm::isa<::blockbuster::block::ArrayType>($_self)">,
    "buffered array (!block.array; only block.load reads global memory)",
    "::mlir::Type">;

def Block_AnyTile : Type<CPred<"::llvm::isa<::blockbuster::block::TileType>($_self)">,
    "unbuffered tile (!block.tile; compute ops never read buffered arrays, load them first)",
    "::mlir::Type">;

def Block_FloatTile : Type<And<[
      CPred<"::llvm::isa<::blockbuster::block::TileType>($_self)">,
      CPred<"::llvm::isa<::mlir::FloatType>(::llvm::cast<::blockbuster::block::TileType>($_self).getElementType())">]>,
    "unbuffered tile of floating-point elements",
    "::mlir::Type">;

def Block_BoolTile : Type<And<[
      CPred<"::llvm::isa<::blockbuster::block::TileType>($_self)">,
      CPred<"::llvm::cast<::blockbuster::block::TileType>($_self).getElementType().isInteger(1)">]>,
    "unbuffered tile of i1 (a mask)",
    "::mlir::Type">;

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKTYPES_TD
