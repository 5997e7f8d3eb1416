import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.time.Duration;
import java.util.Arrays;

/**
 * Sends a plain libtracer v1 peer's request of every FWD kind to a running node, for the
 * dissector check (docs/wireshark/capture-board.sh). Run from the repo root as a single-file
 * program: {@code java -cp cli/target/spectrum.jar docs/wireshark/FwdKinds.java 127.0.0.1:7790}.
 * Prints one line per request with the answer (or the error's identity). Against the demo board.
 */
public final class FwdKinds {
    static final int READ = 0;
    static final int WRITE = 1;
    static final int AWAIT = 2;

    static PeerClient c;

    public static void main(String[] args) throws Exception {
        UdpLink link = UdpLink.dial(1, UdpLink.parseHostPort(args[0]), new UdpLinkConfig(), SystemClock.INSTANCE);
        c = new PeerClient(link, 0, Duration.ofMillis(3000));
        String counter = "/counter";
        show("READ value", c.read("/temp"));
        show("READ absent (ERROR reply)", c.read("/nope"));
        show("READ composed tree", c.read("/"));
        show("READ :children[]", c.call(READ, "/", field("children", -1, 1), null));
        show("READ :subscribers[]", c.read(counter, Requests.subscribers()));
        show("READ :settings", c.call(READ, counter, field("settings", -1, -1), null));
        show("READ :acl", c.call(READ, counter, field("acl", -1, -1), null));
        show("READ :settings.app (the declaration)", c.read("/temp", Requests.settingsApp()));
        show("READ :settings.app.unit", c.read("/temp", Requests.field("settings.app.unit")));
        show("READ :settings.app.nope (ERROR reply)", c.read("/temp", Requests.field("settings.app.nope")));
        show("READ :schema", c.read("/temp", Requests.field("schema")));
        show("WRITE :settings.app.unit (ERROR reply)", c.write("/temp", Requests.field("settings.app.unit"), value(1, 1)));
        show("WRITE read-only vertex (ERROR reply)", c.write("/temp", value(2350, 2)));
        show("WRITE against the declaration (ERROR reply)", c.write("/led", value(1, 4)));
        show("READ /$node/caps (plain peer)", c.read("/$node/caps"));
        show("WRITE value", c.write("/led", value(1, 1)));
        show("WRITE absent (ERROR reply)", c.write("/nope", value(1, 1)));
        show("WRITE :children[] (ERROR reply)", c.call(WRITE, "/", field("children", -1, 1), value(1, 1)));
        show("AWAIT with timeout", c.call(AWAIT, counter, null, value(3_000_000_000L, 8)));
        show("AWAIT default timeout", c.call(AWAIT, counter, null, null));
        show("unknown op 5 (ERROR reply)", c.call(5, counter, null, null));

        // a plain v1 append: SUBSCRIBER{PATH route}, no qos; v1 answers RESULT with no payload
        String route = "/cli/plain";
        byte[] rec = subscriber(route);
        Reply appended = c.callVia(route, WRITE, counter, field("subscribers", -1, 1), rec);
        show("WRITE :subscribers[] plain v1 append", appended);
        c.onDelivery(d -> System.out.println("  delivery to " + d.route()));
        c.pumpFor(Duration.ofMillis(1200));
        int n = slotOf(c.read(counter, Requests.subscribers()), rec);
        show("READ :subscribers[" + n + "]", c.call(READ, counter, field("subscribers", n, 1), null));
        byte[] suspended = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        int m = new SubscriberRenderer().render(rec, 0, rec.length, true, suspended, 0, suspended.length);
        show("WRITE :subscribers[" + n + "] suspend (toggle)", c.callVia(route, WRITE, counter, field("subscribers", n, 1),
                Arrays.copyOf(suspended, m)));
        show("WRITE :subscribers[" + n + "] resume (toggle)", c.callVia(route, WRITE, counter, field("subscribers", n, 1), rec));
        show("WRITE :subscribers[" + n + "] clear", c.callVia(route, WRITE, counter, field("subscribers", n, 1),
                new byte[] {0x09, 0, 0, 0}));
        show("WRITE empty src (no reply)", c.callVia("/", WRITE, "/led", null, value(0, 1)));
        c.close();
    }

    static void show(String what, Reply r) {
        String answer = r.code() == WireError.FLOW_TIMEOUT && what.contains("no reply") ? "no reply, as asked"
                : r.ok() ? (r.value() == null ? "RESULT, no payload" : "RESULT " + hex(r.value()))
                : "ERROR " + WireError.identity(r.code());
        System.out.println(what + ": " + answer);
    }

    /** FIELD{NAME name [, VALUE u32 index], [VALUE u8 mode]}; index/mode < 0 = absent. */
    static byte[] field(String name, int index, int mode) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, name.getBytes());
        if (index >= 0) {
            w.value(index, 4);
        }
        if (mode >= 0) {
            w.value(mode, 1);
        }
        w.end();
        return Arrays.copyOf(b, w.length());
    }

    static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    static byte[] subscriber(String route) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).raw(NodePath.of(route).tlv()).end();
        return Arrays.copyOf(b, w.length());
    }

    /** The position of {@code rec} in a :subscribers[] answer (a POINT of renderings), or -1. */
    static int slotOf(Reply list, byte[] rec) {
        if (!list.ok() || list.value() == null) {
            return -1;
        }
        byte[] p = list.value();
        TlvIndex x = new TlvIndex();
        if (new FrameDecoder().decode(p, 0, p.length, x) != WireError.OK) {
            return -1;
        }
        int i = 0;
        for (int e = x.firstChild(0); e != TlvIndex.NONE; e = x.nextSibling(e), i++) {
            if (Arrays.equals(Arrays.copyOfRange(p, x.start(e), x.end(e)), rec)) {
                return i;
            }
        }
        return -1;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}
