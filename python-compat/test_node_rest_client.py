"""The npm `hbase` package (node-hbase 0.6.1, a REST gateway client) against the REST gateway:
tests/node/rest_tour.js creates, describes and drops a table, puts, gets (columns, versions, time
ranges, a row glob), checks existence, scans with the client's scanner (range, column, versions,
batch, JSON filters), deletes cells, families and rows, and sends multiget and check=put /
check=delete through the client's own connection; its output is compared line for line with what
it printed against HBase 2.6.1's gateway.

The package is installed with `npm ci` from tests/node's lockfile into a directory next to the
server binary under test (never into the source tree); Node and npm come from the machine.
"""

import os
import shutil
import subprocess

import pytest

import hbcompat

PROJECT = hbcompat.REPO / "tests" / "node"
INSTALL_TIMEOUT_S = 300
RUN_TIMEOUT_S = 120


def _tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.fail("`%s` is not installed (Node.js and npm run tests/node)" % name, pytrace=False)
    return path


@pytest.fixture(scope="module")
def node_modules():
    out_dir = hbcompat.emulator_bin().resolve().parent / "node-clients"
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PROJECT / name, out_dir / name)
    # The lockfile pins hbase 0.6.1; its optional krb5 (a native Kerberos addon) is not needed.
    run = subprocess.run([_tool("npm"), "ci", "--omit=optional", "--no-audit", "--no-fund"],
                         cwd=out_dir, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
    if run.returncode != 0:
        pytest.fail("npm ci in %s failed:\n%s%s" % (out_dir, run.stdout[-3000:], run.stderr[-3000:]),
                    pytrace=False)
    return out_dir / "node_modules"


# What rest_tour.js printed against HBase 2.6.1's REST gateway.
NODE_TOUR_ANSWERS = [
    'exists before create -> false',
    'create -> true',
    'exists after create -> true',
    'schema families -> f/3,g/1',
    'tables has it -> true',
    'put r1 f:a -> true',
    'put r1 f:b, g:c -> true',
    'put r2 f:a with timestamps -> true',
    'put rows -> true',
    'get r1 -> [f:a=v1, f:b=b1, g:c=c1]',
    'get r1 f:b -> [f:b=b1]',
    'get r1 family g -> [g:c=c1]',
    'get r2 v=3 -> [f:a=new@20, f:a=old@10]',
    'get r2 start 0 end 15 -> [f:a=old@10]',
    'get missing -> failed 404 Not found',
    'get glob r* -> [r1/f:a=v1, r1/f:b=b1, r1/g:c=c1, r2/f:a=new@20, r3/f:a=v3, r4/f:a=v4@7, r4/g:c=c4]',
    'exists r3, r3 f:a, nope -> true, true, false',
    'multiget r4, nope, r1 -> r4:2, r1:3',
    'scan all -> [r1/f:a=v1, r1/f:b=b1, r1/g:c=c1, r2/f:a=new@20, r2/f:a=old@10, r3/f:a=v3, r4/f:a=v4@7, r4/g:c=c4]',
    'scan r2..r4 -> [r2/f:a=new@20, r2/f:a=old@10, r3/f:a=v3]',
    'scan column g:c -> [r1/g:c=c1, r4/g:c=c4]',
    'scan maxVersions 2 r2..r3 -> [r2/f:a=new@20, r2/f:a=old@10]',
    'scan batch 1 -> [r1/f:a=v1, r1/f:b=b1, r1/g:c=c1]',
    'scan filter ValueFilter(= v3) -> [r3/f:a=v3]',
    'scan filter PrefixFilter(r4) -> [r4/f:a=v4@7, r4/g:c=c4]',
    'check=put f:a=v3 -> w3 -> 200',
    'check=put f:a=v3 again -> 304',
    'get r3 -> [f:a=w3]',
    'check=delete f:a=nope -> 304',
    'check=delete f:a=w3 -> 200',
    'exists r3 -> false',
    'delete r1 f:b -> [f:a=v1, g:c=c1]',
    'delete r1 family g -> [f:a=v1]',
    'delete r4 -> false',
    'scan after deletes -> [r1/f:a=v1, r2/f:a=new@20, r2/f:a=old@10]',
    'delete table -> true',
    'exists after delete -> false',
    'tour done',
]


def test_node_hbase_client_answers_as_hbase(node_modules, rest_url):
    host, _, port = rest_url[len("http://"):].rpartition(":")
    env = dict(os.environ, NODE_PATH=str(node_modules))
    run = subprocess.run([_tool("node"), str(PROJECT / "rest_tour.js"), "--host", host.strip("[]"),
                          "--port", port], env=env, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == NODE_TOUR_ANSWERS, run.stdout + run.stderr
