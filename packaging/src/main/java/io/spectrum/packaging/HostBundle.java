package io.spectrum.packaging;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The host as a service ({@code spectrum host install}, docs/host.md "The host as a service"), and
 * how it lands in a root file system:
 *
 * <pre>
 * opt/spectrum-host/lib/*.jar                       the spectrum jar
 * opt/spectrum-host/bin/spectrum-host               launcher: spectrum host --config /etc/spectrum/host.yaml
 * opt/spectrum-host/runtime/                        optional Java runtime (bin/java)
 * etc/spectrum/host.yaml                            the host file; kept if it exists, unless reset
 * etc/systemd/system/spectrum-host.service          the unit: User=spectrum-host, StateDirectory=spectrum-host
 * usr/lib/sysusers.d/spectrum-host.conf             the system user spectrum-host (systemd-sysusers makes it)
 * var/lib/spectrum-host/                            the state directory (the history); never touched by an update
 * etc/systemd/system/multi-user.target.wants/spectrum-host.service -> the unit (enable)
 * </pre>
 *
 * Installing twice gives the same tree; the state directory keeps what the host wrote there.
 */
public final class HostBundle {
    /** Where the host lives, relative to the root. */
    public static final String HOME = "opt/spectrum-host";
    /** The unit's file name. */
    public static final String UNIT_NAME = "spectrum-host.service";
    /** The unit's path, relative to the root. */
    public static final String UNIT = "etc/systemd/system/" + UNIT_NAME;
    /** The host file, relative to the root. */
    public static final String HOST_FILE = "etc/spectrum/host.yaml";
    /** The system user's sysusers.d entry, relative to the root. */
    public static final String SYSUSERS = "usr/lib/sysusers.d/spectrum-host.conf";
    /** The service's user (and group). */
    public static final String USER = "spectrum-host";
    /** The state directory (the unit's StateDirectory=), relative to the root. */
    public static final String STATE = "var/lib/spectrum-host";
    /** The enable symlink, relative to the root. */
    public static final String WANTS_LINK = "etc/systemd/system/multi-user.target.wants/" + UNIT_NAME;

    private final List<Path> classpath;
    private final Path runtime;
    private final Path hostFile;
    private final boolean resetConfig;

    /**
     * @param classpath   the spectrum jar (or class directories, packed into jars)
     * @param runtime     a runtime image to ship (must hold bin/java), or null to use the target's java
     * @param hostFile    the host file to install (checked by the caller)
     * @param resetConfig overwrite an existing host.yaml
     */
    public HostBundle(List<Path> classpath, Path runtime, Path hostFile, boolean resetConfig) {
        BoardBundle.checkInputs(classpath, runtime, "");
        if (!Files.isRegularFile(hostFile)) {
            throw new IllegalArgumentException("--config " + hostFile + " is not a file");
        }
        this.classpath = List.copyOf(classpath);
        this.runtime = runtime;
        this.hostFile = hostFile;
        this.resetConfig = resetConfig;
    }

    /**
     * Writes the host into {@code root} (a root file system) and enables its unit; the state directory
     * is made if missing and otherwise left as it is.
     */
    public void install(Path root, PrintWriter out) throws IOException {
        install(root, true, out);
    }

    /**
     * Writes the host into {@code root}, a root file system or a staging directory.
     *
     * @param enable also create the multi-user.target.wants symlink (what {@code systemctl enable} does);
     *               not in a tree staged for ssh: scp follows symlinks, and this one's target exists only
     *               on the machine (the install script there runs systemctl enable)
     */
    public void install(Path root, boolean enable, PrintWriter out) throws IOException {
        Path home = root.resolve(HOME);
        int steps = 6 + (runtime != null ? 1 : 0);
        int step = 0;
        out.printf("[%d/%d] libraries -> /%s/lib%n", ++step, steps, HOME);
        BoardBundle.installJars(classpath, home.resolve("lib"), out);

        out.printf("[%d/%d] launcher  -> /%s/bin/spectrum-host%n", ++step, steps, HOME);
        Path launcher = home.resolve("bin/spectrum-host");
        BoardBundle.report(out, launcher, BoardBundle.writeIfChanged(launcher, resource("spectrum-host")));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));

        if (runtime != null) {
            out.printf("[%d/%d] runtime   -> /%s/runtime (from %s)%n", ++step, steps, HOME, runtime);
            BoardBundle.replaceTree(runtime, home.resolve("runtime"));
        }

        out.printf("[%d/%d] service   -> /%s%n", ++step, steps, UNIT);
        BoardBundle.report(out, root.resolve(UNIT), BoardBundle.writeIfChanged(root.resolve(UNIT), resource(UNIT_NAME)));

        out.printf("[%d/%d] user      -> /%s (%s)%n", ++step, steps, SYSUSERS, USER);
        BoardBundle.report(out, root.resolve(SYSUSERS),
                BoardBundle.writeIfChanged(root.resolve(SYSUSERS), resource("spectrum-host.sysusers")));

        out.printf("[%d/%d] host file -> /%s%n", ++step, steps, HOST_FILE);
        Path file = root.resolve(HOST_FILE);
        if (Files.exists(file) && !resetConfig) {
            out.printf("      kept the existing host file (edit it, or pass --reset-config to replace it)%n");
        } else {
            BoardBundle.report(out, file, BoardBundle.writeIfChanged(file, Files.readAllBytes(hostFile)));
        }

        out.printf("[%d/%d] state     -> /%s%n", ++step, steps, STATE);
        Path state = root.resolve(STATE);
        if (Files.isDirectory(state)) {
            out.printf("      kept (an update never touches it)%n");
        } else {
            Files.createDirectories(state);
            out.printf("      made (systemd gives it to %s when the service starts)%n", USER);
        }
        if (enable) {
            BoardBundle.enable(root, WANTS_LINK, "/" + UNIT, out);
        }
        out.flush();
    }

    private static byte[] resource(String name) throws IOException {
        try (java.io.InputStream in = HostBundle.class.getResourceAsStream("/host/" + name)) {
            if (in == null) {
                throw new IOException("host template /host/" + name + " is missing from the jar (a broken build?)");
            }
            return in.readAllBytes();
        }
    }
}
