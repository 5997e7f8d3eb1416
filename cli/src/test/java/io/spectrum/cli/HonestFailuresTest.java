package io.spectrum.cli;

import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 13 item 4: every failure is one line that says what and what to do, with the right exit code. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HonestFailuresTest {
    static final String NO_DEVICE = "serial device /dev/nonexistent does not exist (is the board plugged in? "
            + "ls /dev/ttyUSB* /dev/ttyACM* lists the ports)";

    /** A node serving /board/temp = 200 on a UDP listener bound to {@code bind}. */
    static HostRuntime board(InetSocketAddress bind) throws Exception {
        HostRuntime b = new HostRuntime("board", new NarrowNode(HostRuntime.HOST_CONFIG));
        b.attach(UdpLink.listen(1, bind, new UdpLinkConfig(), SystemClock.INSTANCE));
        b.start();
        b.write("/board/temp", ClientCommandsTest.value(200, 4));
        return b;
    }

    static String port(HostRuntime b) {
        return b.snapshot().links().get(0).name().replaceAll(".*:", "");
    }

    static boolean subscribed(HostRuntime b, String path) {
        return b.snapshot().vertices().stream().anyMatch(v -> v.path().equals(path) && !v.subscribers().isEmpty());
    }

    static void awaitSubscriber(HostRuntime b, String path) throws InterruptedException {
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); System.nanoTime() < end; ) {
            if (subscribed(b, path)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("nobody subscribed to " + path);
    }

    @Test
    void aMissingSerialDeviceIsExit2WithOneLine() {
        Cli.Run board = Cli.run("board", "--serial", "/dev/nonexistent");
        assertEquals(2, board.code(), board.all());
        assertEquals("board: cannot open the link: " + NO_DEVICE + "\n", board.err());
        assertFalse(board.out().contains("ready"), board.out());
        Cli.Run host = Cli.run("host", "--serial", "/dev/nonexistent", "--no-dashboard");
        assertEquals(2, host.code(), host.all());
        assertEquals("spectrum host: cannot open a link: " + NO_DEVICE + "\n", host.err());
        assertFalse(host.out().contains("ready"), host.out());
    }

    @Test
    void anUnresolvableHostIsExit2WithOneLineAndAHint() {
        Cli.Run r = Cli.run("read", "--peer", "nosuch.invalid:7700", "/board/temp");
        assertEquals(2, r.code(), r.all());
        assertEquals("spectrum read: --peer nosuch.invalid:7700: cannot resolve host 'nosuch.invalid'; write e.g. "
                + "udp://127.0.0.1:7700\nTry 'spectrum read --help' for more.\n", r.err());
        assertEquals("", r.out());
        Cli.Run host = Cli.run("host", "--peer", "nosuch.invalid:7700", "--no-dashboard");
        assertEquals(2, host.code(), host.all());
        assertEquals("spectrum host: cannot open a link: nosuch.invalid:7700: cannot resolve host 'nosuch.invalid'; "
                + "write e.g. udp://127.0.0.1:7700\n", host.err());
        Cli.Run v6 = Cli.run("read", "--peer", "::1:7700", "/a");
        assertEquals(2, v6.code());
        assertTrue(v6.err().startsWith("spectrum read: --peer ::1:7700: an IPv6 address goes in brackets: [::1]:7700"), v6.err());
    }

    @Test
    void ipv6AddressesInBracketsWork() throws Exception {
        InetAddress v6;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getByName("::1"))) {
            v6 = probe.getLocalAddress();
        } catch (java.io.IOException e) {
            Assumptions.abort("no IPv6 loopback on this machine: " + e.getMessage());
            return;
        }
        HostRuntime b = board(new InetSocketAddress(v6, 0));
        try {
            Cli.Run r = Cli.run("read", "--peer", "[::1]:" + port(b), "/board/temp");
            assertEquals(0, r.code(), r.all());
            assertEquals("/board/temp = 200\n", r.out());
        } finally {
            b.close();
        }
    }

    @Test
    void aCutOffTlvIsRefusedBeforeSending() {
        Cli.Run r = Cli.run("write", "--peer", "127.0.0.1:9", "/board/led", "0100", "--hex");
        assertEquals(2, r.code(), r.all());
        assertEquals("spectrum write: --hex 0100 is not one complete TLV: tr::frame::truncated at byte 0; nothing was sent\n"
                + "Try 'spectrum write --help' for more.\n", r.err());
    }

    @Test
    void aUsageErrorIsOneLineAndAHint_notTheWholeUsage() {
        Cli.Run r = Cli.run("read", "--peer", "127.0.0.1:9", "no-slash");
        assertEquals(2, r.code());
        assertEquals("spectrum read: bad path 'no-slash': tr::path::invalid: no-slash\nTry 'spectrum read --help' for more.\n", r.err());
        Cli.Run unknown = Cli.run("sub", "--bogus");
        assertEquals(2, unknown.code());
        assertEquals("spectrum sub: Unknown option: '--bogus'\nTry 'spectrum sub --help' for more.\n", unknown.err());
        Cli.Run tap = Cli.run("tap", "--peer", "127.0.0.1:9");
        assertEquals(2, tap.code());
        assertEquals("spectrum tap: no path to tap: give PATH or -t PATH (tap subscribes to it so frames flow)\n"
                + "Try 'spectrum tap --help' for more.\n", tap.err());
    }

    @Test
    void anAddressInUseIsNamed() throws Exception {
        try (DatagramSocket busy = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            String at = "127.0.0.1:" + busy.getLocalPort();
            Cli.Run host = Cli.run("host", "--udp", at, "--no-dashboard");
            assertEquals(2, host.code(), host.all());
            assertTrue(host.err().startsWith("spectrum host: cannot open a link: cannot listen on " + at + ": "), host.err());
            assertTrue(host.err().endsWith("(is another board or host already there? pick another port)\n"), host.err());
            assertEquals(1, host.err().lines().count(), host.err());
            Cli.Run board = Cli.run("board", "--udp", at);
            assertEquals(2, board.code(), board.all());
            assertTrue(board.err().startsWith("board: cannot open the link: cannot listen on " + at + ": "), board.err());
        }
    }

    @CommandLine.Command(name = "boom")
    static final class Boom implements Runnable {
        @Override
        public void run() {
            throw new IllegalStateException("kaput");
        }
    }

    @Test
    void anUnexpectedExceptionIsOneLineAndExit3_theStackOnlyWithDebug() {
        for (boolean debug : new boolean[] {false, true}) {
            StringWriter err = new StringWriter();
            CommandLine cl = SpectrumCommand.commandLine(Defaults.none());
            cl.addSubcommand(new Boom());
            cl.setErr(new PrintWriter(err, true));
            cl.setOut(new PrintWriter(new StringWriter(), true));
            int code = debug ? cl.execute("boom", "--debug") : cl.execute("boom");
            assertEquals(3, code);
            String first = err.toString().lines().findFirst().orElse("");
            if (debug) {
                assertEquals("spectrum: internal error: IllegalStateException: kaput (please report)", first);
                assertTrue(err.toString().contains("at io.spectrum.cli.HonestFailuresTest$Boom.run"), err.toString());
            } else {
                assertEquals("spectrum: internal error: IllegalStateException: kaput (please report; --debug shows the stack)\n",
                        err.toString());
            }
        }
    }

    @Test
    void subReportsALostPeerAndExits1_orWaitsWithWait() throws Exception {
        for (boolean wait : new boolean[] {false, true}) {
            HostRuntime b = board(new InetSocketAddress("127.0.0.1", 0));
            String addr = "127.0.0.1:" + port(b);
            List<String> args = new ArrayList<>(List.of("sub", "--peer", addr, "--timeout", "300", "/board/temp"));
            if (wait) {
                args.addAll(List.of("--wait", "--duration", "9"));
            }
            CompletableFuture<Cli.Run> sub = CompletableFuture.supplyAsync(() -> Cli.run(args.toArray(new String[0])));
            awaitSubscriber(b, "/board/temp");
            b.write("/board/temp", ClientCommandsTest.value(201, 4));
            Thread.sleep(500); // let the value reach the sub
            b.close();
            Cli.Run r = sub.get(60, TimeUnit.SECONDS);
            String lost = r.err().lines().filter(l -> l.startsWith("spectrum sub: lost ")).findFirst().orElse("");
            if (wait) {
                assertEquals(0, r.code(), r.all());
                assertTrue(lost.matches("spectrum sub: lost " + addr + ": no answer for \\d+ s; waiting for it \\(--wait\\)"), r.err());
            } else {
                assertEquals(1, r.code(), r.all());
                assertTrue(lost.matches("spectrum sub: lost " + addr + ": no answer for \\d+ s \\(--wait keeps waiting\\)"), r.err());
            }
            assertTrue(r.out().contains("/board/temp = 201  (seq "), r.out());
        }
    }

    @Test
    void hostPrintsBoardsComingAndGoing_andWarnsAboutOneThatNeverAnswers() throws Exception {
        HostRuntime b = board(new InetSocketAddress("127.0.0.1", 0));
        String addr = "127.0.0.1:" + port(b);
        CompletableFuture<Cli.Run> host = CompletableFuture.supplyAsync(() -> Cli.run("host", "--peer", addr, "--timeout", "1000",
                "--no-dashboard", "--lines", "--duration", "7"));
        try {
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); !b.snapshot().links().get(0).up()
                    && System.nanoTime() < end; ) {
                Thread.sleep(20); // the host mounts the board and talks to it (liveness, its walk): nothing subscribed
            }
            Thread.sleep(1500); // the host's loop prints link states once a second
        } finally {
            b.close();
        }
        Cli.Run r = host.get(60, TimeUnit.SECONDS);
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        int up = lines.indexOf("board1 up");
        int down = lines.indexOf("board1 down (no answer for 1 s)");
        assertTrue(up >= 0 && down > up, r.out());

        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            String at = "127.0.0.1:" + silent.getLocalPort();
            Cli.Run nobody = Cli.run("host", "--peer", at, "--timeout", "1000", "--no-dashboard", "--lines", "--duration", "3");
            assertEquals(0, nobody.code(), nobody.all());
            assertTrue(nobody.out().lines().anyMatch(("warning: board1 (udp->" + at + ") has not answered in 1 s; "
                    + "is a board running there?")::equals), nobody.out());
            assertFalse(nobody.out().contains("board1 up"), nobody.out());
        }
    }
}
