"""A small client for Spectrum's host bus, in Python 3 with the standard library only.

The bus (docs/bus.md) listens on a Unix socket (``spectrum host --bus PATH``). Its wire is the local
stream link (docs/links.md, "Local stream link"): each frame is ``u32_le(len) || frame``, where
``frame`` is one libtracer v1 TLV frame (4 <= len <= 66 560 by default). The first frame a client
sends is the hello, a FWD READ of ``/$node/caps`` announcing ``spectrum.ext`` 1 and the client's
name (``spectrum.name``). Every bus message after that is a FWD frame:

- request: ``FWD{VALUE u8 1, PATH /$bus/<command>, PATH <reply route>, SETTINGS fields}``
- reply:   ``FWD{VALUE u8 3, PATH <reply route>, PATH /$bus/<command>, VALUE u8 kind, body}``
  (kind 0: SETTINGS fields; kind 1: STATUS{ERROR{VALUE u16, NAME code}, DESCRIPTION, SETTINGS})
- event:   ``FWD{VALUE u8 1, PATH /$bus/<kind>, PATH "" (empty), SETTINGS fields}``

Fields are (NAME key, value) pairs: a string is a NAME, a count a VALUE u64 (little-endian, 8
bytes), a flag a VALUE u8 0/1, a payload a VALUE of any length, a list a POINT of NAMEs or of
SETTINGS, a record a SETTINGS. Decoding is strict: a frame that is not well formed raises
:class:`WireError` naming what is wrong, and a field of the wrong type or width raises it on access.

This client is synchronous and single-threaded: :meth:`BusClient.request` sends one command and
reads frames until its reply comes; events that arrive meanwhile wait in a queue that
:meth:`BusClient.next_event` hands out in order.
"""

import socket
import struct
import time
from collections import deque

VALUE, NAME, DESCRIPTION, SUBSCRIBER, PATH, POINT, ERROR, STATUS, SETTINGS, FWD, FIELD = (
    0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09, 0x0B, 0x0F, 0x10)
PATH_REF, PATH_REF_REVERSE = 0x14, 0x15
OPT_PL, OPT_TS, OPT_CR, OPT_LL, OPT_CW, OPT_TF, OPT_RESERVED = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x81
OP_READ, OP_WRITE, OP_REPLY = 0, 1, 3
MAX_FRAME = 65536 + 1024  # the bus's default frame limit (docs/bus.md, "Limits")
MAX_TLV = 16 * 1024 * 1024
MAX_DEPTH = 32
RESERVED_PATH_CHARS = set('/:.[]*?')
EVENT_FIELDS = {  # each event's fields and their types: s NAME, u u64, y VALUE bytes, l POINT
    'topic.message': dict(deliveryId='s', subscriptionId='s', topic='s', topicIncarnation='s',
                          topicSequence='u', replaced='u', payload='y', attachments='l'),
    'rpc.request': dict(deliveryId='s', callId='s', caller='s', callerIncarnation='u', target='s',
                        serviceIncarnation='s', method='s', payload='y', attachments='l'),
    'rpc.result': dict(deliveryId='s', callId='s', responder='s', responderIncarnation='u',
                       serviceIncarnation='s', outcome='y', attachments='l'),
    'subscription.closed': dict(subscriptionId='s', topic='s', reason='s'),
    'connection.closing': dict(code='s', message='s'),
    'route.removed': dict(service='s', serviceIncarnation='s', reason='s'),
    'call.failed': dict(callId='s', code='s', dispatch='s', message='s'),
}
OPTIONAL_EVENT_FIELDS = {'call.failed': {'serviceIncarnation': 's'}, 'topic.message': {'stale': 's'}}
NODE_REPLY_PREFIX, NODE_SUB_PREFIX = '/py/n/', '/py/s/'  # routes of requests to the host's node, of its deliveries
MODES = {'latest': 1, 'bounded': 2}  # the SUBSCRIBER key spectrum.mode (docs/extensions.md, "Delivery modes")


class WireError(Exception):
    """A frame or a field that is not what the wire allows (the text says what and where)."""


class BusRefused(Exception):
    """The bus refused a request: ``code`` (``NO_SERVICE``, ...), the bus's text, the dispatch state."""

    def __init__(self, command, code, tracer_code, message, dispatch):
        super().__init__('%s: %s: %s' % (command, code, message))
        self.command, self.code, self.tracer_code = command, code, tracer_code
        self.message, self.dispatch = message, dispatch


