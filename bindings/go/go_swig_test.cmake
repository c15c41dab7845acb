# go_swig_test.cmake (cmake -P, run by ctest bindings_go_test): copies the Go module to
# MODULE_DIR, generates internal/swig from INTERFACE with the same swig command as the
# go:generate directive of internal/swig/doc.go, then runs `go test ./...` on the copy.
file(REMOVE_RECURSE "${MODULE_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${MODULE_DIR}"
  PATTERN "CMakeLists.txt" EXCLUDE
  PATTERN "*.cmake" EXCLUDE
  PATTERN "tigris_c.go" EXCLUDE
  PATTERN "tigris_wrap.c" EXCLUDE)
execute_process(
  COMMAND "${SWIG}" -go -cgo -intgosize 64 -module tigris_c -package swig "-I${INCLUDE_DIR}"
          -o tigris_wrap.c -outdir . "${INTERFACE}"
  WORKING_DIRECTORY "${MODULE_DIR}/internal/swig"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "swig -go failed (${rc})")
endif()
execute_process(COMMAND "${GO}" test -p 2 -count=1 ./...
  WORKING_DIRECTORY "${MODULE_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "go test failed (${rc})")
endif()
