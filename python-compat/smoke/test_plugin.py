"""The pytest plugin's first README example, in a project of its own, with the plugin starting
the binary under test (HBASE_EMULATOR_BIN), as a user's CI would."""

import os
import subprocess
import sys

EXAMPLE = '''
def test_put_then_get(hbase_connection):            # a happybase.Connection to a fresh server
    hbase_connection.create_table("users", {"info": dict(max_versions=3)})
    users = hbase_connection.table("users")
    users.put(b"alice", {b"info:email": b"alice@example.com"})
    assert users.row(b"alice") == {b"info:email": b"alice@example.com"}
    assert [key for key, _ in users.scan(row_prefix=b"al")] == [b"alice"]


def test_it_is_the_binary_under_test(hbase_emulator):
    import os
    from pathlib import Path
    assert Path(hbase_emulator.process.binary) == Path(os.environ["HBASE_EMULATOR_BIN"]).resolve()
    assert hbase_emulator.process.alive()
'''


def test_readme_example_passes_with_the_binary_under_test(tmp_path, emulator_bin,
                                                          subprocess_timeout):
    (tmp_path / "test_users.py").write_text(EXAMPLE)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    env = dict(os.environ, HBASE_EMULATOR_BIN=emulator_bin)
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=subprocess_timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout, proc.stdout
