package io.spectrum.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spectrum host install --root DIR}: the host as a systemd service, with its user and state directory. */
class HostInstallTest {
    @TempDir
    Path tmp;

    private Path rootfs() throws Exception {
        Path root = tmp.resolve("server");
        Files.createDirectories(root.resolve("etc"));
        Files.createDirectories(root.resolve("usr/bin"));
        return root;
    }

    private Path hostFile(String text) throws Exception {
        Path f = tmp.resolve("host.yaml");
        Files.writeString(f, text);
        return f;
    }

    private static Cli.Run install(Path root, Path file, String... extra) {
        List<String> args = new ArrayList<>(List.of("host", "install", "--root", root.toString(), "--config", file.toString(),
                "--classpath", Cli.mainClasspathOption()));
        args.addAll(List.of(extra));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void installsTheHostWithItsFileUserStateDirectoryAndUnit_andAnUpdateKeepsTheState() throws Exception {
        Path root = rootfs();
        Path file = hostFile("name: shed\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n");
        Cli.Run r = install(root, file);
        assertEquals(0, r.code(), r.all());
        assertFalse(r.out().contains("note:"), r.out());
        assertTrue(Files.isExecutable(root.resolve("opt/spectrum-host/bin/spectrum-host")));
        assertEquals(Files.readString(file), Files.readString(root.resolve("etc/spectrum/host.yaml")));
        assertEquals("u spectrum-host - \"Spectrum host\" /var/lib/spectrum-host\n",
                Files.readString(root.resolve("usr/lib/sysusers.d/spectrum-host.conf")));
        assertTrue(Files.isDirectory(root.resolve("var/lib/spectrum-host")));
        assertEquals("/etc/systemd/system/spectrum-host.service",
                Files.readSymbolicLink(root.resolve("etc/systemd/system/multi-user.target.wants/spectrum-host.service")).toString());
        String unit = Files.readString(root.resolve("etc/systemd/system/spectrum-host.service"));
        assertTrue(unit.contains("User=spectrum-host\n") && unit.contains("StateDirectory=spectrum-host\n"), unit);

        // the installed launcher runs `spectrum host --config` with the host file next to the install
        Cli.Run help = Cli.exec(List.of(root.resolve("opt/spectrum-host/bin/spectrum-host").toString(), "--duration", "1",
                "--no-such-option"), Map.of("JAVA_OPTS", "-Xmx64m"), tmp);
        assertEquals(2, help.code(), help.all());
        assertTrue(help.all().contains("--no-such-option"), help.all());

        // an update: the state directory and an edited host file stay, the rest is rewritten
        Files.writeString(root.resolve("var/lib/spectrum-host/history.db"), "the host's history");
        Files.writeString(root.resolve("etc/spectrum/host.yaml"), "name: edited\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n");
        Cli.Run again = install(root, hostFile("name: other\nudp: :7701\n"));
        assertEquals(0, again.code(), again.all());
        assertEquals("the host's history", Files.readString(root.resolve("var/lib/spectrum-host/history.db")));
        assertEquals("name: edited\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n", Files.readString(root.resolve("etc/spectrum/host.yaml")));
        assertTrue(again.out().contains("kept the existing host file"), again.out());
        assertTrue(again.out().contains("kept (an update never touches it)"), again.out());
    }

    @Test
    void aWrongHostFileIsRefusedWithItsLineAndNothingIsWritten() throws Exception {
        Path root = rootfs();
        Cli.Run r = install(root, hostFile("name: shed\nudp: :7701\ndashbaord: 8080\n"));
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith("spectrum host install: "), r.err());
        assertTrue(r.err().contains("dashbaord"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(root.resolve("opt")), "nothing written");
    }

    @Test
    void aHostFileWithoutTheStateDirectoryIsToldWhereItsHistoryCanGo() throws Exception {
        Cli.Run r = install(rootfs(), hostFile("name: shed\nudp: :7701\n"));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("note: the host file names no state-dir: the history is kept in memory only;"
                + " add state-dir: /var/lib/spectrum-host"), r.out());
    }

    @Test
    void theHostUnitPassesSystemdAnalyzeVerify() throws Exception {
        Path analyze = io.spectrum.testing.Tools.require("systemd-analyze", "systemd", "the installed unit is checked by systemd-analyze verify");
        Path root = rootfs();
        assertEquals(0, install(root, hostFile("name: shed\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n")).code());
        // verify the installed unit as is, with its paths pointed at things that exist here, and a user that exists
        String unit = Files.readString(root.resolve("etc/systemd/system/spectrum-host.service"))
                .replace("ExecStart=/opt/spectrum-host/bin/spectrum-host", "ExecStart=" + root.resolve("opt/spectrum-host/bin/spectrum-host"))
                .replace("WorkingDirectory=/var/lib/spectrum-host", "WorkingDirectory=" + root.resolve("var/lib/spectrum-host"));
        Path copy = tmp.resolve("spectrum-host.service");
        Files.writeString(copy, unit);
        Cli.Run v = Cli.exec(List.of(analyze.toString(), "verify", copy.toString()), Map.of(), tmp);
        assertEquals(0, v.code(), v.out());
        // systemd only warns about unknown keys and bad values: any line naming the unit is a finding
        assertTrue(v.out().lines().noneMatch(l -> l.contains(copy.getFileName().toString())), v.out());
        assertTrue(unit.contains("ProtectSystem=strict") && unit.contains("Restart=on-failure"), unit);
    }

