# Fully static binaries (no dynamic loader, so they run on any Linux kernel of their architecture,
# whatever its C library): configured with the toolchain file that scripts/static_deps.sh writes
# into its prefix (Zig's clang, libc++ and musl), which sets HBEMU_STATIC_PREFIX. Every library
# comes from that prefix, built from pinned Debian sources; nothing is taken from the build
# machine's /usr but Boost's and nlohmann/json's headers and the code generators (thrift, protoc),
# which are of the same versions.
#
# Included from the top-level CMakeLists after the packages are found: the imported targets keep
# their names, so no CMakeLists below changes; only what they link is completed with the
# archives' own dependencies, which pkg-config's static flags would otherwise have to carry.

function(hbemu_static_archive var name)
  find_library(${var} NAMES lib${name}.a PATHS ${HBEMU_STATIC_PREFIX}/lib NO_DEFAULT_PATH)
  if(NOT ${var})
    message(FATAL_ERROR "static build: lib${name}.a is not in ${HBEMU_STATIC_PREFIX}/lib "
                        "(scripts/static_deps.sh builds it)")
  endif()
endfunction()

hbemu_static_archive(HBEMU_STATIC_THRIFT thrift)
hbemu_static_archive(HBEMU_STATIC_PCRE2 pcre2-8)
hbemu_static_archive(HBEMU_STATIC_EDIT edit)
hbemu_static_archive(HBEMU_STATIC_TINFO tinfo)
set_target_properties(PkgConfig::THRIFT PROPERTIES INTERFACE_LINK_LIBRARIES "${HBEMU_STATIC_THRIFT}")
set_target_properties(PkgConfig::PCRE2 PROPERTIES INTERFACE_LINK_LIBRARIES "${HBEMU_STATIC_PCRE2}")
set_target_properties(PkgConfig::LIBEDIT PROPERTIES INTERFACE_LINK_LIBRARIES
                      "${HBEMU_STATIC_EDIT};${HBEMU_STATIC_TINFO}")
# LevelDB 1.23 exports -Werror -Wthread-safety to everything that links it when built with clang
# (meant for its own sources), which would fail our build on warnings its authors never saw.
set_property(TARGET leveldb::leveldb PROPERTY INTERFACE_COMPILE_OPTIONS "")
# PCRE2's header must not ask for dllimport-style declarations of a shared library.
set_property(TARGET PkgConfig::PCRE2 APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS PCRE2_STATIC)

# musl's allocator is slow for a many-threaded C++ server; mimalloc's object file replaces
# malloc and free in every binary (an object is always linked, before any archive member).
# As a link option it goes to executables only (a link library would be repeated per library).
add_link_options(-static ${HBEMU_STATIC_PREFIX}/lib/mimalloc.o)
# server/gateway/free_memory.cc asks mimalloc, not glibc, to give freed memory back.
add_compile_definitions(HBEMU_WITH_MIMALLOC)
# Boost 1.74's container_hash (under Boost.PropertyTree, the REST door's XML reader) derives from
# std::unary_function unless told not to, and the C++17 libc++ of Zig's clang has none.
add_compile_definitions(BOOST_NO_CXX98_FUNCTION_BASE)
file(GLOB HBEMU_MIMALLOC_INCLUDE ${HBEMU_STATIC_PREFIX}/include/mimalloc-*)
include_directories(SYSTEM ${HBEMU_MIMALLOC_INCLUDE})

# The code generators come from the build machine: their output must be of the libraries' versions.
file(STRINGS ${HBEMU_STATIC_PREFIX}/VERSIONS hbemu_pins REGEX "^(thrift|protobuf)=")
foreach(pin IN LISTS hbemu_pins)
  string(REGEX REPLACE "^([a-z]+)=([0-9.]+).*" "\\1" name "${pin}")
  string(REGEX REPLACE "^([a-z]+)=([0-9.]+).*" "\\2" version "${pin}")
  if(name STREQUAL "thrift")
    set(generator ${THRIFT_COMPILER})
  else()
    set(generator ${Protobuf_PROTOC_EXECUTABLE})
  endif()
  execute_process(COMMAND ${generator} --version OUTPUT_VARIABLE said ERROR_QUIET)
  if(NOT said MATCHES " ${version}")
    message(FATAL_ERROR "static build: ${generator} says '${said}', but the static libraries are "
                        "${name} ${version} (scripts/static_deps.sh pins Debian bookworm's)")
  endif()
endforeach()
