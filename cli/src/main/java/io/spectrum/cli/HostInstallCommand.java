package io.spectrum.cli;

import io.spectrum.host.HostConfig;
import io.spectrum.host.HostFile;
import io.spectrum.host.HostFileError;
import io.spectrum.packaging.FlashException;
import io.spectrum.packaging.HostBundle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum host install --root DIR --config host.yaml}: the host as a systemd service (docs/host.md). */
@Command(name = "install", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Install the host as a systemd service, into a root file system or over ssh.",
                "",
                "Installs /opt/spectrum-host (the spectrum jar, the bin/spectrum-host launcher, an optional runtime),",
                "the host file as /etc/spectrum/host.yaml (kept if present, unless --reset-config), the system user",
                "spectrum-host (/usr/lib/sysusers.d/spectrum-host.conf), its state directory /var/lib/spectrum-host",
                "(never touched by an update: give the host file state-dir: /var/lib/spectrum-host for its history)",
                "and spectrum-host.service, enabled. Safe to run again.",
                "",
                "  sudo ./spectrum host install --root / --config host.yaml",
                "  sudo systemd-sysusers && sudo systemctl daemon-reload && sudo systemctl start spectrum-host",
                "  ./spectrum host install --ssh admin@server.lan --config host.yaml   (all of it, on a running machine)",
                ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:installed", "1:failed on the way (I/O)", "2:bad arguments, root or host file; the message says what to do"})
public final class HostInstallCommand implements Callable<Integer> {
    /** The state directory as the service sees it. */
    static final String STATE_ON_TARGET = "/" + HostBundle.STATE;

    static final class Target {
        @Option(names = "--root", paramLabel = "DIR", required = true,
                description = "The root file system to install into (/ for this machine; it has etc/ and usr/).")
        Path root;

        @Option(names = "--ssh", paramLabel = "USER@HOST", required = true,
                description = "A running machine reachable by ssh (key login, passwordless sudo or root): the files go "
                        + "over scp; the user is made, the unit enabled and restarted.")
        String ssh;
    }

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Option(names = "--ssh-port", paramLabel = "PORT", defaultValue = "22", description = "ssh port (default: ${DEFAULT-VALUE}).")
    int sshPort;

    @Option(names = "--ssh-option", paramLabel = "KEY=VALUE",
            description = "An ssh option for ssh and scp, as in ssh_config (repeatable), e.g. --ssh-option IdentityFile=KEY.")
    List<String> sshOptions;

    @Option(names = "--config", paramLabel = "FILE", required = true,
            description = "The host file (docs/host.md); it is checked first, a wrong one is refused with its line.")
    Path hostFile;

    @Option(names = "--runtime", paramLabel = "DIR", description = "Ship this Java runtime as /opt/spectrum-host/runtime.")
    Path runtime;

    @Option(names = "--reset-config", description = "Replace an existing /etc/spectrum/host.yaml (it is kept otherwise).")
    boolean resetConfig;

    @Option(names = "--classpath", hidden = true, split = ":",
            description = "Jars or class directories to install instead of the running spectrum jar (tests).")
    List<Path> classpath;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            HostConfig config;
            try {
                config = HostFile.read(hostFile);
            } catch (HostFileError e) {
                throw new FlashException(FlashException.USAGE, e.getMessage());
            }
            String note = stateNote(config);
            HostBundle bundle;
            try {
                bundle = new HostBundle(classpath != null ? classpath : List.of(runningJar()), runtime, hostFile, resetConfig);
            } catch (IllegalArgumentException e) {
                throw new FlashException(FlashException.USAGE, e.getMessage());
            }
            if (target.ssh != null) {
                io.spectrum.packaging.SshInstaller.withProcesses(sshOptions != null ? sshOptions : List.of())
                        .installHost(target.ssh, sshPort, bundle, resetConfig, runtime != null, out);
                if (note != null) {
                    out.printf("note: %s%n", note);
                }
                out.flush();
                return 0;
            }
            Path root = target.root;
            if (!Files.isDirectory(root.resolve("etc")) || !Files.isDirectory(root.resolve("usr"))) {
                throw new FlashException(FlashException.USAGE, "--root " + root + " is not a root file system (it has no etc/ and"
                        + " usr/): pass / for this machine, or the mount point of the target's root partition");
            }
            out.printf("Installing the Spectrum host into %s%n", root);
            try {
                bundle.install(root, out);
            } catch (IOException e) {
                throw new FlashException(FlashException.FAILED, "installing into " + root + " failed: " + e
                        + (e instanceof java.nio.file.AccessDeniedException ? " (run as root: sudo ./spectrum host install ...)" : ""));
            }
            if (note != null) {
                out.printf("note: %s%n", note);
            }
            out.printf("Done. Then: systemd-sysusers (the user), systemctl daemon-reload and systemctl start spectrum-host"
                    + " (on an installed card, the next boot does all three).%n");
            out.flush();
            return 0;
        } catch (FlashException e) {
            out.flush();
            err.println("spectrum host install: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }

    /** What the service cannot do with this host file's history, or null. */
    static String stateNote(HostConfig config) {
        io.spectrum.host.history.HistorySettings h = config.history();
        if (h == null) {
            return "the host file names no state-dir: the history is kept in memory only; add state-dir: " + STATE_ON_TARGET;
        }
        if (h.file() != null && !h.file().toAbsolutePath().startsWith(STATE_ON_TARGET)) {
            return "the history file " + h.file() + " is outside " + STATE_ON_TARGET
                    + ", the only directory the service may write (ProtectSystem=strict); use state-dir: " + STATE_ON_TARGET;
        }
        return null;
    }

    /** The jar this command runs from; a build tree has none (then --classpath). */
    private static Path runningJar() throws FlashException {
        try {
            Path p = Path.of(HostInstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(p) && p.toString().endsWith(".jar")) {
                return p;
            }
        } catch (Exception e) {
            // below
        }
        throw new FlashException(FlashException.USAGE, "this spectrum does not run from its jar; build it (mvn -B -DskipTests package)"
                + " and run ./spectrum host install from there");
    }
}
