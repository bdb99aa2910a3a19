"""Every code block in README.md and docs/*.md runs, so an example cannot rot.

The conventions (docs/documentation-tests.md says them for authors) are read from each fence's
info string, its first word being the language:

* ```python: run with this suite's interpreter; ```sh / ```bash: run by bash -e -o pipefail;
  ```console: each `$ ` line is run and the lines up to the next `$ ` are its expected output
  (stdout and stderr together). A command ending in a here-document (`<<'END'`) takes the lines
  up to its terminator as input.
* ```text output: the expected stdout of the block just before it. ```text alone is shown
  output (figures, tables) and is not run.
* `file=NAME` on any block: the block is written to NAME in the page's directory, for the blocks
  after it (a pytest file, pytest.ini, a shell script).
* `cwd=repo`: run from the repository root instead of the page's directory.
* `no-run: REASON`: not run. There may be at most NO_RUN_BUDGET of these in all, each with a reason.
* Anything else (a bare fence, yaml, java...) fails the test: every block is run or declared.

Each page gets a fresh directory and one fresh server (`--in-memory --port 0 --test-controls`),
started for its first block that runs; its blocks run in page order and share both. The
defaults 9090, 9091, 9095 and 8080 in a block are replaced by that server's Thrift1, Thrift2,
admin and REST ports, and `hbase-shell` on PATH is a wrapper that passes those ports first (a later `--port`
wins). PATH also holds the server's own directory (hbase-emulator, hbase-shell; BUILD_DIR names
it too, for scripts/serve.sh) and this interpreter's (pytest, hbase-emulator-export...). TZ is UTC and COLUMNS 80, so shell times and
pytest's progress lines print the same everywhere. In expected output, `...` matches any text
within a line (a timestamp, a duration), and a line holding only `...` matches one line.

A block that fails names its file and line, with its output.
"""

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import hbcompat

REPO = hbcompat.HERE.parent
PAGES = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
# Blocks that cannot run in CI as written (a Docker daemon, a real HBase, the build scripts). Keep
# it small: an example that can run should.
NO_RUN_BUDGET = 16
RUN_LANGS = {"python", "sh", "bash", "console"}
BLOCK_TIMEOUT_S = 120


class Block:
    def __init__(self, page, line, info, text):
        self.page = page
        self.line = line  # 1-based line of the opening fence
        self.text = text
        info = info.strip()
        self.no_run = None
        if "no-run:" in info:
            info, _, reason = info.partition("no-run:")
            self.no_run = reason.strip()
        words = info.split()
        self.lang = words[0] if words else ""
        self.flags = set(w for w in words[1:] if "=" not in w)
        self.attrs = dict(w.split("=", 1) for w in words[1:] if "=" in w)

    @property
    def where(self):
        try:
            name = self.page.relative_to(REPO)
        except ValueError:
            name = self.page
        return "%s:%d" % (name, self.line)

    @property
    def kind(self):
        """'no-run', 'file', 'run', 'output', 'shown', or None when it is none of them."""
        if self.no_run is not None:
            return "no-run"
        if "file" in self.attrs:
            return "file"
        if self.lang in RUN_LANGS:
            return "run"
        if self.lang == "text":
            return "output" if "output" in self.flags else "shown"
        return None


