r"""Schema as an `hbase shell` script: write it from any Thrift2 endpoint, read it back.

`write_schema` writes one `create_namespace` per namespace (with its configuration) and one
`create` per table, read through Thrift2 (getTableDescriptor, getAllRegionLocations), so it works
against this server and against a real HBase Thrift2 gateway alike. The script runs unchanged in
HBase's `hbase shell -n`, in `hbase-shell -n` and in `hbase-emulator --init`. How each part is
spelled follows what HBase 2.6.1's shell does with it:

- family settings as the shell's keywords (VERSIONS => 3, TTL => 86400, BLOOMFILTER => 'ROW',
  ...), every one written, defaults too, so the script says exactly what the table was;
- every other family value (CACHE_DATA_ON_WRITE, IS_MOB, user keys) in METADATA => {...}, which
  the shell sets with setValue, the same place the keyword would have put it; the family's
  configuration in CONFIGURATION => {...};
- table values (MAX_FILESIZE, user keys, and a table's CONFIGURATION, which HBase 2 keeps among
  them) in METADATA => {...}, DURABILITY as a keyword; `IS_META` (derived from the name) and
  `hbase.store.file-tracker.impl` (each cluster fills in its own) are left out;
- split keys in SPLITS => [...] as single-quoted Bytes.toStringBinary text ('a\x00\xFF'), since
  the shell reads each with Bytes.toBytesBinary. A double-quoted "\xFF" would not survive:
  JRuby hands Java the malformed byte as U+FFFD, and the region starts at 0xFD.

METADATA keys and values go through Java Strings (UTF-8), so a value that is not UTF-8 cannot
be written; it is left out with a warning.

`read_schema` parses back the subset `write_schema` writes (comments, `create_namespace`,
`create` with literal strings, numbers, booleans, hashes and arrays) and `apply_schema`
creates what is missing through Thrift2. Parsing, rather than running a shell, keeps the import
tool to the one Thrift2 endpoint it is given (ours or a cluster's gateway) with no JVM or
Thrift1 port to find, and lets existing namespaces and tables stay as they are.
"""

import re

from . import bytes_text, thrift2
from .cli import UserError

T = thrift2.ttypes
BUILTIN_NAMESPACES = ("default", "hbase")

# Family settings written as the shell's keywords: (keyword, TColumnFamilyDescriptor field,
# kind). The same table reads them back.
FAMILY_KEYWORDS = (
    ("VERSIONS", "maxVersions", int),
    ("MIN_VERSIONS", "minVersions", int),
    ("TTL", "timeToLive", int),
    ("KEEP_DELETED_CELLS", "keepDeletedCells", T.TKeepDeletedCells),
    ("BLOOMFILTER", "bloomnFilterType", T.TBloomFilterType),
    ("COMPRESSION", "compressionType", T.TCompressionAlgorithm),
    ("DATA_BLOCK_ENCODING", "dataBlockEncoding", T.TDataBlockEncoding),
    ("BLOCKSIZE", "blockSize", int),
    ("BLOCKCACHE", "blockCacheEnabled", bool),
    ("IN_MEMORY", "inMemory", bool),
    ("REPLICATION_SCOPE", "scope", int),
)
_FAMILY_KEYWORD_NAMES = {k for k, _, _ in FAMILY_KEYWORDS}
# Family values every HBase descriptor holds at these defaults: not worth a METADATA entry.
_FAMILY_VALUE_DEFAULTS = {b"INDEX_BLOCK_ENCODING": b"NONE"}
_TABLE_VALUES_LEFT_OUT = (b"IS_META", b"DURABILITY", b"hbase.store.file-tracker.impl")
_DURABILITIES = ("SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL")


# ---- writing

def ruby_string(text):
    r"""A Ruby literal for the str `text`: single-quoted when it has no control characters (only
    the backslash and the quote escaped), else double-quoted with \xHH escapes."""
    if not any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return "'%s'" % text.replace("\\", "\\\\").replace("'", "\\'")
    out = []
    for c in text:
        if c in '\\"#':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append("\\x%02X" % ord(c))
        else:
            out.append(c)
    return '"%s"' % "".join(out)


def ruby_bytes(data):
    """A Ruby literal whose bytes (to_java_bytes, as the shell reads a family NAME) are `data`."""
    try:
        return ruby_string(data.decode("utf-8"))
    except UnicodeDecodeError:
        return '"%s"' % "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '\\"#' else
                                ("\\" + chr(b) if chr(b) in '\\"#' else "\\x%02X" % b)
                                for b in data)


