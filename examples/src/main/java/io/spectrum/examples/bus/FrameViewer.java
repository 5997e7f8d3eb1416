package io.spectrum.examples.bus;

import io.spectrum.client.bus.Artifact;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Message;
import io.spectrum.client.bus.BusSubscription;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A viewer of {@link FramePublisher}'s frames: it subscribes to {@code camera.frames}, maps each
 * frame's artifact read-only from the bus's store (no bytes cross the socket), computes its
 * SHA-256 and compares it with the digest in the artifact's ref (the bus computed it when it
 * sealed the frame), prints one line a frame and consumes the delivery (its credit comes back and
 * its hold on the frame goes).
 *
 * <pre>java -cp cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar \
 *     io.spectrum.examples.bus.FrameViewer SOCKET [NAME=viewer] [MODE=bounded|latest] [DELAY_MS=0] [FRAMES=0 (forever)]</pre>
 *
 * <p>against {@code spectrum host --bus SOCKET}. {@code bounded} (4 queued, 2 in flight) sees every
 * frame, and the publisher is refused with BACKPRESSURE if the viewer falls 4 behind; {@code latest}
 * keeps only the newest undelivered frame, so a slow viewer ({@code DELAY_MS} of work a frame) skips
 * frames and each line says how many were replaced since the last one it saw.
 */
public final class FrameViewer implements AutoCloseable {
    private final BusClient bus;
    private final BusSubscription frames;

    /** Subscribes {@code bus} to the frames in {@code mode} (declaring the topic if no publisher did yet). */
    public FrameViewer(BusClient bus, SubscriptionMode mode) throws BusException {
        this.bus = bus;
        bus.declare(FramePublisher.TOPIC, Retention.NONE);
        frames = mode == SubscriptionMode.LATEST
                ? bus.subscribe(FramePublisher.TOPIC, SubscriptionMode.LATEST, 1, 1, false)
                : bus.subscribe(FramePublisher.TOPIC, SubscriptionMode.BOUNDED, 4, 2, false);
    }

    /** A frame received and checked; {@link #consume()} when done with it. */
    public record Frame(Message message, long frame, long length, String digest, boolean digestMatches,
            boolean pixelsMatch, long replaced) {
        /**
         * Says this frame is done with: its subscription's credit comes back and the bus may drop the artifact;
         * returns the roots released.
         */
        public long consume() throws BusException {
            return message.consume();
        }

        /** The line the viewer prints for it. */
        public String line() {
            return String.format("frame %d (%s #%d): %d B, sha256 %s… %s, pixels %s, %d replaced before it",
                    frame, message.topic(), message.topicSequence(), length, digest.substring(0, 16), digestMatches ? "ok" : "MISMATCH",
                    pixelsMatch ? "ok" : "WRONG", replaced);
        }
    }

    /** The next frame (waiting up to {@code timeoutMillis}), mapped and checked; null when none came. */
    public Frame next(long timeoutMillis) throws BusException, InterruptedException {
        Message m = frames.next(timeoutMillis);
        if (m == null) {
            return null;
        }
        String meta = new String(m.payload(), StandardCharsets.UTF_8);
        Artifact a = m.artifacts().get(0);
        MappedByteBuffer px = a.map();
        String digest = sha256(px);
        long n = frameNumber(meta);
        boolean pixels = n >= 0 && px.get(0) == FramePublisher.pixel(n, 0, 0)
                && px.get(px.capacity() - 1) == FramePublisher.pixel(n, FramePublisher.WIDTH - 1, FramePublisher.HEIGHT - 1);
        return new Frame(m, n, a.length(), digest, digest.equals(a.ref().digest()), pixels, m.replaced());
    }

    static String sha256(MappedByteBuffer b) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(b.duplicate().clear());
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The {@code "frame"} number of the publisher's metadata, or -1. */
    static long frameNumber(String meta) {
        int at = meta.indexOf("\"frame\":");
        if (at < 0) {
            return -1;
        }
        int from = at + 8;
        int to = from;
        while (to < meta.length() && Character.isDigit(meta.charAt(to))) {
            to++;
        }
        return to == from ? -1 : Long.parseLong(meta.substring(from, to));
    }

    @Override
    public void close() {
        bus.close();
    }

    /**
     * Runs {@link #run} and exits with its code: {@code FrameViewer SOCKET [NAME=viewer] [MODE=bounded|latest]
     * [DELAY_MS=0] [FRAMES=0]}.
     */
    public static void main(String[] args) {
        Args.exit(run(args));
    }

    /** {@code main} without the exit: 0, 1 (the bus refused or went away) or 2 (bad arguments). */
    static int run(String[] args) {
        String usage = "FrameViewer SOCKET [NAME=viewer] [MODE=bounded|latest] [DELAY_MS=0] [FRAMES=0 (forever)]";
        return Args.run(args, usage, a -> {
            SubscriptionMode mode = switch (a.get(2, "bounded")) {
                case "bounded" -> SubscriptionMode.BOUNDED;
                case "latest" -> SubscriptionMode.LATEST;
                default -> throw new IllegalArgumentException("MODE is bounded or latest; usage: " + usage);
            };
            int delay = a.intAt(3, 0);
            int max = a.intAt(4, 0);
            try (FrameViewer v = new FrameViewer(Args.connect(a.socket(), a.get(1, "viewer")), mode)) {
                System.out.println("viewing " + FramePublisher.TOPIC + " (" + mode.wireName() + "); Ctrl-C to stop");
                for (int seen = 0; max == 0 || seen < max; ) {
                    Frame f = v.next(1_000);
                    if (f == null) {
                        continue;
                    }
                    System.out.println(f.line());
                    Thread.sleep(delay);
                    f.consume();
                    seen++;
                }
            }
        });
    }
}
