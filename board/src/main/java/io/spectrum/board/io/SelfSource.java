package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The board itself, from /sys and /proc, each metric in its natural unit (the vertex's declaration
 * turns it into raw): {@code cpu-temp} °C (thermal zone 0), {@code load} the 1-minute load average,
 * {@code memory-available} and {@code memory-total} kB, {@code uptime} seconds, {@code throttled}
 * the firmware's throttling flags (bit 0 under-voltage, 1 frequency capped, 2 throttled, 3 soft
 * temperature limit; 16..19 the same "has occurred"), and the link counters {@code rx-bytes},
 * {@code tx-bytes}, {@code rx-packets}, {@code tx-packets}, {@code rx-errors}, {@code tx-errors}
 * of one network interface.
 */
public final class SelfSource extends Polled {
    private static final String[] METRICS = {"cpu-temp", "load", "memory-available", "memory-total", "uptime",
            "throttled", "rx-bytes", "tx-bytes", "rx-packets", "tx-packets", "rx-errors", "tx-errors"};

    /** The metric names a {@code self} source takes (a copy). */
    public static String[] metrics() {
        return METRICS.clone();
    }

    private final String metric;
    private final String iface;
    private Path sys;
    private Path proc;

    /**
     * Reads {@code metric} (one of {@link #metrics()}; {@code iface} names the network interface of the link
     * counters, else null) at start and every {@code periodMillis} (0 or less: only at start).
     */
    public SelfSource(String metric, String iface, long periodMillis) {
        super(periodMillis);
        this.metric = metric;
        this.iface = iface;
    }

    @Override
    void prepare(BoardContext board, AppVertex vertex) {
        sys = board.sys();
        proc = board.proc();
    }

    @Override
    void sample(AppVertex vertex) throws Exception {
        double v = read();
        published(vertex.publishUnit(v), vertex, v);
    }

    /** The metric's current value in its natural unit. */
    double read() throws IOException {
        switch (metric) {
            case "cpu-temp":
                return Sysfs.integer(sys.resolve("class/thermal/thermal_zone0/temp")) / 1000.0;
            case "load":
                return Sysfs.number(Sysfs.text(proc.resolve("loadavg")), "loadavg");
            case "memory-available":
                return meminfo("MemAvailable:");
            case "memory-total":
                return meminfo("MemTotal:");
            case "uptime":
                return Math.floor(Sysfs.number(Sysfs.text(proc.resolve("uptime")), "uptime"));
            case "throttled":
                return Sysfs.integer(sys.resolve("devices/platform/soc/soc:firmware/get_throttled"));
            default:
                String counter = metric.replace('-', '_');
                return Sysfs.integer(sys.resolve("class/net").resolve(iface).resolve("statistics").resolve(counter));
        }
    }

    private double meminfo(String key) throws IOException {
        for (String line : Sysfs.text(proc.resolve("meminfo")).split("\n")) {
            if (line.startsWith(key)) {
                return Sysfs.number(line.substring(key.length()), key);
            }
        }
        throw new IOException(proc.resolve("meminfo") + " has no " + key);
    }

    @Override
    public String describe() {
        return "self " + metric + (metric.startsWith("rx-") || metric.startsWith("tx-") ? " of " + iface : "");
    }
}
