package io.spectrum.packaging;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * {@code spectrum flash --ssh user@host} (docs/board.md, "Updates and rollback"):
 * <ol>
 *   <li>asks the board first (no root needed, nothing changed): it must run systemd, and the serial
 *       port the board will use must not be a serial console (a {@code console=} of the kernel
 *       command line, a {@code serial-getty@} unit), and its group and mode must let the service's
 *       user (group {@code dialout}) open it; otherwise it refuses in one line that says what to
 *       change;</li>
 *   <li>stages the bundle locally and copies it with scp to a fresh temp directory on the board;</li>
 *   <li>installs it with one root shell script over ssh as a new release beside the running one,
 *       {@code /opt/spectrum/releases/VERSION-TIME}, and points {@code /opt/spectrum/current} at it
 *       ({@code /opt/spectrum/bin}, {@code lib}, {@code apps}, {@code runtime} lead there, so the unit
 *       and the launcher are the same as a {@code flash --root} install's);</li>
 *   <li>restarts the service and waits, at most the start timeout, for the board to say
 *       {@code ready}; a service that fails, restarts or stays silent is rolled back: {@code current}
 *       points at the previous release again, with the board.conf, board.yaml and unit it ran with,
 *       the service is restarted, and flash exits non-zero with one line. The current and the
 *       previous release are kept, older ones removed.</li>
 * </ol>
 * ssh runs with BatchMode so it never waits for a password.
 */
public final class SshInstaller {
    /** Runs one external command; swapped out by tests. */
    public interface Runner {
        /** Runs {@code command} with {@code stdin} (or null) and returns its exit code and outputs. */
        Result run(List<String> command, byte[] stdin) throws IOException, InterruptedException;
    }

    /** An external command's exit code and its standard output and error as text. */
    public record Result(int exitCode, String stdout, String stderr) { }

    private static final Pattern TARGET = Pattern.compile("([A-Za-z0-9._-]+@)?[A-Za-z0-9._:\\[\\]-]+");
    private static final Pattern REMOTE_DIR = Pattern.compile("/tmp/spectrum-flash\\.[A-Za-z0-9]+");

    /** An ssh option given to both ssh and scp: {@code Key=value}, as ssh_config(5) spells it. */
    private static final Pattern OPTION = Pattern.compile("[A-Za-z][A-Za-z0-9]*=[^\\s].*");

    /** The script's exit code when the new release did not come up and the previous one runs again. */
    static final int ROLLED_BACK = 3;
    /** The script's exit code when the first release did not come up (nothing to roll back to). */
    static final int NOT_UP = 4;
    /** How long the board gets to say ready after the restart unless told otherwise. */
    public static final int DEFAULT_START_SECONDS = 120;
    private static final Pattern RELEASE = Pattern.compile("[A-Za-z0-9._+-]{1,64}");
    /** The serial-getty states that mean the getty comes up with the system. */
    private static final List<String> GETTY_ON = List.of("enabled", "enabled-runtime", "generated", "indirect",
            "linked", "linked-runtime", "alias");

    /**
     * The group through which the board service's dynamic user opens its serial port: the unit's
     * {@code SupplementaryGroups} (board/spectrum-board.service in this module's resources).
     */
    private static final String SERIAL_GROUP = "dialout";

    private final Runner runner;
    private final List<String> options;
    private final int startSeconds;
    private final String release;

    /** An installer running its commands through {@code runner}. */
    public SshInstaller(Runner runner) {
        this(runner, List.of());
    }

    /**
     * With {@code options} ({@code IdentityFile=KEY}, {@code UserKnownHostsFile=FILE}...) passed as
     * {@code -o OPTION} to every ssh and scp, after the ones flash sets itself.
     */
    public SshInstaller(Runner runner, List<String> options) {
        this(runner, options, DEFAULT_START_SECONDS, defaultRelease());
    }

    private SshInstaller(Runner runner, List<String> options, int startSeconds, String release) {
        this.runner = runner;
        this.options = List.copyOf(options);
        this.startSeconds = startSeconds;
        this.release = release;
    }

    /** This installer waiting at most {@code seconds} for the restarted board to say ready (then it rolls back). */
    public SshInstaller startTimeout(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("--start-timeout must be at least 1 second (was " + seconds + ")");
        }
        return new SshInstaller(runner, options, seconds, release);
    }

    /** This installer naming its release {@code label}-TIME on the board (the version by default). */
    public SshInstaller release(String label) {
        if (!RELEASE.matcher(label).matches()) {
            throw new IllegalArgumentException("a release label is letters, digits and . _ + - (was '" + label + "')");
        }
        return new SshInstaller(runner, options, startSeconds, label);
    }

    /** The version this build carries ({@code dev} when it was not packaged). */
    private static String defaultRelease() {
        String v = SshInstaller.class.getPackage().getImplementationVersion();
        return v != null && RELEASE.matcher(v).matches() ? v : "dev";
    }

    /** The real runner: ProcessBuilder, stdin fed, both outputs captured, 10 minutes at most. */
    public static SshInstaller withProcesses() {
        return withProcesses(List.of());
    }

    /** The real runner, with {@code options} ({@code KEY=VALUE}) passed as {@code -o} to every ssh and scp. */
    public static SshInstaller withProcesses(List<String> options) {
        return new SshInstaller(SshInstaller::runProcess, options);
    }

    /**
     * Installs {@code bundle} on {@code target} ({@code user@host} or {@code host}) over ssh on {@code port}
     * as a release beside the running one, board.conf replaced when {@code resetConfig}, then restarts the
     * service, waits for it and rolls back when it does not come up (the class comment); a runtime the
     * bundle does not ship ({@code shipsRuntime} false) is the running release's. {@link FlashException}
     * USAGE for a bad target or port or a refused board, FAILED when a step fails or the release was
     * rolled back.
     */
    public void install(String target, int port, BoardBundle bundle, boolean resetConfig, boolean shipsRuntime,
                        PrintWriter out) throws FlashException {
        boolean root = target.startsWith("root@");
        Result installed = deliver(target, port, bundle.config().serialPort(), resetConfig, "board bundle",
                stage -> bundle.install(stage, false, out), List.of("opt", "etc"),
                String.format("Installing release %s-TIME, restarting spectrum-board.service%s and waiting up to %d s for it ...",
                        release, root ? "" : " (sudo)", startSeconds),
                remoteDir -> installScript(remoteDir, resetConfig, release, startSeconds), out, ROLLED_BACK, NOT_UP);
        if (installed.exitCode() != 0) {
            throw new FlashException(FlashException.FAILED, notUp(target, installed));
        }
        out.printf("Done: %s runs spectrum-board.service. Logs: ssh %s journalctl -u spectrum-board -f%n", target, target);
        out.flush();
    }

    /**
     * {@code spectrum host install --ssh}: installs {@code bundle} (the host as a service) on {@code target}
     * over ssh: the same check (systemd), staging and copy as a board's flash, then a root script that
     * puts the files in place (the state directory and, unless {@code resetConfig}, the host file stay),
     * makes the system user with systemd-sysusers, and enables and restarts spectrum-host.service.
     */
    public void installHost(String target, int port, HostBundle bundle, boolean resetConfig, boolean shipsRuntime,
                            PrintWriter out) throws FlashException {
        boolean root = target.startsWith("root@");
        deliver(target, port, "", resetConfig, "host", stage -> bundle.install(stage, false, out), List.of("opt", "etc", "usr"),
                "Installing the host and restarting spectrum-host.service" + (root ? "" : " (sudo)") + " ...",
                remoteDir -> hostScript(remoteDir, resetConfig, shipsRuntime), out);
        out.printf("Done: %s runs spectrum-host.service. Logs: ssh %s journalctl -u spectrum-host -f%n", target, target);
        out.flush();
    }

    /** Writes a staging tree. */
    private interface Stager {
        void stage(Path dir) throws IOException;
    }

    /**
     * The steps every install over ssh shares: the target's check, staging {@code dirs} of the tree,
     * the copy into a fresh temp directory there, and the root script {@code script} makes for it
     * (its output indented into {@code out}); the script's exit codes {@code answers} are returned,
     * not thrown.
     */
    private Result deliver(String target, int port, String serialPort, boolean resetConfig, String what, Stager stager,
                           List<String> dirs, String installing, java.util.function.Function<String, String> script,
                           PrintWriter out, int... answers) throws FlashException {
        if (!TARGET.matcher(target).matches() || target.startsWith("-")) {
            throw new FlashException(FlashException.USAGE, "--ssh '" + target + "' must be user@host or host, e.g. pi@raspberrypi.local");
        }
        if (port < 1 || port > 65535) {
            throw new FlashException(FlashException.USAGE, "--ssh-port must be 1..65535 (was " + port + ")");
        }
        for (String option : options) {
            if (!OPTION.matcher(option).matches()) {
                throw new FlashException(FlashException.USAGE, "--ssh-option '" + option
                        + "' must be Key=value as in ssh_config, e.g. IdentityFile=~/.ssh/pi_ed25519");
            }
        }
        Path stage = null;
        try {
            out.printf("Checking %s ...%n", target);
            out.flush();
            Result facts = run(ssh(target, port, options, PROBE_COMMAND),
                    probeScript(serialPort, resetConfig).getBytes(StandardCharsets.UTF_8), target, "ssh");
            String refused = refusal(target, facts.stdout());
            if (refused != null) {
                throw new FlashException(FlashException.USAGE, refused);
            }

            stage = Files.createTempDirectory("spectrum-flash-");
            out.printf("Staging the %s in %s%n", what, stage);
            stager.stage(stage);

            out.printf("Connecting to %s ...%n", target);
            out.flush();
            Result mk = run(ssh(target, port, options, "mktemp -d /tmp/spectrum-flash.XXXXXX"), null, target, "ssh");
            String remoteDir = mk.stdout().trim();
            if (!REMOTE_DIR.matcher(remoteDir).matches()) {
                throw new FlashException(FlashException.FAILED, "the board answered mktemp with '" + remoteDir
                        + "'; expected /tmp/spectrum-flash.XXXXXX (is it a Linux board with a writable /tmp?)");
            }

            out.printf("Copying the %s to %s:%s ...%n", what, target, remoteDir);
            out.flush();
            List<String> scp = new ArrayList<>(List.of("scp", "-q", "-r", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15"));
            if (port != 22) {
                scp.addAll(List.of("-P", Integer.toString(port)));
            }
            for (String option : options) {
                scp.addAll(List.of("-o", option));
            }
            for (String dir : dirs) {
                scp.add(stage.resolve(dir).toString());
            }
            scp.add(target + ":" + remoteDir + "/");
            run(scp, null, target, "scp");

            boolean root = target.startsWith("root@");
            out.printf("%s%n", installing);
            out.flush();
            Result installed = run(ssh(target, port, options, (root ? "" : "sudo -n ") + "sh -s"),
                    script.apply(remoteDir).getBytes(StandardCharsets.UTF_8), target, "ssh", answers);
            for (String line : installed.stdout().split("\n")) {
                if (!line.isBlank()) {
                    out.printf("      %s%n", line);
                }
            }
            out.flush();
            return installed;
        } catch (IOException e) {
            throw new FlashException(FlashException.FAILED, "installing on " + target + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlashException(FlashException.FAILED, "interrupted while installing on " + target);
        } finally {
            if (stage != null) {
                try {
                    BoardBundle.deleteTree(stage);
                } catch (IOException e) {
                    out.printf("note: could not remove the staging directory %s: %s%n", stage, e);
                }
            }
        }
    }

    /**
     * The root script of {@link #installHost}: the files in place, the state directory made if
     * missing and otherwise left alone, the user, the unit enabled and restarted.
     */
    static String hostScript(String remoteDir, boolean resetConfig, boolean shipsRuntime) {
        return String.join("\n",
                "set -e",
                "F=${SPECTRUM_FLASH_ROOT:-}",
                "S=$F" + remoteDir,
                "trap 'rm -rf \"$S\"' EXIT",
                "H=$F/" + HostBundle.HOME,
                "mkdir -p \"$H\" \"$F/etc/spectrum\" \"$F/etc/systemd/system\" \"$F/usr/lib/sysusers.d\"",
                "rm -rf \"$H/lib\" \"$H/bin\"" + (shipsRuntime ? " \"$H/runtime\"" : ""),
                "cp -R \"$S/" + HostBundle.HOME + "/.\" \"$H/\"",
                "chmod 755 \"$H/bin/spectrum-host\"",
                "cp \"$S/" + HostBundle.UNIT + "\" \"$F/" + HostBundle.UNIT + "\"",
                "cp \"$S/" + HostBundle.SYSUSERS + "\" \"$F/" + HostBundle.SYSUSERS + "\"",
                "if [ ! -f \"$F/" + HostBundle.HOST_FILE + "\" ] || [ " + (resetConfig ? "yes" : "no") + " = yes ]; then",
                "  cp \"$S/" + HostBundle.HOST_FILE + "\" \"$F/" + HostBundle.HOST_FILE + "\"; echo 'wrote /" + HostBundle.HOST_FILE + "'",
                "else echo 'kept the existing /" + HostBundle.HOST_FILE + "'; fi",
                "chmod a+r \"$F/" + HostBundle.HOST_FILE + "\"",
                "if [ -d \"$F/" + HostBundle.STATE + "\" ]; then echo 'kept /" + HostBundle.STATE + "';"
                        + " else mkdir -p \"$F/" + HostBundle.STATE + "\"; echo 'made /" + HostBundle.STATE + "'; fi",
                "systemd-sysusers /" + HostBundle.SYSUSERS,
                "sync", // on the disk before the restart, as the board's install script does
                "systemctl daemon-reload",
                "systemctl enable " + HostBundle.UNIT_NAME + " 2>/dev/null",
                "systemctl restart " + HostBundle.UNIT_NAME,
                "echo \"" + HostBundle.UNIT_NAME + ": $(systemctl is-active " + HostBundle.UNIT_NAME + " || true)\"",
                "");
    }

    static List<String> ssh(String target, int port, List<String> options, String remoteCommand) {
        List<String> cmd = new ArrayList<>(List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15"));
        if (port != 22) {
            cmd.addAll(List.of("-p", Integer.toString(port)));
        }
        for (String option : options) {
            cmd.addAll(List.of("-o", option));
        }
        cmd.add(target);
        cmd.add(remoteCommand);
        return cmd;
    }

    /** The remote command of the check: a shell reading its script on stdin ({@link #probeScript}). */
    static final String PROBE_COMMAND = "sh -s check";

    /**
     * What the board is asked before anything is copied (as the login user, no root): whether it runs
     * systemd, and for the serial port the board will use ({@code port}, or the kept board.conf's
     * when the config is not reset) the device it is, its group and mode, the state of its
     * serial-getty unit and the kernel command line's consoles. {@code KEY=value} lines;
     * {@link #refusal} reads them.
     */
    static String probeScript(String port, boolean resetConfig) {
        return String.join("\n",
                "P='" + port + "'",
                "if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then echo systemd=yes; else echo systemd=no; fi",
                "if [ " + (resetConfig ? "yes" : "no") + " = no ] && [ -r /etc/spectrum/board.conf ]; then",
                "  P=$(sed -n 's/^SERIAL_PORT=//p' /etc/spectrum/board.conf | tail -n 1 | tr -d '\"')",
                "fi",
                "echo \"port=$P\"",
                "if [ -n \"$P\" ]; then",
                "  D=$(readlink -f \"$P\" 2>/dev/null || true); [ -n \"$D\" ] || D=$P",
                "  echo \"device=$D\"",
                "  N=${D#/dev/}",
                "  echo \"getty-enabled=$(systemctl is-enabled \"serial-getty@$N.service\" 2>/dev/null | head -n 1)\"",
                "  echo \"getty-active=$(systemctl is-active \"serial-getty@$N.service\" 2>/dev/null | head -n 1)\"",
                "  echo \"access=$(stat -c '%G %a' \"$D\" 2>/dev/null)\"",
                "  for w in $(cat /proc/cmdline 2>/dev/null); do",
                "    case \"$w\" in console=*) c=${w#console=}; c=${c%%,*}; echo \"console=$c $(readlink -f \"/dev/$c\" 2>/dev/null)\" ;; esac",
                "  done",
                "fi",
                "");
    }

    /**
     * Why the board cannot take the service, in one line that says what to change, or null: no
     * systemd, or the board's serial port is a console (the kernel's {@code console=}, a
     * serial-getty on it) whose output and login prompt would be mixed into the link's frames, or
     * its group and mode shut out the service's user. A stopped serial-getty leaves its tty so:
     * systemd gives the device to group tty, mode 0620, until the next boot, and the board would
     * start, say ready and never open its port.
     */
    static String refusal(String target, String probeOutput) {
        java.util.Map<String, String> facts = new java.util.HashMap<>();
        List<String[]> consoles = new ArrayList<>();
        for (String line : probeOutput.split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq);
            String value = line.substring(eq + 1).strip();
            if (key.equals("console")) {
                String[] nameAndDevice = value.split(" ", 2);
                consoles.add(new String[] {nameAndDevice[0], nameAndDevice.length > 1 ? nameAndDevice[1].strip() : ""});
            } else {
                facts.put(key, value);
            }
        }
        if (!"yes".equals(facts.get("systemd"))) {
            return target + " does not run systemd (no /run/systemd/system), and flash --ssh installs a systemd service:"
                    + " use a systemd Linux (Raspberry Pi OS, Debian), or flash --root the board's card and start"
                    + " /opt/spectrum/bin/spectrum-board yourself";
        }
        String port = facts.getOrDefault("port", "");
        String device = facts.getOrDefault("device", "");
        if (port.isEmpty() || device.isEmpty()) {
            return null; // a UDP board: no serial port to share
        }
        String name = device.substring(device.lastIndexOf('/') + 1);
        List<String> claims = new ArrayList<>();
        for (String[] c : consoles) {
            if (c[0].equals(name) || !c[1].isEmpty() && c[1].equals(device)) {
                claims.add("console=" + c[0] + " on the kernel command line");
            }
        }
        String active = facts.getOrDefault("getty-active", "");
        if (active.equals("active") || active.equals("activating")) {
            claims.add("serial-getty@" + name + " runs");
        } else if (GETTY_ON.contains(facts.getOrDefault("getty-enabled", ""))) {
            claims.add("serial-getty@" + name + " is " + facts.get("getty-enabled"));
        }
        if (claims.isEmpty()) {
            return unreachable(target, port, device, name, facts.getOrDefault("access", ""));
        }
        return "the board's UART " + port + (port.equals(device) ? "" : " (" + device + ")") + " on " + target
                + " is a serial console (" + String.join(", ", claims) + "): free it with sudo raspi-config,"
                + " Interface Options, Serial Port, login shell No, serial hardware Yes, and reboot (another Linux:"
                + " remove console=" + name + " from the kernel command line and systemctl disable --now serial-getty@"
                + name + "), then flash again";
    }

    /**
     * Why the service's user cannot open the device whose {@code stat -c '%G %a'} is {@code access},
     * or null when it can or nothing is known (no stat there: the check does not guess). The user
     * is a dynamic one with group {@link #SERIAL_GROUP}: the group's or everyone's read and write
     * bits must be set.
     */
    private static String unreachable(String target, String port, String device, String name, String access) {
        String[] groupAndMode = access.strip().split(" ");
        if (groupAndMode.length != 2 || !groupAndMode[1].matches("[0-7]{3,4}")) {
            return null;
        }
        int mode = Integer.parseInt(groupAndMode[1], 8);
        boolean byGroup = groupAndMode[0].equals(SERIAL_GROUP) && (mode & 060) == 060;
        boolean byAnyone = (mode & 06) == 06;
        if (byGroup || byAnyone) {
            return null;
        }
        return "the board's UART " + port + (port.equals(device) ? "" : " (" + device + ")") + " on " + target
                + " is group " + groupAndMode[0] + ", mode " + groupAndMode[1] + ", which the board service's user (group "
                + SERIAL_GROUP + ") cannot open (a stopped serial-getty@" + name + " leaves it so until the next boot):"
                + " reboot, or sudo chgrp " + SERIAL_GROUP + " " + device + " && sudo chmod 660 " + device
                + ", then flash again";
    }

    /** The one line for a release that did not come up (the script's exit {@link #ROLLED_BACK} or {@link #NOT_UP}). */
    private String notUp(String target, Result installed) {
        String why = "";
        for (String line : installed.stdout().split("\n")) {
            if (line.startsWith("why: ")) {
                why = line.substring(5).strip();
            }
        }
        String said = why.isEmpty() ? "" : " (its last line: " + why + ")";
        if (installed.exitCode() == ROLLED_BACK) {
            return "the new release did not come up on " + target + " within " + startSeconds + " s" + said
                    + "; rolled back to the previous release, which runs again; see why with ssh " + target
                    + " journalctl -u spectrum-board";
        }
        return "spectrum-board.service did not come up on " + target + " within " + startSeconds + " s" + said
                + " and there is no earlier release to go back to; see why with ssh " + target
                + " journalctl -u spectrum-board, fix it and flash again";
    }

    /**
     * The root shell script run on the board (fed on stdin, so nothing needs quoting twice): the new
     * release beside the running one, the switch of {@code current}, the restart, the wait for
     * {@code ready} and the rollback (the class comment). {@code SPECTRUM_FLASH_ROOT}, empty on a
     * board, puts every path under a directory for tests.
     */
    static String installScript(String remoteDir, boolean resetConfig, String release, int startSeconds) {
        return String.join("\n",
                "set -e",
                "F=${SPECTRUM_FLASH_ROOT:-}",
                "S=$F" + remoteDir,
                "trap 'rm -rf \"$S\"' EXIT",
                "H=$F/opt/spectrum",
                "E=$F/etc/spectrum",
                "U=$F/etc/systemd/system/spectrum-board.service",
                "V=" + release + "-$(date -u +%Y%m%dT%H%M%SZ)",
                "WAIT=" + startSeconds,
                "mkdir -p \"$H/releases\" \"$E/keys\" \"$F/etc/systemd/system\"",
                "if [ -d \"$S/etc/spectrum/keys\" ]; then cp -R \"$S/etc/spectrum/keys/.\" \"$E/keys/\";"
                        + " chmod 600 \"$E\"/keys/*.key 2>/dev/null || true; fi",
                // an install from before releases (its files right in /opt/spectrum) becomes the release 0-flat
                "if [ -d \"$H/lib\" ] && [ ! -L \"$H/lib\" ]; then",
                "  mkdir -p \"$H/releases/0-flat\"",
                "  for d in lib bin apps runtime README.board; do",
                "    if [ -e \"$H/$d\" ] && [ ! -L \"$H/$d\" ]; then mv \"$H/$d\" \"$H/releases/0-flat/\"; fi",
                "  done",
                "  ln -sfn releases/0-flat \"$H/current\"",
                "fi",
                "P=$(readlink \"$H/current\" 2>/dev/null || true); P=${P#releases/}",
                "if [ -n \"$P\" ] && [ ! -d \"$H/releases/$P\" ]; then P=; fi",
                "R=$H/releases/$V",
                "rm -rf \"$R\"; mkdir -p \"$R\"",
                "cp -R \"$S/opt/spectrum/.\" \"$R/\"",
                // not shipped this time: the running release's runtime and apps stay (hard links, no second copy)
                "for d in runtime apps; do",
                "  if [ ! -e \"$R/$d\" ] && [ -n \"$P\" ] && [ -d \"$H/releases/$P/$d\" ]; then cp -al \"$H/releases/$P/$d\" \"$R/$d\"; fi",
                "done",
                "chmod 755 \"$R/bin/spectrum-board\"",
                // what the running release runs with, for a rollback to put back
                "if [ -n \"$P\" ]; then",
                "  rm -rf \"$H/releases/$P/saved\"; mkdir -p \"$H/releases/$P/saved\"",
                "  for f in \"$E/board.conf\" \"$E/board.yaml\" \"$U\"; do if [ -f \"$f\" ]; then cp -p \"$f\" \"$H/releases/$P/saved/\"; fi; done",
                "fi",
                // the paths the unit and the launcher name lead to the current release
                "for d in lib bin apps runtime README.board; do",
                "  if [ ! -L \"$H/$d\" ]; then rm -rf \"$H/$d\"; ln -s \"current/$d\" \"$H/$d\"; fi",
                "done",
                "cp \"$S/etc/systemd/system/spectrum-board.service\" \"$U\"",
                // the device groups this system has (BoardBundle.DEVICE_GROUPS): a unit naming a missing group would not start
                "G=; for g in " + String.join(" ", BoardBundle.DEVICE_GROUPS) + "; do if getent group \"$g\" >/dev/null 2>&1; then G=\"$G $g\"; fi; done; G=${G# }",
                "if [ -n \"$G\" ]; then mkdir -p \"$U.d\"; printf '%b' \"" + BoardBundle.groupsDropIn("$G").replace("\n", "\\n")
                        + "\" > \"$U.d/device-groups.conf\"; else rm -f \"$U.d/device-groups.conf\"; fi",
                "if [ ! -f \"$E/board.conf\" ] || [ " + (resetConfig ? "yes" : "no") + " = yes ]; then",
                "  cp \"$S/etc/spectrum/board.conf\" \"$E/board.conf\"; echo 'wrote /etc/spectrum/board.conf'",
                "else echo 'kept the existing /etc/spectrum/board.conf'; fi",
                // the service runs as a dynamic user: a kept board.conf from an older install must be readable
                "chmod a+r \"$E/board.conf\"",
                "if [ -f \"$S/etc/spectrum/board.yaml\" ]; then cp \"$S/etc/spectrum/board.yaml\" \"$E/board.yaml\";"
                        + " echo 'wrote /etc/spectrum/board.yaml'; fi",
                "ln -sfn \"releases/$V\" \"$H/current\"",
                // on the disk before the restart: a board whose power is cut soon after a flash would
                // otherwise boot with the new files empty (ext4 writes their blocks late), and systemd
                // takes an empty unit file for a masked unit (seen in BootedBoardTest's power cut)
                "sync",
                "systemctl daemon-reload",
                "systemctl enable spectrum-board.service 2>/dev/null",
                // up: restart, then wait for this run's 'ready' line; a failed state or a restart is a failure
                "up() {",
                "  systemctl restart spectrum-board.service || return 1",
                "  N=$(systemctl show -p NRestarts --value spectrum-board.service)",
                "  I=$(systemctl show -p InvocationID --value spectrum-board.service)",
                "  END=$(( $(date +%s) + WAIT ))",
                "  while [ \"$(date +%s)\" -lt \"$END\" ]; do",
                "    A=$(systemctl is-active spectrum-board.service || true)",
                "    if [ \"$A\" = failed ] || [ \"$(systemctl show -p NRestarts --value spectrum-board.service)\" != \"$N\" ]; then return 1; fi",
                "    if [ \"$A\" = active ] && journalctl _SYSTEMD_INVOCATION_ID=\"$I\" -o cat --no-pager 2>/dev/null | grep -q ' ready on '; then return 0; fi",
                "    sleep 1",
                "  done",
                "  return 1",
                "}",
                "if up; then",
                "  for r in \"$H\"/releases/*; do n=${r##*/}; if [ \"$n\" != \"$V\" ] && [ \"$n\" != \"$P\" ]; then rm -rf \"$r\"; fi; done",
                "  echo \"release $V runs${P:+ (the previous, $P, is kept for a rollback)}\"",
                "  echo \"spectrum-board.service: active\"",
                "  exit 0",
                "fi",
                "echo \"release $V did not come up within $WAIT s\"",
                "echo \"why: $(journalctl _SYSTEMD_UNIT=spectrum-board.service -n 1 -o cat --no-pager 2>/dev/null | tail -n 1)\"",
                "if [ -z \"$P\" ]; then echo \"spectrum-board.service: $(systemctl is-active spectrum-board.service || true)\"; exit "
                        + NOT_UP + "; fi",
                "ln -sfn \"releases/$P\" \"$H/current\"",
                "if [ -f \"$H/releases/$P/saved/board.conf\" ]; then cp -p \"$H/releases/$P/saved/board.conf\" \"$E/board.conf\"; fi",
                "if [ -f \"$H/releases/$P/saved/board.yaml\" ]; then cp -p \"$H/releases/$P/saved/board.yaml\" \"$E/board.yaml\";"
                        + " else rm -f \"$E/board.yaml\"; fi",
                "if [ -f \"$H/releases/$P/saved/spectrum-board.service\" ]; then cp -p \"$H/releases/$P/saved/spectrum-board.service\" \"$U\"; fi",
                "rm -rf \"$R\"",
                "sync",
                "systemctl daemon-reload",
                "if up; then echo \"rolled back to $P: spectrum-board.service: active\";"
                        + " else echo \"rolled back to $P, which did not come up either: spectrum-board.service: $(systemctl is-active spectrum-board.service || true)\"; fi",
                "exit " + ROLLED_BACK,
                "");
    }

    /** Runs {@code cmd}; an exit code other than 0 and {@code answers} is a {@link FlashException} that says why. */
    private Result run(List<String> cmd, byte[] stdin, String target, String tool, int... answers)
            throws IOException, InterruptedException, FlashException {
        Result r;
        try {
            r = runner.run(cmd, stdin);
        } catch (IOException e) {
            throw new FlashException(FlashException.USAGE, "cannot run " + tool + " (" + e.getMessage()
                    + "); install the OpenSSH client (apt-get install openssh-client)");
        }
        if (r.exitCode() == 0 || java.util.Arrays.stream(answers).anyMatch(a -> a == r.exitCode())) {
            return r;
        }
        String why = r.stderr().isBlank() ? "" : ": " + r.stderr().strip();
        if (r.exitCode() == 255 || "scp".equals(tool) && why.contains("ssh:")) {
            throw new FlashException(FlashException.FAILED, "cannot reach " + target + " over ssh" + why
                    + "\nCheck the address, that sshd runs on the board, and that your key is authorised (ssh-copy-id "
                    + target + "). flash uses BatchMode, so password prompts are not offered.");
        }
        if (why.contains("sudo") && why.contains("password")) {
            throw new FlashException(FlashException.FAILED, "sudo on " + target + " wants a password" + why
                    + "\nAllow passwordless sudo for that user (the Raspberry Pi OS default) or flash as root@host.");
        }
        throw new FlashException(FlashException.FAILED, tool + " " + String.join(" ", cmd.subList(1, cmd.size()))
                + " failed with exit code " + r.exitCode() + why);
    }

    private static Result runProcess(List<String> cmd, byte[] stdin) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        } catch (IOException e) {
            // ssh gave up before reading its script (no route, refused): its exit code and stderr say why
        }
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new Result(124, "", cmd.get(0) + " did not finish within 10 minutes");
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    private static String drain(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
