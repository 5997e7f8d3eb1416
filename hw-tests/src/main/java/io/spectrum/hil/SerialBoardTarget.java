package io.spectrum.hil;

import io.spectrum.link.Link;
import java.io.FileOutputStream;
import java.io.IOException;
import java.time.Duration;

/**
 * A board on a serial port (a real one on /dev/ttyUSB0, or the host end of an emulated board's
 * pseudo-terminal pair), reached through the project's serial link, with an optional reset line.
 */
public class SerialBoardTarget implements BoardTarget {
    private final String name;
    private final String device;
    private final int baud;
    private final Duration timeout;
    private final ResetLine resetLine;
    private Link link;

    /**
     * A board on {@code device} at {@code baud} (8N1), each answer awaited at most {@code timeout}; {@code resetLine}
     * may be null. The link opens on first use.
     */
    public SerialBoardTarget(String name, String device, int baud, Duration timeout, ResetLine resetLine) {
        this.name = name;
        this.device = device;
        this.baud = baud;
        this.timeout = timeout;
        this.resetLine = resetLine;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String describe() {
        return "board on serial " + device + " @" + baud + " baud"
                + (resetLine == null ? ", no reset line" : ", reset line " + resetLine.describe());
    }

    /** The serial device path, e.g. {@code /dev/ttyUSB0}. */
    public String device() {
        return device;
    }

    @Override
    public synchronized Link link() throws Exception {
        if (link == null) {
            link = SerialLinks.open(device, baud, peerTimeout().toMillis());
        }
        return link;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    /** Board silence that counts as the board gone: a third of the answer timeout, at least 1 s. */
    public Duration peerTimeout() {
        return Duration.ofMillis(Math.max(1000, timeout.toMillis() / 3));
    }

    @Override
    public boolean canReset() {
        return resetLine != null;
    }

    @Override
    public void reset() throws Exception {
        if (resetLine == null) {
            throw new IllegalStateException(name + " has no reset line");
        }
        resetLine.pulse();
    }

    /**
     * Raw bytes go to the device through a second descriptor, below the link's framing. The link
     * holds its own descriptor open; as root (CI, a Pi's service user with dialout) a second writer
     * is allowed, and the scenario writes only while no frame is being sent.
     */
    @Override
    public boolean canInjectRawBytes() {
        return true;
    }

    @Override
    public void injectRawBytes(byte[] bytes) throws IOException {
        try (FileOutputStream out = new FileOutputStream(device)) {
            out.write(bytes);
            out.flush();
        }
    }

    @Override
    public synchronized void close() {
        if (link != null) {
            try {
                link.close();
            } catch (RuntimeException ignored) {
                // closing must not hide a test result
            }
            link = null;
        }
        if (resetLine != null) {
            resetLine.close();
        }
    }
}
