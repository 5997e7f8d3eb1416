package io.spectrum.hil;

import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.SystemClock;
import java.io.IOException;

/**
 * Opens the project's serial link (module link-serial: COBS + CRC-32C framing) on a device, host side,
 * through the link factory ({@code serial:///DEVICE?baud=N}, {@link LinkSpec}).
 */
final class SerialLinks {
    /** Link id of the suite's one link (ids only need to be unique within one node). */
    static final int LINK_ID = 1;

    private SerialLinks() {
    }

    /**
     * @param device a device path or a {@code serial:///DEVICE?baud=N} URI ({@code baud} applies when it names none)
     * @param peerTimeoutMillis silence after which the link reports the board down (0: the link's
     *     defaults, ping 3 s and timeout 10 s); the host node of the reset scenarios marks the board's
     *     values stale on that report
     */
    static Link open(String device, int baud, long peerTimeoutMillis) throws IOException {
        LinkSettings s = new LinkSettings().pingMillis(3_000).timeoutMillis(10_000);
        if (peerTimeoutMillis > 0) {
            s.timeoutMillis(peerTimeoutMillis).pingMillis(Math.max(100, peerTimeoutMillis / 3));
        }
        Link link;
        try {
            link = LinkSpec.serial(LINK_ID, device, baud, s, SystemClock.INSTANCE);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        if (link instanceof SerialLink serial && !serial.isPortOpen()) {
            link.close();
            throw new IOException("cannot open serial port " + device + " (missing, busy, or no permission: "
                    + "is another program using it, is the user in group dialout?)");
        }
        return link;
    }
}
