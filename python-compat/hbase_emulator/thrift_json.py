"""Thrift structs <-> the JSON of an export, driven by thriftpy2's thrift_spec.

Binary fields go through `code` (an encoder one way, a decoder the other). Reading JSON back
checks every value against the field's Thrift type before a struct is built, so a file with a
wrong type (a string for an integer, a list for a map, a number past 32 bits) is a ValueError
naming the field's path (`descriptor.columns[0].maxVersions`), not a failure deep inside the
Thrift writer after other records went out.
"""

import json

_INT_BITS = {3: 8, 6: 16, 8: 32, 10: 64}  # Thrift byte, i16, i32, i64
_BINARY, _STRING, _BOOL, _DOUBLE, _STRUCT, _MAP, _LIST = 18, 11, 2, 4, 12, 13, 15


def _spec_parts(spec):
    # (ttype, name, required) or (ttype, name, extra, required)
    return (spec[0], spec[1], spec[2]) if len(spec) == 4 else (spec[0], spec[1], None)


def _pair(spec):
    return spec if isinstance(spec, tuple) else (spec, None)


def shown(value):
    """`value` as JSON for a message, cut at 40 characters."""
    try:
        text = json.dumps(value)
    except (RecursionError, ValueError):  # nested near the limit the file was read with
        text = "a deeply nested %s" % ("list" if isinstance(value, list) else "object")
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong(path, wanted, value):
    return ValueError("%s must be %s, not %s" % (path, wanted, shown(value)))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def int_in_bits(value, bits, path):
    """`value` if it is a JSON integer that fits a signed `bits`-bit Thrift integer."""
    if not _is_int(value):
        raise _wrong(path, "an integer", value)
    if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
        raise ValueError("%s %d is out of range (a signed %d-bit integer: %d to %d)"
                         % (path, value, bits, -2 ** (bits - 1), 2 ** (bits - 1) - 1))
    return value


def _to_json(ttype, extra, value, encode):
    if ttype == _BINARY:
        return encode(value)
    if ttype == _STRUCT:
        return struct_to_json(value, encode)
    if ttype == _LIST:
        etype, ecls = _pair(extra)
        return [_to_json(etype, ecls, v, encode) for v in value]
    if ttype == _MAP:
        (ktype, kextra), (vtype, vextra) = _pair(extra[0]), _pair(extra[1])
        return {_to_json(ktype, kextra, k, encode): _to_json(vtype, vextra, v, encode)
                for k, v in value.items()}
    return value  # string, bool, integers, enums (as numbers)


def _from_json(ttype, extra, value, decode, path):
    if ttype == _BINARY:
        if not isinstance(value, str):
            raise _wrong(path, "a string", value)
        try:
            return decode(value)
        except ValueError as e:
            raise ValueError("%s: %s" % (path, e))
    if ttype == _STRING:
        if not isinstance(value, str):
            raise _wrong(path, "a string", value)
        return value
    if ttype == _BOOL:
        if not isinstance(value, bool):
            raise _wrong(path, "true or false", value)
        return value
    if ttype == _DOUBLE:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _wrong(path, "a number", value)
        return float(value)
    if ttype in _INT_BITS:
        int_in_bits(value, _INT_BITS[ttype], path)
        names = getattr(extra, "_VALUES_TO_NAMES", None)  # an enum
        if names is not None and value not in names:
            raise ValueError("%s %d is not one of %s" % (path, value, ", ".join(
                "%d (%s)" % (k, names[k]) for k in sorted(names))))
        return value
    if ttype == _STRUCT:
        return struct_from_json(extra, value, decode, path)
    if ttype == _LIST:
        if not isinstance(value, list):
            raise _wrong(path, "a list", value)
        etype, ecls = _pair(extra)
        return [_from_json(etype, ecls, v, decode, "%s[%d]" % (path, i)) for i, v in enumerate(value)]
    if ttype == _MAP:
        if not isinstance(value, dict):
            raise _wrong(path, "an object", value)
        (ktype, kextra), (vtype, vextra) = _pair(extra[0]), _pair(extra[1])
        return {_from_json(ktype, kextra, k, decode, "%s key %s" % (path, shown(k))):
                _from_json(vtype, vextra, v, decode, "%s[%s]" % (path, shown(k)))
                for k, v in value.items()}
    raise ValueError("%s has a Thrift type (%d) an export never holds" % (path, ttype))


def from_json(ttype, extra, value, decode, path):
    """One value of Thrift type `ttype` (`extra`: its element, key/value or struct spec) from
    JSON; ValueError naming `path` if it has the wrong type or range."""
    return _from_json(ttype, extra, value, decode, path)


def struct_to_json(obj, encode):
    out = {}
    for spec in obj.thrift_spec.values():
        ttype, name, extra = _spec_parts(spec)
        value = getattr(obj, name)
        if value is not None:
            out[name] = _to_json(ttype, extra, value, encode)
    return out


def struct_from_json(cls, data, decode, path="descriptor"):
    """A `cls` from its JSON object `data`; ValueError naming `path` and the field on any value
    of the wrong type or range. Unknown keys are ignored (a newer export may have more fields)."""
    if not isinstance(data, dict):
        raise _wrong(path, "an object", data)
    kwargs = {}
    for spec in cls.thrift_spec.values():
        ttype, name, extra = _spec_parts(spec)
        if data.get(name) is not None:
            kwargs[name] = _from_json(ttype, extra, data[name], decode, "%s.%s" % (path, name))
    return cls(**kwargs)
