package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.spectrum.client.PeerClient;
import io.spectrum.wire.WireError;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** ls keeps a vertex's own value when the node answers its READ with the composed tree (digest §6). */
class LsTreeOwnValueTest {
    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    @Test
    void composedTree_givesItsOwnValue_orNoValue() {
        // POINT{NAME "s", VALUE 2, POINT{NAME "t", VALUE 1}}
        PeerClient.Reply withValue = new PeerClient.Reply(WireError.OK,
                hex("0740" + "1800" + "0200010073" + "0100010002" + "07400a00" + "0200010074" + "0100010001"));
        PeerClient.Reply own = LsTree.ownValue(withValue);
        assertEquals(WireError.OK, own.code());
        assertArrayEquals(hex("0100010002"), own.payload());
        // POINT{NAME "s", POINT{NAME "t", VALUE 1}}: names only
        PeerClient.Reply names = new PeerClient.Reply(WireError.OK,
                hex("0740" + "1300" + "0200010073" + "07400a00" + "0200010074" + "0100010001"));
        assertEquals(WireError.PATH_NOT_FOUND, LsTree.ownValue(names).code());
    }

    @Test
    void otherAnswersAreKept() {
        PeerClient.Reply leaf = new PeerClient.Reply(WireError.OK, hex("0100010007"));
        assertSame(leaf, LsTree.ownValue(leaf));
        PeerClient.Reply storedPoint = new PeerClient.Reply(WireError.OK, hex("07400500" + "0100010007"));
        assertSame(storedPoint, LsTree.ownValue(storedPoint), "a POINT without a leading NAME is a stored value");
        PeerClient.Reply refused = new PeerClient.Reply(WireError.ACCESS_DENIED, null);
        assertSame(refused, LsTree.ownValue(refused));
    }
}
