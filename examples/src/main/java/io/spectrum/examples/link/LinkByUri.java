package io.spectrum.examples.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.IOException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;

/**
 * Opens links by URI through the one link factory, {@link LinkSpec} (docs/links.md, "Links by URI"):
 * a listener on {@code udp://127.0.0.1:0}, a dialer to the port it bound, one frame each way. The
 * dialer's only peer is handle 0; the listener learns the dialer from its first datagram and answers
 * that handle. A URI the factory cannot use is refused with one line saying what to write.
 * <pre>java -cp … io.spectrum.examples.link.LinkByUri [udp://127.0.0.1:0]</pre>
 */
public final class LinkByUri {
    /**
     * Sends VALUE {@code n} from a dialer to a listener on {@code listenUri} (a {@code udp://} URI), which
     * answers VALUE n + 1; returns what the dialer heard, or -1 when nothing came within {@code timeoutNanos}.
     * A refused URI is an {@link IllegalArgumentException}.
     */
    public static long echo(String listenUri, long n, Clock clock, IdleStrategy idle, long timeoutNanos) throws IOException {
        try (Link listener = LinkSpec.listen(1, listenUri, new LinkSettings(), clock)) {
            if (!(listener instanceof UdpLink udp)) { // a Link does not say where it is bound; a UdpLink does
                throw new IllegalArgumentException(listenUri + ": this example dials back a udp:// listener");
            }
            try (Link dialer = LinkSpec.dial(2, "udp://" + UdpLink.hostPort(udp.localAddress()), new LinkSettings(), clock)) {
                byte[] frame = new byte[16];
                TlvWriter w = new TlvWriter();
                dialer.send(0, frame, 0, w.wrap(frame, 0, frame.length).value(n, 2).length());
                long[] heard = {-1, -1};
                long deadline = clock.nanoTime() + timeoutNanos;
                pollUntil(listener, (l, peer, buf, off, len) -> {
                    heard[0] = value(buf, off, len);
                    l.send(peer, frame, 0, w.wrap(frame, 0, frame.length).value(heard[0] + 1, 2).length());
                }, heard, 0, clock, idle, deadline);
                pollUntil(dialer, (l, peer, buf, off, len) -> heard[1] = value(buf, off, len), heard, 1, clock, idle, deadline);
                return heard[1];
            }
        }
    }

    private static void pollUntil(Link link, FrameHandler h, long[] heard, int i, Clock clock, IdleStrategy idle, long deadline) {
        for (idle.reset(); heard[i] < 0 && clock.nanoTime() - deadline < 0; ) {
            idle.idle(link.poll(h, 16));
        }
    }

    private static long value(byte[] buf, int off, int len) {
        TlvIndex idx = new TlvIndex();
        return new FrameDecoder().decode(buf, off, len, idx) == WireError.OK ? idx.valueAsLong(0) : -2;
    }

    /** Echoes 41 over {@code args[0]} (default {@code udp://127.0.0.1:0}) and prints the answer; exit 2 for a bad URI. */
    public static void main(String[] args) throws IOException {
        try {
            System.out.println("sent 41, heard " + echo(args.length > 0 ? args[0] : "udp://127.0.0.1:0", 41,
                    SystemClock.INSTANCE, new SleepingIdleStrategy(100_000), 2_000_000_000L));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }
}