class BusClosed(Exception):
    """The connection ended: EOF, a broken stream, or the bus's ``connection.closing`` notice."""


class BusTimeout(Exception):
    """No reply within the client's timeout (a late reply is dropped; the connection stays)."""


# ---- TLV frames ---------------------------------------------------------------------------------

class Tlv:
    """One decoded TLV: its type, its payload bytes, and its children when it is a container."""
    __slots__ = ('type', 'body', 'children')

    def __init__(self, type_, body, children):
        self.type, self.body, self.children = type_, body, children


def _crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def decode_frame(buf):
    """Decodes one whole libtracer v1 frame; raises WireError unless it is exactly one well-formed TLV."""
    buf = bytes(buf)
    tlv, end = _decode(buf, 0, len(buf), 0)
    if end != len(buf):
        raise WireError('FRAME_INVALID: %d bytes after the root TLV' % (len(buf) - end))
    return tlv


def _decode(buf, off, limit, depth):
    if depth > MAX_DEPTH:
        raise WireError('TLV_NESTING_TOO_DEEP: more than %d levels' % MAX_DEPTH)
    if limit - off < 4:
        raise WireError('FRAME_TRUNCATED: %d bytes left at offset %d, a header needs 4' % (limit - off, off))
    type_, opt = buf[off], buf[off + 1]
    if type_ == 0:
        raise WireError('FRAME_INVALID: type 0x00 at offset %d' % off)
    if opt & OPT_RESERVED:
        raise WireError('FRAME_INVALID: reserved opt bit set (0x%02x) at offset %d' % (opt, off))
    if opt & OPT_LL:
        if limit - off < 6:
            raise WireError('FRAME_TRUNCATED: a u32-length header at offset %d is cut' % off)
        length, start = struct.unpack_from('<I', buf, off + 2)[0], off + 6
    else:
        length, start = struct.unpack_from('<H', buf, off + 2)[0], off + 4
    if length > MAX_TLV:
        raise WireError('FRAME_INVALID: length %d over %d at offset %d' % (length, MAX_TLV, off))
    ts = (4 if opt & OPT_TF else 8) if opt & OPT_TS else 0
    crc = (2 if opt & OPT_CW else 4) if opt & OPT_CR else 0
    end = start + length + ts + crc
    if end > limit:
        raise WireError('FRAME_TRUNCATED: type 0x%02x at offset %d needs %d bytes, %d left'
                        % (type_, off, end - off, limit - off))
    body = buf[start:start + length]
    if crc:
        covered = buf[start:start + length + ts]
        if crc == 4:
            ok = struct.unpack_from('<I', buf, end - 4)[0] == _crc32c(covered)
        else:
            ok = struct.unpack_from('<H', buf, end - 2)[0] == _crc16(covered)
        if not ok:
            raise WireError('FRAME_CRC_FAIL: type 0x%02x at offset %d' % (type_, off))
    if type_ in (PATH_REF, PATH_REF_REVERSE) and (opt & (OPT_PL | OPT_LL) or length % 8 or length > 2040):
        raise WireError('FRAME_INVALID: a PATH_REF at offset %d is not N x 8 bytes, u16 length, opaque' % off)
    children = None
    if opt & OPT_PL:
        children, p = [], start
        while p < start + length:
            child, p = _decode(buf, p, start + length, depth + 1)
            children.append(child)
    return Tlv(type_, body, children), end


def _tlv(type_, body, container=False):
    opt = OPT_PL if container else 0
    if len(body) > 0xFFFF:
        return struct.pack('<BBI', type_, opt | OPT_LL, len(body)) + body
    return struct.pack('<BBH', type_, opt, len(body)) + body


def encode_path(text):
    """A PATH TLV for ``/seg/seg`` (each segment 1..64 bytes of UTF-8, none of ``/ : . [ ] * ?``)."""
    if not text.startswith('/'):
        raise ValueError('a path starts with /: %r' % text)
    body = b''
    for seg in text.split('/')[1:] if text != '/' else []:
        raw = seg.encode('utf-8')
        if not 1 <= len(raw) <= 64 or RESERVED_PATH_CHARS & set(seg):
            raise ValueError('path %r: segment %r is not 1..64 bytes without / : . [ ] * ?' % (text, seg))
        body += bytes([len(raw)]) + raw
    return _tlv(PATH, body)


