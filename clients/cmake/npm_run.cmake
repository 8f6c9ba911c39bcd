# Makes sure node_modules is installed, then runs `npm run SCRIPT` in WEB_DIR
# and fails with npm's exit code. Used by the build and by CTest.
# Usage: cmake -DNPM=<npm> -DWEB_DIR=<dir> -DSCRIPT=<name> [-DPROTOC=<protoc>]
#              [-DOUT_DIR=<vite outDir>] -P npm_run.cmake
include("${CMAKE_CURRENT_LIST_DIR}/npm_ensure.cmake")

if(PROTOC)
  set(ENV{PROTOC} "${PROTOC}")
endif()
if(OUT_DIR)
  set(ENV{GALLOPER_WEB_OUT_DIR} "${OUT_DIR}")
endif()
# No colour codes in CTest logs.
set(ENV{NO_COLOR} "1")
set(ENV{CI} "true")

execute_process(
  COMMAND "${NPM}" run --silent "${SCRIPT}"
  WORKING_DIRECTORY "${WEB_DIR}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "galloper web: `npm run ${SCRIPT}` failed (${rc})")
endif()
