# tigris_runtime_library(<name> <STATIC|OBJECT> [PARTS src kernels] [DEFINES ...] [OPTIONS ...])
#
# The C99 runtime's sources (runtime/src, runtime/kernels, or one of them with PARTS) as
# one library, compiled the one way every build of them needs: C99 without extensions,
# -ffp-contract=off, the project's warnings. Used by the host runtime (runtime/), its
# sanitized and single-dtype test builds (tests/), and the Cortex-M firmware project
# (runtime/targets/mps2), so a flag the runtime depends on is set in one place.
#
# Why -ffp-contract=off: exp/log/tanh (kernels/tgrs_math.c) and every float kernel are
# written so that each + - * / rounds once, which is what makes the host's bytes equal the
# Cortex-M build's. A compiler allowed to fuse a*b+c (clang's default, or gcc in GNU mode on
# an FMA machine) would round once instead of twice and change the last bit.
#
# DEFINES are PUBLIC (TGRS_WITH_* must reach every file including tigris_executor.h);
# OPTIONS are PRIVATE (sanitizers, optimization). runtime/include and runtime/kernels are
# PUBLIC include directories, runtime/src PRIVATE.
# TIGRIS_RUNTIME_DIR: the runtime's source tree. In this repository it is runtime/; an
# installed package sets it to its copy of the sources (tigrisConfig.cmake) first.
if(NOT DEFINED TIGRIS_RUNTIME_DIR)
  get_filename_component(TIGRIS_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime" ABSOLUTE)
endif()

# The int8 inner loops (kernels/s8_boxes.h), compiled with -O2 whatever the build type: at
# -Os, GCC spills their accumulators and row pointers to the stack inside the innermost loop
# (docs/cortex-m.md, "Speed"). TFLite Micro builds its CMSIS-NN kernels the same way (core
# -Os, kernels -O2). Only these files: -O2 on the whole kernel files made the float32
# kernels slower. The flag comes after the build type's, so it wins.
set(TIGRIS_RUNTIME_HOT_SOURCES conv_box_s8.c depthwise_box_s8.c dot_s8.c)

function(tigris_runtime_library name type)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "PARTS;DEFINES;OPTIONS")
  if(NOT arg_PARTS)
    set(arg_PARTS src kernels)
  endif()
  set(sources "")
  foreach(part IN LISTS arg_PARTS)
    file(GLOB part_sources CONFIGURE_DEPENDS "${TIGRIS_RUNTIME_DIR}/${part}/*.c")
    list(APPEND sources ${part_sources})
  endforeach()
  foreach(hot IN LISTS TIGRIS_RUNTIME_HOT_SOURCES)
    set_source_files_properties("${TIGRIS_RUNTIME_DIR}/kernels/${hot}" PROPERTIES
                                COMPILE_OPTIONS "$<$<C_COMPILER_ID:GNU,Clang,AppleClang>:-O2>")
  endforeach()
  add_library(${name} ${type} ${sources})
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON
                                           C_EXTENSIONS OFF)
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${TIGRIS_RUNTIME_DIR}/include>
                                            $<BUILD_INTERFACE:${TIGRIS_RUNTIME_DIR}/kernels>
                                     PRIVATE ${TIGRIS_RUNTIME_DIR}/src)
  target_compile_definitions(${name} PUBLIC ${arg_DEFINES})
  target_compile_options(${name} PRIVATE
                         $<$<C_COMPILER_ID:GNU,Clang,AppleClang>:-ffp-contract=off>
                         ${arg_OPTIONS})
  tigris_set_warnings(${name})
endfunction()