def decode_path(tlv):
    """The text of a PATH TLV (``/a/b``); raises WireError for a ragged body, an escape or bad UTF-8."""
    if tlv.type != PATH or tlv.children is not None:
        raise WireError('expected an opaque PATH, got type 0x%02x' % tlv.type)
    segs, p, b = [], 0, tlv.body
    while p < len(b):
        n = b[p]
        if n == 0:
            raise WireError('a bus path carries no escape record (path labels are not used on the bus)')
        if p + 1 + n > len(b):
            raise WireError('PATH record of %d bytes overruns the body at %d' % (n, p))
        segs.append(_utf8(b[p + 1:p + 1 + n], 'a path segment'))
        p += 1 + n
    return '/' + '/'.join(segs)


def _utf8(raw, what):
    try:
        return raw.decode('utf-8')
    except UnicodeDecodeError as e:
        raise WireError('%s is not UTF-8 (%s)' % (what, e.reason))


# ---- fields -------------------------------------------------------------------------------------

def encode_fields(fields):
    """A SETTINGS TLV from a dict: str -> NAME, bool -> VALUE u8, int -> VALUE u64 LE, bytes -> VALUE,
    dict -> SETTINGS, list of str / of dict -> POINT."""
    body = b''
    for key, value in fields.items():
        body += _tlv(NAME, key.encode('utf-8')) + _encode_item(key, value)
    return _tlv(SETTINGS, body, True)


def _encode_item(key, value):
    if isinstance(value, str):
        return _tlv(NAME, value.encode('utf-8'))
    if isinstance(value, bool):
        return _tlv(VALUE, b'\x01' if value else b'\x00')
    if isinstance(value, int):
        if not 0 <= value < 1 << 64:
            raise ValueError('field %r: %d is not a u64' % (key, value))
        return _tlv(VALUE, struct.pack('<Q', value))
    if isinstance(value, (bytes, bytearray)):
        return _tlv(VALUE, bytes(value))
    if isinstance(value, dict):
        return encode_fields(value)
    if isinstance(value, (list, tuple)):
        return _tlv(POINT, b''.join(_encode_item(key, v) for v in value), True)
    raise ValueError('field %r: cannot encode %s' % (key, type(value).__name__))


_MISSING = object()


class Record:
    """The fields of one reply, event or nested record; each accessor checks the field's type and width."""

    def __init__(self, tlv):
        if tlv.type != SETTINGS or tlv.children is None:
            raise WireError('the body is not a SETTINGS record (type 0x%02x)' % tlv.type)
        if len(tlv.children) % 2:
            raise WireError('a SETTINGS record holds an odd number of children: a key without a value')
        self._fields = {}
        for k, v in zip(tlv.children[0::2], tlv.children[1::2]):
            if k.type != NAME or k.children is not None:
                raise WireError('a field key is type 0x%02x, not a NAME' % k.type)
            key = _utf8(k.body, 'a field name')
            if key in self._fields:
                raise WireError('field %r appears twice' % key)
            if v.type == SETTINGS:
                self._fields[key] = (SETTINGS, Record(v))
            elif v.type == POINT:
                if v.children is None:
                    raise WireError('list %r is not a container' % key)
                items = []
                for c in v.children:
                    if c.type == NAME and c.children is None:
                        items.append(_utf8(c.body, 'an item of %r' % key))
                    elif c.type == SETTINGS:
                        items.append(Record(c))
                    else:
                        raise WireError('list %r holds type 0x%02x' % (key, c.type))
                self._fields[key] = (POINT, items)
            elif v.children is not None:
                raise WireError('field %r is a container of type 0x%02x' % (key, v.type))
            else:
                self._fields[key] = (v.type, v.body)

    def keys(self):
        return list(self._fields)

    def has(self, key):
        return key in self._fields

    def _get(self, key, type_):
        """The field's raw value, or _MISSING when absent; WireError when it has another type."""
        if key not in self._fields:
            return _MISSING
        t, v = self._fields[key]
        if t != type_:
            raise WireError('field %r is type 0x%02x, expected 0x%02x' % (key, t, type_))
        return v

    @staticmethod
    def _absent(key, default):
        if default is _MISSING:
            raise WireError('missing field %r' % key)
        return default

    def text(self, key, default=_MISSING):
        """A NAME field as str."""
        v = self._get(key, NAME)
        return self._absent(key, default) if v is _MISSING else _utf8(v, 'field %r' % key)

    def u64(self, key, default=_MISSING):
        """A VALUE u64 field (exactly 8 bytes, little-endian)."""
        v = self._get(key, VALUE)
        if v is _MISSING:
            return self._absent(key, default)
        if len(v) != 8:
            raise WireError('field %r is %d bytes, a u64 is 8' % (key, len(v)))
        return struct.unpack('<Q', v)[0]

    def flag(self, key, default=_MISSING):
        """A VALUE u8 0/1 field as bool."""
        v = self._get(key, VALUE)
        if v is _MISSING:
            return self._absent(key, default)
        if len(v) != 1 or v[0] > 1:
            raise WireError('field %r is not a flag (one byte, 0 or 1)' % key)
        return v[0] == 1

    def blob(self, key, default=_MISSING):
        """A VALUE field of any length as bytes (a payload or an outcome)."""
        v = self._get(key, VALUE)
        return self._absent(key, default) if v is _MISSING else v

    def items(self, key, default=_MISSING):
        """A POINT field as a list of str (ids) and Record (records)."""
        v = self._get(key, POINT)
        return self._absent(key, default) if v is _MISSING else list(v)

    def record(self, key, default=_MISSING):
        """A nested SETTINGS field as a Record."""
        v = self._get(key, SETTINGS)
        return self._absent(key, default) if v is _MISSING else v

    def check(self, types, optional=None):
        """Checks every field against ``types`` (s NAME, u u64, b flag, y bytes, l list); no other may appear."""
        optional = optional or {}
        for key in self._fields:
            if key not in types and key not in optional:
                raise WireError('unknown field %r' % key)
        for key, t in list(types.items()) + [(k, t) for k, t in optional.items() if k in self._fields]:
            {'s': self.text, 'u': self.u64, 'b': self.flag, 'y': self.blob, 'l': self.items}[t](key)
        return self

    def __repr__(self):
        return 'Record(%r)' % {k: v for k, (_, v) in self._fields.items()}



