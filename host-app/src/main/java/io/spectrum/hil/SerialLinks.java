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

    static Link open(String device, int baud) throws IOException {
        SerialLink link = SerialLink.open(LINK_ID, device, new SerialLinkConfig().baud(baud), SystemClock.INSTANCE);
        if (!link.isPortOpen()) {
            link.close();
            throw new IOException("cannot open serial port " + device + " (missing, busy, or no permission: "
                    + "is another program using it, is the user in group dialout?)");
        }
        return link;
    }
}
