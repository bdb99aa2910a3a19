"""`--version` of both binaries: the project version, the commit built from, the HBase release
followed and the library versions, answered without serving or connecting."""

import re
import subprocess

import hbcompat

LIBRARIES = ("Thrift", "LevelDB", "snappy", "glog", "PCRE2", "protobuf", "Boost", "libedit")
# The glibc build links Debian's glog, which brings gflags; the static release build's glog is
# built without it and links mimalloc as the allocator, for the target it names.
SHARED_BUILD_LIBRARIES = ("gflags",)
STATIC_BUILD_LIBRARIES = ("mimalloc",)


def project_version():
    text = (hbcompat.HERE.parent / "CMakeLists.txt").read_text()
    return re.search(r"project\(hbase_emulator VERSION ([0-9.]+)", text).group(1)


def head_commit():
    proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=str(hbcompat.HERE), capture_output=True,
                          text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def version_of(binary):
    proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def check_version_text(text, program):
    first = text.splitlines()[0]
    m = re.match(r"^%s (\S+) \(commit ([0-9a-f]{7,40})(-dirty)?\)$" % program, first)
    assert m, text
    assert m.group(1) == project_version()
    head = head_commit()
    if head:
        assert head.startswith(m.group(2)), (head, text)
    assert "follows Apache HBase 2.6.1" in text
    libraries = re.search(r"^libraries: (.*)$", text, re.M).group(1)
    build = re.search(r"^build: (.*)$", text, re.M).group(1)
    static = re.search(r"fully static for (x86_64|aarch64)-linux-musl \(musl, libc\+\+; no dynamic loader\)",
                       build)
    if not static:
        assert "shared libraries of the build machine" in build, build
    for name in LIBRARIES + (STATIC_BUILD_LIBRARIES if static else SHARED_BUILD_LIBRARIES):
        assert re.search(r"\b%s [0-9][0-9.]*\b" % re.escape(name), libraries), (name, libraries)


def test_server_version_names_project_commit_hbase_and_libraries():
    check_version_text(version_of(hbcompat.emulator_bin()), "hbase-emulator")


def test_shell_version_names_project_commit_hbase_and_libraries():
    check_version_text(version_of(hbcompat.emulator_bin().parent / "hbase-shell"), "hbase-shell")


def test_server_version_is_listed_in_help():
    proc = subprocess.run([str(hbcompat.emulator_bin()), "--help"], capture_output=True, text=True,
                          timeout=30)
    assert "--version" in proc.stdout
