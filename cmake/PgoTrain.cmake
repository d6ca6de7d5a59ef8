# cmake -DFIVED=<instrumented fived> -DPROFILE=<folder> -DSTAMP=<header> -P PgoTrain.cmake
# Trains the instrumented fived (cmake/Pgo.cmake) when it is newer than the last training: a fresh
# profile (counts would otherwise add up across runs), then the stamp that makes every object
# compile again with it.
if(EXISTS ${STAMP} AND NOT ${FIVED} IS_NEWER_THAN ${STAMP})
    return()
endif()
file(REMOVE_RECURSE ${PROFILE})
execute_process(COMMAND ${FIVED} bench --threads 1 RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "PGO training: ${FIVED} bench exited ${rc}\n${out}${err}")
endif()
string(REGEX MATCH "Signature *: *(0x[0-9a-f]+)" _ "${out}")
set(signature "bench signature ${CMAKE_MATCH_1}")
string(TIMESTAMP now "%Y-%m-%d %H:%M:%S" UTC)
file(WRITE ${STAMP} "// The profile of cmake/Pgo.cmake: trained ${now} UTC (${signature}).\n")
message(STATUS "PGO training: ${signature}")
