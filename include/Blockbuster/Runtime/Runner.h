//===- Runner.h - Run a program, check it against a reference ---*- C++ -*-===//
//
// What bb-run does (docs/CPUExecution.md), as a library: run the program
// under test (MLIR JIT-run on the CPU, or an artifact on CUDA) on seeded
// random inputs with its outputs poisoned, run the reference on the CPU on
// the same inputs, and compare. tools/bb-run is the command line over it.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_RUNTIME_RUNNER_H
#define BLOCKBUSTER_RUNTIME_RUNNER_H

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <string>
#include <vector>

namespace blockbuster {
namespace runner {

struct RunOptions {
  /// The program under test: MLIR (a block program or Linalg), or with
  /// runArtifactOnCuda an artifact directory.
  std::string inputFilename;
  /// The block.program or func.func to run; empty: the only one.
  std::string entryName;
  /// Compare every output with the reference's.
  bool check = false;
  /// The reference program; empty: Linalg input against its upstream
  /// lowering (or an artifact's "source").
  std::string referenceFilename;
  /// AXIS=SIZE given to block-select, for both programs.
  std::vector<std::string> blockSizes;
  /// The target whose heuristic block-select uses for other axes.
  std::string target = "cpu";
  /// Seed of the random inputs (SplitMix64).
  uint64_t seed = 1;
  /// Negative: the defaults (rtol 1e-4, 2e-2 when an input or output is
  /// f16 or bf16; atol rtol times the reference output's largest magnitude).
  double rtol = -1.0;
  double atol = -1.0;
  /// Fuse the program under test with block-fuse; `noFuse` overrides it.
  bool fuse = false;
  bool noFuse = false;
  /// Print every output (and the reference's).
  bool printOutputs = false;
  /// Judge an output that fails the tolerance again against the reference
  /// computed in f64.
  bool f64Oracle = false;
  /// Also print the outputs of the Linalg program (the reference with
  /// `check`) computed with every f32 value in f64, as "oracle #N": what
  /// the GPU difftest judges an ill-conditioned output against.
  bool printF64Oracle = false;
  /// Test the checker: spoil the first output of the program under test.
  bool injectError = false;
  bool injectNaN = false;
};

/// Runs MLIR `options.inputFilename` on the CPU and, with `check`, compares
/// it with the reference; prints to stdout and returns the exit status.
int runProgramOnCPU(mlir::MLIRContext &context, const RunOptions &options);

/// Runs artifact directory `options.inputFilename` on CUDA (docs/Artifact.md)
/// and, with `check`, compares it with the reference run on the CPU. The
/// artifact is validated and the reference compiled before any CUDA call.
int runArtifactOnCuda(mlir::MLIRContext &context, const RunOptions &options);

} // namespace runner
} // namespace blockbuster

#endif // BLOCKBUSTER_RUNTIME_RUNNER_H
