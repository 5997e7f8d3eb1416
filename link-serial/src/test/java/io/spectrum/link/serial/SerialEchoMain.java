package io.spectrum.link.serial;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;

/**
 * The far end of a serial line in its own process: echoes every frame it receives back over the
 * same SerialLink, until it receives a STATUS frame (type 0x09), which it echoes and then exits.
 * Started by SerialPtyTest as a child JVM: {@code java -cp <test classpath> ...SerialEchoMain DEVICE BAUD}.
 */
public final class SerialEchoMain {
    private SerialEchoMain() {
    }

    public static void main(String[] args) throws Exception {
        SerialLink link = SerialLink.open(1, args[0], new SerialLinkConfig().baud(Integer.parseInt(args[1]))
                .reopenBackoffMillis(20, 200), SystemClock.INSTANCE);
        boolean[] stop = {false};
        FrameHandler echo = new FrameHandler() {
            @Override
            public void onFrame(Link l, int peer, byte[] buf, int off, int len) {
                // The parent may be slow to read: hold on until the line takes the echo.
                int rc;
                long until = System.nanoTime() + 10_000_000_000L;
                while ((rc = l.send(peer, buf, off, len)) == io.spectrum.wire.WireError.FLOW_BACKPRESSURE
                        && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                if ((buf[off] & 0xFF) == 0x09) {
                    stop[0] = true;
                }
            }
        };
        System.out.println("echo ready on " + link.name());
        System.out.flush();
        long deadline = System.nanoTime() + 60_000_000_000L;   // never outlive a broken test
        while (!stop[0] && System.nanoTime() < deadline) {
            if (link.poll(echo, 64) == 0) {
                Thread.sleep(1);
            }
        }
        System.out.println("echo done frames=" + link.stats().framesIn());
        link.close();
    }
}
