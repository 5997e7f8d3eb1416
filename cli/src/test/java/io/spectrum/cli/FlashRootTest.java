package io.spectrum.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlashRootTest {
    @TempDir
    Path tmp;

    private Path rootfs() throws Exception {
        Path root = tmp.resolve("pi");
        Files.createDirectories(root.resolve("etc"));
        Files.createDirectories(root.resolve("usr/bin"));
        return root;
    }

    private Cli.Run flash(Path root, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("flash", "--root", root.toString()));
        args.addAll(List.of(extra));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void refusesAMissingDirectoryAndSaysWhatToDo() {
        Cli.Run r = flash(tmp.resolve("nope"));
        assertEquals(2, r.code());
        assertTrue(r.err().contains("does not exist"), r.err());
        assertTrue(r.err().contains("sudo mount"), r.err());
        assertFalse(Files.exists(tmp.resolve("nope")), "nothing was created");
    }

    @Test
    void refusesSomethingThatIsNotARootfs() throws Exception {
        Path notRoot = Files.createDirectories(tmp.resolve("home"));
        Cli.Run r = flash(notRoot);
        assertEquals(2, r.code());
        assertTrue(r.err().contains("does not look like a board root file system"), r.err());
        try (Stream<Path> s = Files.list(notRoot)) {
            assertEquals(0, s.count(), "nothing was written");
        }

        Path boot = Files.createDirectories(tmp.resolve("boot"));
        Files.writeString(boot.resolve("config.txt"), "dtparam=audio=on\n");
        Cli.Run b = flash(boot);
        assertEquals(2, b.code());
        assertTrue(b.err().contains("boot partition"), b.err());
    }

    @Test
    void refusesBadOptionsBeforeTouchingAnything() throws Exception {
        Path root = rootfs();
        assertEquals(2, flash(root, "--baud", "0").code());
        Cli.Run udp = flash(root, "--udp", "nohost");
        assertEquals(2, udp.code());
        assertTrue(udp.err().contains("HOST:PORT"), udp.err());
        assertEquals(2, flash(root, "--serial", "ttyUSB0").code());
        assertEquals(2, Cli.run("flash", "--root", root.toString(), "--ssh", "pi@x").code());
        Cli.Run both = flash(root, "--serial", "/dev/ttyUSB0", "--udp", "0.0.0.0:7700");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("exactly one link"), both.err());
        assertEquals(2, Cli.run("flash").code());
        assertFalse(Files.exists(root.resolve("opt")), "refusals changed nothing");
    }

    @Test
    void installsEnablesAndIsIdempotent() throws Exception {
        Path root = rootfs();
        Cli.Run first = flash(root, "--serial", "/dev/ttyUSB0", "--baud", "230400");
        assertEquals(0, first.code(), first.all());
        assertTrue(first.out().contains("[1/6] libraries"), first.out());

        Path launcher = root.resolve("opt/spectrum/bin/spectrum-board");
        assertTrue(Files.getPosixFilePermissions(launcher).contains(PosixFilePermission.OWNER_EXECUTE));
        assertTrue(Files.readString(root.resolve("etc/systemd/system/spectrum-board.service"))
                .contains("ExecStart=/opt/spectrum/bin/spectrum-board"));
        String conf = Files.readString(root.resolve("etc/spectrum/board.conf"));
        assertTrue(conf.contains("SERIAL_PORT=/dev/ttyUSB0\n"), conf);
        assertTrue(conf.contains("BAUD=230400\n"), conf);
        Path wants = root.resolve("etc/systemd/system/multi-user.target.wants/spectrum-board.service");
        assertTrue(Files.isSymbolicLink(wants));
        assertEquals(Path.of("/etc/systemd/system/spectrum-board.service"), Files.readSymbolicLink(wants));
        try (Stream<Path> libs = Files.list(root.resolve("opt/spectrum/lib"))) {
            assertEquals(List.of("spectrum-board.jar"), libs.map(p -> p.getFileName().toString()).toList(),
                    "the board bundle is the one board jar");
        }
        assertBoardOnly(root.resolve("opt/spectrum/lib/spectrum-board.jar"));

        // the user edits the config; a second flash keeps it and changes nothing else
        Files.writeString(root.resolve("etc/spectrum/board.conf"), conf.replace("BAUD=230400", "BAUD=9600"));
        Map<String, String> before = tree(root);
        Cli.Run second = flash(root);
        assertEquals(0, second.code(), second.all());
        assertTrue(second.out().contains("kept the existing config"), second.out());
        assertFalse(second.out().contains("wrote"), second.out());
        assertEquals(before, tree(root));

        // --reset-config rewrites it from the options; --udp replaces the serial default
        assertEquals(0, flash(root, "--reset-config", "--udp", "0.0.0.0:7700").code());
        String udpConf = Files.readString(root.resolve("etc/spectrum/board.conf"));
        assertTrue(udpConf.contains("SERIAL_PORT=\n") && udpConf.contains("UDP=0.0.0.0:7700\n"), udpConf);
        assertEquals(0, flash(root, "--reset-config").code());
        assertTrue(Files.readString(root.resolve("etc/spectrum/board.conf")).contains("BAUD=115200\n"));
    }

    @Test
    void everyInstalledFileIsReadableByTheServicesDynamicUserAndAReflashMendsAnEarlierInstall() throws Exception {
        Path root = rootfs();
        assertEquals(0, flash(root, "--udp", "0.0.0.0:7700").code());
        List<String> files = List.of("opt/spectrum/lib/spectrum-board.jar", "etc/spectrum/board.conf",
                "etc/systemd/system/spectrum-board.service", "opt/spectrum/README.board", "opt/spectrum/bin/spectrum-board");
        for (String f : files) {
            assertTrue(Files.getPosixFilePermissions(root.resolve(f)).contains(PosixFilePermission.OTHERS_READ),
                    f + " is readable by a user that is not root: " + Files.getPosixFilePermissions(root.resolve(f)));
        }
        // an install made when flash left them rw------- is mended by the next flash, unchanged bytes or not
        for (String f : files) {
            Files.setPosixFilePermissions(root.resolve(f), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
        assertEquals(0, flash(root).code());
        for (String f : files) {
            assertTrue(Files.getPosixFilePermissions(root.resolve(f)).contains(PosixFilePermission.OTHERS_READ), f);
        }
    }

    @Test
    void theServiceGetsTheDeviceGroupsTheRootHas() throws Exception {
        Path root = rootfs();
        Files.writeString(root.resolve("etc/group"), "root:x:0:\ndialout:x:20:\ngpio:x:997:pi\ni2c:x:998:pi\n");
        assertEquals(0, flash(root).code());
        Path dropIn = root.resolve(io.spectrum.packaging.BoardBundle.GROUPS_DROP_IN);
        assertTrue(Files.readString(dropIn).endsWith("[Service]\nSupplementaryGroups=i2c gpio\n"), Files.readString(dropIn));
        Files.writeString(root.resolve("etc/group"), "root:x:0:\ndialout:x:20:\n");
        assertEquals(0, flash(root).code());
        assertFalse(Files.exists(dropIn), "none of the groups: no drop-in, the unit's own groups only");
    }

    @Test
    void theInstalledLauncherRuns() throws Exception {
        Path root = rootfs();
        assertEquals(0, flash(root).code());
        Path launcher = root.resolve("opt/spectrum/bin/spectrum-board");

        Cli.Run version = Cli.exec(List.of(launcher.toString(), "--version"), Map.of(), tmp);
        assertEquals(0, version.code(), version.out());
        assertTrue(version.out().contains("libtracer protocol v1"), version.out());

        // a real board run from the installed bundle, configured for UDP by board.conf
        Files.writeString(root.resolve("etc/spectrum/board.conf"),
                "SERIAL_PORT=\nUDP=127.0.0.1:0\nJAVA_OPTS=-Xmx64m\nEXTRA_ARGS=--name flashed --duration 1\n");
        Cli.Run board = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(0, board.code(), board.out());
        assertTrue(board.out().contains("flashed ready on udp 127.0.0.1:"), board.out());

        // the launcher reads board.conf next to the install and refuses a config without a link
        Files.writeString(root.resolve("etc/spectrum/board.conf"), "SERIAL_PORT=\nUDP=\n");
        Cli.Run noLink = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(2, noLink.code(), noLink.out());
        assertTrue(noLink.out().contains("names no link"), noLink.out());

        Files.writeString(root.resolve("etc/spectrum/board.conf"), "SERIAL_PORT=/dev/ttyS0\nUDP=127.0.0.1:7700\n");
        Cli.Run two = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(2, two.code(), two.out());
        assertTrue(two.out().contains("more than one of SERIAL_PORT, UDP and PEER"), two.out());

        Files.writeString(root.resolve("etc/spectrum/board.conf"), "SERIAL=/dev/ttyS0\n");
        Cli.Run typo = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(2, typo.code(), typo.out());
        assertTrue(typo.out().contains("unknown key 'SERIAL'"), typo.out());
    }

    @Test
    void underSystemdTheLauncherArchivesTheBoardsClassesOnceAndMapsThemOnLaterStarts() throws Exception {
        Path root = rootfs();
        assertEquals(0, flash(root).code());
        Path launcher = root.resolve("opt/spectrum/bin/spectrum-board");
        Path state = Files.createDirectories(tmp.resolve("state"));
        Path jsa = state.resolve("board.jsa");
        Files.writeString(root.resolve("etc/spectrum/board.conf"), "SERIAL_PORT=\nUDP=127.0.0.1:0\nEXTRA_ARGS=--duration 1\n");
        Map<String, String> systemd = Map.of("STATE_DIRECTORY", state.toString(), "SPECTRUM_CDS_POLL", "1");

        // first start: no archive yet; the board lists its classes and a detached job archives them
        Cli.Run first = Cli.exec(List.of(launcher.toString()), systemd, tmp);
        assertEquals(0, first.code(), first.out());
        assertTrue(first.out().contains("board ready on udp 127.0.0.1:"), first.out());
        for (int i = 0; i < 1200 && !Files.exists(state.resolve("board.jsa.stamp")); i++) {
            Thread.sleep(100);
        }
        assertTrue(Files.isRegularFile(jsa), "no archive; the dump said: " + read(state.resolve("board.jsa.log")));
        // the archive fits this java and these jars: -Xshare:on refuses to start otherwise
        Cli.Run mapped = Cli.exec(List.of("java", "-Xmx16m", "-Xmn2m", "-XX:+UseSerialGC", "-XX:SharedArchiveFile=" + jsa, "-Xshare:on",
                "-cp", root.resolve("opt/spectrum/lib") + "/*", "io.spectrum.board.BoardMain", "--version"), Map.of(), tmp);
        assertEquals(0, mapped.code(), mapped.out());

        // a later start keeps the archive (the class list is not made again) and the board runs, even
        // when a jar gained a hard link (an update links the files it keeps into its new release)
        java.nio.file.attribute.FileTime listed = Files.getLastModifiedTime(state.resolve("board.jsa.classes"));
        try (var jars = Files.newDirectoryStream(root.resolve("opt/spectrum/lib"), "*.jar")) {
            Files.createLink(tmp.resolve("linked.jar"), jars.iterator().next());
        }
        Cli.Run second = Cli.exec(List.of(launcher.toString()), systemd, tmp);
        assertEquals(0, second.code(), second.out());
        assertTrue(second.out().contains("board ready on udp 127.0.0.1:"), second.out());
        assertEquals(listed, Files.getLastModifiedTime(state.resolve("board.jsa.classes")));
        assertTrue(Files.isRegularFile(state.resolve("board.jsa.stamp")));

        // a broken archive costs only the sharing: the JVM ignores it and the board runs
        Files.delete(jsa);
        Files.writeString(jsa, "not an archive");
        Cli.Run broken = Cli.exec(List.of(launcher.toString()), systemd, tmp);
        assertEquals(0, broken.code(), broken.out());
        assertTrue(broken.out().contains("board ready on udp 127.0.0.1:"), broken.out());

        // other JVM flags make it stale: dropped, the classes listed again and archived again
        Files.writeString(root.resolve("etc/spectrum/board.conf"),
                "SERIAL_PORT=\nUDP=127.0.0.1:0\nJAVA_OPTS=-Xmx24m\nEXTRA_ARGS=--duration 1\n");
        Cli.Run third = Cli.exec(List.of(launcher.toString()), systemd, tmp);
        assertEquals(0, third.code(), third.out());
        assertTrue(third.out().contains("board ready on udp 127.0.0.1:"), third.out());
        assertTrue(Files.size(state.resolve("board.jsa.classes")) > 0);
        for (int i = 0; i < 1200 && !Files.exists(state.resolve("board.jsa.stamp")); i++) {
            Thread.sleep(100);
        }
        assertTrue(Files.readString(state.resolve("board.jsa.stamp")).contains("-Xmx24m"));

        // a start overtaken by a later one (an update while its job still waits): only the later
        // start's job publishes, so the archive's stamp is the running board's
        Files.writeString(root.resolve("etc/spectrum/board.conf"),
                "SERIAL_PORT=\nUDP=127.0.0.1:0\nJAVA_OPTS=-Xmx20m\nEXTRA_ARGS=--duration 1\n");
        Cli.Run overtaken = Cli.exec(List.of(launcher.toString()),
                Map.of("STATE_DIRECTORY", state.toString(), "SPECTRUM_CDS_POLL", "5"), tmp);
        assertEquals(0, overtaken.code(), overtaken.out());
        Files.writeString(root.resolve("etc/spectrum/board.conf"),
                "SERIAL_PORT=\nUDP=127.0.0.1:0\nJAVA_OPTS=-Xmx28m\nEXTRA_ARGS=--duration 1\n");
        Cli.Run latest = Cli.exec(List.of(launcher.toString()), systemd, tmp);
        assertEquals(0, latest.code(), latest.out());
        for (int i = 0; i < 1200 && !(read(state.resolve("board.jsa.stamp")).contains("-Xmx28m")
                && read(state.resolve("board.jsa.log")).contains("a later start owns the archive")); i++) {
            Thread.sleep(100);
        }
        assertTrue(read(state.resolve("board.jsa.log")).contains("a later start owns the archive"),
                "the overtaken start's job went on: " + read(state.resolve("board.jsa.log")));
        assertTrue(read(state.resolve("board.jsa.stamp")).contains("-Xmx28m"), read(state.resolve("board.jsa.stamp")));
        assertFalse(read(state.resolve("board.jsa.stamp")).contains("-Xmx20m"));
    }

    private static String read(Path p) throws Exception {
        return Files.exists(p) ? Files.readString(p) : "(no " + p.getFileName() + ")";
    }

    @Test
    void aShippedRuntimeIsCopiedAndPreferredByTheLauncher() throws Exception {
        Path runtime = Files.createDirectories(tmp.resolve("rt/bin"));
        Files.writeString(runtime.resolve("java"), "#!/bin/sh\necho \"bundled java $*\"\n");
        Files.setPosixFilePermissions(runtime.resolve("java"), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path root = rootfs();
        Cli.Run r = flash(root, "--runtime", tmp.resolve("rt").toString());
        assertEquals(0, r.code(), r.all());
        Path launcher = root.resolve("opt/spectrum/bin/spectrum-board");
        Cli.Run run = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().startsWith("bundled java -XX:+UseSerialGC -Xmx16m -Xmn2m "), run.out());
        assertTrue(run.out().contains("io.spectrum.board.BoardMain --serial /dev/serial0 --baud 115200"), run.out());
        // the launcher's own default flags are board.conf's
        Path conf = root.resolve("etc/spectrum/board.conf");
        Files.writeString(conf, Files.readString(conf).replaceAll("(?m)^JAVA_OPTS=.*\n", ""));
        assertEquals(run.out(), Cli.exec(List.of(launcher.toString()), Map.of(), tmp).out());

        Cli.Run noRuntime = flash(rootfs().resolveSibling("pi"), "--runtime", tmp.resolve("nope").toString());
        assertEquals(2, noRuntime.code());
        assertTrue(noRuntime.err().contains("build-arm64-runtime.sh"), noRuntime.err());
    }

    @Test
    void theServiceUnitPassesSystemdAnalyzeVerify() throws Exception {
        Path analyze = io.spectrum.testing.Tools.require("systemd-analyze", "systemd", "the installed unit is checked by systemd-analyze verify");
        Path root = rootfs();
        assertEquals(0, flash(root).code());
        // verify the installed unit as is, with its two board paths pointed at things that exist here
        String unit = Files.readString(root.resolve("etc/systemd/system/spectrum-board.service"))
                .replace("ExecStart=/opt/spectrum/bin/spectrum-board", "ExecStart=" + root.resolve("opt/spectrum/bin/spectrum-board"))
                .replace("WorkingDirectory=/opt/spectrum", "WorkingDirectory=" + root.resolve("opt/spectrum"));
        Path copy = tmp.resolve("spectrum-board.service");
        Files.writeString(copy, unit);
        Cli.Run v = Cli.exec(List.of(analyze.toString(), "verify", copy.toString()), Map.of(), tmp);
        assertEquals(0, v.code(), v.out());
        // systemd only warns about unknown keys and bad values: any line naming the unit is a finding
        assertTrue(v.out().lines().noneMatch(l -> l.contains(copy.getFileName().toString())), v.out());
        assertTrue(unit.contains("Restart=on-failure") && unit.contains("DeviceAllow=/dev/serial0 rw"), unit);
    }

    /** Every file and link under root with its content (or link target). */
    private static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String key = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    out.put(key, "-> " + Files.readSymbolicLink(p));
                } else if (Files.isRegularFile(p)) {
                    out.put(key, Files.getLastModifiedTime(p) + " " + java.util.Arrays.hashCode(Files.readAllBytes(p)));
                }
            }
        }
        return out;
    }

    @Test
    void installsABoardFileAndAppsAndTheLauncherRunsThem() throws Exception {
        Path root = rootfs();
        Path file = tmp.resolve("shed.yaml");
        Files.writeString(file, "name: shed\nvertices:\n  - {path: /shed/level, type: u16, initial: 7}\n");
        Path app = tmp.resolve("my-app.jar");
        try (java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(Files.newOutputStream(app))) {
            j.putNextEntry(new java.util.jar.JarEntry("README"));
            j.write("an app jar".getBytes());
        }
        Cli.Run r = flash(root, "--udp", "127.0.0.1:0", "--config", file.toString(), "--app", app.toString());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("board     -> /etc/spectrum/board.yaml"), r.out());
        assertEquals(Files.readString(file), Files.readString(root.resolve("etc/spectrum/board.yaml")));
        assertTrue(Files.isRegularFile(root.resolve("opt/spectrum/apps/my-app.jar")));

        // the installed launcher runs the installed board file (its name, its vertex) and passes the apps
        Path launcher = root.resolve("opt/spectrum/bin/spectrum-board");
        Files.writeString(root.resolve("etc/spectrum/board.conf"),
                "SERIAL_PORT=\nUDP=127.0.0.1:0\nJAVA_OPTS=-Xmx64m\nEXTRA_ARGS=--duration 1\n");
        Cli.Run board = Cli.exec(List.of(launcher.toString()), Map.of(), tmp);
        assertEquals(0, board.code(), board.out());
        assertTrue(board.out().contains("shed ready on udp 127.0.0.1:"), board.out());

        // a second flash without --app keeps the installed apps
        assertEquals(0, flash(root).code());
        assertTrue(Files.isRegularFile(root.resolve("opt/spectrum/apps/my-app.jar")));
    }

    @Test
    void refusesAWrongBoardFileWithItsLineBeforeWritingAnything() throws Exception {
        Path root = rootfs();
        Path file = tmp.resolve("bad.yaml");
        Files.writeString(file, "vertices:\n  - {path: /a, type: u8}\n  - {path: /b, type: u8, sink: {kind: gpio-out, pin: 30}}\n");
        Cli.Run r = flash(root, "--config", file.toString());
        assertEquals(2, r.code(), r.all());
        assertEquals("spectrum flash: --config: " + file + ":3: vertices[1].sink.pin: 30 is out of range 0..27", r.err().trim());
        assertFalse(Files.exists(root.resolve("opt")), "nothing was written");
        Cli.Run noJar = flash(root, "--app", tmp.resolve("nope.jar").toString());
        assertEquals(2, noJar.code());
        assertTrue(noJar.err().contains("is not a jar file"), noJar.err());
    }

    @Test
    void refusesABoardFileWhoseAppIsNotInTheGivenJarsBeforeWritingAnything() throws Exception {
        Path root = rootfs();
        Path file = tmp.resolve("apps.yaml");
        Files.writeString(file, "vertices:\n  - {path: /a, type: u8}\napps:\n  - class: com.example.Missing\n");
        Path app = tmp.resolve("empty-app.jar");
        try (java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(Files.newOutputStream(app))) {
            j.putNextEntry(new java.util.jar.JarEntry("README"));
            j.write("no classes".getBytes());
        }
        Cli.Run r = flash(root, "--config", file.toString(), "--app", app.toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().trim().startsWith("spectrum flash: --config: " + file
                + ":4: apps[0].class: com.example.Missing is not in the app jars"), r.err());
        assertFalse(Files.exists(root.resolve("opt")), "nothing was written");
    }

    /**
     * The board bundle holds what a board runs (the node, the runtime, the board-file parser, pi4j with
     * the providers a Pi needs and its mock platform) and nothing of the CLI, dashboard, HIL or JSON library.
     */
    static void assertBoardOnly(Path jar) throws Exception {
        List<String> names;
        try (java.util.jar.JarFile f = new java.util.jar.JarFile(jar.toFile())) {
            names = f.stream().map(java.util.jar.JarEntry::getName).toList();
        }
        assertTrue(names.contains("io/spectrum/board/BoardMain.class"), "board main present");
        assertTrue(names.contains("io/spectrum/node/NarrowNode.class"), "NARROW node present");
        assertTrue(names.contains("io/spectrum/runtime/NodeLoop.class"), "runtime present");
        assertTrue(names.contains("io/spectrum/board/demo-board.yaml"), "the demo board file present");
        assertTrue(names.contains("org/snakeyaml/engine/v2/api/lowlevel/Compose.class"), "the board-file parser present");
        for (String pi4j : List.of("com/pi4j/Pi4J.class",
                "com/pi4j/plugin/gpiod/provider/gpio/digital/GpioDDigitalInputProvider.class",
                "com/pi4j/plugin/linuxfs/provider/i2c/LinuxFsI2CProvider.class",
                "com/pi4j/plugin/linuxfs/provider/pwm/LinuxFsPwmProvider.class",
                "com/pi4j/plugin/mock/provider/gpio/digital/MockDigitalInputProvider.class")) {
            assertTrue(names.contains(pi4j), "pi4j in the bundle: " + pi4j);
        }
        assertTrue(names.stream().anyMatch(n -> n.startsWith("lib/aarch64/") && n.endsWith(".so")), "pi4j's aarch64 natives");
        assertTrue(names.stream().anyMatch(n -> n.startsWith("lib/armhf/") && n.endsWith(".so")), "pi4j's armhf natives");
        for (String banned : List.of("io/spectrum/cli/", "io/spectrum/host/", "io/spectrum/hil/", "io/spectrum/packaging/",
                "io/spectrum/vectors/", "picocli/", "com/fasterxml/", "io/spectrum/link/serial/pty/", "com/jcraft/")) {
            List<String> hits = names.stream().filter(n -> n.startsWith(banned)).limit(3).toList();
            assertTrue(hits.isEmpty(), "the board bundle carries " + banned + ": " + hits);
        }
    }
}
