"""The smoke suite: a few real calls through every door of a server that is ALREADY running,
whatever built it (a static binary, one under qemu, a container image). scripts/smoke.sh and
scripts/check_image.sh start the server and say where it is:

  HBEMU_SMOKE_HOST          default 127.0.0.1
  HBEMU_SMOKE_THRIFT1_PORT  HBEMU_SMOKE_THRIFT2_PORT  HBEMU_SMOKE_ADMIN_PORT
  HBEMU_SMOKE_SHELL         command line (shlex-split) that runs hbase-shell
  HBEMU_SMOKE_EMULATOR_BIN  an executable the pytest plugin may start (may be a wrapper script)
  HBEMU_SMOKE_TIMEOUT_S     seconds a subprocess may take (default 300: qemu is slow)
"""

import collections
import os
import shlex
import uuid

import pytest

Target = collections.namedtuple("Target", "host thrift1 thrift2 admin")


def _env(name, default=None):
    value = os.environ.get(name, default)
    if value in (None, ""):
        pytest.fail("%s is not set: run the smoke suite through scripts/smoke.sh or "
                    "scripts/check_image.sh, or set it to the running server's" % name,
                    pytrace=False)
    return value


@pytest.fixture(scope="session")
def target():
    return Target(_env("HBEMU_SMOKE_HOST", "127.0.0.1"), int(_env("HBEMU_SMOKE_THRIFT1_PORT")),
                  int(_env("HBEMU_SMOKE_THRIFT2_PORT")), int(_env("HBEMU_SMOKE_ADMIN_PORT")))


@pytest.fixture(scope="session")
def shell_command():
    return shlex.split(_env("HBEMU_SMOKE_SHELL"))


@pytest.fixture(scope="session")
def emulator_bin():
    return _env("HBEMU_SMOKE_EMULATOR_BIN")


@pytest.fixture(scope="session")
def subprocess_timeout():
    return float(os.environ.get("HBEMU_SMOKE_TIMEOUT_S", "300"))


@pytest.fixture
def table_name(request):
    """A name no earlier run against the same server used (the server may keep its data)."""
    return "smoke_%s_%s" % (request.node.name[5:25], uuid.uuid4().hex[:8])
