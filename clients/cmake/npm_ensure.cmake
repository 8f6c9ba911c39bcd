# Runs `npm ci` in WEB_DIR only when node_modules is missing or was installed
# from a different package-lock.json (tracked by a hash stamp inside
# node_modules, so it stays right whichever build tree ran it last).
# Usage: cmake -DNPM=<npm> -DWEB_DIR=<dir> -P npm_ensure.cmake
if(NOT NPM OR NOT WEB_DIR)
  message(FATAL_ERROR "npm_ensure.cmake: NPM and WEB_DIR must be set")
endif()

file(SHA256 "${WEB_DIR}/package-lock.json" lock_hash)
set(stamp "${WEB_DIR}/node_modules/.galloper-lock-sha256")
set(installed "")
if(EXISTS "${stamp}")
  file(READ "${stamp}" installed)
  string(STRIP "${installed}" installed)
endif()

if(NOT installed STREQUAL lock_hash OR NOT EXISTS "${WEB_DIR}/node_modules/.bin/vite")
  message(STATUS "galloper web: npm ci (package-lock.json changed or node_modules missing)")
  execute_process(
    COMMAND "${NPM}" ci --no-audit --no-fund
    WORKING_DIRECTORY "${WEB_DIR}"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "galloper web: `npm ci` failed (${rc}); the npm registry must be reachable")
  endif()
  file(WRITE "${stamp}" "${lock_hash}\n")
endif()
