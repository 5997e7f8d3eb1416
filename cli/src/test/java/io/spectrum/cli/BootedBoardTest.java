package io.spectrum.cli;

import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.wide.WideNode;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.DtlsLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An installed board on an emulated ARM machine (docs/hil.md, "An installed board on an emulated ARM
 * machine"): a Debian 12 arm64 system (packaging/boot/build-image.sh) booted in qemu-system-aarch64
 * (packaging/boot/boot.sh), {@code spectrum flash --ssh} onto it with the bundled aarch64 runtime, a
 * host here mounting the board over the forwarded UDP port, a power cut, {@code spectrum host install --ssh}
 * onto the same machine, a host here mounting the board with DTLS, and the board's UART.
 *
 * <p>Runs only in the Maven profile {@code boot} ({@code mvn -B verify -Pboot}); skipped with its
 * reason when qemu-system-aarch64 is missing, or when the image is not built yet and this is not root
 * (under CI=true these fail it).
 * Times printed here are under TCG emulation on the build machine, not a Pi's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BootedBoardTest {
    private static final Path ROOT = Path.of(System.getProperty("spectrum.root", "..")).toAbsolutePath().normalize();
    private static final Path CACHE = Path.of(System.getenv().getOrDefault("SPECTRUM_BOOT_CACHE",
            System.getProperty("user.home") + "/.cache/spectrum-boot"));
    private static final Path WORK = ROOT.resolve("cli/target/boot");
    private static final Path RUN = WORK.resolve("machine");
    private static final Map<String, String> FIGURES = new LinkedHashMap<>();

    private static int sshPort;
    private static int udpPort;
    /** Forwarded to the machine's UDP port 7800: the client port of the host installed there. */
    private static int hostUdpPort;
    private static Path runtime;
    private static Path hostRuntime;
    private static List<String> sshOptions;

    // shared by the UDP and power-cut steps: the host stays up while the machine loses power
    private static HostRuntime host;
    private static PeerClient client;
    private static final List<Delivery> GOT = new ArrayList<>();

    @BeforeAll
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    static void buildAndBoot() throws Exception {
        need(onPath("qemu-system-aarch64"),
                "qemu-system-aarch64 is not installed (apt-get install qemu-system-arm); the booted board is not tested");
        boolean cached = Files.exists(CACHE.resolve(".built"));
        need(cached || "root".equals(System.getProperty("user.name")),
                "the arm64 image is not built and building it needs root: sudo packaging/boot/build-image.sh");
        Files.createDirectories(WORK);
        deleteTree(RUN);

        long t = System.nanoTime();
        script(WORK.resolve("build-image.log"), 45, "packaging/boot/build-image.sh", CACHE.toString());
        FIGURES.put("image build or reuse", ms(t) + " ms" + (cached ? " (cached)" : " (from an empty cache)"));

        t = System.nanoTime();
        Path rtOut = CACHE.resolve("runtime");
        script(WORK.resolve("runtime.log"), 10, "packaging/build-arm64-runtime.sh", rtOut.toString());
        runtime = rtOut.resolve("runtime");
        FIGURES.put("aarch64 runtime build or reuse", ms(t) + " ms");

        // the host's runtime (the whole spectrum command's modules), linked from the same arm64 JDK
        // package the board's runtime was: a copy of that .deb, so nothing is downloaded again
        t = System.nanoTime();
        Path hostOut = CACHE.resolve("host-runtime");
        Files.createDirectories(hostOut.resolve("debs"));
        try (var debs = Files.newDirectoryStream(rtOut.resolve("debs"), "openjdk-17-jdk-headless_*_arm64.deb")) {
            for (Path deb : debs) {
                Path copy = hostOut.resolve("debs").resolve(deb.getFileName());
                if (!Files.exists(copy)) {
                    Files.copy(deb, copy);
                }
            }
        }
        script(WORK.resolve("host-runtime.log"), 10, Map.of("SPECTRUM_RUNTIME_FOR", "host"), "packaging/build-arm64-runtime.sh",
                hostOut.toString());
        hostRuntime = hostOut.resolve("runtime");
        FIGURES.put("aarch64 host runtime build or reuse", ms(t) + " ms");

        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             DatagramSocket d = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress());
             DatagramSocket h = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            sshPort = s.getLocalPort();
            udpPort = d.getLocalPort();
            hostUdpPort = h.getLocalPort();
        }
        boot("first boot");
        sshOptions = Files.readAllLines(RUN.resolve("ssh_options"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (host != null) {
            host.close();
        }
        if (Boolean.getBoolean("spectrum.boot.keep")) { // left running to look at: ssh -F cli/target/boot/machine/ssh_config board
            System.out.println("the machine keeps running (-Dspectrum.boot.keep): qemu pid " + Files.readString(RUN.resolve("qemu.pid")).strip());
        } else {
            powerCut();
        }
        if (!FIGURES.isEmpty()) {
            StringBuilder b = new StringBuilder("# Booted board: figures (TCG emulation on the build machine, not a Pi)\n\n");
            FIGURES.forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
            Files.createDirectories(WORK);
            Files.writeString(WORK.resolve("figures.md"), b.toString());
            System.out.print(b);
        }
    }

    @Test
    @Order(1)
    @Timeout(value = 20, unit = TimeUnit.MINUTES) // the flash now waits for ready: 8 min was exceeded at load 15
    void flashOverSshInstallsTheBoardWithItsOwnRuntimeAndStartsIt() throws Exception {
        assertEquals("", ssh("command -v java || true").strip(), "the machine has no Java of its own");
        long t = System.nanoTime();
        Cli.Run r = flash("--udp", "0.0.0.0:7700", "--runtime", runtime.toString(), "--reset-config");
        FIGURES.put("flash --ssh (bundle and runtime over scp, install, start)", ms(t) + " ms");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("spectrum-board.service: active"), r.all());
        awaitReady("flash --udp");
        assertEquals("enabled", ssh("systemctl is-enabled spectrum-board").strip());
        figuresOfTheRunningBoard("UDP board");
    }

    @Test
    @Order(2)
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aHostMountsTheBoardOverUdpAndRecoversAfterAPowerCutWithoutSubscribingAgain() throws Exception {
        UdpLinkConfig links = new UdpLinkConfig();
        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG));
        host.mount(UdpLink.dial(2, new InetSocketAddress("127.0.0.1", udpPort), links, SystemClock.INSTANCE), "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), links, SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        client = new PeerClient(UdpLink.dial(9, clients.localAddress(), links, SystemClock.INSTANCE), 0, Duration.ofSeconds(5));
        client.onDelivery(d -> {
            synchronized (GOT) {
                GOT.add(d.detach());
            }
        });

        String temp = "/board1/temp";
        long t = System.nanoTime();
        // the host forwards a read under the mount to the board
        io.spectrum.client.Reply read = awaitReply(() -> client.read(temp), 120);
        assertTrue(read.ok(), "read " + temp + " through the host");
        FIGURES.put("host's first read of " + temp + " after the flash", ms(t) + " ms");
        assertTrue(client.subscribe(temp, "/c/temp", DeliveryPolicy.DURABILITY_REQUEST, true).ok(), "subscribe");
        pumpUntil(() -> any(d -> !d.stale()), 120, "a fresh value of " + temp);
        Delivery fresh = last();

        powerCut(); // kill -9 of qemu: the machine loses power, nothing is shut down
        pumpUntil(() -> any(d -> d.stale() && d.seq() >= fresh.seq()), 60, "the value marked stale (board away)");
        Delivery stale = last();
        assertEquals(io.spectrum.wire.StaleReason.BOARD_AWAY, stale.reason(), "why it is stale");
        int deliveriesBefore = GOT.size();

        long bootStart = System.nanoTime();
        // the client keeps talking to the host while the machine boots (minutes under TCG): a client
        // silent past the link's peer timeout (10 s) is taken for gone and its subscription reaped,
        // which is right for a client, and is not what this test is about
        bootWhilePumping("boot after the power cut");
        try {
            pumpUntil(() -> any(d -> !d.stale() && d.seq() > stale.seq()), 420,
                    "a fresh value again, with no new subscribe, after the machine came back");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + diagnosis(), e);
        }
        FIGURES.put("power on to the host's first fresh value (boot, systemd, JVM start, host re-subscribes by itself)",
                ms(bootStart) + " ms");
        assertTrue(GOT.size() > deliveriesBefore);
        awaitReady("after the power cut");
        figuresOfTheRunningBoard("UDP board after the power cut");
    }

    @Test
    @Order(3)
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void hostInstallOverSshRunsTheHostServiceThatMountsTheBoardOnTheSameMachine_andAnUpdateKeepsItsState() throws Exception {
        // the host on the machine: the board over loopback there, its client port forwarded to hostUdpPort here
        Path file = WORK.resolve("machine-host.yaml");
        Files.writeString(file, "name: machine\n"
                + "mounts:\n"
                + "  - name: board1\n"
                + "    link: udp://127.0.0.1:7700\n"
                + "udp: 0.0.0.0:7800\n"
                + "dashboard: false\n"
                + "metrics: false\n"
                + "state-dir: " + HostInstallCommand.STATE_ON_TARGET + "\n");
        // a heap that fits beside the board in 512 MB: JAVA_OPTS in a drop-in of the unit, which no install touches
        ssh("mkdir -p /etc/systemd/system/spectrum-host.service.d && printf '%s\\n' '[Service]'"
                + " 'Environment=\"JAVA_OPTS=-XX:+UseSerialGC -Xmx96m -Xss256k\"' > /etc/systemd/system/spectrum-host.service.d/heap.conf");
        long t = System.nanoTime();
        Cli.Run r = hostInstall(file, "--runtime", hostRuntime.toString());
        FIGURES.put("host install --ssh (jars and host runtime over scp, user, unit, start)", ms(t) + " ms");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("spectrum-host.service: active") && r.out().contains("made /var/lib/spectrum-host"), r.all());
        assertEquals("active", ssh("systemctl is-active spectrum-host").strip());
        assertEquals("enabled", ssh("systemctl is-enabled spectrum-host").strip());
        assertEquals("spectrum-host", ssh("stat -c %U /var/lib/spectrum-host").strip(), "the state directory is the service user's");

        t = System.nanoTime();
        String value = readThroughTheMachinesHost("after the install");
        FIGURES.put("host service start to its first answer here (JVM start, mount over 127.0.0.1 in the machine)", ms(t) + " ms");
        FIGURES.put("spectrum read --peer 127.0.0.1:<forwarded 7800> /board1/temp through the installed host", value);
        // the history's writer opens (makes) its file on its own thread, after the host answers
        long historyDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!ssh("test -s /var/lib/spectrum-host/history.db && echo yes").strip().equals("yes")) {
            assertTrue(System.nanoTime() < historyDeadline, "the service keeps its history in its state directory: "
                    + ssh("ls -la /var/lib/spectrum-host; journalctl -u spectrum-host --no-pager | grep -i history | tail -5"));
            Thread.sleep(2000);
        }
        FIGURES.put("host service start to a history.db in its state directory", ms(t) + " ms");
        figuresOfTheRunningHost("host service beside the UDP board");

        // an update: a marker in the state directory, the host file edited there; both stay
        ssh("echo kept-by-the-update > /var/lib/spectrum-host/marker && sed -i 's/^name: machine$/name: machine-edited/' "
                + "/etc/spectrum/host.yaml");
        t = System.nanoTime();
        Cli.Run update = hostInstall(file);
        FIGURES.put("host install --ssh again (an update, runtime kept)", ms(t) + " ms");
        assertEquals(0, update.code(), update.all());
        assertTrue(update.out().contains("kept /var/lib/spectrum-host") && update.out().contains("kept the existing /etc/spectrum/host.yaml"),
                update.all());
        assertEquals("kept-by-the-update", ssh("cat /var/lib/spectrum-host/marker").strip());
        assertEquals("yes", ssh("test -s /var/lib/spectrum-host/history.db && echo yes").strip(), "the history stays");
        assertEquals("name: machine-edited", ssh("head -n 1 /etc/spectrum/host.yaml").strip());
        assertTrue(ssh("test -x /opt/spectrum-host/runtime/bin/java && echo yes").contains("yes"), "the runtime stays");
        assertEquals("active", ssh("systemctl is-active spectrum-host").strip());
        t = System.nanoTime();
        String again = readThroughTheMachinesHost("after the update");
        FIGURES.put("updated host service start to its first answer here", ms(t) + " ms; " + again);
        // the later steps flash the board again and measure it alone, as before this step
        ssh("systemctl disable --now spectrum-host");
    }

    @Test
    @Order(4)
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aHostMountsTheBoardOverDtls_andAPlainUdpPeerGetsNothing() throws Exception {
        // a Pi Zero 2 W links over Wi-Fi: the board's UDP listener with DTLS, keys from the fleet CA here
        Path keys = WORK.resolve("keys");
        deleteTree(keys);
        for (String[] k : new String[][] {{"init"}, {"issue", "board1"}, {"issue", "host"}}) {
            List<String> a = new ArrayList<>(List.of("keys"));
            a.addAll(List.of(k));
            a.addAll(List.of("--dir", keys.toString()));
            Cli.Run made = Cli.run(a.toArray(String[]::new));
            assertEquals(0, made.code(), made.all());
        }
        long t = System.nanoTime();
        Cli.Run r = flash("--udp", "0.0.0.0:7700", "--dtls-keys", keys.toString(), "--dtls-name", "board1", "--reset-config");
        FIGURES.put("flash --ssh --dtls-keys (keys installed, board restarted)", ms(t) + " ms");
        assertEquals(0, r.code(), r.all());
        awaitReady("flash --dtls-keys");
        String ready = ssh("journalctl -b -u spectrum-board --no-pager | grep ' ready on ' | tail -n 1");
        assertTrue(ready.contains("ready on dtls "), ready);
        assertEquals("", ssh("ls /etc/spectrum/keys | grep -x ca.key || true").strip(), "never the CA's key on the board");

        UdpLinkConfig links = new UdpLinkConfig();
        DtlsLink dtls = DtlsLink.dial(2, new InetSocketAddress("127.0.0.1", udpPort), links, DtlsCredentials.fromDir(keys, "host"),
                SystemClock.INSTANCE);
        List<Delivery> got = new ArrayList<>();
        try (HostRuntime wifi = new HostRuntime("wifi-host", new WideNode(HostRuntime.HOST_CONFIG))) {
            wifi.mount(dtls, "board1", List.of());
            UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), links, SystemClock.INSTANCE);
            wifi.attachListener(clients);
            wifi.start();
            try (PeerClient c = new PeerClient(UdpLink.dial(9, clients.localAddress(), links, SystemClock.INSTANCE), 0,
                    Duration.ofSeconds(5))) {
                c.onDelivery(d -> {
                    synchronized (got) {
                        got.add(d.detach());
                    }
                });
                t = System.nanoTime();
                io.spectrum.client.Reply read = awaitReply(c, () -> c.read("/board1/temp"), 300);
                assertTrue(read.ok(), "read /board1/temp through a host mounting the board with DTLS: " + read
                        + "; DTLS " + dtls.dtlsStats() + ", last refusal " + dtls.lastRefusal());
                FIGURES.put("DTLS: the host's first read of /board1/temp (handshake under TCG included)", ms(t) + " ms");
                assertEquals("board1", dtls.peerName(0), "the board is who its certificate says");
                assertTrue(dtls.dtlsStats().handshakes() >= 1, "a DTLS handshake: " + dtls.dtlsStats());
                assertTrue(c.subscribe("/board1/temp", "/c/temp", DeliveryPolicy.DURABILITY_REQUEST, true).ok(), "subscribe");
                pumpUntil(c, () -> {
                    synchronized (got) {
                        return got.stream().anyMatch(d -> d.route().equals("/c/temp") && !d.stale());
                    }
                }, 120, "a fresh value of /board1/temp over DTLS", got);
            }

            // a peer without keys: its plain datagrams are no DTLS records, the board answers nothing
            try (PeerClient plain = new PeerClient(UdpLink.dial(7, new InetSocketAddress("127.0.0.1", udpPort), links,
                    SystemClock.INSTANCE), 0, Duration.ofSeconds(3))) {
                for (int i = 0; i < 3; i++) {
                    io.spectrum.client.Reply p = plain.read("/temp");
                    assertFalse(p.answered(), "a plain UDP read of the DTLS board: " + p);
                }
            }
        }
        figuresOfTheRunningBoard("DTLS board");
    }

    @Test
    @Order(5)
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void aFlashWhoseBoardDoesNotStartIsRolledBackToTheRunningRelease() throws Exception {
        String before = ssh("readlink /opt/spectrum/current").strip();
        assertTrue(before.startsWith("releases/"), before);
        // a release whose class path has no board main: the JVM stops at once, systemd restarts it
        Path empty = Files.createDirectories(WORK.resolve("empty-classes/x/classes"));
        long t = System.nanoTime();
        Cli.Run r = flash("--udp", "0.0.0.0:7700", "--reset-config", "--classpath", empty.toString());
        FIGURES.put("flash of a release that does not start, to the previous one running again", ms(t) + " ms");
        assertEquals(1, r.code(), r.all());
        assertTrue(r.err().contains("the new release did not come up on root@127.0.0.1")
                && r.err().contains("rolled back to the previous release, which runs again"), r.all());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertEquals(before, ssh("readlink /opt/spectrum/current").strip(), "the running release is current again");
        assertEquals("active", ssh("systemctl is-active spectrum-board").strip());
        awaitReady("after the rollback");
    }

    @Test
    @Order(6)
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void theBoardOnTheUartPassesTheHilSuite() throws Exception {
        // a login prompt on the UART: flash refuses before copying anything (the kernel's console stays on
        // hvc0; a console=ttyAMA0 would need another boot, which the unit tests' check answers stand in for)
        String owner = "stat -c '%U:%G %a' /dev/ttyAMA0";
        String before = ssh(owner).strip();
        ssh("systemctl enable --now serial-getty@ttyAMA0.service");
        Cli.Run refused = flash("--serial", "/dev/ttyAMA0", "--reset-config");
        ssh("systemctl disable --now serial-getty@ttyAMA0.service");
        assertEquals(2, refused.code(), refused.all());
        assertTrue(refused.err().startsWith("spectrum flash: the board's UART /dev/ttyAMA0 on root@127.0.0.1 is a serial console"
                + " (serial-getty@ttyAMA0 runs)"), refused.all());
        assertEquals("enabled", ssh("systemctl is-enabled spectrum-board").strip(), "the running board was left alone");
        // Stopping serial-getty@ does more than end agetty: systemd resets the line to a cooked terminal
        // (TTYReset), hangs up whoever holds it open (TTYVHangup), and gives the device to group tty, mode
        // 0620, until the next boot (a udev "change" event does not give it back: the last run showed it).
        // The cooked settings do no harm (every open of the board's port sets its own raw ones:
        // link-serial's SerialTermiosTest), nor does the hang-up (the running board is the UDP one, and the
        // flash below restarts it on the UART), but the group and mode do: the service's dynamic user opens
        // the UART through group dialout, so a board flashed now says ready but cannot open its port (how
        // the HIL step once got no reply to anything). Flash refuses such a UART; the test then gives the
        // device back the owner and mode it had before the getty, so the HIL step meets a sound board.
        String afterGetty = ssh(owner).strip();
        Cli.Run shutOut = flash("--serial", "/dev/ttyAMA0", "--reset-config");
        assertEquals(2, shutOut.code(), shutOut.all());
        assertTrue(shutOut.err().startsWith("spectrum flash: the board's UART /dev/ttyAMA0 on root@127.0.0.1 is group tty, mode 620,"
                + " which the board service's user (group dialout) cannot open"), shutOut.all());
        String[] ownerAndMode = before.split(" ");
        assertEquals(2, ownerAndMode.length, before);
        ssh("chown " + ownerAndMode[0] + " /dev/ttyAMA0 && chmod " + ownerAndMode[1] + " /dev/ttyAMA0");
        String mended = ssh(owner).strip();
        FIGURES.put("UART /dev/ttyAMA0 owner and mode", "before the getty " + before + "; after it stopped " + afterGetty
                + "; after the chown back " + mended);
        assertEquals(before, mended, "the UART's owner and mode are back to what they were before the getty");

        // the machine's I2C sensor: the kernel's i2c-stub at 0x48 on /dev/i2c-0 (the image loads it at
        // boot), its register 0 set here as a sensor's reading would be; the board file reads it by SMBus
        assertEquals("SMBus stub driver", ssh("cat /sys/class/i2c-adapter/i2c-0/name").strip());
        ssh("i2cset -y 0 0x48 0x00 0x0929 w"); // 2345: 23.45 °C at the declared scale
        Path boardFile = WORK.resolve("booted-board.yaml");
        Files.writeString(boardFile, BOARD_FILE);
        // the runtime stays installed: flash without --runtime keeps it
        Cli.Run r = flash("--serial", "/dev/ttyAMA0", "--reset-config", "--config", boardFile.toString());
        assertEquals(0, r.code(), r.all());
        awaitReady("flash --serial /dev/ttyAMA0");
        assertTrue(ssh("cat /etc/systemd/system/spectrum-board.service.d/device-groups.conf").contains("SupplementaryGroups=i2c\n"),
                "the service's user may open the I2C bus through group i2c");
        String uart = Files.readString(RUN.resolve("uart")).strip();
        Path report = WORK.resolve("hil-booted-aarch64.md");
        long t = System.nanoTime();
        Cli.Run hil = Cli.run("hil", "--port", uart, "--baud", "115200", "--timeout-ms", "15000", "--report", report.toString());
        FIGURES.put("HIL suite over the UART (spectrum hil --port " + uart + ")", ms(t) + " ms");
        System.out.println(hil.all());
        assertEquals(0, hil.code(), "HIL over the UART:\n" + hil.all() + "\n" + ssh("journalctl -u spectrum-board --no-pager | tail -20;"
                + " ls -l /dev/ttyAMA0; stty -F /dev/ttyAMA0 -a"));
        String written = Files.readString(report);
        assertTrue(written.contains("/i2c-temp = 23.45 °C"), "the I2C sensor read by SMBus, in its unit, in the report:\n" + written);
        figuresOfTheRunningBoard("UART board");

        // the launcher's class-data-sharing archive (docs/board.md, "JVM sizing"): made in the state
        // directory once the first start's class list is complete; the next start maps it
        String archive = "/var/lib/private/spectrum/board.jsa";
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(6);
        while (!ssh("test -s " + archive + " && test -s " + archive + ".stamp && echo made || true").strip().equals("made")) {
            assertTrue(System.nanoTime() < deadline, "no class-data archive within 6 min: " + ssh("ls -l /var/lib/private/spectrum/;"
                    + " tail -5 " + archive + ".log"));
            Thread.sleep(5000);
        }
        ssh("systemctl restart spectrum-board");
        awaitReady("UART board with its class-data archive");
        String pid = ssh("systemctl show -p MainPID --value spectrum-board").strip();
        String cmdline = ssh("tr '\\0' ' ' < /proc/" + pid + "/cmdline");
        assertTrue(cmdline.contains("-XX:SharedArchiveFile=/var/lib/spectrum/board.jsa"), "the restarted board maps the archive: "
                + cmdline + "\n" + ssh("ls -l /var/lib/private/spectrum/; cat " + archive + ".stamp; tail -5 " + archive + ".log"));
        Thread.sleep(30_000); // past the start: the figure of a board that serves
        figuresOfTheRunningBoard("UART board with its class-data archive, 30 s after ready");
    }

    /**
     * The board file of the UART board: the demo vertices the suite reads and writes, and the
     * machine's I2C sensor (i2c-stub at 0x48, read by SMBus word, docs/board.md "I2C transfers").
     */
    private static final String BOARD_FILE = """
            period: 250ms
            vertices:
              - {path: /temp, type: i16, unit: Cel, scale: 0.01, rights: ro, description: board temperature,
                 source: {kind: sim, wave: sine, base: 2150, amplitude: 180, cycle: 12, jitter: 15}}
              - {path: /counter, type: u32, rights: ro, description: periods since start, source: {kind: sim, wave: count}}
              - {path: /led, type: u8, range: [0, 1], rights: rw, initial: 0, description: "LED, 1 = on"}
              - {path: /i2c-temp, type: i16, unit: Cel, scale: 0.01, range: [-4000, 12500], rights: ro,
                 description: I2C sensor (i2c-stub at 0x48),
                 source: {kind: i2c, bus: 0, address: 0x48, register: 0, transfer: smbus-word, period: 1s}}
            """;

    /** What the host and the machine say, for a failure's message: the link, the edges, the service, its journal. */
    private static String diagnosis() {
        StringBuilder b = new StringBuilder("host links: ").append(host.snapshot().links())
                .append("\nhost upstream edges: ").append(host.upstreamEdges()).append('\n');
        try {
            b.append(ssh("systemctl status spectrum-board --no-pager -l | head -15;"
                    + " journalctl -b -u spectrum-board --no-pager | tail -25; journalctl --list-boots --no-pager | tail -3;"
                    + " cat /etc/spectrum/board.conf; ss -uanp | grep 7700"));
            b.append("\nconsole (tail):\n").append(String.join("\n", tail(Files.readAllLines(RUN.resolve("console.log")), 30)));
        } catch (Exception e) {
            b.append("(the machine did not answer: ").append(e).append(')');
        }
        String d = b.toString();
        System.out.println("--- diagnosis\n" + d);
        return d;
    }

    private static List<String> tail(List<String> lines, int n) {
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }

    // --- the machine

    private static void boot(String what) throws Exception {
        long t = System.nanoTime();
        script(WORK.resolve("boot.log"), 11, "packaging/boot/boot.sh", RUN.toString(), Integer.toString(sshPort),
                Integer.toString(udpPort), Integer.toString(hostUdpPort));
        FIGURES.put(what + ": qemu start to ssh login", ms(t) + " ms");
    }

    /** {@link #boot} on another thread while this one pumps the client, so the host keeps hearing it. */
    private static void bootWhilePumping(String what) throws Exception {
        java.util.concurrent.CompletableFuture<Void> booting = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                boot(what);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        while (!booting.isDone()) {
            client.pumpFor(Duration.ofMillis(100));
        }
        try {
            booting.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw (Error) e.getCause();
        }
    }

    private static void powerCut() throws IOException {
        Path pid = RUN.resolve("qemu.pid");
        if (Files.exists(pid)) {
            long p = Long.parseLong(Files.readString(pid).strip());
            ProcessHandle.of(p).ifPresent(h -> {
                h.destroyForcibly(); // our own qemu (its pid file), SIGKILL
                h.onExit().join();
            });
            Files.delete(pid);
        }
    }

    /** Waits until the service runs and its board said "ready"; puts the JVM's start time in the figures. */
    private static void awaitReady(String what) throws Exception {
        String probe = "journalctl -b -u spectrum-board -o short-monotonic --no-pager | grep ' ready on ' | tail -n 1";
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        String ready = "";
        while (System.nanoTime() < deadline) {
            String start = ssh("systemctl show -p ExecMainStartTimestampMonotonic --value spectrum-board").strip();
            ready = ssh(probe).strip();
            if (!ready.isEmpty() && !start.isEmpty()) {
                double readyAt = Double.parseDouble(ready.substring(1, ready.indexOf(']')).strip());
                double startAt = Long.parseLong(start) / 1e6;
                if (readyAt >= startAt) {
                    FIGURES.put(what + ": service start to 'ready' (JVM start and board set-up)",
                            Math.round((readyAt - startAt) * 1000) + " ms");
                    return;
                }
            }
            Thread.sleep(2000);
        }
        throw new AssertionError(what + ": the board never said ready; journal:\n" + ssh("journalctl -u spectrum-board --no-pager | tail -30"));
    }

    private static void figuresOfTheRunningBoard(String what) throws Exception {
        String pid = ssh("systemctl show -p MainPID --value spectrum-board").strip();
        FIGURES.put(what + ": board RSS", ssh("ps -o rss= -p " + pid).strip() + " kB");
        FIGURES.put(what + ": machine memory available", ssh("awk '/MemAvailable/ {print $2}' /proc/meminfo").strip() + " kB");
    }

    /**
     * {@code spectrum read} here of /board1/temp through the host installed on the machine (its client port
     * forwarded to hostUdpPort), again until a fresh value answers; returns what it printed.
     */
    private static String readThroughTheMachinesHost(String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
        Cli.Run last = null;
        while (System.nanoTime() < deadline) {
            last = Cli.run("read", "--peer", "127.0.0.1:" + hostUdpPort, "--timeout", "5000", "/board1/temp");
            // a number, current (a value that is not says "stale" and why)
            if (last.code() == 0 && last.out().strip().matches("/board1/temp = -?[0-9].*") && !last.out().contains("stale")) {
                return last.out().strip();
            }
            Thread.sleep(2000);
        }
        throw new AssertionError(what + ": no fresh /board1/temp through the machine's host; last read: "
                + (last == null ? "none" : last.all()) + "\n" + ssh("systemctl status spectrum-host --no-pager -l | head -15;"
                + " journalctl -u spectrum-host --no-pager | tail -30; ss -uanp | grep -e 7700 -e 7800"));
    }

    private static void figuresOfTheRunningHost(String what) throws Exception {
        String pid = ssh("systemctl show -p MainPID --value spectrum-host").strip();
        FIGURES.put(what + ": host RSS", ssh("ps -o rss= -p " + pid).strip() + " kB");
        String board = ssh("systemctl show -p MainPID --value spectrum-board").strip();
        FIGURES.put(what + ": board RSS", ssh("ps -o rss= -p " + board).strip() + " kB");
        FIGURES.put(what + ": machine memory available", ssh("awk '/MemAvailable/ {print $2}' /proc/meminfo").strip() + " kB");
    }

    private static Cli.Run hostInstall(Path file, String... args) {
        List<String> a = new ArrayList<>(List.of("host", "install", "--ssh", "root@127.0.0.1", "--ssh-port", Integer.toString(sshPort),
                "--config", file.toString(), "--classpath", Cli.mainClasspathOption()));
        for (String o : sshOptions) {
            a.add("--ssh-option");
            a.add(o);
        }
        a.addAll(List.of(args));
        return Cli.run(a.toArray(String[]::new));
    }

    private static Cli.Run flash(String... args) {
        // under TCG on a loaded machine the JVM takes minutes to say ready
        List<String> a = new ArrayList<>(List.of("flash", "--ssh", "root@127.0.0.1", "--ssh-port", Integer.toString(sshPort),
                "--start-timeout", "600"));
        for (String o : sshOptions) {
            a.add("--ssh-option");
            a.add(o);
        }
        a.addAll(List.of(args));
        return Cli.run(a.toArray(String[]::new));
    }

    private static String ssh(String command) throws Exception {
        Process p = new ProcessBuilder("ssh", "-F", RUN.resolve("ssh_config").toString(), "board", command)
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        return out;
    }

    private static void script(Path log, int minutes, String script, String... args) throws Exception {
        script(log, minutes, Map.of(), script, args);
    }

    private static void script(Path log, int minutes, Map<String, String> env, String script, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve(script).toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(script + " did not finish in " + minutes + " min; log " + log);
        }
        String out = Files.readString(log);
        System.out.print(out);
        assertEquals(0, p.exitValue(), script + " failed:\n" + out);
    }

    // --- the host's client

    private static boolean any(java.util.function.Predicate<Delivery> p) {
        synchronized (GOT) {
            return GOT.stream().filter(d -> d.route().equals("/c/temp")).anyMatch(p);
        }
    }

    private static Delivery last() {
        synchronized (GOT) {
            return GOT.stream().filter(d -> d.route().equals("/c/temp")).reduce((a, b) -> b).orElseThrow();
        }
    }

    private static void pumpUntil(BooleanSupplier done, int seconds, String what) {
        pumpUntil(client, done, seconds, what, GOT);
    }

    private static void pumpUntil(PeerClient c, BooleanSupplier done, int seconds, String what, List<Delivery> got) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            c.pumpFor(Duration.ofMillis(100));
            if (done.getAsBoolean()) {
                return;
            }
        }
        synchronized (got) {
            throw new AssertionError("never: " + what + "; got " + got.stream().map(d -> d.route() + " seq=" + d.seq()
                    + (d.stale() ? " stale " + d.reason() : "")).toList());
        }
    }

    private static io.spectrum.client.Reply awaitReply(java.util.function.Supplier<io.spectrum.client.Reply> request,
                                                      int seconds) {
        return awaitReply(client, request, seconds);
    }

    private static io.spectrum.client.Reply awaitReply(PeerClient c, java.util.function.Supplier<io.spectrum.client.Reply> request,
                                                      int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        io.spectrum.client.Reply r = request.get();
        while (!r.ok() && System.nanoTime() < deadline) {
            c.pumpFor(Duration.ofMillis(500));
            r = request.get();
        }
        return r;
    }

    // --- small things

    /** A missing tool skips the test with the reason; under CI (env CI=true) it fails it, as CI runs everything. */
    private static void need(boolean present, String reason) {
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, reason);
        }
        Assumptions.assumeTrue(present, reason);
    }

    private static long ms(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
