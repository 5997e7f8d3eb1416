package io.spectrum.board.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A 1-Wire temperature sensor (DS18B20 and kin) through the kernel's w1 files:
 * {@code SYS/bus/w1/devices/DEVICE/temperature} (millidegrees Celsius, kernels 5.x+), else the older
 * {@code w1_slave} ("... YES" on its first line, "t=MILLIDEGREES" on its second). Its failures name
 * the file within the device's directory, short enough for a stale reason.
 */
public final class W1Sensor {
    private final Path dir;

    /** The sensor {@code device} (e.g. {@code 28-000005e2fdc3}) under the sysfs root {@code sys}. */
    public W1Sensor(Path sys, String device) {
        this.dir = sys.resolve("bus/w1/devices").resolve(device);
    }

    /** The device's directory, {@code SYS/bus/w1/devices/DEVICE}. */
    public Path dir() {
        return dir;
    }

    /** The temperature in °C. */
    public double celsius() throws IOException {
        Path t = dir.resolve("temperature");
        if (Files.exists(t)) {
            String text = Sysfs.text(t);
            try {
                return Long.parseLong(text) / 1000.0;
            } catch (NumberFormatException e) {
                throw new IOException("temperature: not a number: " + Sysfs.quote(text));
            }
        }
        Path slave = dir.resolve("w1_slave");
        if (!Files.exists(slave)) {
            throw new IOException("not in " + dir.getParent() + " (dtoverlay=w1-gpio set? sensor wired?)");
        }
        String text = Sysfs.text(slave);
        int eol = text.indexOf('\n');
        if (eol < 0 || !text.substring(0, eol).trim().endsWith("YES")) {
            throw new IOException("w1_slave: CRC check failed (a bad read)");
        }
        int at = text.indexOf("t=", eol);
        if (at < 0) {
            throw new IOException("w1_slave has no t= reading");
        }
        try {
            return Long.parseLong(Sysfs.firstWord(text.substring(at + 2).trim())) / 1000.0;
        } catch (NumberFormatException e) {
            throw new IOException("w1_slave has an unreadable t= reading");
        }
    }
}
