package io.spectrum.cli;

import io.spectrum.packaging.BoardBundle;
import io.spectrum.packaging.BoardConfig;
import io.spectrum.packaging.FlashException;
import io.spectrum.packaging.SshInstaller;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code flash --ssh} updates: the install script the board runs is run here for real, by sh, on a
 * board root under a temp directory (SPECTRUM_FLASH_ROOT), with fake systemctl and journalctl that
 * make a release fail to start when its name holds FAKE_BAD. ssh and scp are a runner that copies
 * into that root and runs the script.
 */
class FlashSshReleasesTest {
    @TempDir
    Path tmp;
    private Path root;
    private Path bin;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void board() throws Exception {
        root = Files.createDirectories(tmp.resolve("board"));
        bin = Files.createDirectories(tmp.resolve("fakebin"));
        // systemctl: the service fails (is-active: failed) while current points at a release named with FAKE_BAD
        write(bin.resolve("systemctl"), """
                #!/bin/sh
                echo "systemctl $*" >> "$FAKE_LOG"
                cur=$(readlink "$SPECTRUM_FLASH_ROOT/opt/spectrum/current")
                bad=no
                if [ -n "$FAKE_BAD" ]; then case "$cur" in *"$FAKE_BAD"*) bad=yes ;; esac; fi
                case "$1" in
                  is-active) if [ $bad = yes ]; then echo failed; exit 3; fi; echo active ;;
                  show) case "$3" in NRestarts) echo 0 ;; InvocationID) echo "inv-${cur##*/}" ;; esac ;;
                esac
                exit 0
                """);
        // journalctl: a good release says ready; a bad one says why it stopped; FAKE_SILENT says nothing
        write(bin.resolve("journalctl"), """
                #!/bin/sh
                cur=$(readlink "$SPECTRUM_FLASH_ROOT/opt/spectrum/current")
                if [ -n "$FAKE_BAD" ]; then case "$cur" in *"$FAKE_BAD"*)
                  echo "Error: Could not find or load main class io.spectrum.board.BoardMain"; exit 0 ;; esac; fi
                [ -n "$FAKE_SILENT" ] || echo "board1 ready on udp 0.0.0.0:7700"
                """);
        write(bin.resolve("sleep"), "#!/bin/sh\nexec /bin/sleep 0.05\n");
        write(bin.resolve("sync"), "#!/bin/sh\necho sync >> \"$FAKE_LOG\"\n");
        env.put("FAKE_LOG", tmp.resolve("systemctl.log").toString());
    }

