"""Follow a bus topic or a board's vertex and call a bus service, from Python (examples/python/README.md).

Declares --topic (retained: none) and subscribes to it bounded, or with --vertex PATH follows that
vertex of the host's node (a board's /board1/board/temp) bounded through the bus; calls --call with
--args (UTF-8) as the payload, then prints each delivery (a topic's topicSequence and payload, a
vertex's seq, delivery number and value bytes), consuming it, and the call's outcome; stops after
--count deliveries and the outcome (0: at Ctrl-C). --write PATH=BYTE first writes one byte to a node
vertex (a board's LED). Exit 0, or 1 when refused or cut off.
"""

import argparse
import sys

import spectrum_bus


def text(raw):
    try:
        return repr(raw.decode('utf-8'))
    except UnicodeDecodeError:
        return raw.hex()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--bus', required=True, help='the bus socket (spectrum host --bus PATH)')
    p.add_argument('--name', default='py-follower')
    p.add_argument('--topic', default='demo.values')
    p.add_argument('--vertex', help='follow this vertex of the host\'s node instead of --topic')
    p.add_argument('--write', help='PATH=BYTE: write one byte to a node vertex first (e.g. /board1/board/led=1)')
    p.add_argument('--max-queued', type=int, default=8)
    p.add_argument('--max-in-flight', type=int, default=2)
    p.add_argument('--count', type=int, default=0, help='stop after this many deliveries (0: never)')
    p.add_argument('--call', help='a service to call, e.g. calc.add')
    p.add_argument('--args', default='2+3', help='the call payload (UTF-8)')
    p.add_argument('--timeout', type=float, default=5.0, help='seconds to wait for each reply')
    a = p.parse_args()
    try:
        with spectrum_bus.BusClient(a.bus, a.name, a.timeout) as bus:
            print('hello: %s (incarnation %d)' % (bus.client_id, bus.incarnation), flush=True)
            if a.write:
                path, _, byte = a.write.partition('=')
                bus.node_write(path, bytes([int(byte)]))
                print('wrote %s = %s' % (path, byte), flush=True)
            vertex = None
            if a.vertex:
                vertex = bus.node_follow(a.vertex, 'bounded', a.max_queued, a.max_in_flight)
                print('following %s as slot %d (bounded, maxQueued %d, maxInFlight %d)'
                      % (a.vertex, vertex[2], a.max_queued, a.max_in_flight), flush=True)
            else:
                d = bus.declare(a.topic)
                print('declared %s: %s (%s)' % (a.topic, d.flag('declared'), d.text('topicIncarnation')), flush=True)
                s = bus.subscribe(a.topic, 'bounded', a.max_queued, a.max_in_flight)
                print('subscribed %s as %s (bounded, maxQueued %d, maxInFlight %d)'
                      % (a.topic, s.text('subscriptionId'), a.max_queued, a.max_in_flight), flush=True)
            waiting = None
            if a.call:
                waiting, c = bus.call(a.call, a.args.encode('utf-8'))
                print('call %s %s %r: accepted by %s' % (waiting, a.call, a.args, c.text('serviceIncarnation')),
                      flush=True)
            seen = 0
            while waiting or a.count == 0 or seen < a.count:
                if vertex and (a.count == 0 or seen < a.count):
                    v = bus.next_node_value(0.2)
                    if v is not None:
                        seen += 1
                        bus.node_consumed(vertex, v.dlv())
                        print('value seq %d dlv %d %s%s (consumed)' % (v.seq(), v.dlv(), v.value.hex(),
                                                                   ' stale' if v.stale() else ''), flush=True)
                    if not waiting:
                        continue
                ev = bus.next_event(0.2 if vertex else 3600)
                if ev is None:
                    continue
                kind, f = ev
                if kind == 'topic.message':
                    seen += 1
                    released = bus.consumed(f.text('deliveryId'))
                    print('delivery topicSequence %d payload %s (%d attachments; %s consumed, %d released)'
                          % (f.u64('topicSequence'), text(f.blob('payload')), len(f.items('attachments')),
                             f.text('deliveryId'), released), flush=True)
                elif kind == 'rpc.result' and f.text('callId') == waiting:
                    print('result %s from %s: %s' % (waiting, f.text('responder'), text(f.blob('outcome'))), flush=True)
                    waiting = None
                elif kind == 'call.failed' and f.text('callId') == waiting:
                    print('call %s failed: %s: %s' % (waiting, f.text('code'), f.text('message')), flush=True)
                    waiting = None
                else:
                    print('event %s %r' % (kind, f), flush=True)
    except (spectrum_bus.BusRefused, spectrum_bus.NodeRefused, spectrum_bus.BusClosed, spectrum_bus.BusTimeout, spectrum_bus.WireError,
            OSError) as e:
        print('bus: %s' % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main())
