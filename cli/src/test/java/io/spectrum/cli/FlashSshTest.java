package io.spectrum.cli;

import io.spectrum.packaging.BoardBundle;
import io.spectrum.packaging.BoardConfig;
import io.spectrum.packaging.FlashException;
import io.spectrum.packaging.SshInstaller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `flash --ssh` against fake ssh/scp programs on PATH that log their arguments. */
class FlashSshTest {
    @TempDir
    Path tmp;

    private Path fakeBin() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("fakebin"));
        // ssh: log the args; answer mktemp; log the script fed on stdin; FAKE_SSH_FAIL=255 simulates no route
        write(bin.resolve("ssh"), """
                #!/bin/sh
                echo "ssh $*" >> "$FAKE_LOG"
                if [ -n "$FAKE_SSH_FAIL" ]; then echo "ssh: connect to host board port 22: No route to host" >&2; exit "$FAKE_SSH_FAIL"; fi
                for last; do :; done
                case "$last" in
                  "sh -s check") cat > /dev/null; printf '%s\n' "${FAKE_PROBE:-systemd=yes}" ;;
                  mktemp*) echo /tmp/spectrum-flash.Ab12Cd ;;
                  *"sh -s") echo "--- stdin" >> "$FAKE_LOG"; cat >> "$FAKE_LOG"; echo "--- end" >> "$FAKE_LOG"; echo "spectrum-board.service: active" ;;
                esac
                """);
        // scp: log the args and copy the local sources into FAKE_REMOTE (what the board would receive)
        write(bin.resolve("scp"), """
                #!/bin/sh
                echo "scp $*" >> "$FAKE_LOG"
                for a; do case "$a" in /*) [ -e "$a" ] && cp -R "$a" "$FAKE_REMOTE/" ;; esac; done
                exit 0
                """);
        return bin;
    }

    private static void write(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Cli.Run flashInChildJvm(Map<String, String> extraEnv, String... args) throws Exception {
        Path bin = fakeBin();
        Path remote = Files.createDirectories(tmp.resolve("remote"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + Files.createDirectories(tmp.resolve("jtmp")),
                SpectrumCommand.class.getName(), "flash"));
        cmd.addAll(List.of(args));
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "PATH", bin + ":" + System.getenv("PATH"),
                "FAKE_LOG", tmp.resolve("ssh.log").toString(),
                "FAKE_REMOTE", remote.toString()));
        env.putAll(extraEnv);
        return Cli.exec(cmd, env, tmp);
    }

    /** A board that runs systemd, answers mktemp, and whose install script succeeds. */
    static SshInstaller.Result answer(List<String> cmd) {
        String last = cmd.get(cmd.size() - 1);
        return new SshInstaller.Result(0, last.equals("sh -s check") ? "systemd=yes\n"
                : last.startsWith("mktemp") ? "/tmp/spectrum-flash.x1\n" : "", "");
    }

    @Test
    void copiesWithScpAndEnablesOverSsh() throws Exception {
        Cli.Run r = flashInChildJvm(Map.of(), "--ssh", "pi@board.local", "--baud", "57600");
        assertEquals(0, r.code(), r.out());
        List<String> log = Files.readAllLines(tmp.resolve("ssh.log"));
        assertEquals("ssh -o BatchMode=yes -o ConnectTimeout=15 pi@board.local sh -s check", log.remove(0), "the board is asked first");
        assertEquals("ssh -o BatchMode=yes -o ConnectTimeout=15 pi@board.local mktemp -d /tmp/spectrum-flash.XXXXXX", log.get(0));
        String scp = log.get(1);
        assertTrue(scp.matches("scp -q -r -o BatchMode=yes -o ConnectTimeout=15 \\S+/opt \\S+/etc pi@board\\.local:/tmp/spectrum-flash\\.Ab12Cd/"), scp);
        assertEquals("ssh -o BatchMode=yes -o ConnectTimeout=15 pi@board.local sudo -n sh -s", log.get(2));
        String script = String.join("\n", log.subList(3, log.size()));
        assertTrue(script.contains("S=$F/tmp/spectrum-flash.Ab12Cd"), script);
        assertTrue(script.contains("systemctl enable spectrum-board.service"), script);
        assertTrue(script.contains("systemctl restart spectrum-board.service"), script);
        assertTrue(script.contains("systemctl daemon-reload"), script);

        // what scp shipped is the bundle, with the options in board.conf
        Path remote = tmp.resolve("remote");
        assertTrue(Files.isExecutable(remote.resolve("opt/spectrum/bin/spectrum-board")));
        assertTrue(Files.exists(remote.resolve("etc/systemd/system/spectrum-board.service")));
        assertTrue(Files.readString(remote.resolve("etc/spectrum/board.conf")).contains("BAUD=57600\n"));
        // the local staging directory is gone
        String stage = scp.split(" ")[7].replaceAll("/opt$", "");
        assertFalse(Files.exists(Path.of(stage)), "staging dir " + stage + " was removed");
        assertTrue(r.out().contains("spectrum-board.service: active"), r.out());
    }

    @Test
    void anUnreachableBoardGivesAClearError() throws Exception {
        Cli.Run r = flashInChildJvm(Map.of("FAKE_SSH_FAIL", "255"), "--ssh", "pi@board.local");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("cannot reach pi@board.local over ssh"), r.out());
        assertTrue(r.out().contains("ssh-copy-id"), r.out());
    }

    @Test
    void portRootLoginAndBadTargets() throws Exception {
        List<List<String>> calls = new ArrayList<>();
        List<String> stdin = new ArrayList<>();
        SshInstaller installer = new SshInstaller((cmd, in) -> {
            calls.add(cmd);
            if (in != null) {
                stdin.add(new String(in, StandardCharsets.UTF_8));
            }
            return answer(cmd);
        });
        BoardBundle bundle = new BoardBundle(Cli.mainClasspath(), null, BoardConfig.defaults(), false);
        StringWriter out = new StringWriter();
        installer.install("root@10.0.0.7", 2222, bundle, true, false, new PrintWriter(out));
        calls.remove(0); // the check
        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-p", "2222", "root@10.0.0.7",
                "mktemp -d /tmp/spectrum-flash.XXXXXX"), calls.get(0));
        assertEquals(List.of("-P", "2222"), calls.get(1).subList(7, 9));
        assertEquals("sh -s", calls.get(2).get(calls.get(2).size() - 1), "root needs no sudo");
        assertTrue(stdin.get(1).contains("[ yes = yes ]"), "--reset-config reaches the script");

        for (String bad : List.of("-oProxyCommand=evil", "pi@host name", "")) {
            FlashException e = assertThrows(FlashException.class,
                    () -> installer.install(bad, 22, bundle, false, false, new PrintWriter(new StringWriter())));
            assertEquals(2, e.exitCode());
        }
        assertEquals(3, calls.size(), "bad targets ran nothing");
    }

    @Test
    void sshOptionsReachEverySshAndScpAndAMalformedOneRunsNothing() throws Exception {
        List<List<String>> calls = new ArrayList<>();
        SshInstaller.Runner runner = (cmd, in) -> {
            calls.add(cmd);
            return answer(cmd);
        };
        BoardBundle bundle = new BoardBundle(Cli.mainClasspath(), null, BoardConfig.defaults(), false);
        List<String> options = List.of("IdentityFile=/keys/board_ed25519", "UserKnownHostsFile=/keys/known_hosts");
        new SshInstaller(runner, options).install("root@127.0.0.1", 2222, bundle, false, false, new PrintWriter(new StringWriter()));
        assertEquals(4, calls.size());
        for (List<String> call : calls) {
            String line = String.join(" ", call);
            assertTrue(line.contains("-o IdentityFile=/keys/board_ed25519 -o UserKnownHostsFile=/keys/known_hosts"), line);
        }
        assertEquals("root@127.0.0.1", calls.get(0).get(calls.get(0).size() - 2), "the options come before the target");

        calls.clear();
        for (String bad : List.of("-oProxyCommand=evil", "IdentityFile", "=x", "IdentityFile= x")) {
            FlashException e = assertThrows(FlashException.class, () -> new SshInstaller(runner, List.of(bad))
                    .install("root@127.0.0.1", 22, bundle, false, false, new PrintWriter(new StringWriter())));
            assertEquals(2, e.exitCode(), bad);
            assertTrue(e.getMessage().contains("--ssh-option"), e.getMessage());
        }
        assertEquals(0, calls.size(), "a malformed option ran nothing");
    }

    /** Flashes with a runner whose check answers {@code facts}; the calls made land in {@code calls}. */
    private static FlashException refusedBy(String facts, BoardConfig config, List<List<String>> calls) {
        SshInstaller installer = new SshInstaller((cmd, in) -> {
            calls.add(cmd);
            String last = cmd.get(cmd.size() - 1);
            return last.equals("sh -s check") ? new SshInstaller.Result(0, facts, "") : answer(cmd);
        });
        BoardBundle bundle = new BoardBundle(Cli.mainClasspath(), null, config, false);
        return assertThrows(FlashException.class,
                () -> installer.install("pi@board", 22, bundle, false, false, new PrintWriter(new StringWriter())));
    }

    @Test
    void aBoardWhoseUartIsASerialConsoleIsRefusedBeforeAnythingIsCopied() throws Exception {
        BoardConfig serial = BoardConfig.defaults(); // /dev/serial0
        // Raspberry Pi OS with the serial console on: serial0 -> ttyAMA0, console=serial0 in cmdline.txt, its getty
        List<List<String>> calls = new ArrayList<>();
        FlashException e = refusedBy("""
                systemd=yes
                port=/dev/serial0
                device=/dev/ttyAMA0
                getty-enabled=enabled-runtime
                getty-active=active
                console=serial0 /dev/ttyAMA0
                console=tty1 /dev/tty1
                """, serial, calls);
        assertEquals(FlashException.USAGE, e.exitCode());
        assertEquals("the board's UART /dev/serial0 (/dev/ttyAMA0) on pi@board is a serial console (console=serial0 on the kernel"
                + " command line, serial-getty@ttyAMA0 runs): free it with sudo raspi-config, Interface Options, Serial Port,"
                + " login shell No, serial hardware Yes, and reboot (another Linux: remove console=ttyAMA0 from the kernel command"
                + " line and systemctl disable --now serial-getty@ttyAMA0), then flash again", e.getMessage());
        assertEquals(1, calls.size(), "only the check ran: nothing copied, nothing installed");

        // the kernel's console alone, or an enabled getty alone, each takes the port
        assertTrue(refusedBy("systemd=yes\nport=/dev/ttyAMA0\ndevice=/dev/ttyAMA0\ngetty-enabled=disabled\n"
                + "getty-active=inactive\nconsole=ttyAMA0 /dev/ttyAMA0\n", serial, new ArrayList<>()).getMessage()
                .contains("(console=ttyAMA0 on the kernel command line)"));
        assertTrue(refusedBy("systemd=yes\nport=/dev/ttyAMA0\ndevice=/dev/ttyAMA0\ngetty-enabled=enabled\n"
                + "getty-active=inactive\nconsole=hvc0 \n", serial, new ArrayList<>()).getMessage()
                .contains("(serial-getty@ttyAMA0 is enabled)"));
    }

    @Test
    void aUartTheServicesGroupCannotOpenIsRefused() throws Exception {
        BoardConfig serial = new BoardConfig("/dev/ttyAMA0", 115200, "", "");
        String free = "systemd=yes\nport=/dev/ttyAMA0\ndevice=/dev/ttyAMA0\ngetty-enabled=disabled\ngetty-active=inactive\n"
                + "console=hvc0 \n";
        // what a stopped serial-getty leaves: systemd gave the tty to group tty, mode 0620
        List<List<String>> calls = new ArrayList<>();
        FlashException e = refusedBy(free + "access=tty 620\n", serial, calls);
        assertEquals(FlashException.USAGE, e.exitCode());
        assertEquals("the board's UART /dev/ttyAMA0 on pi@board is group tty, mode 620, which the board service's user"
                + " (group dialout) cannot open (a stopped serial-getty@ttyAMA0 leaves it so until the next boot): reboot,"
                + " or sudo chgrp dialout /dev/ttyAMA0 && sudo chmod 660 /dev/ttyAMA0, then flash again", e.getMessage());
        assertEquals(1, calls.size(), "only the check ran: nothing copied, nothing installed");
        // group dialout without its write bit is refused too
        assertTrue(refusedBy(free + "access=dialout 640\n", serial, new ArrayList<>()).getMessage()
                .contains("is group dialout, mode 640"));

        // udev's root:dialout 0660, a device anyone may open, and a board whose stat said nothing all pass
        for (String access : List.of("access=dialout 660\n", "access=root 666\n", "access=\n", "")) {
            List<List<String>> ok = new ArrayList<>();
            SshInstaller installer = new SshInstaller((cmd, in) -> {
                ok.add(cmd);
                return cmd.get(cmd.size() - 1).equals("sh -s check") ? new SshInstaller.Result(0, free + access, "") : answer(cmd);
            });
            installer.install("pi@board", 22, new BoardBundle(Cli.mainClasspath(), null, serial, false), false, false,
                    new PrintWriter(new StringWriter()));
            assertEquals(4, ok.size(), "checked, then copied and installed: " + access);
        }
    }

    @Test
    void aBoardWithoutSystemdIsRefused() throws Exception {
        List<List<String>> calls = new ArrayList<>();
        FlashException e = refusedBy("systemd=no\nport=\n", new BoardConfig("", 115200, "0.0.0.0:7700", ""), calls);
        assertEquals(FlashException.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("pi@board does not run systemd (no /run/systemd/system)"), e.getMessage());
        assertEquals(1, calls.size());
    }

    @Test
    void aFreeUartAConsoleElsewhereOrAUdpBoardPassTheCheck() throws Exception {
        List<List<String>> calls = new ArrayList<>();
        SshInstaller installer = new SshInstaller((cmd, in) -> {
            calls.add(cmd);
            return cmd.get(cmd.size() - 1).equals("sh -s check")
                    ? new SshInstaller.Result(0, "systemd=yes\nport=/dev/ttyAMA0\ndevice=/dev/ttyAMA0\ngetty-enabled=disabled\n"
                    + "getty-active=inactive\nconsole=hvc0 \nconsole=ttyS0 /dev/ttyS0\n", "") : answer(cmd);
        });
        BoardBundle bundle = new BoardBundle(Cli.mainClasspath(), null, new BoardConfig("/dev/ttyAMA0", 115200, "", ""), false);
        installer.install("pi@board", 22, bundle, false, false, new PrintWriter(new StringWriter()));
        assertEquals(4, calls.size(), "checked, then copied and installed");
    }

    @Test
    void theRefusalIsOneLineAndExitTwoFromTheCommand() throws Exception {
        Cli.Run r = flashInChildJvm(Map.of("FAKE_PROBE", "systemd=yes\nport=/dev/ttyAMA0\ndevice=/dev/ttyAMA0\n"
                + "getty-enabled=disabled\ngetty-active=inactive\nconsole=ttyAMA0 /dev/ttyAMA0"), "--ssh", "pi@board.local",
                "--serial", "/dev/ttyAMA0");
        assertEquals(2, r.code(), r.all());
        List<String> err = r.out().lines().filter(l -> l.startsWith("spectrum flash:")).toList(); // exec merges the outputs
        assertEquals(1, err.size(), r.out());
        assertTrue(r.out().strip().endsWith(err.get(0)), "the refusal is the last line: " + r.out());
        assertTrue(err.get(0).startsWith("spectrum flash: the board's UART /dev/ttyAMA0 on pi@board.local is a serial console"),
                err.get(0));
        assertEquals(1, Files.readAllLines(tmp.resolve("ssh.log")).size(), "nothing but the check ran");
    }
}
