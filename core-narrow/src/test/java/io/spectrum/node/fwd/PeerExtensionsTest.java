package io.spectrum.node.fwd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The peers' extension announcements: a full table answers plain (counted), and a forgotten peer frees its row. */
class PeerExtensionsTest {
    @Test
    void aFullTableAnswersPlain() {
        PeerExtensions t = new PeerExtensions(2);
        t.announce(0, 1, 1);
        t.announce(0, 2, 1);
        t.announce(0, 3, 1);
        assertEquals(0, t.version(0, 3), "no room: plain");
        assertEquals(1, t.resource.refused());
        t.forget(0, 1);
        assertEquals(1, t.version(0, 2));
        assertEquals(0, t.version(0, 1));
        assertEquals(1, t.resource.inUse());
    }
}
