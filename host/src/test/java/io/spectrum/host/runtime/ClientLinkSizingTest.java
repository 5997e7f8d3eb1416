package io.spectrum.host.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.Link;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.link.QueuedLink;
import org.junit.jupiter.api.Test;

/**
 * A client link's outbound pool holds every peer's full queue: one value fanned out to every
 * client in one step is never refused for want of a pooled frame while each client's own queue
 * has room.
 */
class ClientLinkSizingTest {
    @Test
    void theOutboundPoolHoldsEveryPeersQueueWithinItsBounds() {
        assertEquals(4096, HostService.outboundFrames(1));
        assertEquals(4096, HostService.outboundFrames(64), "the host's default 64 client peers");
        assertEquals(100 * 64, HostService.outboundFrames(100));
        assertEquals(65_536, HostService.outboundFrames(1024));
        assertEquals(65_536, HostService.outboundFrames(1_000_000), "capped");
    }

    @Test
    void aQueuedClientListenerIsSizedFromItsPeerTable() throws Exception {
        Link udp = LinkSpec.listen(1, "udp://127.0.0.1:0", new LinkSettings().peers(200), new ManualClock(0));
        try (Link q = HostService.queued(udp)) {
            QueuedLink queued = (QueuedLink) q;
            assertEquals(200 * 64, queued.outboundFrames().capacity());
            assertTrue(queued.inboundFrames().capacity() >= 8192);
        }
    }
}
