"""Records which server each test talked to, so the suite can check one server per xdist worker."""

import json
import os

import pytest


@pytest.fixture
def record_server(hbase_emulator, request):
    out = os.environ.get("SAMPLE_OUT")
    if out:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(os.path.join(out, "%s.jsonl" % worker), "a") as f:
            f.write(json.dumps({"test": request.node.nodeid, "worker": worker,
                                "pid": hbase_emulator.process.proc.pid,
                                "port": hbase_emulator.port}) + "\n")
    return hbase_emulator
