package io.spectrum.cli;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Subscribed;
import io.spectrum.host.Host;
import io.spectrum.host.HostConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.testing.Tools;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.DeliveryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * libtracer's TCP transport against the libtracer C++ reference node (refnode, built from the
 * libtracer sources as /work/shared/tools/refnode/README.md says), both ways:
 *
 * <ul>
 *   <li>refnode listens on TCP ({@code --tcp}); a host mounts it as {@code ref=tcp://…}; a client of
 *       the host's own TCP listener ({@code --peer tcp://…}) reads {@code /ref/sensor/temp} and
 *       subscribes to it;</li>
 *   <li>refnode dials the host's TCP listener ({@code --tcp-relay sp=…}) and mounts it as {@code /sp};
 *       a UDP client of refnode reads a vertex of a Spectrum node the host mounts, through {@code /sp}.</li>
 * </ul>
 *
 * The refnode binary is found through {@code -Dspectrum.refnode=PATH}, {@code SPECTRUM_REFNODE} or
 * {@code refnode} on PATH; without it the tests are skipped with that reason.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TcpInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20); // a guard against a hang, not a timing assertion
    private static final Pattern TCP_CLIENTS = Pattern.compile("clients: tcp 127\\.0\\.0\\.1:(\\d+)");
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Process refnode;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        if (refnode != null) {
            refnode.destroy();
            refnode.waitFor(5, TimeUnit.SECONDS);
        }
    }

    static Path refnodeBinary() {
        String given = System.getProperty("spectrum.refnode", System.getenv("SPECTRUM_REFNODE"));
        Path p = given != null && !given.isBlank() ? Path.of(given) : Tools.onPath("refnode");
        if (p == null || !Files.isExecutable(p)) {
            Assumptions.abort("refnode (the libtracer C++ reference node) not found: set -Dspectrum.refnode=PATH or "
                    + "SPECTRUM_REFNODE, or put it on PATH (build: shared/tools/refnode/README.md)"
                    + (given != null ? "; " + given + " is not an executable" : ""));
        }
        return p;
    }

    @Test
    void aHostMountsTheReferenceNodeOverTcp_andAClientOverTcpReadsAndSubscribesThroughIt() throws Exception {
        Path bin = refnodeBinary();
        int tcpPort = freeTcpPort();
        startRefnode(bin, freeUdpPort(), "--tcp", String.valueOf(tcpPort));
        waitAccepting(tcpPort);
        int hostTcp = startHost(HostConfig.builder().tcp("127.0.0.1:0")
                .mount(new HostConfig.Mount("ref", "tcp://127.0.0.1:" + tcpPort, List.of("sensor", "cfg"))));
        String at = "tcp://127.0.0.1:" + hostTcp;

        Cli.Run read = readUntilAnswered(at, "/ref/sensor/temp");
        assertTrue(read.out().startsWith("/ref/sensor/temp = "), read.all());
        Cli.Run name = Cli.run("read", "--peer", at, "/ref/cfg/name");
        assertEquals(0, name.code(), name.all());
        assertTrue(name.out().contains("refnode"), name.all());

        PeerClient client = new PeerClient(LinkSpec.dial(1, at, LinkSettings.clientDefaults(), SystemClock.INSTANCE),
                0, Duration.ofMillis(1500));
        closing.add(client);
        List<Delivery> got = new CopyOnWriteArrayList<>();
        client.onDelivery(d -> got.add(d.detach()));
        Subscribed s = client.subscribe("/ref/sensor/temp", "/in/temp", DeliveryPolicy.DURABILITY_REQUEST, false);
        assertTrue(s.ok(), s.toString());
        long end = System.nanoTime() + WAIT.toNanos();
        while (got.size() < 4 && System.nanoTime() < end) {
            client.pumpOnce();
            Thread.sleep(5);
        }
        assertTrue(got.size() >= 4, "deliveries through the host over TCP both ways: " + got.size());
        List<Long> values = new ArrayList<>();
        for (Delivery d : got) {
            values.add(Long.parseLong(client.render("/ref/sensor/temp", d.value()).text().replaceAll("[^0-9]", "")));
        }
        for (int i = 1; i < values.size(); i++) {
            assertTrue(values.get(i) > values.get(i - 1), "refnode's counter increases: " + values);
        }
    }

    @Test
    void theReferenceNodeDialsTheHostOverTcp_andItsUdpClientReadsASpectrumVertexThroughIt() throws Exception {
        Path bin = refnodeBinary();
        InetSocketAddress board = narrowBoard("/sensor/temp", new byte[] {0x01, 0x00, 0x04, 0x00, (byte) 0x80, 0x08, 0, 0});
        int hostTcp = startHost(HostConfig.builder().tcp("127.0.0.1:0")
                .mount(HostConfig.Mount.udp("b", "127.0.0.1:" + board.getPort(), List.of())));
        int refPort = freeUdpPort();
        startRefnode(bin, refPort, "--tcp-relay", "sp=127.0.0.1:" + hostTcp);

        Cli.Run read = readUntilAnswered("127.0.0.1:" + refPort, "/sp/b/sensor/temp");
        assertTrue(read.out().startsWith("/sp/b/sensor/temp = 2176"), read.all());
    }

    // ------------------------------------------------------------------ plumbing

    /** Starts a host from {@code b} (no dashboard) and returns its TCP listener's port, as it printed it. */
    private int startHost(HostConfig.Builder b) throws Exception {
        StringWriter out = new StringWriter();
        Host host = Host.start(b.dashboard(HostConfig.NO_DASHBOARD).build(), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), false);
        closing.add(host);
        Matcher m = TCP_CLIENTS.matcher(out.toString());
        assertTrue(m.find(), out.toString());
        return Integer.parseInt(m.group(1));
    }

    /** A NARROW node holding {@code value} at {@code path}, on a UDP listener, polled by its own thread. */
    private InetSocketAddress narrowBoard(String path, byte[] value) throws Exception {
        NarrowNode n = new NarrowNode(NodeConfig.builder().build());
        UdpLink l = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        n.attach(l);
        n.write(NodePath.of(path), value, 0, value.length);
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (n.poll() == 0) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "narrow board");
        t.setDaemon(true);
        t.start();
        closing.add(() -> {
            t.interrupt();
            t.join(5000);
            n.close();
            l.close();
        });
        return l.localAddress();
    }

    /** {@code spectrum read --peer AT PATH} until it answers a value (the chain may still be starting). */
    private static Cli.Run readUntilAnswered(String at, String path) throws Exception {
        Cli.Run r = null;
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            r = Cli.run("read", "--peer", at, "--timeout", "1000", path);
            if (r.code() == 0) {
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no value of " + path + " through " + at + ": " + (r == null ? "" : r.all()));
    }

    private void startRefnode(Path bin, int port, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), Integer.toString(port), "--quiet", "--seconds", "90"));
        cmd.addAll(List.of(args));
        refnode = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static int freeUdpPort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Waits until something accepts on {@code port} (refnode has started its TCP listener). */
    private static void waitAccepting(int port) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return; // refnode serves one TCP peer at a time: this probe is closed at once
            } catch (java.io.IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("refnode never listened on TCP " + port);
    }
}
