# install_test.cmake (cmake -P, run by ctest install_consumer): installs this build into a
# fresh prefix and uses it from outside, the two ways docs/install.md documents:
#   1. a CMake project (consumer/) with find_package(tigris CONFIG REQUIRED): a C program on
#      tigris::tigris, a C++ program on tigris::tigris_static, C programs on tigris::runtime
#      and on a runtime compiled from the installed sources (tigris_runtime_library);
#   2. plain `cc` with `pkg-config --cflags --libs tigris` / `tigris-runtime`.
# Every program runs the same plan on the same input; their output bytes must equal each
# other and the installed `tigris run`'s, which is what makes this test able to fail.
#
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, MODEL, GENERATOR, C_COMPILER, CXX_COMPILER,
# PYTHON (for reading the CLI's .npy).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_same_bytes a b)
  file(READ "${a}" ha HEX)
  file(READ "${b}" hb HEX)
  if(ha STREQUAL "" OR NOT ha STREQUAL hb)
    message(FATAL_ERROR "${a} and ${b} differ:\n${ha}\n${hb}")
  endif()
endfunction()

set(prefix "${WORK_DIR}/prefix")
set(out "${WORK_DIR}/out")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${out}")

run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# --- 1. find_package --------------------------------------------------------------------
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/consumer"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" -DCMAKE_BUILD_TYPE=Release)
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
set(bin "${WORK_DIR}/consumer")
run("${bin}/compile_and_run" "${MODEL}" "${out}/plan.tgrs" "${out}/shared.bin")
run("${bin}/run_plan_static" "${out}/plan.tgrs" "${out}/static.bin")
run("${bin}/run_on_runtime" "${out}/plan.tgrs" "${out}/runtime.bin")
run("${bin}/run_on_firmware_runtime" "${out}/plan.tgrs" "${out}/firmware.bin")
# The static program must not need libtigris.so.
file(GET_RUNTIME_DEPENDENCIES EXECUTABLES "${bin}/run_plan_static"
     RESOLVED_DEPENDENCIES_VAR deps UNRESOLVED_DEPENDENCIES_VAR unresolved)
if("${deps};${unresolved}" MATCHES "libtigris")
  message(FATAL_ERROR "run_plan_static links a shared libtigris: ${deps} ${unresolved}")
endif()

# --- 2. pkg-config ----------------------------------------------------------------------
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
foreach(pc tigris tigris-runtime)
  run("${PKG_CONFIG}" --cflags --libs ${pc})
  string(STRIP "${run_output}" flags_${pc})
  separate_arguments(flags_${pc} UNIX_COMMAND "${flags_${pc}}")
endforeach()
run("${PKG_CONFIG}" --modversion tigris)
string(STRIP "${run_output}" version)
if(NOT version MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+$")
  message(FATAL_ERROR "pkg-config --modversion tigris: '${version}'")
endif()
set(consumer "${SOURCE_DIR}/tests/install/consumer")
# No rpath of our own: tigris.pc carries one, so the program runs as built.
run("${C_COMPILER}" -std=c99 -Wall -Werror "${consumer}/compile_and_run.c" -o
    "${out}/compile_and_run_pc" ${flags_tigris})
run("${out}/compile_and_run_pc" "${MODEL}" "${out}/plan_pc.tgrs" "${out}/shared_pc.bin")
run("${C_COMPILER}" -std=c99 -Wall -Werror "${consumer}/run_on_runtime.c" -o
    "${out}/run_on_runtime_pc" ${flags_tigris-runtime})
run("${out}/run_on_runtime_pc" "${out}/plan.tgrs" "${out}/runtime_pc.bin")

# --- the installed CLI, the reference ------------------------------------------------------
set(npy_io "${SOURCE_DIR}/tests/install/npy_io.py")
run("${PYTHON}" "${npy_io}" input "${out}/x.npy")
run("${prefix}/bin/tigris" run "${out}/plan.tgrs" --input "${out}/x.npy" --output "${out}/y.npy")
run("${PYTHON}" "${npy_io}" raw "${out}/y.npy" "${out}/cli.bin")

expect_same_bytes("${out}/plan.tgrs" "${out}/plan_pc.tgrs")
foreach(name shared static runtime firmware shared_pc runtime_pc)
  expect_same_bytes("${out}/cli.bin" "${out}/${name}.bin")
endforeach()
message(STATUS "installed tree: find_package and pkg-config consumers agree with tigris run")
file(REMOVE_RECURSE "${WORK_DIR}")
