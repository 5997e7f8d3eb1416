"""Unit tests of spectrum_bus's codec (python3 -m unittest test_spectrum_bus; no bus needed).

The bytes are those of docs/links.md (the hello) and docs/bus.md (requests, replies, refusals,
events); PythonBusExampleTest (examples module) runs this file and the example against a real bus.
"""

import os
import socket
import struct
import tempfile
import threading
import time
import unittest

import spectrum_bus as sb
from spectrum_bus import NAME, PATH, SETTINGS, VALUE, FWD, STATUS, ERROR, DESCRIPTION, POINT, _tlv


def fwd(*children):
    return _tlv(FWD, b''.join(children), True)


def op(n):
    return _tlv(VALUE, bytes([n]))


def settings(*children):
    return _tlv(SETTINGS, b''.join(children), True)


def name(s):
    return _tlv(NAME, s.encode())


def u64(n):
    return _tlv(VALUE, struct.pack('<Q', n))


def event(kind, *fields):
    return fwd(op(1), sb.encode_path('/$bus/' + kind.replace('.', '/')), _tlv(PATH, b''), settings(*fields))


def topic_message(**over):
    f = dict(deliveryId=name('dlv-1'), subscriptionId=name('sub-1'), topic=name('t'),
             topicIncarnation=name('top-1'), topicSequence=u64(7), replaced=u64(0),
             payload=_tlv(VALUE, b'hi'), attachments=_tlv(POINT, b'', True))
    f.update(over)
    return event('topic.message', *[name(k) + v for k, v in f.items() if v is not None])


class CodecTest(unittest.TestCase):
    def test_hello_is_the_documented_78_bytes(self):
        doc = ('0f404a00 0100010000 06000b00 05246e6f6465 0463617073 06000000 0b402e00 02000c00'.replace(' ', '')
               + b'spectrum.ext'.hex() + '010002000100' + '02000d00' + b'spectrum.name'.hex() + '02000300737663')
        self.assertEqual(doc, sb.hello_frame('svc').hex())

    def test_a_request_is_write_to_the_command_path_with_the_route_and_settings(self):
        f = sb.decode_frame(sb.request_frame('topic.declare', '/py/r/1', {'name': 't', 'n': 5, 'ok': True}))
        self.assertEqual([VALUE, PATH, PATH, SETTINGS], [c.type for c in f.children])
        self.assertEqual('/$bus/topic/declare', sb.decode_path(f.children[1]))
        self.assertEqual('/py/r/1', sb.decode_path(f.children[2]))
        r = sb.Record(f.children[3])
        self.assertEqual(('t', 5, True), (r.text('name'), r.u64('n'), r.flag('ok')))
        self.assertEqual(b'\x05\x00\x00\x00\x00\x00\x00\x00', f.children[3].children[3].body, 'a u64 is LE')

    def test_a_body_over_64_KiB_takes_the_u32_length(self):
        f = sb.encode_fields({'payload': b'x' * 70000})
        self.assertEqual(sb.OPT_PL | sb.OPT_LL, f[1])
        self.assertEqual(70000, len(sb.Record(sb.decode_frame(f)).blob('payload')))

    def test_a_result_and_a_refusal(self):
        r = fwd(op(3), sb.encode_path('/py/r/2'), sb.encode_path('/$bus/subscribe'), op(0),
                settings(name('subscriptionId'), name('sub-1')))
        what, route, body = sb.decode_bus(r)
        self.assertEqual(('reply', '/py/r/2', 'sub-1'), (what, route, body.text('subscriptionId')))
        status = _tlv(STATUS, _tlv(ERROR, _tlv(VALUE, b'\x20\x00') + name('NO_SERVICE'), True)
                      + _tlv(DESCRIPTION, b'calc.mul is not registered')
                      + settings(name('dispatch'), name('not-dispatched')), True)
        e = sb.decode_bus(fwd(op(3), sb.encode_path('/py/r/3'), sb.encode_path('/$bus/rpc/call'), op(1), status))[2]
        self.assertIsInstance(e, sb.BusRefused)
        self.assertEqual(('rpc.call', 'NO_SERVICE', 0x20, 'not-dispatched'), (e.command, e.code, e.tracer_code, e.dispatch))
        self.assertEqual('rpc.call: NO_SERVICE: calc.mul is not registered', str(e))

    def test_an_event(self):
        what, kind, f = sb.decode_bus(topic_message())
        self.assertEqual(('event', 'topic.message', 7, b'hi'), (what, kind, f.u64('topicSequence'), f.blob('payload')))

    def test_crc_trailers_are_checked(self):
        body = b'\xaa\xbb\xcc'
        self.assertEqual(body, sb.decode_frame(b'\x01\x14\x03\x00' + body + b'\xf6\x6c').body)  # CRC-16
        with self.assertRaisesRegex(sb.WireError, 'FRAME_CRC_FAIL'):
            sb.decode_frame(b'\x01\x14\x03\x00' + body + b'\xf6\x6d')
        self.assertEqual(0x2312C9B6, sb._crc32c(bytes.fromhex('aabbccddee')))


