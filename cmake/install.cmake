# Installation: the libraries as vcsched::core, vcsched::lifecycle, vcsched::io and vcsched::simulate, the public headers, the
# CLI, a CMake package (find_package(vcsched CONFIG)) and a pkg-config file (vcsched.pc).
include(CMakePackageConfigHelpers)
set(VCSCHED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vcsched)

set(VCSCHED_INSTALLED_LIBS vcsched_core vcsched_lifecycle)
if(TARGET vcsched_io)
  list(APPEND VCSCHED_INSTALLED_LIBS vcsched_io vcsched_simulate)
endif()
install(TARGETS ${VCSCHED_INSTALLED_LIBS} EXPORT vcschedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/vcsched ${PROJECT_BINARY_DIR}/include/vcsched
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h")
if(TARGET vcsched)
  install(TARGETS vcsched RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()

install(EXPORT vcschedTargets NAMESPACE vcsched:: DESTINATION ${VCSCHED_CMAKE_DIR} COMPONENT dev)
set(VCSCHED_CONFIG_WITH_IO ${VCSCHED_BUILD_IO})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vcschedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/vcschedConfig.cmake INSTALL_DESTINATION ${VCSCHED_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vcschedConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)  # before 1.0, a minor version may break the API
install(FILES ${PROJECT_BINARY_DIR}/vcschedConfig.cmake ${PROJECT_BINARY_DIR}/vcschedConfigVersion.cmake
        DESTINATION ${VCSCHED_CMAKE_DIR} COMPONENT dev)

# pkg-config: the libraries are static, so their dependencies are public requirements.
set(VCSCHED_PC_REQUIRES "absl_status absl_statusor absl_strings absl_str_format absl_span absl_inlined_vector absl_time absl_flat_hash_map re2")
set(VCSCHED_PC_LIBS "-lvcsched_lifecycle -lvcsched_core")
if(TARGET vcsched_io)
  string(APPEND VCSCHED_PC_REQUIRES " yaml-0.1 yaml-cpp simdjson")
  set(VCSCHED_PC_LIBS "-lvcsched_simulate -lvcsched_io -lvcsched_lifecycle -lvcsched_core")
endif()
# Paths relative to the .pc file, so that `cmake --install --prefix P` needs no reconfigure.
file(RELATIVE_PATH VCSCHED_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(${CMAKE_CURRENT_LIST_DIR}/vcsched.pc.in ${PROJECT_BINARY_DIR}/vcsched.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vcsched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