# ---- bus frames ---------------------------------------------------------------------------------

def hello_frame(name):
    """The local link's hello: FWD READ /$node/caps, empty src, SETTINGS{spectrum.ext u16 1, spectrum.name NAME}."""
    announce = _tlv(NAME, b'spectrum.ext') + _tlv(VALUE, struct.pack('<H', 1))
    if name is not None:
        raw = name.encode('utf-8')
        if not 1 <= len(raw) <= 64:
            raise ValueError('a client name is 1..64 bytes of UTF-8')
        announce += _tlv(NAME, b'spectrum.name') + _tlv(NAME, raw)
    return _tlv(FWD, _tlv(VALUE, bytes([OP_READ])) + encode_path('/$node/caps') + _tlv(PATH, b'')
                + _tlv(SETTINGS, announce, True), True)


def request_frame(command, route, fields):
    """A bus request: FWD{VALUE u8 WRITE, PATH /$bus/<command with dots as slashes>, PATH route, SETTINGS}."""
    return _tlv(FWD, _tlv(VALUE, bytes([OP_WRITE])) + encode_path('/$bus/' + command.replace('.', '/'))
                + encode_path(route) + encode_fields(fields), True)


def decode_bus(frame):
    """A bus frame as ``('reply', route, Record | BusRefused)`` or ``('event', kind, Record)``."""
    root = decode_frame(frame)
    if root.type != FWD or root.children is None:
        raise WireError('a bus frame is a FWD container, got type 0x%02x' % root.type)
    c = root.children
    if len(c) < 4:
        raise WireError('a bus FWD has op, dst, src and a body; this one has %d children' % len(c))
    if c[0].type != VALUE or c[0].children is not None or len(c[0].body) != 1:
        raise WireError('a FWD op is a one-byte VALUE')
    op = c[0].body[0] & 0x3F
    if c[1].type != PATH or c[2].type != PATH:
        raise WireError('a bus FWD is {op, PATH dst, PATH src, body} (got types 0x%02x, 0x%02x)'
                        % (c[1].type, c[2].type))
    dst, src = decode_path(c[1]), decode_path(c[2])
    if op == OP_REPLY:
        if len(c) != 5 or c[3].type != VALUE or c[3].children is not None or c[3].body not in (b'\x00', b'\x01'):
            raise WireError('a bus reply is {op, dst, src, VALUE u8 kind 0/1, body}')
        command = src[len('/$bus/'):].replace('/', '.') if src.startswith('/$bus/') else src
        if c[3].body == b'\x00':
            return 'reply', dst, Record(c[4])
        return 'reply', dst, _refusal(command, c[4])
    if op != OP_WRITE:
        raise WireError('a bus frame is a WRITE or a REPLY, got op %d' % op)
    if len(c) != 4:
        raise WireError('a bus event has one body, this one has %d children after src' % (len(c) - 3))
    if not dst.startswith('/$bus/') or src != '/':
        raise WireError('a bus event is WRITE /$bus/<kind> with an empty src, got %s from %s' % (dst, src))
    kind = dst[len('/$bus/'):].replace('/', '.')
    fields = Record(c[3])
    if kind in EVENT_FIELDS:
        fields.check(EVENT_FIELDS[kind], OPTIONAL_EVENT_FIELDS.get(kind))
    return 'event', kind, fields


