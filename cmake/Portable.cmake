# HBEMU_PORTABLE: binaries that run on any x86-64/arm64 Linux with a recent enough glibc. Every
# library is linked from its static archive (Debian's -dev packages ship them all), libstdc++ and
# libgcc included; only glibc stays shared, since a static glibc breaks getaddrinfo and dlopen.
# `ldd` then lists libc's own objects only (checked by scripts/test.sh).
#
# The imported targets found above keep their names (so no CMakeLists below changes); only what
# they link is swapped for the archives, with the archives' own dependencies, which the shared
# libraries carried as DT_NEEDED before:
#   libthrift.a   -> libssl.a, libcrypto.a (TSSLSocket; unused, so the linker drops them)
#   libleveldb.a  -> libsnappy.a
#   libglog.a     -> libgflags.a, libunwind.a -> liblzma.a
# Debian's libunwind.a has its own _Unwind_Resume and is not position-independent. libgcc_eh.a
# goes before it, so C++ exceptions keep GCC's unwinder (libunwind only walks glog's stack
# traces), and the binaries are linked -no-pie (the main program at a fixed address; libraries
# and stacks are still randomized).
#   libprotobuf.a -> libz.a
#   libedit.a     -> libtinfo.a, libbsd.a, libmd.a

function(hbemu_static_archive var name)
  find_library(${var} NAMES lib${name}.a)
  if(NOT ${var})
    message(FATAL_ERROR "HBEMU_PORTABLE: lib${name}.a not found (install the -dev package that "
                        "ships it; scripts/setup.sh lists them)")
  endif()
endfunction()

foreach(lib thrift leveldb snappy glog gflags unwind lzma pcre2-8 protobuf z edit tinfo bsd md
            ssl crypto)
  string(MAKE_C_IDENTIFIER "HBEMU_STATIC_${lib}" var)
  string(TOUPPER "${var}" var)
  hbemu_static_archive(${var} ${lib})
endforeach()

# Point a shared imported target at an archive, for every configuration it was exported with.
function(hbemu_use_archive target archive)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${archive}")
  get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
  if(configs)
    foreach(config ${configs})
      set_target_properties(${target} PROPERTIES IMPORTED_LOCATION_${config} "${archive}")
    endforeach()
  endif()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${ARGN}")
endfunction()

hbemu_use_archive(leveldb::leveldb ${HBEMU_STATIC_LEVELDB} ${HBEMU_STATIC_SNAPPY} Threads::Threads)
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libgcc_eh.a
                OUTPUT_VARIABLE HBEMU_STATIC_GCC_EH OUTPUT_STRIP_TRAILING_WHITESPACE)
hbemu_use_archive(glog::glog ${HBEMU_STATIC_GLOG} ${HBEMU_STATIC_GFLAGS} ${HBEMU_STATIC_GCC_EH}
                  ${HBEMU_STATIC_UNWIND}
                  ${HBEMU_STATIC_LZMA} Threads::Threads)
hbemu_use_archive(protobuf::libprotobuf ${HBEMU_STATIC_PROTOBUF} ${HBEMU_STATIC_Z} Threads::Threads)
# pkg-config targets are INTERFACE targets: their link list is the whole story.
set_target_properties(PkgConfig::THRIFT PROPERTIES INTERFACE_LINK_LIBRARIES
                      "${HBEMU_STATIC_THRIFT};${HBEMU_STATIC_SSL};${HBEMU_STATIC_CRYPTO}")
set_target_properties(PkgConfig::PCRE2 PROPERTIES INTERFACE_LINK_LIBRARIES "${HBEMU_STATIC_PCRE2_8}")
set_target_properties(PkgConfig::LIBEDIT PROPERTIES INTERFACE_LINK_LIBRARIES
                      "${HBEMU_STATIC_EDIT};${HBEMU_STATIC_TINFO};${HBEMU_STATIC_BSD};${HBEMU_STATIC_MD}")

add_link_options(-static-libstdc++ -static-libgcc -no-pie)
