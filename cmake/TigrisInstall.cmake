# Install rules and the package files a consumer finds TiGrIS by (docs/install.md):
#
#   lib/libtigris.so*, lib/libtigris.a     the compiler library (C ABI), shared and static
#   lib/libtigris_runtime.a                the C99 runtime built for this host
#   include/tigris.h                       the compiler's C ABI
#   include/tigris-runtime/*.h             the runtime's API
#   bin/tigris                             the command line
#   share/tigris/runtime/{include,src,kernels}  the runtime's sources, for firmware builds
#   lib/cmake/tigris/                      tigrisConfig.cmake, version file, exported targets
#                                          tigris::tigris, tigris::tigris_static,
#                                          tigris::runtime, tigris::cli, and
#                                          tigris_runtime_library() for firmware projects
#   lib/pkgconfig/tigris.pc, tigris-runtime.pc
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TIGRIS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tigris")
set(TIGRIS_INSTALL_RUNTIME_SRCDIR "${CMAKE_INSTALL_DATADIR}/tigris/runtime")

# The CLI finds libtigris.so beside it in the installed tree, wherever the tree is moved.
set_target_properties(tigris_cli PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}" EXPORT_NAME cli)

install(TARGETS tigris tigris_static tigris_runtime tigris_cli
  EXPORT tigrisTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tigris
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT tigris
          NAMELINK_COMPONENT tigris
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT tigris
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/include/tigris.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT tigris)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tigris-runtime" COMPONENT tigris
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
foreach(part include src kernels)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/${part}/"
    DESTINATION "${TIGRIS_INSTALL_RUNTIME_SRCDIR}/${part}" COMPONENT tigris
    FILES_MATCHING PATTERN "*.c" PATTERN "*.h" PATTERN "*.def")
endforeach()

install(EXPORT tigrisTargets NAMESPACE tigris::
  DESTINATION "${TIGRIS_INSTALL_CMAKEDIR}" COMPONENT tigris)
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/package/tigrisConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/tigrisConfig.cmake"
  INSTALL_DESTINATION "${TIGRIS_INSTALL_CMAKEDIR}"
  PATH_VARS TIGRIS_INSTALL_RUNTIME_SRCDIR)
# 0.x: a minor release may change the ABI, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/tigrisConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/tigrisConfig.cmake"
              "${PROJECT_BINARY_DIR}/package/tigrisConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/TigrisRuntime.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/TigrisWarnings.cmake"
  DESTINATION "${TIGRIS_INSTALL_CMAKEDIR}" COMPONENT tigris)

# pkg-config: the prefix is found from the .pc file's own folder (${pcfiledir}), so the
# files are right for `cmake --install --prefix P` and for a tree moved after installing.
file(RELATIVE_PATH TIGRIS_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
foreach(pc tigris tigris-runtime)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/package/${pc}.pc.in"
                 "${PROJECT_BINARY_DIR}/package/${pc}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/package/${pc}.pc"
    DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT tigris)
endforeach()