def parse_blocks(path, text=None):
    lines = (path.read_text() if text is None else text).split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = re.match(r"^(`{3,})(.*)$", lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(1), m.group(2), i
        body, i = [], i + 1
        while i < len(lines) and not re.match(r"^%s`*\s*$" % fence, lines[i]):
            body.append(lines[i])
            i += 1
        blocks.append(Block(path, start + 1, info, "\n".join(body) + "\n"))
        i += 1
    return blocks


def output_matches(expected, actual):
    """Line by line; `...` in an expected line matches any text, trailing blanks are ignored."""
    want = expected.rstrip("\n").split("\n") if expected.strip("\n") else []
    have = actual.rstrip("\n").split("\n") if actual.strip("\n") else []
    want = [w.rstrip() for w in want]
    have = [h.rstrip() for h in have]
    if len(want) != len(have):
        return False
    for w, h in zip(want, have):
        pattern = ".*".join(re.escape(part) for part in w.split("..."))
        if not re.fullmatch(pattern, h):
            return False
    return True


def console_steps(text):
    """[(command, expected output)] of a console block."""
    steps, lines, i = [], text.rstrip("\n").split("\n"), 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError("console text before the first `$ ` command: %r" % lines[i])
        command = [lines[i][2:]]
        here = re.search(r"<<-?\s*'?\"?(\w+)'?\"?\s*$", command[0])
        i += 1
        if here:
            while i < len(lines) and lines[i] != here.group(1):
                command.append(lines[i])
                i += 1
            command.append(lines[i] if i < len(lines) else here.group(1))
            i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        steps.append(("\n".join(command) + "\n", "\n".join(expected) + "\n"))
    return steps


class DocBlockFailed(Exception):
    pass


class PageRun:
    """Runs one page's blocks in order in its own directory, against its own server."""

    def __init__(self, page, workdir, blocks=None, text=None):
        self.page = page
        self.workdir = Path(workdir)
        self.blocks = blocks if blocks is not None else parse_blocks(page, text)
        self.server = None
        self.env = None
        self.last_stdout = None

    def close(self):
        if self.server is not None:
            self.server.stop()

    def _start_server(self):
        self.server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0", "--test-controls"]).start()
        ports = self.server.ports
        self.ports = {"9090": ports["thrift1"], "9091": ports["thrift2"], "9095": ports["admin"],
                      "8080": ports["rest"]}
        bindir = self.workdir / ".bin"
        bindir.mkdir()
        server_dir = Path(self.server.binary).resolve().parent
        shell = server_dir / "hbase-shell"
        if not shell.exists():
            shell = REPO / "build" / "hbase-shell"
        wrapper = bindir / "hbase-shell"
        wrapper.write_text("#!/bin/sh\nexec %s --port %d --thrift2-port %d --admin-port %d \"$@\"\n"
                           % (shlex.quote(str(shell)), ports["thrift1"], ports["thrift2"], ports["admin"]))
        wrapper.chmod(0o755)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(TZ="UTC", COLUMNS="80", HBASE_EMULATOR_BIN=str(self.server.binary),
                   BUILD_DIR=str(server_dir),
                   PATH=os.pathsep.join([str(bindir), str(server_dir), str(Path(sys.executable).parent),
                                         env.get("PATH", "/usr/bin:/bin")]))
        self.env = env

    def _substitute(self, text):
        return re.sub(r"\b(9090|9091|9095|8080)\b", lambda m: str(self.ports[m.group(1)]), text)

    def _fail(self, block, why, output=""):
        raise DocBlockFailed("%s: %s block %s\n%s" % (block.where, block.lang, why, output.rstrip()))

    def _run(self, block, argv, merge=False):
        """Runs argv in its own session with its output in files, not pipes, and then ends
        whatever it left running (a server started with `&` whose block failed before its
        `kill`), so a broken example fails instead of hanging the suite."""
        cwd = REPO if block.attrs.get("cwd") == "repo" else self.workdir
        out_path = self.workdir / ".stdout"
        err_path = self.workdir / ".stderr"
        with open(out_path, "w") as out, open(err_path, "w") as err:
            proc = subprocess.Popen(argv, cwd=str(cwd), env=self.env, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=out if merge else err, start_new_session=True)
            try:
                proc.wait(timeout=BLOCK_TIMEOUT_S)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
        result = subprocess.CompletedProcess(argv, proc.returncode, out_path.read_text(),
                                             "" if merge else err_path.read_text())
        if timed_out:
            self._fail(block, "did not finish within %d s" % BLOCK_TIMEOUT_S,
                       result.stdout + result.stderr)
        return result

    def run(self):
        for block in self.blocks:
            kind = block.kind
            if kind is None:
                self._fail(block, "is neither run nor declared: give it a language that runs "
                                  "(python, sh, console), `text` for shown output, file=NAME, or "
                                  "`no-run: REASON`")
            if kind == "no-run":
                if not block.no_run:
                    self._fail(block, "says no-run without a reason")
                continue
            if kind == "shown":
                continue
            if kind == "file":
                (self.workdir / block.attrs["file"]).write_text(block.text)
                continue
            if kind == "output":
                if self.last_stdout is None:
                    self._fail(block, "is `text output` but follows no block that ran")
                if not output_matches(block.text, self.last_stdout):
                    self._fail(block, "(expected output) differs from what the block before printed:",
                               "--- expected\n%s--- got\n%s" % (block.text, self.last_stdout))
                self.last_stdout = None
                continue
            if self.server is None:
                self._start_server()
            text = self._substitute(block.text)
            if block.lang == "python":
                script = self.workdir / ("_block_%d.py" % block.line)
                script.write_text(text)
                proc = self._run(block, [sys.executable, str(script)])
            elif block.lang in ("sh", "bash"):
                proc = self._run(block, ["bash", "-e", "-o", "pipefail", "-c", text])
            else:
                for command, expected in console_steps(text):
                    proc = self._run(block, ["bash", "-c", command], merge=True)
                    if not output_matches(expected, proc.stdout):
                        self._fail(block, "command printed something else:\n$ %s" % command.rstrip(),
                                   "--- expected\n%s--- got\n%s" % (expected, proc.stdout))
                self.last_stdout = None
                continue
            if proc.returncode != 0:
                self._fail(block, "failed (exit %d):" % proc.returncode,
                           "%s\n%s" % (proc.stdout, proc.stderr))
            self.last_stdout = proc.stdout


@pytest.fixture(autouse=True)
def _own_servers_only():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_block_of_the_page_runs_or_is_declared(page, tmp_path):
    run = PageRun(page, tmp_path)
    failure = None
    try:
        run.run()
    except DocBlockFailed as e:
        failure = str(e)
    finally:
        run.close()
    if failure:
        pytest.fail(failure, pytrace=False)


def test_blocks_that_do_not_run_are_few_and_say_why():
    not_run = [b for page in PAGES for b in parse_blocks(page) if b.kind == "no-run"]
    assert all(b.no_run for b in not_run), [b.where for b in not_run if not b.no_run]
    assert len(not_run) <= NO_RUN_BUDGET, "\n".join("%s: %s" % (b.where, b.no_run) for b in not_run)


def test_the_readme_keeps_its_quickstart_and_the_two_commands():
    text = (REPO / "README.md").read_text()
    for needed in ("happybase.Connection(", "./scripts/serve.sh", "./scripts/test.sh",
                   "hbase-shell", "COMPATIBILITY.md"):
        assert needed in text, needed


def test_a_failing_example_names_its_file_and_line(tmp_path):
    page = tmp_path / "broken.md"
    page.write_text("# A page\n\n```python\nprint('fine')\n```\n\nText.\n\n```python\nraise SystemExit('rotten')\n```\n")
    run = PageRun(page, tmp_path / "work")
    (tmp_path / "work").mkdir()
    try:
        with pytest.raises(DocBlockFailed, match=r"broken\.md:9: python block failed \(exit 1\)(.|\n)*rotten"):
            run.run()
    finally:
        run.close()


def test_wrong_expected_output_and_undeclared_blocks_fail(tmp_path):
    cases = {
        "```sh\necho 41\n```\n\n```text output\n42\n```\n": r"x\.md:5: text block \(expected output\) differs",
        "```console\n$ echo hi\nho\n```\n": r"x\.md:1: console block command printed something else",
        "```yaml\na: 1\n```\n": r"x\.md:1: yaml block is neither run nor declared",
        "```\nplain\n```\n": r"x\.md:1:  block is neither run nor declared",
    }
    for i, (text, message) in enumerate(cases.items()):
        work = tmp_path / str(i)
        work.mkdir()
        run = PageRun(Path("x.md"), work, text=text)
        try:
            with pytest.raises(DocBlockFailed, match=message):
                run.run()
        finally:
            run.close()


def test_output_matching_wildcards():
    assert output_matches("Took ... seconds\n", "Took 0.0012 seconds\n")
    assert output_matches("a\n...\nc\n", "a\nanything\nc\n")
    assert not output_matches("a\nc\n", "a\nb\nc\n")
    assert not output_matches("exit 1\n", "exit 0\n")