def _refusal(command, status):
    if status.type != STATUS or not status.children:
        raise WireError('a bus error reply carries a STATUS')
    err = next((x for x in status.children if x.type == ERROR), None)
    if err is None or not err.children or err.children[0].type != VALUE or len(err.children[0].body) != 2:
        raise WireError('a bus error reply carries ERROR{VALUE u16 code, ...}')
    tracer = struct.unpack('<H', err.children[0].body)[0]
    name = next((x for x in err.children[1:] if x.type == NAME and x.children is None), None)
    code = _utf8(name.body, 'an error name') if name else 'tr:0x%04x' % tracer
    desc = next((x for x in status.children if x.type == DESCRIPTION and x.children is None), None)
    message = _utf8(desc.body, 'an error text') if desc else code
    if message.startswith(code + ': '):  # the bus's text repeats its code
        message = message[len(code) + 2:]
    settings = next((x for x in status.children if x.type == SETTINGS), None)
    dispatch = Record(settings).text('dispatch', None) if settings else None
    return BusRefused(command, code, tracer, message, dispatch or 'not-dispatched')



# ---- the host's node through the bus -----------------------------------------------------------
# A frame whose dst is not under /$bus is not a bus request: the bus relays it to the host's node as a
# request of this connection, and relays back what the node sends to it (docs/bus.md, "The host's node
# through the bus"). These are plain libtracer v1 requests; each ends with the announcement
# SETTINGS{spectrum.ext u16 1} so a subscribe is answered with its slot's identity.

def _announcement():
    return _tlv(SETTINGS, _tlv(NAME, b'spectrum.ext') + _tlv(VALUE, struct.pack('<H', 1)), True)


def _subscribers_field(index=None, generation=None):
    """``:subscribers[]`` (append), or ``:subscribers[N@G]`` (one slot, with its generation guard)."""
    if index is None:
        return _tlv(FIELD, _tlv(NAME, b'subscribers') + _tlv(VALUE, b'\x01'), True)
    return _tlv(FIELD, _tlv(NAME, b'subscribers') + _tlv(VALUE, struct.pack('<I', index)) + _tlv(VALUE, b'\x01')
                + _tlv(NAME, b'spectrum.gen') + _tlv(VALUE, struct.pack('<I', generation)) + _tlv(VALUE, b'\x01'),
                True)


def node_request_frame(op, path, route, field=None, payload=None):
    """FWD{VALUE u8 op, PATH path, [FIELD], PATH route, [payload], SETTINGS announcement}."""
    body = _tlv(VALUE, bytes([op])) + encode_path(path) + (field or b'') + encode_path(route)
    return _tlv(FWD, body + (payload or b'') + _announcement(), True)


def subscriber_record(target, mode, max_queued, max_in_flight):
    """SUBSCRIBER{PATH target, SETTINGS{spectrum.topic u8 1, spectrum.mode u8, spectrum.queue u16,
    spectrum.inflight u16}}: deliveries to ``target`` carry the stamp (seq, stale, dlv)."""
    qos = (_tlv(NAME, b'spectrum.topic') + _tlv(VALUE, b'\x01')
           + _tlv(NAME, b'spectrum.mode') + _tlv(VALUE, bytes([MODES[mode]]))
           + _tlv(NAME, b'spectrum.queue') + _tlv(VALUE, struct.pack('<H', max_queued))
           + _tlv(NAME, b'spectrum.inflight') + _tlv(VALUE, struct.pack('<H', max_in_flight)))
    return _tlv(SUBSCRIBER, encode_path(target) + _tlv(SETTINGS, qos, True), True)


