# Functions that add Blockbuster's libraries and tools and install them into
# one CMake export set, BlockbusterTargets, the way CIRCT's AddCIRCT.cmake does
# for CIRCT. `add_mlir_library` alone would install into the export set
# MLIRTargets, which is MLIR's; the package config (cmake/BlockbusterConfig.cmake.in)
# imports this set as `Blockbuster::<name>`.

include_guard()

# Installs library or tool `name` (component `name`) into the export set.
# Libraries carry the installed include directory in their interface, so a
# downstream target that links one compiles against the installed headers.
function(add_blockbuster_install name)
  install(TARGETS ${name}
    EXPORT BlockbusterTargets
    COMPONENT ${name}
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    )
  set_property(GLOBAL APPEND PROPERTY BLOCKBUSTER_EXPORTS ${name})
endfunction()

# An MLIR library (add_mlir_library's arguments).
function(add_blockbuster_library name)
  add_mlir_library(${name} DISABLE_INSTALL ${ARGN})
  add_blockbuster_install(${name})
endfunction()

# A library that defines a dialect.
function(add_blockbuster_dialect_library name)
  set_property(GLOBAL APPEND PROPERTY BLOCKBUSTER_DIALECT_LIBS ${name})
  add_blockbuster_library(${name} ${ARGN})
endfunction()

# A library of conversion passes between dialects.
function(add_blockbuster_conversion_library name)
  set_property(GLOBAL APPEND PROPERTY BLOCKBUSTER_CONVERSION_LIBS ${name})
  add_blockbuster_library(${name} ${ARGN})
endfunction()

# A library that is not an MLIR library (the GPU runtime needs LLVM only; the
# C API is a shared library): llvm_add_library's arguments. add_llvm_library
# would install it into LLVM's export set.
function(add_blockbuster_llvm_library name)
  llvm_add_library(${name} ${ARGN})
  add_blockbuster_install(${name})
endfunction()

# A command-line tool, installed into bin/ and exported as an imported
# executable (`Blockbuster::bb-opt`).
function(add_blockbuster_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  add_blockbuster_install(${name})
endfunction()

# add_mlir_pdll_library(target input ofn), but mlir-pdll reads the .pdll by
# its path relative to the source root: the C++ it writes embeds the PDL
# module with that path in every location, so an absolute path would put the
# build machine's source directory into every library and tool (and the
# installed tree must name none, test/Install/install-paths.test).
function(add_blockbuster_pdll_library target input ofn)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${ofn})
  file(RELATIVE_PATH source ${PROJECT_SOURCE_DIR}
    ${CMAKE_CURRENT_SOURCE_DIR}/${input})
  get_directory_property(includes INCLUDE_DIRECTORIES)
  list(REMOVE_ITEM includes "")
  list(TRANSFORM includes PREPEND -I)
  add_custom_command(OUTPUT ${output}
    COMMAND ${MLIR_PDLL_TABLEGEN_EXE} -x=cpp ${source}
      -I ${CMAKE_CURRENT_SOURCE_DIR} ${includes}
      --write-if-changed -o ${output} -d ${output}.d
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    DEPFILE ${output}.d
    DEPENDS ${MLIR_PDLL_TABLEGEN_EXE} ${CMAKE_CURRENT_SOURCE_DIR}/${input}
    COMMENT "Building ${ofn}..."
    )
  set(TABLEGEN_OUTPUT ${output})
  add_public_tablegen_target(${target})
endfunction()
