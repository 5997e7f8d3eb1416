package io.spectrum.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.bus.BusClient;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --grants FILE} (host file key {@code grants}; {@code --bus-grants} is the same file): a real
 * host ({@link Host#start}) with a board mounted over loopback UDP as {@code board1} and its UDP
 * client listener checked against the file, clients being {@link PeerClient}s over UDP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostGrantsOptionTest {
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void opsMayWriteTheLab_notTheBoard_andAnonymousMayOnlyRead() throws Exception {
        Path grants = tmp.resolve("grants.yaml");
        Files.writeString(grants, """
                anonymous:
                  subscribe: "*"
                ops:
                  publish: /lab/*
                  subscribe: "*"
                """);
        StringWriter out = new StringWriter();
        String at = start(HostConfig.builder().grants(grants.toString()), out);
        assertTrue(out.toString().contains("grants: " + grants + " (1 client names; others as anonymous) for the client doors"),
                out.toString());

        PeerClient ops = client(at, "ops");
        PeerClient anonymous = client(at, null);
        assertEquals(WireError.OK, ops.write("/lab/setpoint", value(21, 4)).code());
        assertArrayEquals(value(21, 4), read(anonymous, "/lab/setpoint"), "anonymous may read");
        assertEquals(WireError.ACCESS_DENIED, ops.write("/board1/led", value(1, 1)).code(), "not a /lab/ path");
        assertArrayEquals(value(0, 1), read(ops, "/board1/led"), "the board's led untouched");
        assertEquals(WireError.ACCESS_DENIED, anonymous.write("/lab/setpoint", value(5, 4)).code());
        assertArrayEquals(value(21, 4), read(ops, "/lab/setpoint"));
        assertTrue(anonymous.subscribe("/lab/setpoint", "/in/a", 0, false).ok(), "anonymous may subscribe");
    }

    @Test
    void theBusDoorToTheNode_isCheckedByTheBusClientsName() throws Exception {
        Path grants = tmp.resolve("grants.yaml");
        Files.writeString(grants, """
                anonymous:
                  subscribe: "*"
                ops:
                  publish: /lab/*
                  subscribe: "*"
                """);
        String socket = tmp.resolve("bus.sock").toString();
        StringWriter out = new StringWriter();
        String at = start(HostConfig.builder().grants(grants.toString()).bus(socket), out);
        assertTrue(out.toString().contains("for the client doors and the bus"), out.toString());
        BusClient opsBus = BusClient.connect(socket, "ops", 5_000);
        closing.add(opsBus);
        BusClient viewerBus = BusClient.connect(socket, "viewer", 5_000);
        closing.add(viewerBus);
        PeerClient ops = opsBus.node();
        PeerClient viewer = viewerBus.node();
        assertEquals(WireError.OK, ops.write("/lab/setpoint", value(33, 4)).code(), "ops, by its bus name");
        assertEquals(WireError.OK, ops.write("/lab/new", value(1, 4)).code(), "and may create under /lab/");
        assertEquals(WireError.ACCESS_DENIED, ops.write("/board1/led", value(1, 1)).code(), "not a /lab/ path");
        assertEquals(WireError.ACCESS_DENIED, viewer.write("/lab/setpoint", value(5, 4)).code(), "viewer is anonymous here");
        assertEquals(WireError.ACCESS_DENIED, viewer.write("/lab/other", value(5, 4)).code());
        assertArrayEquals(value(33, 4), read(viewer, "/lab/setpoint"), "but may read");
        assertArrayEquals(value(0, 1), read(client(at, null), "/board1/led"), "the board's led untouched");
        assertTrue(!viewer.read("/lab/other").ok(), "a refused write created nothing");
    }

    @Test
    void withoutAGrantsFile_everyClientMayWrite() throws Exception {
        // the negative control: the same host and clients, no file
        StringWriter out = new StringWriter();
        String at = start(HostConfig.builder(), out);
        assertTrue(!out.toString().contains("grants:"), out.toString());
        PeerClient anonymous = client(at, null);
        assertEquals(WireError.OK, anonymous.write("/board1/led", value(1, 1)).code());
        assertArrayEquals(value(1, 1), read(anonymous, "/board1/led"));
        assertEquals(WireError.OK, anonymous.write("/lab/setpoint", value(5, 4)).code());
    }

    @Test
    void grantsAndBusGrants_areOneFile_twoFilesAreRefused() {
        HostConfig one = HostConfig.builder().udp("127.0.0.1:0").bus(tmp.resolve("bus.sock").toString())
                .grants("g.yaml").busGrants("./g.yaml").build();
        assertEquals("g.yaml", one.grants());
        assertEquals("b.yaml", HostConfig.builder().udp("127.0.0.1:0").bus(tmp.resolve("bus.sock").toString())
                .busGrants("b.yaml").build().grants(), "--bus-grants alone names the file for the node too");
        HostConfig.Invalid e = assertThrows(HostConfig.Invalid.class, () -> HostConfig.builder().udp("127.0.0.1:0")
                .bus(tmp.resolve("bus.sock").toString()).grants("g.yaml").busGrants("b.yaml").build());
        assertEquals("grants", e.key());
        assertEquals(1, e.getMessage().lines().count());
        assertTrue(e.getMessage().startsWith("--grants g.yaml and --bus-grants b.yaml name two files"), e.getMessage());
    }

    @Test
    void theHostFileKey_isGrants_relativeToTheFile() throws Exception {
        HostConfig c = HostFile.parse("host.yaml", "udp: :7701\ngrants: grants.yaml\n", Path.of("/etc/spectrum"),
                HostConfig.builder().env(Map.of()));
        assertEquals(Path.of("/etc/spectrum/grants.yaml").toString(), c.grants());
    }

    @Test
    void aBadGrantsFile_stopsTheHostBeforeAnythingOpens() throws Exception {
        Path grants = tmp.resolve("grants.yaml");
        Files.writeString(grants, "anonymous:\n  shout: \"*\"\n");
        Host.StartFailure f = assertThrows(Host.StartFailure.class, () -> Host.start(HostConfig.builder()
                .udp("127.0.0.1:0").grants(grants.toString()).dashboard(HostConfig.NO_DASHBOARD).metrics("none").build(),
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false));
        assertTrue(f.getMessage().startsWith("cannot read the grants: " + grants + ": anonymous: unknown permission 'shout'"),
                f.getMessage());
    }

    /** Starts a board (/led) and a host mounting it as board1 with a UDP listener; the listener's HOST:PORT. */
    private String start(HostConfig.Builder b, StringWriter out) throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), cfg, SystemClock.INSTANCE);
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        closing.add(board);
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/led"),
                VertexSchema.value(1, false).range(0, 1).writable().build()));
        board.attach(boardLink);
        board.start();
        assertEquals(WireError.OK, board.write("/led", value(0, 1)));
        HostConfig config = b.name("host").udp("127.0.0.1:0").dashboard(HostConfig.NO_DASHBOARD).metrics("none")
                .mount(HostConfig.Mount.udp("board1", "127.0.0.1:" + boardLink.localAddress().getPort(), List.of()))
                .pingMillis(200).timeoutMillis(600).build();
        Host host = Host.start(config, new PrintWriter(out, true), new PrintWriter(new StringWriter()), false);
        closing.add(host);
        assertEquals(WireError.OK, host.runtime().write("/lab/setpoint", value(1, 4)));
        Matcher m = Pattern.compile("clients: udp (127\\.0\\.0\\.1:\\d+)").matcher(out.toString());
        assertTrue(m.find(), out.toString());
        return m.group(1);
    }

    private PeerClient client(String at, String name) throws Exception {
        PeerClient c = new PeerClient(UdpLink.dial(1, UdpLink.parseHostPort(at), new UdpLinkConfig(), SystemClock.INSTANCE),
                0, Duration.ofMillis(3000)).announceExtensions(name);
        closing.add(c);
        return c;
    }

    /** Reads the value at {@code path} through the host (retried while the board's mount comes up). */
    private static byte[] read(PeerClient c, String path) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Reply r = c.read(path);
        while (!r.ok() && System.nanoTime() < end) {
            Thread.sleep(50);
            r = c.read(path);
        }
        assertTrue(r.ok(), "read " + path + ": " + WireError.identity(r.code()));
        return r.value();
    }

    private static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return Arrays.copyOf(b, w.length());
    }
}