def split_key_literal(key):
    r"""A split key as the shell's Bytes.toBytesBinary reads it: 'toStringBinary text', the quote
    written \x27 so that the literal needs no Ruby escape at all."""
    return "'%s'" % bytes_text.to_string_binary(key).replace("'", "\\x27")


def _hash(pairs):
    return "{%s}" % ", ".join("%s => %s" % (k, v) for k, v in pairs)


def _string_map(values, what, warn):
    """[(literal key, literal value)] of a bytes->bytes map, sorted; pairs that are not UTF-8
    are left out with a warning (the shell passes them as Java Strings)."""
    pairs = []
    for k in sorted(values):
        try:
            pairs.append((ruby_string(k.decode("utf-8")), ruby_string(values[k].decode("utf-8"))))
        except UnicodeDecodeError:
            warn("%s: value %s is not UTF-8 text, which an hbase shell script cannot set; left out"
                 % (what, bytes_text.to_string_binary(k)))
    return pairs


def _enum_name(enum, number):
    return enum._VALUES_TO_NAMES[number]


def family_spec(fam, table, warn):
    """`{NAME => 'f', VERSIONS => 3, ...}` for a TColumnFamilyDescriptor."""
    pairs = [("NAME", ruby_bytes(fam.name))]
    for keyword, field, kind in FAMILY_KEYWORDS:
        value = getattr(fam, field)
        if value is None:
            continue
        if kind is int:
            pairs.append((keyword, str(value)))
        elif kind is bool:
            pairs.append((keyword, "true" if value else "false"))
        else:
            pairs.append((keyword, "'%s'" % _enum_name(kind, value)))
    attributes = {k: v for k, v in (fam.attributes or {}).items()
                  if k.decode("latin-1") not in _FAMILY_KEYWORD_NAMES
                  and _FAMILY_VALUE_DEFAULTS.get(k) != v}
    what = "table %s family %s" % (table, bytes_text.to_string_binary(fam.name))
    metadata = _string_map(attributes, what, warn)
    if metadata:
        pairs.append(("METADATA", _hash(metadata)))
    if fam.configuration:
        pairs.append(("CONFIGURATION", _hash((ruby_string(k), ruby_string(v))
                                             for k, v in sorted(fam.configuration.items()))))
    return _hash(pairs)


def table_command(desc, splits, warn):
    """The `create` line for a TTableDescriptor and its split keys."""
    name = thrift2.full_table_name(desc.tableName)
    args = [ruby_string(name)] + [family_spec(f, name, warn) for f in desc.columns or []]
    attributes = desc.attributes or {}
    table_pairs = []
    durability = attributes.get(b"DURABILITY", b"").decode("latin-1")
    if not durability and desc.durability:
        durability = _enum_name(T.TDurability, desc.durability)
    if durability in _DURABILITIES:
        table_pairs.append(("DURABILITY", "'%s'" % durability))
    metadata = _string_map({k: v for k, v in attributes.items() if k not in _TABLE_VALUES_LEFT_OUT},
                           "table %s" % name, warn)
    if metadata:
        table_pairs.append(("METADATA", _hash(metadata)))
    if splits:
        table_pairs.append(("SPLITS", "[%s]" % ", ".join(split_key_literal(k) for k in splits)))
    if table_pairs:
        args.append(_hash(table_pairs))
    return "create " + ", ".join(args)


def namespace_command(nsd):
    line = "create_namespace " + ruby_string(nsd.name)
    if nsd.configuration:
        line += ", " + _hash((ruby_string(k), ruby_string(v))
                             for k, v in sorted(nsd.configuration.items()))
    return line


def write_schema(client, out, tables=None, warn=None, source=None):
    """Writes the script for `tables` (names; default every user table) and their namespaces
    to the text stream `out`. Returns (namespaces, tables) written. A named table that does not
    exist is a UserError."""
    warn = warn or (lambda message: None)
    if tables:
        tnames = [thrift2.split_table_name(t) for t in tables]
        for tname in tnames:
            if not client.tableExists(tname):
                raise UserError("table %s does not exist" % thrift2.full_table_name(tname))
    else:
        tnames = [t for t in client.getTableNamesByPattern(".*", False)
                  if (t.ns or b"default") != b"hbase"]
    wanted = {(t.ns or b"default").decode("utf-8") for t in tnames}
    out.write("# hbase shell script: namespaces and tables%s, written by hbase-emulator-export "
              "--schema.\n# Runs in `hbase shell -n`, `hbase-shell -n` and `hbase-emulator --init`."
              "\n" % (" of " + source if source else ""))
    namespaces = 0
    for nsd in sorted(client.listNamespaceDescriptors(), key=lambda n: n.name):
        if nsd.name in BUILTIN_NAMESPACES or (tables and nsd.name not in wanted):
            continue
        out.write(namespace_command(nsd) + "\n")
        namespaces += 1
    for tname in tnames:
        desc = client.getTableDescriptor(tname)
        locations = client.getAllRegionLocations(thrift2.table_name_bytes(
            thrift2.full_table_name(tname)))
        splits = sorted(loc.regionInfo.startKey for loc in locations if loc.regionInfo.startKey)
        out.write(table_command(desc, splits, warn) + "\n")
    return namespaces, len(tnames)


