//===- BlockBase.td - The block dialect definition ---------*- tablegen -*-===//
//
// The `block` dialect describes block (tile) programs: arrays in global
// memory, tiles of them in local memory, and the maps and reduces that move
// between the two. See docs/BlockPrograms.md for the model.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKBASE_TD
#define BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKBASE_TD

include "mlir/IR/OpBase.td"

def Block_Dialect : Dialect {
  let name = "block";
  let cppNamespace = "::blockbuster::block";
  let summary = "Block-level programs whose types show the memory tier of every value";
  let description = [{
    A block program computes on whole arrays that live in global memory
    (*buffered* values, `!block.array`) by running *maps*: parallel grids
    whose every instance loads blocks (tiles) of arrays into local memory,
    computes on them (*unbuffered* values, `!block.tile`) and yields tiles
    that become the blocks of the map's result arrays.

    Every array dimension is indexed by a named *axis* declared once in the
    program's axis table. Tiles carry the names of their axes, so elementwise
    ops broadcast by name and a contraction names the axes it sums over.

    Fusion turns buffered edges (an array written by one map and loaded by
    another) into unbuffered ones (a tile passed inside one map body). The
    number of top-level maps is the number of kernels.

    ```mlir
    block.program @scale axes(M = 1024 tiled, D = 64 whole)
        (%x: !block.array<1024x64xf32>) -> !block.array<1024x64xf32> {
      %y = block.map [M] -> !block.array<1024x64xf32> {
        %t = block.load %x[M, D] : !block.array<1024x64xf32> -> !block.tile<[M, D], f32>
        %two = block.constant [] 2.000000e+00 : f32
        %r = block.mul %t, %two : !block.tile<[M, D], f32>, !block.tile<[], f32>
        block.yield %r : !block.tile<[M, D], f32>
      }
      block.return %y : !block.array<1024x64xf32>
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    // Defined next to the type and attribute definitions, which must be
    // complete where they are registered.
    void registerTypes();
    void registerAttributes();
  }];
}

class Block_Op<string mnemonic, list<Trait> traits = []>
    : Op<Block_Dialect, mnemonic, traits>;

#endif // BLOCKBUSTER_DIALECT_BLOCK_IR_BLOCKBASE_TD
