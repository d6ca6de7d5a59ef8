# Profile-guided optimisation (GCC), on in the `release` preset. With FIVED_PGO this build keeps
# an instrumented copy of the project in pgo-instrumented/ (the fived program only), trains it by
# running its `fived bench` (the embedded puzzles: self-contained and deterministic), and compiles
# every target here with the profile that run wrote to pgo-profile/. The rules and the search are
# the same code either way; only the compiler's choices (inlining, code layout, branch order)
# follow the profile, so every answer and the bench signature are the same.
#
# The profile follows the sources: each build brings the instrumented copy up to date, and when
# its fived changed, trains it again (cmake/PgoTrain.cmake) and rewrites pgo-stamp.h, which every
# object here includes (-include), so that everything is compiled again with the new profile. So
# a change to one source file costs a rebuild of everything (1.3 minutes on 2 cores, measured in
# session 36; a whole build 3.9 minutes against 2.4 without FIVED_PGO); configure with
# -DFIVED_PGO=OFF (the `ci` preset does) for quick edit-compile-test rounds. A stale profile would
# make a changed function look slower than it is, which matters for A/B timings.
#
# Measured (session 36, whole-process A/B runs in turn, one thread, the same sources with and
# without FIVED_PGO):
# tools-dead-timeline --at -5 --mate 3 --nodes 1500000, A/B 0.945; cwmtt-wide --at -3 --mate 2
# --nodes 600000, 0.986; fived bench, 0.97.
#
# FIVED_PGO_GENERATE (internal) is the instrumented copy's own setting: the folder it writes its
# profile to. -fprofile-prefix-path makes the profile's file names relative to each build's
# folder, so the two builds, in two folders, look for the same names.
set(FIVED_PGO_GENERATE "" CACHE PATH "Internal (FIVED_PGO): build instrumented, write the profile here")
mark_as_advanced(FIVED_PGO_GENERATE)

if(FIVED_PGO_GENERATE)
    target_compile_options(fived_options INTERFACE $<BUILD_INTERFACE:-fprofile-generate=${FIVED_PGO_GENERATE}
        -fprofile-update=atomic -fprofile-prefix-path=${CMAKE_BINARY_DIR}>)
    target_link_options(fived_options INTERFACE $<BUILD_INTERFACE:-fprofile-generate=${FIVED_PGO_GENERATE}>)
elseif(FIVED_PGO AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(WARNING "FIVED_PGO is for GCC (the compiler is ${CMAKE_CXX_COMPILER_ID}): "
        "building without a profile")
elseif(FIVED_PGO)
    include(ExternalProject)
    set(_pgoProfile ${CMAKE_BINARY_DIR}/pgo-profile)
    set(_pgoBuild ${CMAKE_BINARY_DIR}/pgo-instrumented)
    set(_pgoStamp ${CMAKE_BINARY_DIR}/pgo-stamp.h)
    ExternalProject_Add(fived_pgo_training
        SOURCE_DIR ${PROJECT_SOURCE_DIR}
        BINARY_DIR ${_pgoBuild}
        CMAKE_GENERATOR ${CMAKE_GENERATOR}
        CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
            -DFIVED_PGO=OFF -DFIVED_PGO_GENERATE=${_pgoProfile} -DFIVED_NATIVE=${FIVED_NATIVE}
            -DFIVED_BUILD_TESTS=OFF -DFIVED_BUILD_BENCH=OFF -DFIVED_INSTALL=OFF
            -DCMAKE_UNITY_BUILD=${CMAKE_UNITY_BUILD}
        # The stamp is a byproduct, so that Ninja looks at it again after the step and compiles
        # what includes it; it is only rewritten when the training ran.
        BUILD_COMMAND ${CMAKE_COMMAND} --build ${_pgoBuild} --target fived
            COMMAND ${CMAKE_COMMAND} -DFIVED=${_pgoBuild}/cli/fived -DPROFILE=${_pgoProfile}
                -DSTAMP=${_pgoStamp} -P ${PROJECT_SOURCE_DIR}/cmake/PgoTrain.cmake
        BUILD_BYPRODUCTS ${_pgoStamp}
        BUILD_ALWAYS ON
        INSTALL_COMMAND ""
        USES_TERMINAL_BUILD ON)
    # Every target compiles against fived_options, so each waits for the profile.
    add_dependencies(fived_options fived_pgo_training)
    # -Wno-coverage-mismatch: GCC makes a mismatch an error; there is none once trained anew, and
    # a function without counts is compiled as without a profile.
    target_compile_options(fived_options INTERFACE $<BUILD_INTERFACE:-fprofile-use=${_pgoProfile}
        -fprofile-partial-training -fprofile-prefix-path=${CMAKE_BINARY_DIR} -Wno-missing-profile
        -Wno-coverage-mismatch -include ${_pgoStamp}>)
endif()
