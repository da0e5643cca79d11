# A stand-in MLIRConfig.cmake of another MLIR release, which the installed
# Blockbuster package must refuse (test/Install/downstream.test).
set(LLVM_PACKAGE_VERSION 21.1.0)
set(MLIR_INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}")
