"""What the command-line tools share: one-line errors, checked connections, files with sizes.

Every mistake a user can make ends as one line on stderr, `<tool>: <what went wrong>`, and a
non-zero exit (2 for a wrong command line, 1 for everything else), never a traceback.
"""

import argparse
import contextlib
import errno
import os
import socket
import stat
import sys
import tempfile

from thriftpy2.thrift import TApplicationException
from thriftpy2.transport import TTransportException

from . import thrift2

T = thrift2.ttypes
USAGE_EXIT = 2
ERROR_EXIT = 1


class UserError(ValueError):
    """A mistake explained in one line (the message) and the exit code it ends with. A
    ValueError, so library callers that caught bad input as ValueError still do."""

    def __init__(self, message, code=ERROR_EXIT):
        super().__init__(message)
        self.code = code


class Parser(argparse.ArgumentParser):
    """argparse, but a wrong command line is one line (not the usage block) and exit 2."""

    def error(self, message):
        raise UserError("%s (see --help)" % message, USAGE_EXIT)


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError("%r is not a positive integer" % text)
    return value


def port_number(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError("%r is not a port number (1-65535)" % text)
    return value


def _one_line(text):
    text = " ".join(str(text).split())
    return text if len(text) <= 300 else text[:297] + "..."


def _os_reason(exc):
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.timeout):
        return "timed out"
    if isinstance(exc, socket.gaierror):
        return "unknown host"
    return (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)


_connected_to = ["the server"]  # named by a lost-connection message


def connect(host, port, timeout_ms=thrift2.DEFAULT_TIMEOUT_MS):
    """A Thrift2 client for host:port, after checking that a Thrift2 server answers there: a
    closed port, HBase's Thrift1 service, or something that is not Thrift at all is a UserError."""
    where = "%s:%d" % (host, port)
    _connected_to[0] = where
    try:
        client = thrift2.connect(host, port, timeout_ms)
    except TTransportException as e:
        # thriftpy2 hides the reason; the OSError it caught is the exception's context.
        raise UserError("cannot connect to %s: %s" % (where, _os_reason(e.__context__ or e)))
    try:
        kind = client.getThriftServerType()
    except TApplicationException as e:
        client.close()
        if e.type == TApplicationException.UNKNOWN_METHOD:
            # HBase 1.x gateways predate getThriftServerType; whatever answers is not the
            # HBase 2 Thrift2 service these tools need.
            raise UserError("%s does not serve HBase's Thrift2 API (it does not know "
                            "getThriftServerType); give the Thrift2 port (HBase's default is 9091)"
                            % where)
        raise UserError("%s answered with an error: %s" % (where, _one_line(e.message)))
    except Exception as e:  # noqa: BLE001 - whatever the answer was, it was not Thrift2's
        client.close()
        raise UserError("%s does not answer as an HBase Thrift2 server (%s)"
                        % (where, _one_line(getattr(e, "message", None) or e) or type(e).__name__))
    if kind == T.TThriftServerType.ONE:
        client.close()
        raise UserError("%s serves HBase's Thrift1 API, not Thrift2; give the Thrift2 port "
                        "(HBase's default is 9091)" % where)
    return client


def server_error(exc):
    """One line for an error the server returned (TIOError, TIllegalArgument, ...)."""
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return _one_line(message.splitlines()[0] if message.strip() else message)


def open_input(path):
    """(binary file, size in bytes or None, name for messages). `-` is stdin, whose size is
    known when it is redirected from a regular file."""
    if path == "-":
        f = sys.stdin.buffer
        name = "stdin"
    else:
        name = path
        try:
            f = open(path, "rb")
        except OSError as e:
            raise UserError("cannot read %s: %s" % (path, e.strerror or e))
    try:
        st = os.fstat(f.fileno())
        size = st.st_size if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError, AttributeError):
        size = None
    if size is not None and path == "-":
        try:
            size -= f.tell()
        except OSError:
            size = None
    return f, size, name


def read_lines(f, name, ends=False):
    """Yields (line number, line bytes without its end, bytes read so far), and with `ends`
    whether the line had its newline (only a file's last line can lack one)."""
    done = 0
    lineno = 0
    try:
        for raw in f:
            lineno += 1
            done += len(raw)
            if ends:
                yield lineno, raw.rstrip(b"\r\n"), done, raw.endswith(b"\n")
            else:
                yield lineno, raw.rstrip(b"\r\n"), done
    except OSError as e:
        if e.errno == errno.EISDIR:
            raise UserError("cannot read %s: is a directory" % name)
        raise UserError("cannot read %s: %s" % (name, e.strerror or e))


@contextlib.contextmanager
def output_file(path, binary=False):
    """A text (or `binary`) stream for `path` (`-` is stdout). A file is written under a temporary name beside
    it and renamed onto `path` only when the block ends without an exception, so a failed run
    leaves no empty or partial file, and a file that was there stays as it was. What is not a
    regular file (/dev/null, a FIFO) is written in place."""
    if path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    mode, encoding = ("wb", None) if binary else ("w", "utf-8")
    # Through a symbolic link, as open() would write: the file it names is replaced, not the link.
    path = os.path.realpath(path) if os.path.islink(path) else path
    if os.path.exists(path) and not os.path.isfile(path):
        try:
            f = open(path, mode, encoding=encoding)
        except OSError as e:
            raise UserError("cannot write %s: %s" % (path, e.strerror or e))
        with f:
            yield f
        return
    try:
        fd, partial = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".partial",
                                       dir=os.path.dirname(os.path.abspath(path)))
    except OSError as e:
        raise UserError("cannot write %s: %s" % (path, e.strerror or e))
    try:
        # mkstemp makes the file private; the output gets the mode open() would have given it.
        if os.path.exists(path):
            os.chmod(partial, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(partial, 0o666 & ~umask)
        with open(fd, mode, encoding=encoding) as f:
            yield f
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except OSError:
            pass
        raise


def add_connection_args(parser):
    parser.add_argument("--host", default="127.0.0.1", help="Thrift2 server host (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=9091, help="Thrift2 port (default 9091)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line on stderr")


def run(prog, body, argv):
    """Runs body(argv) and turns every failure into one line on stderr and an exit code."""
    try:
        return body(argv) or 0
    except UserError as e:
        message, code = str(e), e.code
    except KeyboardInterrupt:
        message, code = "interrupted", 130
    except BrokenPipeError:
        # `export | head`: the reader went away; nothing to say, and nothing more to flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ERROR_EXIT
    except (TTransportException, socket.timeout, ConnectionError) as e:
        message, code = "lost the connection to %s (%s)" % (_connected_to[0], _one_line(
            getattr(e, "message", None) or _os_reason(e))), ERROR_EXIT
    except (T.TIOError, T.TIllegalArgument, TApplicationException) as e:
        message, code = "the server refused: %s" % server_error(e), ERROR_EXIT
    sys.stderr.write("%s: %s\n" % (prog, message))
    sys.stderr.flush()
    return code
