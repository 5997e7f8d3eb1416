package io.spectrum.cli;

import io.spectrum.packaging.BoardBundle;
import io.spectrum.packaging.BoardConfig;
import io.spectrum.packaging.FlashException;
import io.spectrum.packaging.RootfsInstaller;
import io.spectrum.packaging.SshInstaller;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum flash}: installs the board node on a Raspberry Pi, via its SD card or over ssh. */
@Command(name = "flash",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Install the board node on a Raspberry Pi (a systemd service).",
                "",
                "Either into the board's root file system mounted on this machine (an SD card):",
                "  sudo mount /dev/sdX2 /mnt/pi && sudo ./spectrum flash --root /mnt/pi",
                "or onto a running board over ssh (needs key login and passwordless sudo):",
                "  ./spectrum flash --ssh pi@raspberrypi.local",
                "Over ssh each flash is a release beside the running one: the service is",
                "restarted and must say ready within --start-timeout, or the previous",
                "release runs again and flash exits 1. A board whose serial port is a",
                "serial console, or without systemd, is refused before anything is copied.",
                "",
                "Installs /opt/spectrum (jar, launcher, optional runtime and apps),",
                "/etc/spectrum/board.conf (kept if present), the board file",
                "/etc/spectrum/board.yaml (with --config; docs/board.md) and",
                "spectrum-board.service, enabled. Safe to run again.",
                ""},
        footer = {"", "After flashing: sudo journalctl -u spectrum-board -f on the board shows its output."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:installed", "1:failed on the way (I/O, ssh, the board)", "2:bad arguments or target; the message says what to do"})
public final class FlashCommand implements Callable<Integer> {

    static final class Target {
        @Option(names = "--root", paramLabel = "DIR", required = true,
                description = "Mount point of the board's root file system (it has etc/ and usr/).")
        Path root;

        @Option(names = "--ssh", paramLabel = "USER@HOST", required = true,
                description = "A running board reachable by ssh; the bundle goes over scp and is enabled with systemctl.")
        String ssh;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Option(names = "--serial", paramLabel = "DEVICE",
            description = "Serial port the board talks to the host on (the default link: " + BoardConfig.DEFAULT_SERIAL + ").")
    String serial;

    @Option(names = "--baud", paramLabel = "N", defaultValue = "" + BoardConfig.DEFAULT_BAUD,
            description = "Serial baud rate (default: ${DEFAULT-VALUE}).")
    int baud;

    @Option(names = "--udp", paramLabel = "HOST:PORT", defaultValue = "",
            description = "Link by UDP instead: listen on HOST:PORT for the host (spectrum host --peer).")
    String udp;

    @Option(names = "--peer", paramLabel = "HOST:PORT", defaultValue = "",
            description = "Link by UDP instead: dial a host listening at HOST:PORT.")
    String peer;

    @Option(names = "--dtls-keys", paramLabel = "DIR",
            description = "DTLS on the board's UDP link: install DIR/<--dtls-name>.key and .crt, ca.crt and revoked.crl "
                    + "(never ca.key) into /etc/spectrum/keys and point board.conf at them (spectrum keys issue NAME).")
    Path dtlsKeys;

    @Option(names = "--dtls-name", paramLabel = "NAME", description = "Whose key --dtls-keys installs: the board's name.")
    String dtlsName;

    @Option(names = "--reset-config",
            description = "Rewrite /etc/spectrum/board.conf from these options even if it exists (it is kept otherwise).")
    boolean resetConfig;

    @Option(names = "--runtime", paramLabel = "DIR",
            description = "Ship this Java runtime (a jlinked aarch64 image from packaging/build-arm64-runtime.sh) "
                    + "as /opt/spectrum/runtime; without it the board's own java 17+ is used.")
    Path runtime;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Install this board file as /etc/spectrum/board.yaml (its vertices, pins, sensors and apps; "
                    + "docs/board.md). It is checked first: a wrong file is refused here, with its line and field.")
    Path boardFile;

    @Option(names = "--app", paramLabel = "JAR",
            description = "Install this board app jar in /opt/spectrum/apps (repeatable; they replace the installed apps). "
                    + "The board file's apps: list names the classes to start.")
    List<Path> apps;

    @Option(names = "--ssh-port", paramLabel = "PORT", defaultValue = "22", description = "ssh port (default: ${DEFAULT-VALUE}).")
    int sshPort;

    @Option(names = "--ssh-option", paramLabel = "KEY=VALUE",
            description = "An ssh option for ssh and scp, as in ssh_config (repeatable), e.g. "
                    + "--ssh-option IdentityFile=~/.ssh/pi_ed25519 --ssh-option UserKnownHostsFile=FILE.")
    List<String> sshOptions;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", defaultValue = "" + SshInstaller.DEFAULT_START_SECONDS,
            description = "With --ssh: how long the restarted board gets to say ready before flash rolls back to the "
                    + "previous release (default: ${DEFAULT-VALUE}).")
    int startTimeout;

    @Option(names = "--classpath", hidden = true, split = ":",
            description = "Jars or class directories to install instead of the board bundle (development and tests).")
    List<Path> classpath;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            BoardConfig config;
            BoardBundle bundle;
            try {
                // serial is the default link unless UDP was asked for
                String port = serial != null ? serial : udp.isEmpty() && peer.isEmpty() ? BoardConfig.DEFAULT_SERIAL : "";
                config = new BoardConfig(port, baud, udp, peer);
                io.spectrum.packaging.BoardKeys keys = null;
                if (dtlsKeys != null) {
                    keys = io.spectrum.packaging.BoardKeys.fromDir(dtlsKeys, dtlsName);
                    config = config.withDtls();
                }
                if (boardFile != null) {
                    String warning = checkBoardFile(boardFile, apps);
                    if (warning != null) {
                        err.println("spectrum flash: --config: " + warning);
                        err.flush();
                    }
                }
                bundle = new BoardBundle(classpath != null ? classpath : payload(), runtime, config, resetConfig, keys,
                        boardFile, apps != null ? apps : List.of());
            } catch (IllegalArgumentException e) {
                throw new FlashException(FlashException.USAGE, e.getMessage());
            }
            if (target.root != null) {
                RootfsInstaller.install(target.root, bundle, out);
            } else {
                SshInstaller installer;
                try {
                    installer = SshInstaller.withProcesses(sshOptions != null ? sshOptions : List.of()).startTimeout(startTimeout);
                } catch (IllegalArgumentException e) {
                    throw new FlashException(FlashException.USAGE, e.getMessage());
                }
                installer.install(target.ssh, sshPort, bundle, resetConfig, runtime != null, out);
            }
            return 0;
        } catch (FlashException e) {
            out.flush();
            err.println("spectrum flash: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }

    /**
     * Refuses a board file the board would refuse at start (the same parser and checks as
     * {@code board --check}), before anything is written; nothing is opened. With {@code --app} the
     * file's app classes must be in those jars (they replace the installed ones); without it the
     * board keeps its installed jars, which are not here to look in, so the classes are not checked.
     * Returns the file's warning (paths that repeat the board's name: docs/board.md), or null.
     */
    static String checkBoardFile(Path file, List<Path> appJars) throws FlashException {
        try {
            io.spectrum.board.decl.BoardFile parsed = new io.spectrum.board.decl.BoardFileParser(-1).parse(file);
            io.spectrum.board.decl.BoardSetup.check(appJars == null ? parsed.withoutApps() : parsed,
                    appJars == null ? List.of() : appJars);
            return parsed.warning();
        } catch (io.spectrum.board.decl.BoardFileError e) {
            throw new FlashException(FlashException.USAGE, "--config: " + e.getMessage());
        }
    }

    /**
     * What to install: the board bundle jar ({@code spectrum-board.jar}: core-narrow, the links, the
     * runtime and the board main; no CLI, dashboard, HIL or JSON library), which the packaging
     * module carries as a resource. It is copied out to a temporary directory for the installers.
     */
    static List<Path> payload() throws FlashException {
        try (InputStream in = BoardBundle.class.getResourceAsStream(BoardBundle.BOARD_JAR_RESOURCE)) {
            if (in == null) {
                throw new FlashException(FlashException.USAGE, "this build carries no board bundle ("
                        + BoardBundle.BOARD_JAR_RESOURCE + "); rebuild it: mvn -B -DskipTests package");
            }
            Path dir = Files.createTempDirectory("spectrum-flash");
            Path jar = dir.resolve(BoardBundle.BOARD_JAR);
            Files.copy(in, jar);
            jar.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return List.of(jar);
        } catch (IOException e) {
            throw new FlashException(FlashException.USAGE, "cannot unpack the board bundle: " + e.getMessage());
        }
    }
}
