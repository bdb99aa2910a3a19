#!/usr/bin/env bash
# Builds every library the static binaries link, from pinned Debian source packages, with Zig's
# C/C++ toolchain (clang, libc++ and musl, from the `ziglang` package on PyPI) for one target, and
# prints the install prefix. The prefix is cached outside the build folder, keyed by this script,
# the Zig version and the Debian versions, so a second run (or another checkout) reuses it.
#
# Usage: scripts/static_deps.sh TARGET      TARGET: x86_64-linux-musl or aarch64-linux-musl
# Environment: HBEMU_CACHE_DIR (default ~/.cache/hbase-emulator)
#
# The prefix holds include/, lib/ (static archives only) and lib/mimalloc.o, plus
# toolchain.cmake, the CMake toolchain file that builds the project itself against it
# (cmake/Static.cmake). Boost is header-only for us (Asio, Beast): the prefix links the
# headers of Debian's libboost-dev (1.74), whose version is part of the key.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:?usage: static_deps.sh x86_64-linux-musl|aarch64-linux-musl}"
case "$target" in
  x86_64-linux-musl) processor=x86_64 ;;
  aarch64-linux-musl) processor=aarch64 ;;
  *) echo "static_deps: unknown target $target" >&2; exit 2 ;;
esac
cache="${HBEMU_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hbase-emulator}"
jobs="$(nproc)"

zig_version=0.14.1
# Debian bookworm source packages: name=version, and the orig tarball's top folder.
sources=(
  "snappy=1.1.9-3"
  "leveldb=1.23-4"
  "pcre2=10.42-1"
  "google-glog=0.6.0-2"
  "protobuf=3.21.12-3+deb12u1"
  "thrift=0.17.0-2"
  "ncurses=6.4-4"
  "libedit=3.1-20221030-2"
  "mimalloc=2.0.9+ds-2"
)
boost_headers=/usr/include/boost
boost_version="$(dpkg-query -W -f='${Version}' libboost1.74-dev 2>/dev/null || echo none)"
# nlohmann/json is header-only too: Debian's nlohmann-json3-dev, headers and CMake package.
json_version="$(dpkg-query -W -f='${Version}' nlohmann-json3-dev 2>/dev/null || echo none)"

log() { echo "static_deps: $*" >&2; }

main() {
# --- Zig, in a venv of its own -------------------------------------------------------------
zig_venv="$cache/zig-$zig_version"
if ! "$zig_venv/bin/python" -m ziglang version >/dev/null 2>&1; then
  log "installing ziglang $zig_version (PyPI)"
  rm -rf "$zig_venv"
  python3 -m venv "$zig_venv"
  "$zig_venv/bin/python" -m pip install --disable-pip-version-check -q "ziglang==$zig_version"
fi
zig_dir="$("$zig_venv/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')"

key="$(
  { cat "${BASH_SOURCE[0]}"; echo "$zig_version $boost_version $json_version $target"; } | sha256sum | cut -c1-12
)"
prefix="$cache/deps/$target-$key"
if [ -f "$prefix/.complete" ]; then
  touch "$prefix"  # last used: prefixes unused for long are pruned below
  echo "$prefix"
  exit 0
fi

# --- Sources: Debian's, fetched once -------------------------------------------------------
src="$cache/src"
mkdir -p "$src"
# The pinned files exactly: the folder keeps earlier versions' files too.
declare -A orig_tar debian_tar
need_fetch=()
for s in "${sources[@]}"; do
  local name="${s%%=*}" version="${s#*=}"
  version="${version#*:}"
  local upstream="${version%-*}"
  orig_tar[$name]="$(compgen -G "$src/${name}_${upstream}.orig.tar.[gbx]z*" | grep -v '\.asc$' | head -1 || true)"
  debian_tar[$name]="$src/${name}_${version}.debian.tar.xz"
  [ -n "${orig_tar[$name]}" ] || need_fetch+=("$s")