class NodeRefused(Exception):
    """The host's node refused a request: its libtracer code (``tr::access::denied``, ...) and text."""

    def __init__(self, path, code, text):
        super().__init__('%s: %s%s' % (path, code, ': ' + text if text else ''))
        self.path, self.code, self.text = path, code, text


class NodeValue:
    """One delivery of a node subscription: its route, the value TLV's body, and the stamp's fields."""

    def __init__(self, route, value_type, value, stamp):
        self.route, self.value_type, self.value, self.stamp = route, value_type, value, stamp

    def seq(self):
        return self.stamp.u64('seq')

    def dlv(self):
        return self.stamp.u64('dlv')

    def stale(self):
        return self.stamp.has('stale') and self.stamp.blob('stale') == b'\x01'


def _node_reply(path, c):
    """A node's REPLY children after dst and src: RESULT (VALUE u8 0) and its payload, or an error STATUS."""
    if not c or c[0].type != VALUE or c[0].children is not None or len(c[0].body) != 1:
        raise WireError('a node reply starts with a one-byte VALUE kind')
    if c[0].body == b'\x00':
        return c[1:]
    status = next((x for x in c[1:] if x.type == STATUS and x.children), None)
    if status is None:
        raise NodeRefused(path, 'error', '')
    err = next((x for x in status.children if x.type == ERROR and x.children), None)
    code = 'error'
    if err is not None:
        name = next((x for x in err.children if x.type == NAME and x.children is None), None)
        if name is not None:
            code = _utf8(name.body, 'an error name')
        elif err.children[0].type == VALUE and len(err.children[0].body) == 2:
            code = 'tr:0x%04x' % struct.unpack('<H', err.children[0].body)[0]
    desc = next((x for x in status.children if x.type == DESCRIPTION and x.children is None), None)
    raise NodeRefused(path, code, _utf8(desc.body, 'an error text') if desc else '')


def _node_value(route, c):
    """A delivery's children after src: the value TLV, then the stamp SETTINGS{spectrum.topic, SETTINGS}."""
    if not c:
        raise WireError('a delivery to %s without a value' % route)
    stamp = next((x for x in c[1:] if x.type == SETTINGS and x.children and len(x.children) == 2
                  and x.children[0].body == b'spectrum.topic'), None)
    if stamp is None:
        raise WireError('a delivery to %s without its stamp' % route)
    return NodeValue(route, c[0].type, c[0].body, Record(stamp.children[1]))


def _split_fwd(frame):
    """A FWD's (op, dst text, src text, the children after src, dst TLV, src TLV); None when not a FWD."""
    root = decode_frame(frame)
    if root.type != FWD or not root.children or len(root.children) < 3:
        return None
    c = root.children
    if c[0].type != VALUE or len(c[0].body) != 1 or c[1].type != PATH:
        return None
    i = 2
    if c[i].type == FIELD:
        i += 1
    if i >= len(c) or c[i].type != PATH:
        return None
    return c[0].body[0] & 0x3F, decode_path(c[1]), decode_path(c[i]), c[i + 1:], c[1], c[i]

# ---- the client ---------------------------------------------------------------------------------

