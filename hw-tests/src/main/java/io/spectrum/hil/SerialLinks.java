package io.spectrum.hil;

import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.time.SystemClock;
import java.io.IOException;

/** Opens the project's serial link (module link-serial: COBS + CRC-32C framing) on a device, host side. */
final class SerialLinks {
    /** Link id of the suite's one link (ids only need to be unique within one node). */
    static final int LINK_ID = 1;

    private SerialLinks() {
    }

    /**
     * @param peerTimeoutMillis silence after which the link reports the board down (0: never); the
     *     host node of the reset scenarios marks the board's values stale on that report
     */
    static Link open(String device, int baud, long peerTimeoutMillis) throws IOException {
        SerialLinkConfig cfg = new SerialLinkConfig().baud(baud);
        if (peerTimeoutMillis > 0) {
            cfg.peerTimeoutMillis(peerTimeoutMillis).pingIntervalMillis(Math.max(100, peerTimeoutMillis / 3));
        }
        SerialLink link = SerialLink.open(LINK_ID, device, cfg, SystemClock.INSTANCE);
        if (!link.isPortOpen()) {
            link.close();
            throw new IOException("cannot open serial port " + device + " (missing, busy, or no permission: "
                    + "is another program using it, is the user in group dialout?)");
        }
        return link;
    }
}
