# INTERFACE target carrying the project's warning set.
add_library(fived_warnings INTERFACE)
target_compile_options(fived_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wcast-qual -Wold-style-cast
    -Wmissing-declarations -Wimplicit-fallthrough -Wno-sign-conversion)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false -Wrestrict positives inside libstdc++ for "lit" + std::string.
    target_compile_options(fived_warnings INTERFACE -Wno-restrict)
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(fived_warnings INTERFACE -Wthread-safety)
endif()
if(FIVED_WERROR)
    target_compile_options(fived_warnings INTERFACE -Werror)
endif()