    private static void write(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** ssh and scp onto the board root: mktemp, scp's copy, the check (a systemd board), and the script run by sh. */
    private SshInstaller.Result run(List<String> cmd, byte[] in) throws java.io.IOException, InterruptedException {
        String last = cmd.get(cmd.size() - 1);
        if (cmd.get(0).equals("scp")) {
            String dest = last.substring(last.indexOf(':') + 1);
            for (String a : cmd.subList(1, cmd.size() - 1)) {
                if (a.startsWith("/") && Files.exists(Path.of(a))) {
                    exec(List.of("cp", "-R", a, root + dest), null);
                }
            }
            return new SshInstaller.Result(0, "", "");
        }
        if (last.equals("sh -s check")) {
            return new SshInstaller.Result(0, "systemd=yes\nport=\n", "");
        }
        if (last.startsWith("mktemp")) {
            Files.createDirectories(root.resolve("tmp/spectrum-flash.t1"));
            return new SshInstaller.Result(0, "/tmp/spectrum-flash.t1\n", "");
        }
        assertEquals("sh -s", last);
        return exec(List.of("sh", "-s"), in);
    }

    private SshInstaller.Result exec(List<String> cmd, byte[] in) throws java.io.IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.environment().put("SPECTRUM_FLASH_ROOT", root.toString());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process p = pb.start();
        try (var o = p.getOutputStream()) {
            if (in != null) {
                o.write(in);
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new SshInstaller.Result(p.waitFor(), out, err);
    }

    private String flash(String release, BoardConfig config, Path runtime, Path boardFile) throws Exception {
        return flash(release, config, runtime, boardFile, SshInstaller.DEFAULT_START_SECONDS);
    }

    private String flash(String release, BoardConfig config, Path runtime, Path boardFile, int startSeconds) throws Exception {
        BoardBundle bundle = new BoardBundle(Cli.mainClasspath(), runtime, config, true, null, boardFile, List.of());
        StringWriter out = new StringWriter();
        new SshInstaller(this::run).release(release).startTimeout(startSeconds)
                .install("root@board", 22, bundle, true, runtime != null, new PrintWriter(out));
        return out.toString();
    }

    private String current() throws Exception {
        return Files.readSymbolicLink(root.resolve("opt/spectrum/current")).toString();
    }

    private List<String> releases() throws Exception {
        try (Stream<Path> s = Files.list(root.resolve("opt/spectrum/releases"))) {
            return s.map(p -> p.getFileName().toString().replaceAll("-\\d{8}T\\d{6}Z$", "")).sorted().toList();
        }
    }

    private static BoardConfig udp(int port) {
        return new BoardConfig("", 115200, "0.0.0.0:" + port, "");
    }

    @Test
    void aSecondFlashThatDoesNotStartIsRolledBackToTheRunningRelease_withItsConfigAndBoardFile() throws Exception {
        Path runtime = Files.createDirectories(tmp.resolve("rt/bin"));
        write(runtime.resolve("java"), "#!/bin/sh\necho bundled java\n");
        String first = flash("1.0", udp(7700), tmp.resolve("rt"), null);
        assertTrue(first.contains("spectrum-board.service: active"), first);
        assertTrue(current().startsWith("releases/1.0-"), current());
        assertEquals("current/lib", Files.readSymbolicLink(root.resolve("opt/spectrum/lib")).toString(),
                "the unit's and the launcher's paths lead to the current release");
        assertTrue(Files.isExecutable(root.resolve("opt/spectrum/bin/spectrum-board")));
        assertTrue(Files.isExecutable(root.resolve("opt/spectrum/runtime/bin/java")));
        String good = current();

        // a release that fails to start, with another config and a board file: all of it goes back
        Path file = tmp.resolve("board.yaml");
        Files.writeString(file, "name: shed\nvertices:\n  - {path: /level, type: u16, initial: 7}\n");
        env.put("FAKE_BAD", "2.0");
        FlashException e = assertThrows(FlashException.class, () -> flash("2.0", udp(7800), null, file));
        assertEquals(FlashException.FAILED, e.exitCode());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("the new release did not come up on root@board within 120 s (its last line: "
                + "Error: Could not find or load main class io.spectrum.board.BoardMain); rolled back to the previous release"),
                e.getMessage());
        assertEquals(good, current(), "the running release is current again");
        assertEquals(List.of("1.0"), releases(), "the failed release is removed");
        assertTrue(Files.readString(root.resolve("etc/spectrum/board.conf")).contains("UDP=0.0.0.0:7700\n"),
                "its board.conf is back");
        assertFalse(Files.exists(root.resolve("etc/spectrum/board.yaml")), "it ran without a board file: none again");
        assertTrue(Files.readString(tmp.resolve("systemctl.log")).lines().filter(l -> l.equals("systemctl restart spectrum-board.service"))
                .count() >= 3, "restarted for the new release and again for the old one");
        // every restart comes after a sync: the files a restart runs with are on the disk if the power goes
        List<String> log = Files.readAllLines(tmp.resolve("systemctl.log"));
        assertEquals(3, log.stream().filter(l -> l.equals("sync")).count(), "synced once per install and once after the rollback: " + log);
        boolean synced = false;
        for (String l : log) {
            if (l.equals("sync")) {
                synced = true;
            } else if (l.equals("systemctl daemon-reload")) {
                assertTrue(synced, "a reload with files not yet synced: " + log);
                synced = false;
            }
        }

        // a good update: beside the running one, which is kept for the next rollback; the runtime stays without a copy
        env.remove("FAKE_BAD");
        String third = flash("3.0", udp(7700), null, null);
        assertTrue(third.contains("the previous, " + good.substring("releases/".length())), third);
        assertTrue(current().startsWith("releases/3.0-"), current());
        Path keptRuntime = root.resolve("opt/spectrum").resolve(current()).resolve("runtime/bin/java");
        assertTrue(Files.isExecutable(keptRuntime), "the runtime not shipped this time stays");
        assertEquals(Files.getAttribute(keptRuntime, "unix:ino"),
                Files.getAttribute(root.resolve("opt/spectrum").resolve(good).resolve("runtime/bin/java"), "unix:ino"),
                "a hard link, not a second copy");
        flash("4.0", udp(7700), null, null);
        assertEquals(List.of("3.0", "4.0"), releases(), "two kept: the current and the previous");
    }

    @Test
    void theServiceGetsTheDeviceGroupsTheBoardHasAndOnlyThose() throws Exception {
        // getent: the board has the groups named in FAKE_GROUPS
        write(bin.resolve("getent"), "#!/bin/sh\ncase \" $FAKE_GROUPS \" in *\" $2 \"*) echo \"$2:x:100:\"; exit 0 ;; esac\nexit 2\n");
        Path dropIn = root.resolve(BoardBundle.GROUPS_DROP_IN);
        env.put("FAKE_GROUPS", "i2c spi");
        flash("1.0", udp(7700), null, null);
        assertEquals("# written by spectrum flash: the device groups this system has (docs/board.md)\n[Service]\n"
                + "SupplementaryGroups=i2c spi\n", Files.readString(dropIn), "the groups the board has, in the unit's drop-in");
        env.put("FAKE_GROUPS", "");
        flash("2.0", udp(7700), null, null);
        assertFalse(Files.exists(dropIn), "a board without those groups gets no drop-in (a missing group would stop the unit)");
    }

    @Test
    void anInstallFromBeforeReleasesBecomesTheReleaseToRollBackTo() throws Exception {
        Path home = Files.createDirectories(root.resolve("opt/spectrum/lib"));
        Files.writeString(home.resolve("old.jar"), "the old install");
        Files.createDirectories(root.resolve("opt/spectrum/bin"));
        write(root.resolve("opt/spectrum/bin/spectrum-board"), "#!/bin/sh\n");
        Files.createDirectories(root.resolve("etc/spectrum"));
        Files.writeString(root.resolve("etc/spectrum/board.conf"), "SERIAL_PORT=/dev/serial0\n");
        env.put("FAKE_BAD", "2.0");
        FlashException e = assertThrows(FlashException.class, () -> flash("2.0", udp(7700), null, null));
        assertTrue(e.getMessage().contains("rolled back to the previous release"), e.getMessage());
        assertEquals("releases/0-flat", current());
        assertEquals("the old install", Files.readString(root.resolve("opt/spectrum/lib/old.jar")), "seen through /opt/spectrum/lib");
        assertEquals("SERIAL_PORT=/dev/serial0\n", Files.readString(root.resolve("etc/spectrum/board.conf")));
    }

    @Test
    void aFirstInstallThatStaysSilentPastTheStartTimeoutFailsInOneLine() throws Exception {
        env.put("FAKE_SILENT", "yes");
        FlashException e = assertThrows(FlashException.class, () -> flash("1.0", udp(7700), null, null, 1));
        assertEquals(FlashException.FAILED, e.exitCode());
        assertTrue(e.getMessage().startsWith("spectrum-board.service did not come up on root@board within 1 s"), e.getMessage());
        assertTrue(e.getMessage().contains("there is no earlier release to go back to"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
