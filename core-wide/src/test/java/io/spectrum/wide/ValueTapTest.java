package io.spectrum.wide;

import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A {@link ValueTap} hears every value the node assigns and every stale mark it makes, with the
 * vertex's seq and the reason, and is no subscriber: the vertex keeps no listener (so a host that
 * keeps history subscribes nothing upstream for it).
 */
class ValueTapTest {
    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return Arrays.copyOf(b, w.length());
    }

    @Test
    void theTapHearsEveryWriteAndStaleMarkWithoutListening() {
        WideNode node = new WideNode(WideNode.hostConfig().clock(new ManualClock(0)).build());
        List<String> heard = new ArrayList<>();
        node.setValueTap((v, seq, sourceSeq, origin, stale, reason) -> heard.add(v.path() + " " + v.length() + " seq " + seq
                + (stale ? " stale: " + new String(reason, StandardCharsets.UTF_8) : "")));
        NodePath p = NodePath.of("/here/x");
        byte[] one = value(1);
        assertEquals(WireError.OK, node.write(p, one, 0, one.length));
        assertEquals(WireError.OK, node.write(p, one, 0, one.length));
        assertEquals(WireError.OK, node.markStale(p, "sensor lost"));
        assertEquals(List.of("/here/x " + one.length + " seq 1", "/here/x " + one.length + " seq 2",
                "/here/x " + one.length + " seq 2 stale: sensor lost"), heard);
        assertEquals(0, node.listenerCount(p), "the tap is not a listener of the vertex");
        node.setValueTap(null);
        node.write(p, one, 0, one.length);
        assertEquals(3, heard.size(), "no tap, nothing told");
        node.close();
    }
}
