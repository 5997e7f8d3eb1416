package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.wide.WideNode;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

/** core-narrow's {@link FwdTerminusTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideFwdTerminusTest extends FwdTerminusTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    /**
     * The same assertions, with the vertex created first: a refused local write creates nothing on
     * WideNode (NarrowNode creates the path before it looks at the value), so without this the remote
     * write would meet an absent dst and answer not_found before the value rule is reached.
     */
    @Override
    @Test
    void aValueThatCouldNotBeReadBackInOneFrameIsRefusedWhenWritten() {
        NodeHarness h = new NodeHarness(c -> c.frameBytes(96));
        h.node.subscribe(h.temp, 0, (s, v, q, st) -> { }); // creates the vertex, publishes nothing
        byte[] big = new byte[80];
        big[0] = 1;
        big[2] = 76;
        assertEquals(WireError.FLOW_BACKPRESSURE, h.node.write(h.temp, big, 0, big.length), "local write");
        assertEquals(WireError.FLOW_BACKPRESSURE, h.request(Frames.fwd(1, h.temp.tlv(), null, Frames.REPLY_EP, big)).errorCode(),
                "remote write");
        assertEquals(0, h.node.sequence(h.temp), "nothing was published");
        assertEquals(WireError.PATH_NOT_FOUND, h.request(Frames.fwd(0, h.temp.tlv(), null, Frames.REPLY_EP)).errorCode());
        byte[] fits = Frames.value(7, 4);
        assertEquals(WireError.OK, h.node.write(h.temp, fits, 0, fits.length));
        assertEquals(WireError.OK, h.request(Frames.fwd(0, h.temp.tlv(), null, Frames.REPLY_EP)).errorCode());
    }
}
