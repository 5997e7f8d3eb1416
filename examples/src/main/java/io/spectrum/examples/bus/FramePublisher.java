package io.spectrum.examples.bus;

import io.spectrum.client.bus.ArtifactWriter;
import io.spectrum.client.bus.BusClient;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.Retention;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A camera process: each frame is a 10 MB artifact (a synthetic 3200×3276 grey image, one byte a
 * pixel, whose gradient moves with the frame number) written straight into the bus's store,
 * published <em>unsealed</em> on {@code camera.frames} (the bus seals it on send, so the frame is
 * never copied through the socket), and then released: from then on only the subscribers'
 * deliveries hold it, and the store drops it when the last one consumes.
 *
 * <pre>java -cp cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar \
 *     io.spectrum.examples.bus.FramePublisher SOCKET [NAME=camera] [FRAMES=10] [INTERVAL_MS=100]</pre>
 *
 * <p>against {@code spectrum host --bus SOCKET}; run a {@link FrameViewer} first. It prints one
 * line a frame: its sequence, how many subscribers it reached and how many undelivered latest
 * values it replaced.
 */
public final class FramePublisher implements AutoCloseable {
    /** The topic the frames go on. */
    public static final String TOPIC = "camera.frames";
    /** A frame's width and height in pixels (one byte each): 10,483,200 B, about 10 MB. */
    public static final int WIDTH = 3200;
    /** The frame's height in pixels. */
    public static final int HEIGHT = 3276;
    /** One frame's size in bytes ({@code WIDTH × HEIGHT}, one byte a pixel). */
    public static final int FRAME_BYTES = WIDTH * HEIGHT;

    private final BusClient bus;

    /** Publishes frames through {@code bus} (declares the topic; a redeclaration is harmless). */
    public FramePublisher(BusClient bus) throws BusException {
        this.bus = bus;
        bus.declare(TOPIC, Retention.NONE);
    }

    /** A published frame whose writer this publisher still holds until {@link #release()}. */
    public record Published(long frame, long topicSequence, long subscribers, long replaced, ArtifactWriter writer) {
        /** Drops the publisher's hold (the writer became a hold when the bus sealed it on send). */
        public long release() throws BusException {
            return writer.release();
        }
    }

    /** Allocates frame {@code n}, draws it, and publishes it unsealed (keeping the hold). */
    public Published publish(long n) throws BusException {
        ArtifactWriter w = bus.allocate(FRAME_BYTES, "image/x-raw-gray8");
        MappedByteBuffer px = w.map();
        draw(px, n);
        px.force();
        byte[] meta = ("{\"frame\":" + n + ",\"width\":" + WIDTH + ",\"height\":" + HEIGHT + ",\"format\":\"gray8\"}")
                .getBytes(StandardCharsets.UTF_8);
        BusFields r = bus.publish(TOPIC, meta, w.attachment("frame"));
        return new Published(n, r.u64("topicSequence"), r.u64("subscribers"), r.u64("replaced"), w);
    }

    /** Frame {@code n}'s pixel at ({@code x}, {@code y}): a diagonal gradient that moves with the frame. */
    public static byte pixel(long n, int x, int y) {
        return (byte) (x + y + 8 * n);
    }

    static void draw(MappedByteBuffer px, long n) {
        byte[] row = new byte[WIDTH];
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                row[x] = pixel(n, x, y);
            }
            px.put(y * WIDTH, row);
        }
    }

    @Override
    public void close() {
        bus.close();
    }

    /**
     * Runs {@link #run} and exits with its code: {@code FramePublisher SOCKET [NAME=camera] [FRAMES=10]
     * [INTERVAL_MS=100]}.
     */
    public static void main(String[] args) {
        Args.exit(run(args));
    }

    /** {@code main} without the exit: 0, 1 (the bus refused or went away) or 2 (bad arguments). */
    static int run(String[] args) {
        return Args.run(args, "FramePublisher SOCKET [NAME=camera] [FRAMES=10] [INTERVAL_MS=100]", a -> {
            int frames = a.intAt(2, 10);
            int interval = a.intAt(3, 100);
            try (FramePublisher cam = new FramePublisher(Args.connect(a.socket(), a.get(1, "camera")))) {
                for (int n = 1; n <= frames; n++) {
                    Published p = cam.publish(n);
                    p.release();
                    System.out.printf("frame %d published: %s #%d, %d B, %d subscribers, %d replaced%n", n, TOPIC,
                            p.topicSequence(), FRAME_BYTES, p.subscribers(), p.replaced());
                    Thread.sleep(interval);
                }
            }
        });
    }
}
