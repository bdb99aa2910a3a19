# What `--version` prints (both binaries): the project version, the commit built from, the HBase
# release whose behaviour is the specification, and the versions of the libraries linked in, as
# found by this configure run. Included from the top-level CMakeLists after every find_package.

set(HBEMU_HBASE_VERSION "2.6.1")

find_package(Git QUIET)
set(HBEMU_GIT_COMMIT "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} RESULT_VARIABLE git_status
                  OUTPUT_VARIABLE git_commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(git_status EQUAL 0 AND git_commit)
    set(HBEMU_GIT_COMMIT "${git_commit}")
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE git_changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(git_changes)
      string(APPEND HBEMU_GIT_COMMIT "-dirty")
    endif()
    # A commit or checkout rewrites the HEAD log, which reconfigures, so an existing build tree
    # never reports the commit it was first configured at.
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --absolute-git-dir
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE git_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(EXISTS "${git_dir}/logs/HEAD")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${git_dir}/logs/HEAD")
    endif()
  endif()
endif()

# Versions of libraries found through their CMake packages or pkg-config; "?" when the package
# does not say.
find_package(Snappy CONFIG QUIET)
set(hbemu_libraries
    "Thrift ${THRIFT_VERSION}"
    "LevelDB ${leveldb_VERSION}"
    "snappy ${Snappy_VERSION}"
    "glog ${glog_VERSION}")
if(NOT HBEMU_STATIC_PREFIX)
  list(APPEND hbemu_libraries "gflags ${gflags_VERSION}")  # the static glog is built without it
endif()
list(APPEND hbemu_libraries
    "PCRE2 ${PCRE2_VERSION}"
    "protobuf ${Protobuf_VERSION}"
    "Boost ${Boost_VERSION_STRING}"
    "libedit ${LIBEDIT_VERSION}")
if(HBEMU_STATIC_PREFIX)
  # Read from the prefix's record of what it was built from (scripts/static_deps.sh).
  file(STRINGS ${HBEMU_STATIC_PREFIX}/VERSIONS hbemu_mimalloc REGEX "^mimalloc=")
  string(REGEX REPLACE "^mimalloc=([0-9.]+).*" "\\1" hbemu_mimalloc "${hbemu_mimalloc}")
  list(APPEND hbemu_libraries "mimalloc ${hbemu_mimalloc}")
endif()
list(TRANSFORM hbemu_libraries REPLACE " $" " ?")
list(JOIN hbemu_libraries ", " HBEMU_LIBRARY_VERSIONS)

if(HBEMU_STATIC_PREFIX)
  set(HBEMU_LINKAGE "fully static for ${HBEMU_STATIC_TARGET} (musl, libc++; no dynamic loader)")
else()
  set(HBEMU_LINKAGE "shared libraries of the build machine")
endif()
set(HBEMU_COMPILER "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")

configure_file(${CMAKE_CURRENT_LIST_DIR}/build_info.h.in ${CMAKE_BINARY_DIR}/generated/build_info.h
               @ONLY)
add_library(hbemu_build_info INTERFACE)
target_include_directories(hbemu_build_info INTERFACE ${CMAKE_BINARY_DIR}/generated)