class MalformedTest(unittest.TestCase):
    def refuse(self, frame, pattern):
        with self.assertRaisesRegex(sb.WireError, pattern):
            sb.decode_bus(frame)

    def test_framing(self):
        self.refuse(b'\x0f\x40', 'FRAME_TRUNCATED')
        self.refuse(b'\x01\x00\x05\x00ab', 'FRAME_TRUNCATED')
        self.refuse(b'\x01\x01\x00\x00', 'reserved opt bit')
        self.refuse(b'\x00\x00\x00\x00', 'type 0x00')
        self.refuse(topic_message() + b'\x00', 'bytes after the root TLV')
        self.refuse(b'\x0f\x40\x06\x00' + b'\x01\x00\x05\x00\x01\x02', 'FRAME_TRUNCATED')  # a child overruns

    def test_shape(self):
        self.refuse(_tlv(VALUE, b'\x01'), 'FWD container')
        self.refuse(fwd(op(0), sb.encode_path('/$bus/x'), _tlv(PATH, b''), settings()), 'WRITE or a REPLY')
        self.refuse(fwd(op(3), sb.encode_path('/py/r/1'), sb.encode_path('/$bus/x'), op(2), settings()), 'kind 0/1')
        self.refuse(fwd(_tlv(VALUE, b'\x01\x00'), sb.encode_path('/$bus/x'), _tlv(PATH, b''), settings()), 'one-byte')
        self.refuse(fwd(op(1), _tlv(PATH, b'\x00\x16\x04abcd'), _tlv(PATH, b''), settings()), 'escape')
        self.refuse(fwd(op(1), _tlv(PATH, b'\x05ab'), _tlv(PATH, b''), settings()), 'overruns')
        self.refuse(event('topic.message'), 'missing field')

    def test_fields(self):
        self.refuse(topic_message(topicSequence=_tlv(VALUE, b'\x07\x00\x00\x00')), "'topicSequence' is 4 bytes")
        self.refuse(topic_message(topic=_tlv(VALUE, b't')), "'topic' is type 0x01")
        self.refuse(topic_message(extra=name('x')), "unknown field 'extra'")
        self.refuse(topic_message(attachments=None), "missing field 'attachments'")
        self.refuse(event('bus.x', name('a'), name('1'), name('a'), name('2')), "'a' appears twice")
        self.refuse(event('bus.x', u64(1), name('1')), 'not a NAME')
        self.refuse(event('bus.x', name('a')), 'odd number')
        with self.assertRaisesRegex(sb.WireError, 'not UTF-8'):
            sb.decode_bus(event('bus.x', name('a'), _tlv(NAME, b'\xff')))[2].text('a')
        with self.assertRaisesRegex(sb.WireError, 'not a flag'):
            sb.decode_bus(event('bus.x', name('a'), _tlv(VALUE, b'\x02')))[2].flag('a')


class StreamTest(unittest.TestCase):
    """The client against a fake bus on a temporary socket (one connection, bounded in time)."""

    def fake_bus(self, answer):
        """Runs ``answer(conn, hello_and_request_bytes)`` for the client's first connection."""
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        path = os.path.join(d.name, 'bus.sock')
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(server.close)
        server.bind(path)
        server.listen(1)
        server.settimeout(5)

        def serve():
            conn, _ = server.accept()
            with conn:
                conn.settimeout(5)
                got, h = b'', 4 + len(sb.hello_frame('py'))
                while len(got) < h + 4 or len(got) < h + 4 + struct.unpack_from('<I', got, h)[0]:
                    got += conn.recv(4096)
                answer(conn, got)
                try:
                    conn.recv(4096)  # until the client closes
                except OSError:
                    pass

        t = threading.Thread(target=serve, daemon=True)
        t.start()
        self.addCleanup(t.join, 5)
        return path

    def test_a_length_prefix_over_the_limit_is_refused(self):
        path = self.fake_bus(lambda conn, got: conn.sendall(struct.pack('<I', sb.MAX_FRAME + 1)))
        with self.assertRaisesRegex(sb.WireError, 'length prefix of 66561 is outside 4..66560'):
            sb.BusClient(path, 'py', timeout=5)

    def test_a_frame_cut_across_reads_and_two_in_one_read(self):
        def answer(conn, got):
            h = 4 + len(sb.hello_frame('py'))
            self.assertEqual(struct.pack('<I', h - 4) + sb.hello_frame('py'), got[:h], 'the hello comes first')
            request = sb.decode_frame(got[h + 4:])
            self.assertEqual('/$bus/bus/hello', sb.decode_path(request.children[1]))
            reply = fwd(op(3), sb.encode_path(sb.decode_path(request.children[2])), sb.encode_path('/$bus/bus/hello'), op(0),
                        settings(name('clientId'), name('py'), name('clientIncarnation'), u64(1)))
            wire = struct.pack('<I', len(reply)) + reply
            conn.sendall(wire[:3])
            time.sleep(0.2)
            ev = topic_message()
            conn.sendall(wire[3:] + struct.pack('<I', len(ev)) + ev)

        with sb.BusClient(self.fake_bus(answer), 'py', timeout=5) as bus:
            self.assertEqual(('py', 1), (bus.client_id, bus.incarnation))
            kind, f = bus.next_event(5)
            self.assertEqual(('topic.message', 7), (kind, f.u64('topicSequence')))


if __name__ == '__main__':
    unittest.main()
