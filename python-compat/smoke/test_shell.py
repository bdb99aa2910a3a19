"""hbase-shell reading a script on stdin, as `echo ... | hbase shell` is used in CI jobs."""

import subprocess


def test_create_put_scan_from_stdin(target, shell_command, table_name, subprocess_timeout):
    script = "\n".join([
        "create '%s', 'cf'" % table_name,
        "put '%s', 'row-1', 'cf:greeting', 'hello smoke'" % table_name,
        "put '%s', 'row-2', 'cf:greeting', 'second'" % table_name,
        "scan '%s'" % table_name,
        "count '%s'" % table_name,
        "get '%s', 'row-1'" % table_name,
        "disable '%s'" % table_name,
        "drop '%s'" % table_name,
        "exists '%s'" % table_name,
    ]) + "\n"
    argv = shell_command + ["--host", target.host, "--port", str(target.thrift1),
                            "--thrift2-port", str(target.thrift2), "--admin-port", str(target.admin)]
    proc = subprocess.run(argv, input=script, capture_output=True, text=True,
                          timeout=subprocess_timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    scanned = [l.split() for l in out.splitlines() if l.startswith(" row-")]
    assert [words[0] for words in scanned[:2]] == ["row-1", "row-2"], out
    assert "column=cf:greeting," in out and "value=hello smoke" in out, out
    assert "2 row(s)" in out, out
    assert "Table %s does not exist" % table_name in out, out
