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
 * {@code spectrum flash --ssh user@host}: stages the bundle locally, copies it with scp to a fresh
 * temp directory on the board, then installs it with one root shell script over ssh and runs
 * {@code systemctl enable --now}. ssh runs with BatchMode so it never waits for a password.
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

    private final Runner runner;
    private final List<String> options;

    /** An installer running its commands through {@code runner}. */
    public SshInstaller(Runner runner) {
        this(runner, List.of());
    }

    /**
     * With {@code options} ({@code IdentityFile=KEY}, {@code UserKnownHostsFile=FILE}...) passed as
     * {@code -o OPTION} to every ssh and scp, after the ones flash sets itself.
     */
    public SshInstaller(Runner runner, List<String> options) {
        this.runner = runner;
        this.options = List.copyOf(options);
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
     * Installs {@code bundle} on {@code target} ({@code user@host} or {@code host}) over ssh on {@code port},
     * replacing the runtime too when {@code shipsRuntime} and board.conf when {@code resetConfig}, then enables and
     * starts the service; {@link FlashException} USAGE for a bad target or port, FAILED when a step fails.
     */
    public void install(String target, int port, BoardBundle bundle, boolean resetConfig, boolean shipsRuntime,
                        PrintWriter out) throws FlashException {
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
            stage = Files.createTempDirectory("spectrum-flash-");
            out.printf("Staging the board bundle in %s%n", stage);
            bundle.install(stage, false, out);

            out.printf("Connecting to %s ...%n", target);
            out.flush();
            Result mk = run(ssh(target, port, options, "mktemp -d /tmp/spectrum-flash.XXXXXX"), null, target, "ssh");
            String remoteDir = mk.stdout().trim();
            if (!REMOTE_DIR.matcher(remoteDir).matches()) {
                throw new FlashException(FlashException.FAILED, "the board answered mktemp with '" + remoteDir
                        + "'; expected /tmp/spectrum-flash.XXXXXX (is it a Linux board with a writable /tmp?)");
            }

            out.printf("Copying the bundle to %s:%s ...%n", target, remoteDir);
            out.flush();
            List<String> scp = new ArrayList<>(List.of("scp", "-q", "-r", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15"));
            if (port != 22) {
                scp.addAll(List.of("-P", Integer.toString(port)));
            }
            for (String option : options) {
                scp.addAll(List.of("-o", option));
            }
            scp.add(stage.resolve("opt").toString());
            scp.add(stage.resolve("etc").toString());
            scp.add(target + ":" + remoteDir + "/");
            run(scp, null, target, "scp");

            boolean root = target.startsWith("root@");
            out.printf("Installing and enabling spectrum-board.service%s ...%n", root ? "" : " (sudo)");
            out.flush();
            Result installed = run(ssh(target, port, options, (root ? "" : "sudo -n ") + "sh -s"),
                    installScript(remoteDir, resetConfig, shipsRuntime).getBytes(StandardCharsets.UTF_8), target, "ssh");
            for (String line : installed.stdout().split("\n")) {
                if (!line.isBlank()) {
                    out.printf("      %s%n", line);
                }
            }
            out.printf("Done: %s runs spectrum-board.service. Logs: ssh %s journalctl -u spectrum-board -f%n", target, target);
            out.flush();
        } catch (IOException e) {
            throw new FlashException(FlashException.FAILED, "flashing " + target + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlashException(FlashException.FAILED, "interrupted while flashing " + target);
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

    /** The root shell script run on the board (fed on stdin, so nothing needs quoting twice). */
    static String installScript(String remoteDir, boolean resetConfig, boolean shipsRuntime) {
        return String.join("\n",
                "set -e",
                "S=" + remoteDir,
                "trap 'rm -rf \"$S\"' EXIT",
                "mkdir -p /opt/spectrum /etc/spectrum /etc/spectrum/keys /etc/systemd/system",
                "if [ -d \"$S/etc/spectrum/keys\" ]; then cp -R \"$S/etc/spectrum/keys/.\" /etc/spectrum/keys/;"
                        + " chmod 600 /etc/spectrum/keys/*.key 2>/dev/null || true; fi",
                "rm -rf /opt/spectrum/lib /opt/spectrum/bin" + (shipsRuntime ? " /opt/spectrum/runtime" : ""),
                // apps given: they replace the installed ones; none given: those installed stay
                "if [ -d \"$S/opt/spectrum/apps\" ]; then rm -rf /opt/spectrum/apps; fi",
                "cp -R \"$S/opt/spectrum/.\" /opt/spectrum/",
                "chmod 755 /opt/spectrum/bin/spectrum-board",
                "cp \"$S/etc/systemd/system/spectrum-board.service\" /etc/systemd/system/spectrum-board.service",
                "if [ ! -f /etc/spectrum/board.conf ] || [ " + (resetConfig ? "yes" : "no") + " = yes ]; then",
                "  cp \"$S/etc/spectrum/board.conf\" /etc/spectrum/board.conf; echo 'wrote /etc/spectrum/board.conf'",
                "else echo 'kept the existing /etc/spectrum/board.conf'; fi",
                // the service runs as a dynamic user: a kept board.conf from an older install must be readable
                "chmod a+r /etc/spectrum/board.conf",
                "if [ -f \"$S/etc/spectrum/board.yaml\" ]; then cp \"$S/etc/spectrum/board.yaml\" /etc/spectrum/board.yaml;"
                        + " echo 'wrote /etc/spectrum/board.yaml'; fi",
                "systemctl daemon-reload",
                "if systemctl is-active --quiet spectrum-board.service; then systemctl restart spectrum-board.service; fi",
                "systemctl enable --now spectrum-board.service",
                "echo \"spectrum-board.service: $(systemctl is-active spectrum-board.service || true)\"",
                "");
    }

    private Result run(List<String> cmd, byte[] stdin, String target, String tool)
            throws IOException, InterruptedException, FlashException {
        Result r;
        try {
            r = runner.run(cmd, stdin);
        } catch (IOException e) {
            throw new FlashException(FlashException.USAGE, "cannot run " + tool + " (" + e.getMessage()
                    + "); install the OpenSSH client (apt-get install openssh-client)");
        }
        if (r.exitCode() == 0) {
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
