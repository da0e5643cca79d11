/*===- Blockbuster.h - The Blockbuster C API --------------------*- C -*-===*\
|*                                                                          *|
|* Plain C functions over the compiler and the CPU runner, in the shared    *|
|* library libBlockbusterCAPI.so, for callers that cannot link C++: the     *|
|* Python package (python/blockbuster/capi.py, through ctypes).             *|
|*                                                                          *|
|* Every function but bbVersion and bbFreeString returns 0 on success and   *|
|* non-zero on failure, and sets *result to a NUL-terminated string that    *|
|* the library allocated: the output on success, the diagnostics (MLIR's    *|
|* "loc: error: ..." lines and the runner's "blockbuster: error: ..."       *|
|* lines) on failure. Release it with bbFreeString. Inputs are MLIR text    *|
|* (Linalg on tensors or block programs); no function keeps state between  *|
|* calls, and each call uses its own MLIRContext.                           *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef BLOCKBUSTER_C_BLOCKBUSTER_H
#define BLOCKBUSTER_C_BLOCKBUSTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BB_CAPI_EXPORT __attribute__((visibility("default")))

/* "blockbuster-capi 1": the version of this interface. */
BB_CAPI_EXPORT const char *bbVersion(void);

BB_CAPI_EXPORT void bbFreeString(char *string);

/* Parses `mlir`, runs the textual pass pipeline `pipeline` on the module
 * (for example "convert-linalg-to-block,block-fuse"; "" runs nothing) and
 * returns the printed module. */
BB_CAPI_EXPORT int bbTransform(const char *mlir, const char *pipeline,
                               char **result);

/* As bbTransform, then block-report{reportOptions} (for example
 * "block-sizes=M=64,N=64"): returns the fusion report, one JSON object per
 * block program per line (docs/FusionReport.md). */
BB_CAPI_EXPORT int bbReport(const char *mlir, const char *pipeline,
                            const char *reportOptions, char **result);

/* The signature of `entry` ("" for the only block.program or public
 * func.func): {"entry": NAME, "kind": "linalg"|"block",
 * "inputs": [{"shape": [...], "dtype": "f32"}, ...], "outputs": [...]}.
 * The inputs of Linalg include its hoisted tensor constants (weights), last;
 * each has "hoisted": true and, when it was a dense_resource, its key as
 * "constant" (the name that binds it, docs/Artifact.md). */
BB_CAPI_EXPORT int bbSignature(const char *mlir, const char *entry,
                               char **result);

/* JIT-runs `entry` on the CPU as bb-run does. `options` is JSON (or ""):
 * {"fuse": false, "block_sizes": ["M=64"], "target": "cpu",
 *  "reference": false}; "reference": true runs upstream MLIR's own lowering
 * of Linalg input (bb-run's reference) instead of Blockbuster's. inputs[i]
 * points to inputBytes[i] bytes of row-major data (i1 as one byte); the
 * outputs are written to outputs[i], each outputBytes[i] bytes. Counts and
 * byte sizes are checked against the signature before anything runs. On
 * success *result is "". */
BB_CAPI_EXPORT int bbRunCPU(const char *mlir, const char *entry,
                            const char *options, int64_t numInputs,
                            void *const *inputs, const int64_t *inputBytes,
                            int64_t numOutputs, void *const *outputs,
                            const int64_t *outputBytes, char **result);

/* Compiles `mlir` for the GPU as bb-compile does (convert-linalg-to-block,
 * block-fuse, block-select for the GPU, blockbuster-gpu-pipeline) and writes
 * the artifact (docs/Artifact.md) into `directory`. `options` is JSON (or
 * ""): {"entry": NAME, "fuse": true, "chip": "sm_90", "features": "+ptx80",
 * "round_dot_operands": false, "divide_after_rounding": false,
 * "divide_after_bf16_rounding": true, "allow_tf32": false, "threads": 128,
 * "block_sizes": ["M=64", ...]} (round_dot_operands, divide_after_rounding,
 * divide_after_bf16_rounding, allow_tf32: bb-compile's --round-dot-operands,
 * --divide-after-rounding, --divide-after-bf16-rounding, --allow-tf32). On
 * success
 * *result is the path of the manifest. */
BB_CAPI_EXPORT int bbCompileArtifact(const char *mlir, const char *options,
                                     const char *directory, char **result);

#ifdef __cplusplus
}
#endif

#endif /* BLOCKBUSTER_C_BLOCKBUSTER_H */