    @Test
    void overSshTheHostIsInstalledUserMadeAndRestarted_andAnUpdateKeepsTheStateAndTheHostFile() throws Exception {
        Path root = rootfs();
        Path bin = Files.createDirectories(tmp.resolve("fakebin"));
        Path log = tmp.resolve("calls.log");
        for (String tool : List.of("systemctl", "systemd-sysusers")) {
            Files.writeString(bin.resolve(tool), "#!/bin/sh\necho \"" + tool + " $*\" >> \"$FAKE_LOG\"\n"
                    + "[ \"$1\" = is-active ] && echo active\nexit 0\n");
            Files.setPosixFilePermissions(bin.resolve(tool), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        // ssh and scp onto the root: the check (systemd), mktemp, the copy, the script run by sh
        io.spectrum.packaging.SshInstaller.Runner runner = (cmd, in) -> {
            String last = cmd.get(cmd.size() - 1);
            if (last.equals("sh -s check")) {
                return new io.spectrum.packaging.SshInstaller.Result(0, "systemd=yes\nport=\n", "");
            }
            if (last.startsWith("mktemp")) {
                Files.createDirectories(root.resolve("tmp/spectrum-flash.h1"));
                return new io.spectrum.packaging.SshInstaller.Result(0, "/tmp/spectrum-flash.h1\n", "");
            }
            List<String> run = new ArrayList<>();
            if (cmd.get(0).equals("scp")) {
                run.addAll(List.of("cp", "-R", "-L")); // as scp -r: it follows symlinks, and a dangling one fails the copy
                run.addAll(cmd.subList(1, cmd.size() - 1).stream().filter(a -> a.startsWith("/")).toList());
                run.add(root + last.substring(last.indexOf(':') + 1));
            } else {
                run.addAll(List.of("sh", "-s"));
            }
            ProcessBuilder pb = new ProcessBuilder(run);
            pb.environment().put("SPECTRUM_FLASH_ROOT", root.toString());
            pb.environment().put("FAKE_LOG", log.toString());
            pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            Process p = pb.start();
            try (var o = p.getOutputStream()) {
                if (in != null) {
                    o.write(in);
                }
            }
            String out = new String(p.getInputStream().readAllBytes());
            return new io.spectrum.packaging.SshInstaller.Result(p.waitFor(), out, new String(p.getErrorStream().readAllBytes()));
        };
        Path file = hostFile("name: shed\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n");
        java.io.StringWriter out = new java.io.StringWriter();
        new io.spectrum.packaging.SshInstaller(runner).installHost("admin@server", 22,
                new io.spectrum.packaging.HostBundle(Cli.mainClasspath(), null, file, false), false, false, new java.io.PrintWriter(out));
        assertTrue(out.toString().contains("spectrum-host.service: active"), out.toString());
        assertTrue(out.toString().contains("made /var/lib/spectrum-host"), out.toString());
        assertEquals(Files.readString(file), Files.readString(root.resolve("etc/spectrum/host.yaml")));
        assertTrue(Files.isExecutable(root.resolve("opt/spectrum-host/bin/spectrum-host")));
        assertTrue(Files.isRegularFile(root.resolve("usr/lib/sysusers.d/spectrum-host.conf")));
        assertTrue(Files.isRegularFile(root.resolve("etc/systemd/system/spectrum-host.service")));
        assertEquals(List.of("systemd-sysusers /usr/lib/sysusers.d/spectrum-host.conf", "systemctl daemon-reload",
                "systemctl enable spectrum-host.service", "systemctl restart spectrum-host.service",
                "systemctl is-active spectrum-host.service"), Files.readAllLines(log));
        assertFalse(Files.exists(root.resolve("tmp/spectrum-flash.h1")), "the copy is removed");

        Files.writeString(root.resolve("var/lib/spectrum-host/history.db"), "the host's history");
        out = new java.io.StringWriter();
        new io.spectrum.packaging.SshInstaller(runner).installHost("admin@server", 22,
                new io.spectrum.packaging.HostBundle(Cli.mainClasspath(), null, hostFile("name: other\nudp: :7701\n"), false),
                false, false, new java.io.PrintWriter(out));
        assertTrue(out.toString().contains("kept /var/lib/spectrum-host"), out.toString());
        assertEquals("the host's history", Files.readString(root.resolve("var/lib/spectrum-host/history.db")));
        assertEquals("name: shed\nudp: :7701\nstate-dir: /var/lib/spectrum-host\n", Files.readString(root.resolve("etc/spectrum/host.yaml")),
                "the host file stays");
    }
}
