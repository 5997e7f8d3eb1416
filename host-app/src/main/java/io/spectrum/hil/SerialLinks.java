package io.spectrum.hil;

import io.spectrum.link.Link;

/** Opens the project's serial link (module link-serial) on a device path, host side. */
final class SerialLinks {
    private SerialLinks() {
    }

    static Link open(String device, int baud) throws Exception {
        throw new UnsupportedOperationException("link-serial's SerialLink is not merged into this branch yet");
    }
}
