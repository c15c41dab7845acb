# tigris_add_gtest(NAME SOURCES src... [LIBS lib...] [LABELS label...])
# Builds one GoogleTest executable and registers each of its tests with ctest
# (gtest_discover_tests), with TIGRIS_MODELS_DIR and the build folder in the environment so
# tests can find the shared models and generated files without hard-coded paths.
function(tigris_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  tigris_set_warnings(${name})
  include(GoogleTest)
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES
      LABELS "${ARG_LABELS}"
      ENVIRONMENT "TIGRIS_MODELS_DIR=${TIGRIS_MODELS_DIR};TIGRIS_BUILD_DIR=${PROJECT_BINARY_DIR};TIGRIS_SOURCE_DIR=${PROJECT_SOURCE_DIR};TIGRIS_PYTHON=${TIGRIS_PYTHON}")
endfunction()