done
if ((${#need_fetch[@]})); then
  if ! grep -q '^Package:' <<<"$(apt-cache showsrc snappy 2>/dev/null)"; then
    # A deb-src line for the suite the machine already uses (bookworm).
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    list=/etc/apt/sources.list.d/hbase-emulator-src.sources
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
      "${sudo_cmd[@]}" tee "$list" >/dev/null
    "${sudo_cmd[@]}" apt-get update -qq
  fi
  log "fetching Debian sources: ${need_fetch[*]}"
  local fetch_log
  if ! fetch_log="$(cd "$src" && apt-get source --download-only -qq "${need_fetch[@]}" 2>&1)"; then
    echo "$fetch_log" >&2
    echo "static_deps: apt-get source could not fetch ${need_fetch[*]}: these pinned versions are" \
      "Debian bookworm's; the machine needs a deb-src line for bookworm that still serves them" >&2
    exit 1
  fi
  for s in "${need_fetch[@]}"; do
    local name="${s%%=*}" version="${s#*=}"
    version="${version#*:}"
    orig_tar[$name]="$(compgen -G "$src/${name}_${version%-*}.orig.tar.[gbx]z*" | grep -v '\.asc$' | head -1 || true)"
    [ -n "${orig_tar[$name]}" ] || { echo "static_deps: no source tarball for $s in $src" >&2; exit 1; }
  done
fi

# --- Toolchain: wrappers, so build systems see one compiler path ----------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/hbemu-deps.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# One build per target at a time, whichever checkout runs it; the one that waited finds the
# prefix done.
exec 9>"$cache/deps/.lock-$target"
flock 9
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi
# A run that stops half-way leaves the libraries it finished in the staging folder (one stamp
# each); the next run with the same key goes on from there.
stage="$cache/deps/.$target-$key.partial"
mkdir -p "$stage/include" "$stage/lib" "$stage/bin"
tools="$stage/bin"
zig="$zig_dir/zig"
# Zig keeps its own cache of compiled libc and libc++ per target.
for tool in cc c++; do
  cat > "$tools/$target-$tool" <<EOF
#!/bin/sh
exec "$zig" $tool -target $target "\$@"
EOF
done
# objcopy strips the packed binaries of either architecture (scripts/package.sh).
for tool in ar ranlib objcopy; do
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$zig" "$tool" > "$tools/$target-$tool"
done
chmod +x "$tools"/*
ln -sfn "$boost_headers" "$stage/include/boost"
ln -sfn /usr/include/nlohmann "$stage/include/nlohmann"
mkdir -p "$stage/share/cmake"
cp -r /usr/share/cmake/nlohmann_json "$stage/share/cmake/"

cat > "$stage/toolchain.cmake" <<EOF
# Written by scripts/static_deps.sh: Zig's clang, libc++ and musl for $target.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR $processor)
set(CMAKE_C_COMPILER "$prefix/bin/$target-cc")
set(CMAKE_CXX_COMPILER "$prefix/bin/$target-c++")
set(CMAKE_AR "$prefix/bin/$target-ar" CACHE FILEPATH "")
set(CMAKE_RANLIB "$prefix/bin/$target-ranlib" CACHE FILEPATH "")
set(CMAKE_FIND_ROOT_PATH "$prefix")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} "$prefix/lib/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
set(HBEMU_STATIC_TARGET "$target")
set(HBEMU_STATIC_PREFIX "$prefix")
EOF
# The dependencies build against the staging folder, which becomes the prefix when complete.
sed "s|$prefix|$stage|g" "$stage/toolchain.cmake" > "$work/toolchain.cmake"

logged() {  # logged NAME STEP COMMAND...: runs it quietly; on failure shows its log's end and stops
  local log="$work/$1.$2.log"
  shift 2
  "$@" >"$log" 2>&1 || { tail -40 "$log" >&2; exit 1; }
}

build() {  # build cmake|autotools NAME [args...]: unpacks the orig tarball, builds and installs
  local kind="$1" name="$2"
  shift 2
  [ -f "$stage/.built-$name" ] && return 0
  log "building $name for $target"
  local dir="$work/$name"
  mkdir -p "$dir"
  tar -xf "${orig_tar[$name]}" -C "$dir" --strip-components=1
  if [ "$kind" = cmake ]; then
    logged "$name" configure cmake -S "$dir" -B "$dir/_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$work/toolchain.cmake" -DCMAKE_INSTALL_PREFIX="$stage" \
      -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=OFF \
      -DBUILD_TESTING=OFF "$@"
    logged "$name" build cmake --build "$dir/_build" -j "$jobs"
    logged "$name" install cmake --install "$dir/_build"
  else
    (cd "$dir" &&
      logged "$name" configure env CC="$tools/$target-cc" AR="$tools/$target-ar" \
        RANLIB="$tools/$target-ranlib" CFLAGS="-O2 ${extra_cflags:-}" CPPFLAGS="-I$stage/include" \
        LDFLAGS="-L$stage/lib" ./configure --host="$target" --prefix="$stage" \
        --libdir="$stage/lib" --disable-shared --enable-static "$@" &&
      logged "$name" build make -j "$jobs" &&
      logged "$name" install make install)
  fi
  touch "$stage/.built-$name"
}

build cmake snappy -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF
build cmake leveldb -DLEVELDB_BUILD_TESTS=OFF -DLEVELDB_BUILD_BENCHMARKS=OFF -DLEVELDB_INSTALL=ON
# LevelDB's in-memory Env is compiled into libleveldb.a; Debian also installs its header.
if [ ! -f "$stage/include/leveldb/helpers/memenv.h" ]; then
  mkdir -p "$stage/include/leveldb/helpers"
  tar -xOf "${orig_tar[leveldb]}" --wildcards '*/helpers/memenv/memenv.h' \
    > "$stage/include/leveldb/helpers/memenv.h"
fi
build cmake pcre2 -DPCRE2_BUILD_PCRE2GREP=OFF -DPCRE2_BUILD_TESTS=OFF -DPCRE2_SUPPORT_JIT=ON
# glog without gflags (its own FLAGS_ variables) and without libunwind (musl has none).
build cmake google-glog -DWITH_GFLAGS=OFF -DWITH_UNWIND=OFF -DWITH_GTEST=OFF -DWITH_PKGCONFIG=ON
# libprotobuf only: .proto files are compiled by Debian's protoc of the same version.
build cmake protobuf -Dprotobuf_BUILD_TESTS=OFF -Dprotobuf_BUILD_PROTOC_BINARIES=OFF \
  -Dprotobuf_BUILD_LIBPROTOC=OFF -Dprotobuf_WITH_ZLIB=OFF -Dprotobuf_BUILD_SHARED_LIBS=OFF
# The C++ library only; .thrift files are compiled by Debian's thrift of the same version.
build cmake thrift -DBUILD_COMPILER=OFF -DBUILD_TUTORIALS=OFF -DWITH_AS3=OFF -DWITH_C_GLIB=OFF \
  -DWITH_JAVA=OFF -DWITH_JAVASCRIPT=OFF -DWITH_NODEJS=OFF -DWITH_PYTHON=OFF -DWITH_OPENSSL=OFF \
  -DWITH_ZLIB=OFF -DWITH_LIBEVENT=OFF -DWITH_QT5=OFF -DBoost_INCLUDE_DIR="$stage/include"
# terminfo for libedit: reads the system's database where there is one, and knows the common
# terminals itself (a container made from scratch has no database).
build autotools ncurses --with-termlib --without-cxx --without-cxx-binding --without-ada \
  --without-progs --without-tests --without-manpages --without-debug --disable-widec \
  --with-default-terminfo-dir=/usr/share/terminfo \
  --with-terminfo-dirs=/etc/terminfo:/lib/terminfo:/usr/share/terminfo:/usr/lib/terminfo \
  --with-fallbacks=xterm-256color,xterm,screen-256color,screen,tmux-256color,linux,vt100,dumb \
  --disable-db-install --with-build-cc=cc --enable-overwrite
# musl does not predefine __STDC_ISO_10646__ (glibc does), though its wchar_t is UCS-4.
extra_cflags="-D__STDC_ISO_10646__=201103L" build autotools libedit
# mimalloc 2.0.9 replaces aligned_alloc only where glibc's __USE_ISOC11 is defined; on musl the
# C library's own would then hand out blocks that mimalloc's free cannot release (libc++abi
# allocates every exception with aligned_alloc: the first caught exception crashed).
build cmake mimalloc -DMI_BUILD_SHARED=OFF -DMI_BUILD_STATIC=ON -DMI_BUILD_OBJECT=ON \
  -DMI_BUILD_TESTS=OFF -DMI_OVERRIDE=ON -DCMAKE_C_FLAGS=-D__USE_ISOC11=1
[ -f "$stage/lib/mimalloc.o" ] || cp "$(find "$stage/lib" -name mimalloc.o | head -1)" "$stage/lib/mimalloc.o"

# The notices that go with the binaries (scripts/package.sh): Debian's copyright file of each
# source package (PCRE2's Debian changes come as a diff: its own LICENCE), and the licences of
# what Zig links in (musl, libc++, libc++abi, libunwind, its compiler runtime).
mkdir -p "$stage/licenses"
for s in "${sources[@]}"; do
  local name="${s%%=*}"
  if [ -f "${debian_tar[$name]}" ]; then
    tar -xOJf "${debian_tar[$name]}" debian/copyright > "$stage/licenses/$name.txt"
  else
    tar -xOf "${orig_tar[$name]}" --wildcards '*/LICENCE' > "$stage/licenses/$name.txt"
  fi
done
cp /usr/share/doc/libboost1.74-dev/copyright "$stage/licenses/boost.txt"
cp /usr/share/doc/nlohmann-json3-dev/copyright "$stage/licenses/nlohmann-json.txt"
cp "$zig_dir/lib/libc/musl/COPYRIGHT" "$stage/licenses/musl.txt"
for lib in libcxx libcxxabi libunwind; do cp "$zig_dir/lib/$lib/LICENSE.TXT" "$stage/licenses/$lib.txt"; done
cp "$zig_dir/LICENSE" "$stage/licenses/zig-compiler-rt.txt"
rm -rf "$stage/share/doc" "$stage/share/man" "$stage/man"

{
  echo "target $target, zig $zig_version, boost headers $boost_version, nlohmann-json $json_version"
  printf '%s\n' "${sources[@]}"
} > "$stage/VERSIONS"
# Installed .pc files and CMake packages name the staging folder they were installed to (of this
# key, or of an earlier one whose finished libraries were carried over).
staged="$cache/deps/\.$target-[0-9a-f]*\.partial"
{ grep -rlI --exclude-dir=include "$staged" "$stage" || true; } | xargs -r sed -i "s|$staged|$prefix|g"
touch "$stage/.complete"
rm -rf "$prefix"
mv "$stage" "$prefix"
# Prefixes of other keys (older script versions, other checkouts) go once unused for 30 days.
find "$cache/deps" -mindepth 1 -maxdepth 1 \( -name "$target-*" -o -name ".$target-*.partial" \) \
  ! -path "$prefix" ! -newermt '30 days ago' -exec rm -rf {} +
log "ready: $prefix"
echo "$prefix"
}

main "$@"; exit
