"""HBase's own published Thrift clients (Java, `org.apache.hbase:hbase-thrift` 2.6.1 with the
libthrift its pom names) against the server: tests/java builds with Maven from Maven Central and
runs Thrift1 (`Hbase.Client`) and Thrift2 (`THBaseService.Client`) round trips with exact-value
checks, in every transport x protocol mode and over HTTP, against one server without mode flags;
and both services on one namespaced table ("ns:t" through Thrift1, TTableName through Thrift2).

This proves wire compatibility with HBase's IDL as HBase compiled it, not only with ours. JDK and
Maven come from scripts/setup.sh; artifacts are cached in ~/.m2 (first run ~10 MB of downloads).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hbcompat

PROJECT = hbcompat.REPO / "tests" / "java"
MAIN_CLASS = "org.hbemu.clients.Main"
BUILD_TIMEOUT_S = 900  # the first build downloads Maven's plugins and the client jars
RUN_TIMEOUT_S = 300
ALL_WIRES = ["buffered-binary", "framed-binary", "buffered-compact", "framed-compact",
             "http-binary"]


def _tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.fail("`%s` is not installed; scripts/setup.sh installs default-jdk-headless and "
                    "maven" % name, pytrace=False)
    return path


def _output_dir():
    # Next to the server binary under test (build/, build-asan/), never in the source tree.
    return hbcompat.emulator_bin().resolve().parent / "java-clients"


def _maven(out_dir, offline):
    cmd = [_tool("mvn"), "-q", "-B", "-Dstyle.color=never", "-f", str(PROJECT / "pom.xml"),
           "-Dhbemu.out=%s" % out_dir, "compile", "dependency:build-classpath",
           "-Dmdep.outputFile=%s" % (out_dir / "classpath.txt")]
    if offline:
        cmd.insert(1, "-o")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)


@pytest.fixture(scope="module")
def java_classpath():
    """Builds tests/java (offline from the local Maven repository when it has everything, else
    online) and returns the classpath to run it with."""
    _tool("java")
    out_dir = _output_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    built = _maven(out_dir, offline=True)
    if built.returncode != 0:
        built = _maven(out_dir, offline=False)
    if built.returncode != 0:
        pytest.fail("Maven build of tests/java failed (exit %d):\n%s%s"
                    % (built.returncode, built.stdout[-6000:], built.stderr[-3000:]),
                    pytrace=False)
    deps = (out_dir / "classpath.txt").read_text().strip()
    return os.pathsep.join([str(out_dir / "classes"), deps])


def _wires_served(endpoint):
    if endpoint.managed:
        return ALL_WIRES
    # An external server (e.g. real HBase, HBASE_THRIFT_TARGET) serves one mode.
    return [os.environ.get("HBASE_THRIFT_TARGET_WIRE", "buffered-binary").strip()]


def test_hbase_generated_java_clients_round_trip_on_every_wire(java_classpath, hbase_endpoint):
    wires = _wires_served(hbase_endpoint)
    cmd = [_tool("java"), "-cp", java_classpath, MAIN_CLASS, "--host", hbase_endpoint.host,
           "--thrift1-port", str(hbase_endpoint.port), "--wires", ",".join(wires),
           # Against the emulator the deviations listed in tests/java Check.KNOWN_DEVIATIONS are
           # reported instead of failing (and fail once fixed); against real HBase nothing is.
           "--target", "emulator" if hbase_endpoint.managed else "hbase"]
    services = ["thrift1"]
    if hbase_endpoint.thrift2_port is not None:
        cmd += ["--thrift2-port", str(hbase_endpoint.thrift2_port)]
        services += ["thrift2", "both-doors"]
    if hbase_endpoint.managed:
        assert "thrift2" in services, "the emulator names no thrift2 port"
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    report = run.stdout + run.stderr
    assert run.returncode == 0, "Java round trips failed:\n" + report
    for wire in wires:
        for service in services:
            assert ("ok   %s %s (" % (service, wire)) in run.stdout, report
    assert "all passed" in run.stdout, report
    print(run.stdout)  # the known deviations, shown with -s or -rP
