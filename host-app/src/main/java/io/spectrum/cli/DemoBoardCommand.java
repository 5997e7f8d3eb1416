package io.spectrum.cli;

import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * The emulated board that {@code spectrum demo} starts when this build has no {@code board} command:
 * a NARROW node on one link publishing sensor-like values (/board/temp in centi-degrees C,
 * /board/humidity in per mille, /board/counter) every {@code --period} ms, /board/led writable and
 * /board/name. It exits when its stdin closes, so it never outlives the demo that started it.
 */
@Command(name = "demo-board", hidden = true, mixinStandardHelpOptions = true,
        description = "An emulated sensor board for `spectrum demo` (internal).")
public final class DemoBoardCommand implements Callable<Integer> {
    @Option(names = "--name", defaultValue = "board", description = "Board name (published as /board/name).")
    String name;

    @Option(names = "--serial", paramLabel = "DEVICE", description = "Serial device (a pty end in the demo).")
    String serial;

    @Option(names = "--baud", defaultValue = "115200", description = "Baud rate (a pty ignores it).")
    int baud;

    @Option(names = "--udp", paramLabel = "HOST:PORT", description = "Listen on UDP instead.")
    String udp;

    @Option(names = "--period", paramLabel = "MS", defaultValue = "250", description = "Publish period.")
    long periodMillis;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private volatile boolean stdinOpen = true;

    @Override
    public Integer call() throws IOException {
        if ((serial == null) == (udp == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --serial DEVICE or --udp HOST:PORT");
        }
        Link link = serial != null
                ? SerialLink.open(1, serial, new SerialLinkConfig().baud(baud), SystemClock.INSTANCE)
                : UdpLink.listen(1, UdpLink.parseHostPort(udp), new UdpLinkConfig(), SystemClock.INSTANCE);
        NarrowNode node = new NarrowNode(new NodeConfig());
        node.attach(link);
        NodePath temp = NodePath.of("/board/temp");
        NodePath humidity = NodePath.of("/board/humidity");
        NodePath counter = NodePath.of("/board/counter");
        byte[] buf = new byte[256];
        TlvWriter w = new TlvWriter();
        w.wrap(buf, 0, buf.length).value(0, 1);
        node.write(NodePath.of("/board/led"), buf, 0, w.length());
        w.wrap(buf, 0, buf.length).leaf(TlvType.NAME, name.getBytes(StandardCharsets.UTF_8));
        node.write(NodePath.of("/board/name"), buf, 0, w.length());
        double phase = (name.hashCode() & 0xFF) * 1.3; // boards differ
        long n = 0;
        publish(node, temp, w, buf, temperature(phase, 0), 2);
        publish(node, humidity, w, buf, humidity(phase, 0), 2);
        publish(node, counter, w, buf, 0, 4);
        watchStdin();
        spec.commandLine().getOut().println(name + " ready on " + link.name());
        spec.commandLine().getOut().flush();
        long next = System.nanoTime();
        while (stdinOpen) {
            int handled = node.poll();
            node.tick();
            long now = System.nanoTime();
            if (now - next >= 0) {
                next = now + periodMillis * 1_000_000L;
                n++;
                publish(node, temp, w, buf, temperature(phase, n), 2);
                publish(node, humidity, w, buf, humidity(phase, n), 2);
                publish(node, counter, w, buf, n, 4);
            }
            if (handled == 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        link.close();
        return 0;
    }

    static long temperature(double phase, long n) {
        return Math.round(2150 + 180 * Math.sin(phase + n / 12.0) + 15 * Math.sin(n * 1.7));
    }

    static long humidity(double phase, long n) {
        return Math.round(480 + 60 * Math.cos(phase + n / 20.0));
    }

    private static void publish(NarrowNode node, NodePath p, TlvWriter w, byte[] buf, long v, int width) {
        w.wrap(buf, 0, buf.length).value(v, width);
        node.write(p, buf, 0, w.length());
    }

    /** Stops the board when the demo that started it goes away (its end of our stdin closes). */
    private void watchStdin() {
        Thread t = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // ignore input
                }
            } catch (IOException e) {
                // treated as closed
            }
            stdinOpen = false;
        }, "stdin-watch");
        t.setDaemon(true);
        t.start();
    }
}
