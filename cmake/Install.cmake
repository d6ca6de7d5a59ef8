# `cmake --install` puts the libraries, their headers (include/fived/<folder>/*.h, the same
# include paths as in the tree), the fived program and a CMake package, so another program uses
#   find_package(fived REQUIRED)
#   target_link_libraries(app PRIVATE fived::movegen)   # or notation, solver, render, report
# examples/consumer/ is such a program; scripts/consumer-check.sh builds it against an install.
include(CMakePackageConfigHelpers)

set(_areas movegen notation solver render)
set(_libraries fived_options fived_movegen fived_notation fived_solver fived_render)
set(FIVED_PACKAGE_REPORT OFF) # fivedConfig.cmake.in: then it finds nlohmann-json
if(TARGET fived_report) # built with the program (it needs nlohmann-json)
    list(APPEND _areas report)
    list(APPEND _libraries fived_report)
    set(FIVED_PACKAGE_REPORT ON)
endif()
foreach(area ${_areas})
    file(GLOB _headers RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${area}/*.h)
    # Internal headers (the solver driver's state, the search's shared helpers) stay out.
    list(FILTER _headers EXCLUDE REGEX "(/driver|_internal)\\.h$")
    install(FILES ${_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fived/${area})
endforeach()

install(TARGETS ${_libraries}
    EXPORT fivedTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET fived)
    install(TARGETS fived RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/fived)
install(EXPORT fivedTargets NAMESPACE fived:: DESTINATION ${_cmakedir})
configure_package_config_file(cmake/fivedConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/fivedConfig.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/fivedConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/fivedConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/fivedConfigVersion.cmake DESTINATION ${_cmakedir})