class BusClient:
    """One connection to the bus at a Unix socket ``path`` as ``name`` (None: anonymous).

    ``request`` waits at most ``timeout`` seconds for a reply. A connection is closed by the bus after
    its idle timeout (``idleTimeoutMs`` in the hello's reply); :meth:`next_event` sends ``bus.ping``
    when it has sent nothing for a third of it.
    """

    def __init__(self, path, name, timeout=5.0, max_frame=MAX_FRAME):
        self.timeout, self.max_frame = timeout, max_frame
        self.events = deque()
        self._serial = 0
        self._calls = 0
        self._ignored = set()  # routes of pings and of requests given up on: their replies are dropped
        self.node_values = deque()  # deliveries of node subscriptions, in arrival order
        self._node_serial = 0
        self._rx = bytearray()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(path)
        except OSError as e:
            self._sock.close()
            raise BusClosed('no bus at %s (%s): start one with spectrum host --bus PATH' % (path, e))
        try:
            self._send(hello_frame(name))
            hello = self.request('bus.hello', {})
            self.client_id = hello.text('clientId')
            self.incarnation = hello.u64('clientIncarnation')
            self.idle_timeout_ms = hello.u64('idleTimeoutMs', 0)
        except BaseException:
            self._sock.close()
            raise

    def close(self):
        self._sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _send(self, frame):
        if not 4 <= len(frame) <= self.max_frame:
            raise WireError('a frame of %d bytes is over the link limit of %d' % (len(frame), self.max_frame))
        self._sock.settimeout(self.timeout)
        self._sock.sendall(struct.pack('<I', len(frame)) + frame)
        self._sent_at = time.monotonic()

    def _fill(self, n, deadline):
        """True once the receive buffer holds ``n`` bytes; False at the deadline (what came stays buffered)."""
        while len(self._rx) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._sock.settimeout(left)
            try:
                chunk = self._sock.recv(max(n - len(self._rx), 65536))
            except socket.timeout:
                return False
            if not chunk:
                raise BusClosed('the bus closed the connection' + (' mid-frame' if self._rx else ''))
            self._rx += chunk
        return True

    def _read_frame(self, deadline):
        """One whole frame, or None when none was whole by the deadline."""
        if not self._fill(4, deadline):
            return None
        n = struct.unpack_from('<I', self._rx)[0]
        if not 4 <= n <= self.max_frame:
            self.close()
            raise WireError('a length prefix of %d is outside 4..%d: the stream cannot resynchronise'
                            % (n, self.max_frame))
        if not self._fill(4 + n, deadline):
            return None
        frame = bytes(self._rx[4:4 + n])
        del self._rx[:4 + n]
        return frame

    def _route(self):
        self._serial += 1
        return '/py/r/%d' % self._serial

    def _receive(self, deadline):
        """Reads one frame: returns ('reply', route, body) or queues an event; None on timeout."""
        frame = self._read_frame(deadline)
        if frame is None:
            return None
        node = _split_fwd(frame)
        if node is not None and node[0] == OP_READ and not node[1].startswith('/$bus/'):
            # the node's liveness ping (a READ of /$node/caps): a client serves no vertex, and answers
            # path::not_found, the traffic that keeps the node from taking it for gone
            if node[5].body:
                self._send(_tlv(FWD, _tlv(VALUE, bytes([OP_REPLY])) + _tlv(PATH, node[5].body)
                                + _tlv(PATH, node[4].body) + _tlv(VALUE, b'\x01')
                                + _tlv(STATUS, _tlv(ERROR, _tlv(VALUE, struct.pack('<H', 0x0020)), True), True), True))
            return 'event', None, None
        if node is not None and node[1].startswith(NODE_SUB_PREFIX) and node[0] == OP_WRITE:
            self.node_values.append(_node_value(node[1], node[3]))
            return 'event', None, None
        if node is not None and node[0] == OP_REPLY and node[1].startswith((NODE_REPLY_PREFIX, NODE_SUB_PREFIX)):
            if node[1] in self._ignored:
                self._ignored.discard(node[1])
                return 'event', None, None
            return 'node', node[1], (node[2], node[3])
        what, where, body = decode_bus(frame)
        if what == 'event':
            if where == 'connection.closing':
                raise BusClosed('the bus is closing this connection: %s: %s'
                                % (body.text('code'), body.text('message')))
            self.events.append((where, body))
            return 'event', where, body
        if where in self._ignored:
            self._ignored.discard(where)
            return 'event', None, None
        return what, where, body

    def request(self, command, fields):
        """Sends ``command`` with ``fields`` and returns the reply's Record; raises BusRefused when refused."""
        route = self._route()
        self._send(request_frame(command, route, fields))
        deadline = time.monotonic() + self.timeout
        while True:
            got = self._receive(deadline)
            if got is None:
                self._ignored.add(route)
                raise BusTimeout('%s: no answer within %.1f s' % (command, self.timeout))
            what, where, body = got
            if what == 'reply':
                if where != route:
                    raise WireError('a reply for %s while %s waits on %s' % (where, command, route))
                if isinstance(body, BusRefused):
                    raise body
                return body

    def next_event(self, timeout):
        """The next event as ``(kind, Record)``, or None when none came within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not self.events:
            now = time.monotonic()
            if now >= deadline:
                return None
            wake = deadline
            if self.idle_timeout_ms:
                ping_at = self._sent_at + self.idle_timeout_ms / 3000.0
                if now >= ping_at:
                    route = self._route()
                    self._ignored.add(route)
                    self._send(request_frame('bus.ping', route, {}))
                    continue
                wake = min(wake, ping_at)
            got = self._receive(wake)
            if got is not None and got[0] in ('reply', 'node'):
                raise WireError('a reply on %s that nothing waits for' % got[1])
        return self.events.popleft()

    # the host's node through the bus (plain libtracer requests, relayed by the bus)

    def node_request(self, op, path, field=None, payload=None, route=None):
        """Sends a libtracer request for ``path`` to the host's node and returns the answer's children
        after RESULT; raises NodeRefused with the node's code when it refuses. ``route`` is the request's
        src (default: a fresh reply route); a subscribe's is its delivery route too."""
        if route is None:
            self._node_serial += 1
            route = NODE_REPLY_PREFIX + str(self._node_serial)
        self._send(node_request_frame(op, path, route, field, payload))
        deadline = time.monotonic() + self.timeout
        while True:
            got = self._receive(deadline)
            if got is None:
                self._ignored.add(route)
                raise BusTimeout('%s: no answer from the host\'s node within %.1f s' % (path, self.timeout))
            if got[0] == 'node':
                if got[1] != route:
                    raise WireError('a node reply for %s while %s waits on %s' % (got[1], path, route))
                return _node_reply(path, got[2][1])
            if got[0] == 'reply':
                raise WireError('a bus reply on %s while %s waits on the node' % (got[1], path))

    def node_read(self, path):
        """The value TLV (type, body) a node vertex holds; NodeRefused when it has none or may not be read."""
        c = self.node_request(OP_READ, path)
        if not c:
            raise WireError('a READ answer without a value')
        return c[0].type, c[0].body

    def node_write(self, path, value):
        """Writes ``value`` (bytes: a VALUE TLV's body) to a node vertex (a board's writable vertex is
        written on the board); NodeRefused when the node or the board refuses."""
        self.node_request(OP_WRITE, path, payload=_tlv(VALUE, bytes(value)))

    def node_follow(self, path, mode='bounded', max_queued=8, max_in_flight=2):
        """Subscribes to a node vertex with a delivery mode; returns (path, route, slot, generation).
        Its deliveries come from :meth:`next_node_value`; each is consumed with :meth:`node_consumed`."""
        self._node_serial += 1
        target = NODE_SUB_PREFIX + str(self._node_serial)
        c = self.node_request(OP_WRITE, path, _subscribers_field(),
                              subscriber_record(target, mode, max_queued, max_in_flight), target)
        field = next((x for x in c if x.type == FIELD and x.children), None)
        if field is None or len(field.children) < 6:
            raise WireError('the subscribe answer carries no slot identity (:subscribers[N@G])')
        index = struct.unpack('<I', field.children[1].body)[0]
        generation = struct.unpack('<I', field.children[4].body)[0]
        return path, target, index, generation

    def next_node_value(self, timeout):
        """The next delivery of a node subscription (a NodeValue), or None within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not self.node_values:
            if time.monotonic() >= deadline:
                return None
            got = self._receive(deadline)
            if got is not None and got[0] in ('reply', 'node'):
                raise WireError('a reply on %s that nothing waits for' % got[1])
        return self.node_values.popleft()

    def node_consumed(self, subscription, up_to):
        """Gives back the credits of the subscription's deliveries numbered up to ``up_to`` (cumulative)."""
        path, _, index, generation = subscription
        payload = _tlv(SETTINGS, _tlv(NAME, b'spectrum.consumed') + _tlv(VALUE, struct.pack('<Q', up_to)), True)
        self.node_request(OP_WRITE, path, _subscribers_field(index, generation), payload)

    # the commands this example uses; any other goes through request(command, fields)

    def declare(self, topic, retained='none'):
        return self.request('topic.declare', {'name': topic, 'retained': retained})

    def subscribe(self, topic, mode='bounded', max_queued=16, max_in_flight=4, replay_latest=False):
        return self.request('subscribe', {'topic': topic, 'mode': mode, 'maxQueued': max_queued,
                                          'maxInFlight': max_in_flight, 'replayLatest': replay_latest})

    def consumed(self, *delivery_ids):
        return self.request('delivery.consumed', {'deliveryIds': list(delivery_ids)}).u64('released')

    def call(self, target, payload, method='call'):
        """Calls ``target``; returns ``(callId, reply)``. The caller names its calls ``call-<N>``, N above
        that of the last call the bus accepted on this connection; the outcome comes later as an
        ``rpc.result`` or ``call.failed`` event with that callId."""
        self._calls += 1
        call_id = 'call-%d' % self._calls
        return call_id, self.request('rpc.call', {'callId': call_id, 'target': target, 'method': method,
                                                  'payload': payload, 'attachments': []})
