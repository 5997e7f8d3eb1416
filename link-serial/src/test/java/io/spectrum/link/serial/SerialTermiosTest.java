package io.spectrum.link.serial;

import io.spectrum.link.serial.pty.PtyPair;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The line settings a serial port is left in by its previous user are not the link's: a getty (or
 * systemd's reset of the tty when a getty stops) leaves it cooked, with a line editor (ICANON), echo,
 * XON/XOFF (IXON), CR/NL mapping (ICRNL, OPOST ONLCR) and signal characters (ISIG). Every
 * {@link JSerialCommPort#open} sets its own raw 8N1 settings, so a port opened, or reopened, on such a
 * line carries every byte value unaltered and echoes nothing. Over {@link PtyPair} devices, whose
 * settings persist between openers as a UART's do; the settings are made and read with {@code stty}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SerialTermiosTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void needPtysAndStty() {
        assumeTrue(PtyPair.available(), "no pseudo-terminal pairs here: " + PtyPair.unavailableReason());
        assumeTrue(Files.isExecutable(Path.of("/bin/stty")) || Files.isExecutable(Path.of("/usr/bin/stty")), "no stty here");
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    /** The settings that would break the link, each present after {@code stty sane} and absent after an open. */
    private static final List<String> COOKED = List.of("icanon", "echo", "isig", "iexten", "ixon", "icrnl", "opost");
    /** Raw 8N1 as the link needs it: no line editing, echo, signals, flow control, mapping or stripping. */
    private static final List<String> RAW = List.of("-icanon", "-echo", "-echonl", "-isig", "-iexten", "-ixon", "-ixoff",
            "-icrnl", "-inlcr", "-igncr", "-istrip", "-inpck", "-opost", "cs8", "-parenb", "-cstopb", "-crtscts");

    @Test
    void openingAPortLeftCookedMakesItRawAndEveryByteValueCrossesBothWaysWithoutEcho() throws Exception {
        ReplugPty p = pair("a");
        cook(p.b);
        assertTrue(settings(p.b).containsAll(COOKED), "stty made the line cooked: " + settings(p.b));

        JSerialCommPort host = port(p.a);
        JSerialCommPort board = port(p.b);
        assertTrue(host.open() && board.open(), "both ends open");
        List<String> after = settings(p.b);
        assertTrue(after.containsAll(RAW), "raw after the open: " + after);

        byte[] all = everyByteValue();
        exchange(host, board, all);
        exchange(board, host, all);
    }

    @Test
    void reopeningAPortThatWasCookedWhileItWasClosedMakesItRawAgain() throws Exception {
        ReplugPty p = pair("b");
        JSerialCommPort host = port(p.a);
        JSerialCommPort board = port(p.b);
        assertTrue(host.open() && board.open(), "both ends open");
        board.close();
        cook(p.b); // a getty came and went while the board's port was closed
        assertTrue(settings(p.b).containsAll(COOKED), "cooked: " + settings(p.b));

        assertTrue(board.open(), "reopened");
        assertTrue(settings(p.b).containsAll(RAW), "raw again: " + settings(p.b));
        byte[] all = everyByteValue();
        exchange(host, board, all);
        exchange(board, host, all);
    }

    @Test
    void aLinkThatLostItsPortReopensItRawWhenTheNewDeviceCameCooked() throws Exception {
        ReplugPty p = pair("c");
        SerialLink a = link(1, p.a);
        SerialLink b = link(2, p.b);
        Collector atA = new Collector();
        Collector atB = new Collector();
        // a frame holding every byte value: the line's control characters (^C, ^D, ^Q, ^S, CR, NL, DEL) too
        byte[] f = Frames.value(0, 8 + 256);
        roundTrip(a, atA, b, atB, f, 1);

        p.unplug();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((a.isPortOpen() || b.isPortOpen()) && System.nanoTime() < deadline) {
            a.poll(atA, 8);
            b.poll(atB, 8);
            Thread.sleep(5);
        }
        assertFalse(a.isPortOpen() || b.isPortOpen(), "both links saw their port go");
        p.replug();
        cook(p.b); // before the link's next poll: only a poll reopens the port
        deadline = System.nanoTime() + 10_000_000_000L;
        while (!(a.isPortOpen() && b.isPortOpen()) && System.nanoTime() < deadline) {
            a.poll(atA, 8);
            b.poll(atB, 8);
            Thread.sleep(5);
        }
        assertTrue(a.isPortOpen() && b.isPortOpen(), "both links reopened");
        assertTrue(settings(p.b).containsAll(RAW), "raw after the reopen: " + settings(p.b));
        roundTrip(a, atA, b, atB, f, 2); // every byte value crossed both ways, intact
        // what the far end sent while this end was gone and cooked may arrive mangled once, before the
        // first good frame; from then on the raw line damages nothing
        long damaged = a.stats().droppedCorrupt() + b.stats().droppedCorrupt();
        for (int n = 3; n <= 6; n++) {
            roundTrip(a, atA, b, atB, f, n);
        }
        assertEquals(damaged, a.stats().droppedCorrupt() + b.stats().droppedCorrupt(), "no frame was damaged");
    }

    // --- helpers

    private ReplugPty pair(String name) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        ReplugPty p = new ReplugPty(d);
        cleanup.add(p);
        return p;
    }

    private JSerialCommPort port(Path device) {
        JSerialCommPort port = new JSerialCommPort(device.toString(), SerialPtyTest.BAUD);
        cleanup.add(port::close);
        return port;
    }

    private SerialLink link(int id, Path device) {
        SerialLink l = SerialLink.open(id, device.toString(),
                new SerialLinkConfig().baud(SerialPtyTest.BAUD).reopenBackoffMillis(20, 200), SystemClock.INSTANCE);
        cleanup.add(l::close);
        return l;
    }

    private static byte[] everyByteValue() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        return all;
    }

    /** {@code from} writes {@code bytes}; {@code to} must read exactly them, and {@code from} read nothing back. */
    private static void exchange(JSerialCommPort from, JSerialCommPort to, byte[] bytes) throws InterruptedException {
        int off = 0;
        long deadline = System.nanoTime() + 10_000_000_000L; // a hang guard, not a timing check
        while (off < bytes.length && System.nanoTime() < deadline) {
            int n = from.write(bytes, off, bytes.length - off);
            assertTrue(n >= 0, "write failed");
            off += n;
        }
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[512];
        while (got.size() < bytes.length && System.nanoTime() < deadline) {
            int n = to.read(buf, 0, buf.length);
            assertTrue(n >= 0, "read failed");
            got.write(buf, 0, n);
            if (n == 0) {
                Thread.sleep(1);
            }
        }
        Thread.sleep(50); // room for an echo or a mapped extra byte to show up
        int extra = to.read(buf, 0, buf.length);
        assertArrayEquals(bytes, got.toByteArray(), "every byte value arrived as sent");
        assertEquals(0, extra, "nothing more arrived (no CR added to a NL)");
        assertEquals(0, from.read(buf, 0, buf.length), "nothing echoed back to the writer");
    }

    private static void roundTrip(SerialLink a, Collector atA, SerialLink b, Collector atB, byte[] f, int n)
            throws InterruptedException {
        assertEquals(WireError.OK, a.send(0, f, 0, f.length));
        pollUntil(b, atB, n);
        assertEquals(WireError.OK, b.send(0, f, 0, f.length));
        pollUntil(a, atA, n);
        assertEquals(n, atA.frames.size());
        assertEquals(n, atB.frames.size());
        assertArrayEquals(f, atA.frames.get(n - 1));
        assertArrayEquals(f, atB.frames.get(n - 1));
    }

    private static void pollUntil(SerialLink l, Collector c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (c.frames.size() < n && System.nanoTime() < deadline) {
            if (l.poll(c, 64) == 0) {
                Thread.sleep(1);
            }
        }
    }

    /** What a getty's exit leaves on a tty (systemd resets it to these): line editing, echo, flow control, mapping. */
    private static void cook(Path device) throws Exception {
        stty(device, "sane", "ixon", "ixany");
    }

    /** The device's settings as stty names them ({@code -icanon}, {@code cs8}, ...). */
    private static List<String> settings(Path device) throws Exception {
        List<String> words = new ArrayList<>();
        for (String w : stty(device, "-a").split("[\\s;]+")) {
            if (!w.isEmpty() && !w.contains("=")) {
                words.add(w);
            }
        }
        return words;
    }

    private static String stty(Path device, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("stty", "-F", device.toRealPath().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "stty ended");
        assertEquals(0, p.exitValue(), "stty " + String.join(" ", args) + ": " + out);
        return out;
    }
}
