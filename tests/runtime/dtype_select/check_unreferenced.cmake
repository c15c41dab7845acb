# cmake -DNM=... -DOBJECTS=a.o|b.o|... -DFORBIDDEN=<regex> -P check_unreferenced.cmake
# Fails when an executor object (runtime/src) references a kernel of the left-out dtype:
# the promise of TGRS_WITH_* (tigris_executor.h) that --gc-sections can then drop them.
# Kernel objects (runtime/kernels) define the kernels and are skipped.
include("${CMAKE_CURRENT_LIST_DIR}/../check_objects.cmake")
string(REPLACE "|" ";" objects "${OBJECTS}")
set(found "")
foreach(object IN LISTS objects)
  if(object MATCHES "/kernels/")
    continue()
  endif()
  execute_process(COMMAND "${NM}" -u "${object}" OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -u ${object} failed")
  endif()
  string(REGEX MATCHALL "[A-Za-z_0-9]+" symbols "${undefined}")
  foreach(symbol IN LISTS symbols)
    if(symbol MATCHES "${FORBIDDEN}")
      list(APPEND found "${object}: ${symbol}")
    endif()
  endforeach()
endforeach()
tigris_check_objects_report("${objects}" "${found}" "left-out kernels still referenced"
                            "no executor object references ${FORBIDDEN}")
