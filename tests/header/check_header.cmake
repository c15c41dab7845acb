# Compiles the header probes with the real compilers; fails on any warning.
foreach(pair "${C_COMPILER};-std=c99;${SRC_DIR}/header_c99.c"
             "${CXX_COMPILER};-std=c++17;${SRC_DIR}/header_cxx.cc")
  list(GET pair 0 compiler)
  list(GET pair 1 std)
  list(GET pair 2 source)
  execute_process(
    COMMAND ${compiler} ${std} -pedantic -Wall -Wextra -Werror -fsyntax-only
            -I${INCLUDE_DIR} ${source}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tigris.h does not compile cleanly with ${std}:\n${out}${err}")
  endif()
endforeach()
