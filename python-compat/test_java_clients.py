"""HBase's own published Thrift clients (Java, `org.apache.hbase:hbase-thrift` 2.6.1 with the
libthrift its pom names) against the server: tests/java builds with Maven from Maven Central and
runs Thrift1 (`Hbase.Client`) and Thrift2 (`THBaseService.Client`) round trips with exact-value
checks, in every transport x protocol mode and over HTTP, against one server without mode flags;
and both services on one namespaced table ("ns:t" through Thrift1, TTableName through Thrift2).
Then HBase's own client API (Connection/Table/Admin) through ThriftConnection, whose filters
travel as protobuf filterBytes, compared line for line with what HBase 2.6.1 answered. And HBase's REST client (RemoteHTable,
RemoteAdmin) against the REST gateway (HBASE_REST_TARGET, else the server's rest port).

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
TOUR_CLASS = "org.hbemu.clients.ThriftConnectionTour"
REST_TOUR_CLASS = "org.hbemu.clients.RestClientTour"
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


# What ThriftConnectionTour printed against HBase 2.6.1's Thrift2 gateway (buffered + binary).
# ThriftConnection itself refuses batch and every region call, so those lines are the client's.
TOUR_ANSWERS = [
    'tableExists -> true',
    'families -> [f/3, g/1]',
    'put list -> ok',
    'get r1 QualifierFilter(=, a) -> r1{f:a=v1}',
    'get r3 ColumnPrefixFilter(b) -> r3{f:b=b3}',
    'get r2 ValueFilter(substring 2) -> r2{f:a=v2}',
    'get r2 ValueFilter(!= v2) -> r2{g:c=c}',
    'get list with filter -> [r1{f:a=,f:b=,g:c=}, r4{f:a=}, {}]',
    'scan PrefixFilter(r1) -> [r1{f:a=v1,f:b=b1,g:c=c}]',
    'scan SingleColumnValueFilter(f:a = v3) -> [r3{f:a=v3,f:b=b3,g:c=c}]',
    'scan SingleColumnValueFilter(f:b >= b7, missing passes) -> [r2{f:a=v2,g:c=c}, r4{f:a=v4}, r6{f:a=v6}, r7{f:a=v7,f:b=b7}, r8{f:a=v8}, r9{f:a=v9,f:b=b9}]',
    'scan FilterList(ONE: prefix r2, prefix r4) -> [r2{f:a=v2,g:c=c}, r4{f:a=v4}]',
    'scan FilterList(ALL: qualifier a, value regex v[1-4]) -> [r1{f:a=v1}, r2{f:a=v2}, r3{f:a=v3}, r4{f:a=v4}]',
    'scan PageFilter(2) from r5 -> [r5{f:a=v5,f:b=b5}, r6{f:a=v6}, r7{f:a=v7,f:b=b7}, r8{f:a=v8}, r9{f:a=v9,f:b=b9}]',
    'scan PageFilter(2) r1..r5 -> [r1{f:a=v1,f:b=b1,g:c=c}, r2{f:a=v2,g:c=c}, r3{f:a=v3,f:b=b3,g:c=c}, r4{f:a=v4}]',
    'scan QualifierFilter(> a) -> [r1{f:b=b1,g:c=c}, r2{g:c=c}, r3{f:b=b3,g:c=c}, r5{f:b=b5}, r7{f:b=b7}, r9{f:b=b9}]',
    'scan ColumnPrefixFilter(c) -> [r1{g:c=c}, r2{g:c=c}, r3{g:c=c}]',
    'scan ValueFilter(regex (?i)V[89]) -> [r8{f:a=v8}, r9{f:a=v9}]',
    'scan WhileMatchFilter(prefix r1) from r1 -> [r1{f:a=v1,f:b=b1,g:c=c}]',
    'scan reversed PageFilter(1) from r4 -> [r4{f:a=v4}]',
    'batch -> threw java.io.IOException: Batch not supported in ThriftTable, use put(List<Put> puts), get(List<Get> gets) or delete(List<Delete> deletes) respectively',
    'delete list r9, r8 f:a -> ok',
    'get r8, r9, r10 -> [{}, {}, {}]',
    'checkAndMutate ifEquals f:a=v1 thenPut -> true',
    'checkAndMutate ifEquals f:a=v1 again -> false',
    'checkAndMutate ifNotExists f:z thenDelete -> threw java.io.IOException: org.apache.thrift.TApplicationException: Internal error processing checkAndMutate',
    'get r1, r2 after checkAndMutate -> [r1{f:a=w1,f:b=b1,g:c=c}, r2{f:a=v2,g:c=c}]',
    'incrementColumnValue cnt f:n +5 -> 5',
    'increment cnt f:n +1, f:m +10 -> cnt{m=10,n=6}',
    'append r3 f:b +x -> r3{f:b=b3x}',
    'exists r3, r9 -> [true, false]',
    'isTableEnabled -> true',
    'isTableAvailable -> true',
    'listTableNames(jtour_.*) has it -> true',
    'namespace default -> default',
    'admin.getRegions -> threw org.apache.commons.lang3.NotImplementedException: getRegions not supported in ThriftAdmin',
    'regionLocator all locations -> threw org.apache.commons.lang3.NotImplementedException: batchCoprocessorService not supported in ThriftTable',
    'regionLocator location of r7 -> threw org.apache.commons.lang3.NotImplementedException: batchCoprocessorService not supported in ThriftTable',
    'regionLocator start keys -> threw org.apache.commons.lang3.NotImplementedException: batchCoprocessorService not supported in ThriftTable',
    'table.getRegionLocator -> threw org.apache.commons.lang3.NotImplementedException: getRegionLocator not supported in ThriftTable',
    'tour done',
]


def test_hbase_client_api_through_ThriftConnection_answers_as_hbase(java_classpath, hbase_endpoint):
    """HBase's standard Connection/Table/Admin API with `hbase.client.connection.impl` =
    ThriftConnection: filtered gets and scans (sent as protobuf filterBytes), put/delete lists,
    checkAndMutate, increment/append, admin and region calls, line for line as HBase answers."""
    if hbase_endpoint.thrift2_port is None:
        pytest.skip("the target serves no Thrift2 (set HBASE_THRIFT2_TARGET)")
    cmd = [_tool("java"), "-cp", java_classpath, TOUR_CLASS, "--host", hbase_endpoint.host,
           "--port", str(hbase_endpoint.thrift2_port)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == TOUR_ANSWERS, run.stdout + run.stderr

# What RestClientTour printed against HBase 2.6.1's REST gateway. RemoteHTable itself refuses
# increment and append, and its get(List) leaves out the rows that were not found.
REST_TOUR_ANSWERS = [
    'rest version -> 0.0.3',
    'cluster version is 2.6.1 -> true',
    'isTableAvailable before create -> false',
    'createTable -> ok',
    'isTableAvailable after create -> true',
    'getTableList has it -> true',
    'families -> [f/3, g/1]',
    'put -> ok',
    'put list -> ok',
    'get r1 -> r1{f:a=v1,g:c=c1}',
    'get r1 g:c -> r1{g:c=c1}',
    'get r5 all versions -> r5{f:a=new@20,f:a=old@10}',
    'get r5 time range [0,15) -> r5{f:a=old@10}',
    'get missing -> {}',
    'get list -> [r2{f:a=v2}, r4{f:a=v4}]',
    'exists r3, nope -> true, false',
    'scan all -> [r1{f:a=v1,g:c=c1}, r2{f:a=v2}, r3{f:b=b3}, r4{f:a=v4}, r5{f:a=new@20}]',
    'scan r2..r4 -> [r2{f:a=v2}, r3{f:b=b3}]',
    'scan family g -> [r1{g:c=c1}]',
    'scan PrefixFilter(r3) -> [r3{f:b=b3}]',
    'scan QualifierFilter(= b) -> [r3{f:b=b3}]',
    'checkAndMutate ifEquals f:a=v2 thenPut -> true',
    'checkAndMutate ifEquals f:a=v2 again -> false',
    'get r2 -> r2{f:a=w2}',
    'checkAndMutate ifEquals f:a=nope thenDelete -> false',
    'checkAndMutate ifEquals f:a=v4 thenDelete -> true',
    'get r4 -> {}',
    'delete r1 g:c -> r1{f:a=v1}',
    'delete list r1, r3 -> [r2{f:a=w2}, r5{f:a=new@20}]',
    'increment -> threw java.io.IOException: Increment not supported',
    'append -> threw java.io.IOException: Append not supported',
    'deleteTable -> ok',
    'isTableAvailable after delete -> false',
    'tour done',
]


def test_hbase_rest_client_RemoteHTable_and_RemoteAdmin_answer_as_hbase(java_classpath, rest_url):
    """HBase's own REST client (RemoteAdmin, RemoteHTable from hbase-rest 2.6.1's tests jar):
    schema, put/get/get list/exists, scans with a range, a family and filters (sent as the JSON
    filter of a ScannerModel), checkAndMutate put and delete, deletes, line for line as HBase's
    gateway answers."""
    host, _, port = rest_url[len("http://"):].rpartition(":")
    cmd = [_tool("java"), "-cp", java_classpath, REST_TOUR_CLASS, "--host", host.strip("[]"),
           "--port", port]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == REST_TOUR_ANSWERS, run.stdout + run.stderr
