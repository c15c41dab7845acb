# tigris_add_gtest(NAME SOURCES src... [LIBS lib...] [LABELS label...])
# Builds one GoogleTest executable and registers each of its tests with ctest
# (gtest_discover_tests). Tests find the shared models and the build folder through
# tests/support/test_env.h, whose defaults are compiled in (tests/CMakeLists.txt) and can be
# overridden by the environment variables of the same names.
function(tigris_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  tigris_set_warnings(${name})
  include(GoogleTest)
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS "${ARG_LABELS}")
endfunction()