# ---- reading

_TOKEN = re.compile(r"""\s*(?:
    (?P<sq>'(?:[^'\\]|\\.)*')
  | (?P<dq>"(?:[^"\\]|\\.)*")
  | (?P<num>-?\d+)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<arrow>=>)
  | (?P<punct>[{}\[\],])
  )""", re.X | re.S)
_DQ_ESCAPES = {"n": b"\n", "t": b"\t", "r": b"\r", "0": b"\0", "e": b"\x1b", "s": b" ",
               "a": b"\x07", "b": b"\x08", "f": b"\x0c", "v": b"\x0b"}


def _sq_bytes(body):
    return re.sub(r"\\([\\'])", r"\1", body).encode("utf-8")


def _dq_bytes(body):
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1]
        m = re.match(r"x([0-9A-Fa-f]{1,2})", body[i + 1:])
        if m:
            out.append(int(m.group(1), 16))
            i += 1 + len(m.group(0))
        else:
            out += _DQ_ESCAPES.get(nxt, nxt.encode("utf-8"))
            i += 2
    return bytes(out)


class _Parser:
    def __init__(self, text):
        self.tokens = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError("cannot read %r" % text[pos:pos + 20])
            kind = m.lastgroup
            value = m.group(kind)
            if kind == "sq":
                value = _sq_bytes(value[1:-1])
            elif kind == "dq":
                value = _dq_bytes(value[1:-1])
            elif kind == "num":
                value = int(value)
            self.tokens.append((kind, value))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, kind=None, value=None):
        tok = self.peek()
        if tok[0] is None or (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            raise ValueError("expected %s" % (value or kind or "more"))
        self.i += 1
        return tok

    def value(self):
        kind, value = self.take()
        if kind in ("sq", "dq", "num"):
            return value
        if kind == "word":
            if value in ("true", "false"):
                return value == "true"
            if value == "nil":
                return None
            return value.encode("ascii")  # a shell constant (NAME, VERSIONS...) is its name
        if (kind, value) == ("punct", "{"):
            pairs = []
            while self.peek() != ("punct", "}"):
                key = self.value()
                self.take("arrow")
                pairs.append((key, self.value()))
                if self.peek() != ("punct", "}"):
                    self.take("punct", ",")
            self.take()
            return dict(pairs)
        if (kind, value) == ("punct", "["):
            items = []
            while self.peek() != ("punct", "]"):
                items.append(self.value())
                if self.peek() != ("punct", "]"):
                    self.take("punct", ",")
            self.take()
            return items
        raise ValueError("unexpected %s" % value)

    def arguments(self):
        args = [self.value()]
        while self.peek()[0] is not None:
            self.take("punct", ",")
            args.append(self.value())
        return args


def java_to_bytes_binary(text):
    r"""HBase's Bytes.toBytesBinary of a Java String: a \xHH escape is that byte, any other char
    its low 8 bits, and a backslash that starts no escape is dropped."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text.startswith("\\x", i):
            m = re.match(r"[0-9A-Fa-f]{2}", text[i + 2:i + 4])
            if m:
                out.append(int(m.group(0), 16))
                i += 4
            else:
                i += 1
            continue
        for unit in text[i].encode("utf-16-be", "surrogatepass")[1::2]:
            out.append(unit)
        i += 1
    return bytes(out)


def _text(value, what):
    if not isinstance(value, bytes):
        raise ValueError("%s must be a string" % what)
    return value.decode("utf-8", "replace")


def _family(spec):
    spec = dict(spec)
    fam = T.TColumnFamilyDescriptor(name=spec.pop(b"NAME"))
    for keyword, field, kind in FAMILY_KEYWORDS:
        if keyword.encode() not in spec:
            continue
        value = spec.pop(keyword.encode())
        if kind is int:
            if not isinstance(value, int) or isinstance(value, bool):
                value = int(_text(value, keyword))
        elif kind is bool:
            value = value if isinstance(value, bool) else _text(value, keyword).lower() == "true"
        else:
            name = _text(value, keyword).upper()
            if name not in kind._NAMES_TO_VALUES:
                raise ValueError("%s %s is not one of %s" % (keyword, name,
                                                             " ".join(kind._NAMES_TO_VALUES)))
            value = kind._NAMES_TO_VALUES[name]
        setattr(fam, field, value)
    metadata = spec.pop(b"METADATA", None) or {}
    configuration = spec.pop(b"CONFIGURATION", None) or {}
    if spec:
        raise ValueError("family %s: %s is not what --schema writes (use METADATA)"
                         % (_text(fam.name, "NAME"), ", ".join(k.decode() for k in spec)))
    fam.attributes = {k: str(v).encode() if not isinstance(v, bytes) else v
                      for k, v in metadata.items()} or None
    fam.configuration = {_text(k, "key"): _text(v, "value") if isinstance(v, bytes) else str(v)
                         for k, v in configuration.items()} or None
    return fam


def _create(args):
    name = _text(args[0], "the table name")
    desc = T.TTableDescriptor(tableName=thrift2.split_table_name(name), columns=[], attributes={})
    splits = []
    for arg in args[1:]:
        if isinstance(arg, bytes):
            desc.columns.append(T.TColumnFamilyDescriptor(name=arg))
        elif isinstance(arg, dict) and b"NAME" in arg:
            desc.columns.append(_family(arg))
        elif isinstance(arg, dict):
            arg = dict(arg)
            for key in (b"METADATA", b"CONFIGURATION"):
                for k, v in (arg.pop(key, None) or {}).items():
                    desc.attributes[k] = v if isinstance(v, bytes) else str(v).encode()
            if b"DURABILITY" in arg:
                durability = _text(arg.pop(b"DURABILITY"), "DURABILITY").upper()
                if durability not in T.TDurability._NAMES_TO_VALUES:
                    raise ValueError("DURABILITY %s is not one of %s"
                                     % (durability, " ".join(T.TDurability._NAMES_TO_VALUES)))
                desc.durability = T.TDurability._NAMES_TO_VALUES[durability]
            # As the shell: each key through a Java String, then Bytes.toBytesBinary.
            splits = [java_to_bytes_binary(_text(k, "a split key"))
                      for k in arg.pop(b"SPLITS", None) or []]
            if arg:
                raise ValueError("%s is not what --schema writes (use METADATA)"
                                 % ", ".join(k.decode() for k in arg))
        else:
            raise ValueError("a create argument must be a family name or a hash")
    if not desc.columns:
        raise ValueError("Table must have at least one column family")
    return name, desc, sorted(set(splits))


def read_schema(text, source="the schema"):
    """[("namespace", TNamespaceDescriptor) or ("table", (name, TTableDescriptor, splits))] from
    a script `write_schema` wrote. A line it cannot read is a UserError naming it."""
    commands = []
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        command, _, rest = stripped.partition(" ")
        try:
            if command not in ("create_namespace", "create"):
                raise ValueError("only create_namespace and create are read here (what --schema "
                                 "writes); run other commands with hbase-shell")
            args = _Parser(rest).arguments()
            if command == "create_namespace":
                conf = args[1] if len(args) > 1 else {}
                commands.append(("namespace", T.TNamespaceDescriptor(
                    name=_text(args[0], "the namespace"),
                    configuration={_text(k, "key"): _text(v, "value") if isinstance(v, bytes)
                                   else str(v) for k, v in conf.items()} or None)))
            else:
                commands.append(("table", _create(args)))
        except (ValueError, KeyError, IndexError, AttributeError) as e:
            raise UserError("%s line %d: %s" % (source, lineno, e or "cannot read it"))
    return commands


def apply_schema(client, commands, tables=None):
    """Creates the namespaces and tables of `commands` (read_schema's) that the server behind
    `client` lacks; with `tables`, only those tables and their namespaces. Existing ones stay as
    they are. Returns (namespaces created, tables created)."""
    wanted = {thrift2.full_table_name(thrift2.split_table_name(t)) for t in tables or []}
    existing_ns = {n.decode() if isinstance(n, bytes) else n for n in client.listNamespaces()}
    needed_ns = {thrift2.split_table_name(name).ns.decode()
                 for kind, value in commands if kind == "table"
                 for name in [value[0]] if not wanted or name in wanted}
    made_ns = made_tables = 0
    for kind, value in commands:
        if kind == "namespace":
            if value.name in existing_ns or (wanted and value.name not in needed_ns):
                continue
            client.createNamespace(value)
            existing_ns.add(value.name)
            made_ns += 1
            continue
        name, desc, splits = value
        if (wanted and name not in wanted) or client.tableExists(desc.tableName):
            continue
        client.createTable(desc, splits or None)
        made_tables += 1
    return made_ns, made_tables
