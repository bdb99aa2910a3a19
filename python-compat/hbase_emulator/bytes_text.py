"""Byte strings as text for the transfer tools: HBase's printable form, or base64.

The printable form is the one HBase's `Bytes.toStringBinary` makes and the HBase shell prints:
bytes 0x20..0x7E stand for themselves except the backslash, and every other byte (the backslash
included) is `\\xHH` with two upper-case hex digits. So `alice` stays `alice` and can be grepped,
and the text is plain ASCII whatever the bytes are.

Reading it back follows `Bytes.toBytesBinary`, with two differences that make hand-written
fixtures safe: hex digits may be lower case, and a backslash that does not start `\\xHH` is an
error (HBase would keep it as a literal byte). Characters outside ASCII, which the printable form
never contains, stand for their UTF-8 bytes.
"""

import binascii
import re

ENCODINGS = ("text", "base64")

_NEEDS_ESCAPE = re.compile(rb"[^\x20-\x5b\x5d-\x7e]")
_PRINTED = [chr(i) if 0x20 <= i <= 0x7E and i != 0x5C else "\\x%02X" % i for i in range(256)]
# A backslash that does not start \xHH.
_BAD_ESCAPE = re.compile(rb"\\(?!x[0-9A-Fa-f]{2})")


def to_string_binary(data):
    """The printable form of `data` (bytes), as HBase's Bytes.toStringBinary writes it."""
    if _NEEDS_ESCAPE.search(data) is None:
        return data.decode("ascii")
    return "".join([_PRINTED[b] for b in data])


def to_bytes_binary(text):
    """The bytes `text` stands for (the inverse of to_string_binary; see the module docstring).
    Raises ValueError on a backslash that does not start \\xHH."""
    raw = text.encode("utf-8")
    if b"\\" not in raw:
        return raw
    bad = _BAD_ESCAPE.search(raw)
    if bad is not None:
        shown = raw[bad.start():bad.start() + 4].decode("utf-8", "replace")
        raise ValueError('bad escape "%s" (a backslash starts \\xHH; write \\x5C for a '
                         'backslash)' % shown)
    # Every backslash now starts \xHH, the only escape unicode_escape will see; it reads every
    # other byte as Latin-1, so encoding back to Latin-1 gives the bytes themselves (UTF-8 too).
    return raw.decode("unicode_escape").encode("latin-1")


def b64_encode(data):
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def b64_decode(text):
    """Standard base64 (RFC 4648, padded); ValueError on anything else."""
    try:
        return binascii.a2b_base64(text)
    except (ValueError, TypeError) as e:
        raise ValueError("not base64 (%s)" % e)


def encoder(encoding):
    return to_string_binary if encoding == "text" else b64_encode


def decoder(encoding):
    return to_bytes_binary if encoding == "text" else b64_decode
