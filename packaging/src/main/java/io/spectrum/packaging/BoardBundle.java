package io.spectrum.packaging;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The board bundle and how it lands in a board's root file system:
 *
 * <pre>
 * opt/spectrum/lib/*.jar                      spectrum-board.jar (board main, runtime, node, links, jSerialComm)
 * opt/spectrum/bin/spectrum-board             launcher: reads board.conf, runs the board main (io.spectrum.board.BoardMain)
 * opt/spectrum/runtime/                       optional jlinked aarch64 runtime (bin/java)
 * opt/spectrum/apps/*.jar                     optional board apps (flash --app); the launcher puts them on the class path
 * etc/spectrum/board.yaml                     optional board file (flash --config, docs/board.md); without it the demo board
 * etc/systemd/system/spectrum-board.service   the service unit
 * etc/systemd/system/spectrum-board.service.d/device-groups.conf
 *                                             the device groups (i2c, gpio, spi) the board's system has
 * etc/spectrum/board.conf                     serial port, baud, UDP; kept if it already exists
 * etc/systemd/system/multi-user.target.wants/spectrum-board.service -> the unit (enable)
 * </pre>
 *
 * Installing twice gives the same tree: unchanged files are left alone, a changed jar set replaces
 * the old one, the user's board.conf is kept unless a reset is asked for.
 */
public final class BoardBundle {
    /** Where the bundle lives, relative to the board's root. */
    public static final String HOME = "opt/spectrum";
    /** The board application jar that flash installs, as the packaging module carries it. */
    public static final String BOARD_JAR = "spectrum-board.jar";
    /** The class-path resource of {@link #BOARD_JAR} in the packaging jar. */
    public static final String BOARD_JAR_RESOURCE = "/board/" + BOARD_JAR;
    /** The systemd unit's file name. */
    public static final String UNIT_NAME = "spectrum-board.service";
    /** The unit's path, relative to the board's root. */
    public static final String UNIT = "etc/systemd/system/" + UNIT_NAME;
    /**
     * The launcher's settings (serial port, baud, UDP), relative to the board's root; kept across installs unless
     * reset.
     */
    public static final String CONF = "etc/spectrum/board.conf";
    /** The board file (docs/board.md) the launcher runs when it exists. */
    public static final String BOARD_FILE = "etc/spectrum/board.yaml";
    /** Where {@code flash --app} jars go; the launcher puts them on the class path. */
    public static final String APPS = HOME + "/apps";
    /** The symlink that enables the unit at boot, relative to the board's root. */
    public static final String WANTS_LINK = "etc/systemd/system/multi-user.target.wants/" + UNIT_NAME;
    /** Where the enable symlink points, as the board sees it. */
    public static final String UNIT_ON_BOARD = "/" + UNIT;
    /**
     * The groups that open a board's devices besides its serial port (the unit's own
     * {@code SupplementaryGroups=dialout}): I2C buses, GPIO chips, SPI devices, as Raspberry Pi OS and
     * Debian's i2c-tools name them. The service's dynamic user gets those the board's system has; a
     * unit naming a group the system lacks would not start, so they are not in the unit itself.
     */
    public static final List<String> DEVICE_GROUPS = List.of("i2c", "gpio", "spi");
    /** The unit's drop-in that adds the {@link #DEVICE_GROUPS} the board's system has, relative to its root. */
    public static final String GROUPS_DROP_IN = "etc/systemd/system/" + UNIT_NAME + ".d/device-groups.conf";

    private final List<Path> classpath;
    private final Path runtime;
    private final BoardConfig config;
    private final BoardKeys keys;
    private final boolean resetConfig;
    private final Path boardFile;
    private final List<Path> apps;

    /**
     * A bundle of {@code classpath} and an optional {@code runtime} (null: the board's own java), writing {@code
     * config} to a new board.conf (over an existing one too when {@code resetConfig}); no DTLS files, board file or
     * apps.
     */
    public BoardBundle(List<Path> classpath, Path runtime, BoardConfig config, boolean resetConfig) {
        this(classpath, runtime, config, resetConfig, null, null, List.of());
    }

    /**
     * As above, also installing the board's DTLS files ({@code keys}, null for none) into
     * {@code /etc/spectrum/keys}; the config should then point at them ({@link BoardConfig#withDtls}).
     */
    public BoardBundle(List<Path> classpath, Path runtime, BoardConfig config, boolean resetConfig, BoardKeys keys) {
        this(classpath, runtime, config, resetConfig, keys, null, List.of());
    }

    /**
     * @param classpath   jars (copied) or class directories (packed into jars) that run {@code spectrum}
     * @param runtime     a runtime image to ship (must hold bin/java), or null to use the board's java
     * @param config      values for a new board.conf
     * @param resetConfig overwrite an existing board.conf
     * @param keys        the board's DTLS files to install into {@code /etc/spectrum/keys}, or null for none
     * @param boardFile   a board file to install as board.yaml (checked by the caller), or null to leave it
     * @param apps        board app jars to install (they replace the installed ones); empty leaves them
     */
    public BoardBundle(List<Path> classpath, Path runtime, BoardConfig config, boolean resetConfig, BoardKeys keys,
                       Path boardFile, List<Path> apps) {
        checkInputs(classpath, runtime, "; build one with packaging/build-arm64-runtime.sh");
        if (boardFile != null && !Files.isRegularFile(boardFile)) {
            throw new IllegalArgumentException("--config " + boardFile + " is not a file");
        }
        for (Path app : apps) {
            if (!Files.isRegularFile(app) || !app.getFileName().toString().endsWith(".jar")) {
                throw new IllegalArgumentException("--app " + app + " is not a jar file; build the app first");
            }
        }
        this.boardFile = boardFile;
        this.apps = List.copyOf(apps);
        this.classpath = List.copyOf(classpath);
        this.runtime = runtime;
        this.config = config;
        this.resetConfig = resetConfig;
        this.keys = keys;
    }

    /** The values a new board.conf gets. */
    public BoardConfig config() {
        return config;
    }

    /**
     * Writes the bundle into {@code root} (a board root file system or a staging directory).
     *
     * @param enable also create the multi-user.target.wants symlink (what {@code systemctl enable} does)
     */
    public void install(Path root, boolean enable, PrintWriter out) throws IOException {
        Path home = root.resolve(HOME);
        int steps = 5 + (enable ? 1 : 0) + (runtime != null ? 1 : 0) + (keys != null ? 1 : 0) + (apps.isEmpty() ? 0 : 1)
                + (boardFile == null ? 0 : 1);
        int step = 0;

        out.printf("[%d/%d] libraries -> /%s/lib%n", ++step, steps, HOME);
        installJars(classpath, home.resolve("lib"), out);

        if (!apps.isEmpty()) {
            out.printf("[%d/%d] apps      -> /%s%n", ++step, steps, APPS);
            installJars(apps, home.resolve("apps"), out);
        }

        out.printf("[%d/%d] launcher  -> /%s/bin/spectrum-board%n", ++step, steps, HOME);
        Path launcher = home.resolve("bin/spectrum-board");
        report(out, launcher, writeIfChanged(launcher, resource("spectrum-board")));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));

        if (runtime != null) {
            out.printf("[%d/%d] runtime   -> /%s/runtime (from %s)%n", ++step, steps, HOME, runtime);
            replaceTree(runtime, home.resolve("runtime"));
        }

        out.printf("[%d/%d] service   -> /%s%n", ++step, steps, UNIT);
        Path unit = root.resolve(UNIT);
        report(out, unit, writeIfChanged(unit, resource(UNIT_NAME)));

        Path groupFile = root.resolve("etc/group");
        if (Files.isRegularFile(groupFile)) { // a board's root: its groups are known here (over ssh the board's script says)
            List<String> present = presentGroups(Files.readString(groupFile, StandardCharsets.UTF_8));
            Path dropIn = root.resolve(GROUPS_DROP_IN);
            if (present.isEmpty()) {
                Files.deleteIfExists(dropIn);
            } else {
                out.printf("      device groups: %s%n", String.join(" ", present));
                report(out, dropIn, writeIfChanged(dropIn, groupsDropIn(String.join(" ", present)).getBytes(StandardCharsets.UTF_8)));
            }
        }

        out.printf("[%d/%d] config    -> /%s%n", ++step, steps, CONF);
        Path conf = root.resolve(CONF);
        if (Files.exists(conf) && !resetConfig) {
            out.printf("      kept the existing config (edit it, or pass --reset-config to rewrite it from the options)%n");
            // its text is the user's; the service's dynamic user must still be able to read it
            Set<PosixFilePermission> mode = posixMode(conf);
            if (mode != null && !mode.contains(PosixFilePermission.OTHERS_READ)) {
                mode.add(PosixFilePermission.OTHERS_READ);
                Files.setPosixFilePermissions(conf, mode);
                out.printf("      made it readable by the service's user (o+r)%n");
            }
        } else {
            byte[] text = config.render(new String(resource("board.conf"), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            report(out, conf, writeIfChanged(conf, text));
        }

        if (keys != null) {
            out.printf("[%d/%d] keys      -> /%s%n", ++step, steps, BoardKeys.DIR);
        }
        installKeys(root.resolve(BoardKeys.DIR), out);
        if (boardFile != null) {
            out.printf("[%d/%d] board     -> /%s (from %s)%n", ++step, steps, BOARD_FILE, boardFile);
            report(out, root.resolve(BOARD_FILE), writeIfChanged(root.resolve(BOARD_FILE), Files.readAllBytes(boardFile)));
        }

        out.printf("[%d/%d] readme    -> /%s/README.board%n", ++step, steps, HOME);
        report(out, home.resolve("README.board"), writeIfChanged(home.resolve("README.board"), resource("README.board")));

        if (enable) {
            out.printf("[%d/%d] enable    -> /%s%n", ++step, steps, WANTS_LINK);
            enable(root, WANTS_LINK, UNIT_ON_BOARD, out);
        }
        out.flush();
    }

    /** The text of {@link #GROUPS_DROP_IN} for {@code groups} (space separated, not empty). */
    public static String groupsDropIn(String groups) {
        return "# written by spectrum flash: the device groups this system has (docs/board.md)\n[Service]\nSupplementaryGroups="
                + groups + "\n";
    }

    /** Of the {@link #DEVICE_GROUPS}, those an {@code /etc/group} file's text names, in that order. */
    static List<String> presentGroups(String etcGroup) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String line : etcGroup.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                names.add(line.substring(0, colon));
            }
        }
        List<String> present = new java.util.ArrayList<>();
        for (String g : DEVICE_GROUPS) {
            if (names.contains(g)) {
                present.add(g);
            }
        }
        return present;
    }

    /**
     * The board's DTLS key, certificate, the CA certificate and revocation list (the key readable by
     * root only; the service gets it through systemd's LoadCredential=). The directory is made even
     * without keys: the service loads it (empty).
     */
    private void installKeys(Path dir, PrintWriter out) throws IOException {
        Files.createDirectories(dir);
        if (keys == null) {
            return;
        }
        Path key = dir.resolve(BoardKeys.KEY);
        report(out, key, writeIfChanged(key, Files.readAllBytes(keys.key()), "rw-------"));
        report(out, dir.resolve(BoardKeys.CERT), writeIfChanged(dir.resolve(BoardKeys.CERT), Files.readAllBytes(keys.cert())));
        report(out, dir.resolve(BoardKeys.CA), writeIfChanged(dir.resolve(BoardKeys.CA), Files.readAllBytes(keys.ca())));
        if (keys.revocationList() != null) {
            report(out, dir.resolve(BoardKeys.CRL), writeIfChanged(dir.resolve(BoardKeys.CRL),
                    Files.readAllBytes(keys.revocationList())));
        }
    }

    /** Makes {@code dir} hold exactly {@code entries} (jars copied, class directories packed). */
    /**
     * Refuses a bundle that could not be installed: an empty classpath, a classpath entry that does
     * not exist, or a runtime without {@code bin/java} ({@code runtimeHint} is appended to that line).
     * Shared by the board's and the host's bundles.
     */
    static void checkInputs(List<Path> classpath, Path runtime, String runtimeHint) {
        if (classpath.isEmpty()) {
            throw new IllegalArgumentException("nothing to install: the classpath is empty");
        }
        for (Path p : classpath) {
            if (!Files.exists(p)) {
                throw new IllegalArgumentException(p + " does not exist; build it first: mvn -B -DskipTests package");
            }
        }
        if (runtime != null && !Files.isExecutable(runtime.resolve("bin/java"))) {
            throw new IllegalArgumentException("--runtime " + runtime + " has no bin/java" + runtimeHint);
        }
    }

    static void installJars(List<Path> entries, Path lib, PrintWriter out) throws IOException {
        Files.createDirectories(lib);
        Set<String> names = new HashSet<>();
        for (Path entry : entries) {
            String name = libraryName(entry, names);
            Path target = lib.resolve(name);
            byte[] content;
            if (Files.isDirectory(entry)) {
                content = packDirectory(entry);
            } else {
                content = Files.readAllBytes(entry);
            }
            report(out, target, writeIfChanged(target, content));
        }
        // drop jars from an earlier install that are not part of this one
        try (Stream<Path> old = Files.list(lib)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                if (!names.contains(p.getFileName().toString())) {
                    Files.delete(p);
                    out.printf("      removed %s (not in this bundle)%n", p.getFileName());
                }
            }
        }
    }

    private static String libraryName(Path entry, Set<String> taken) {
        String base;
        if (Files.isDirectory(entry)) {
            // .../host-app/target/classes -> host-app-classes.jar
            Path module = entry.getParent() == null ? null : entry.getParent().getParent();
            base = (module == null ? "classes" : module.getFileName() + "-" + entry.getFileName()) + ".jar";
        } else {
            base = entry.getFileName().toString();
        }
        String name = base;
        for (int i = 2; !taken.add(name); i++) {
            name = base.replace(".jar", "-" + i + ".jar");
        }
        return name;
    }

    /** A jar of a class directory, entries sorted so the bytes are the same for the same classes. */
    static byte[] packDirectory(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes)) {
            for (Path f : files) {
                JarEntry e = new JarEntry(dir.relativize(f).toString().replace('\\', '/'));
                e.setTime(0);
                jar.putNextEntry(e);
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** What {@code systemctl enable} does: the wants link {@code wantsLink} (under root) to {@code unitOnTarget}. */
    static void enable(Path root, String wantsLink, String unitOnTarget, PrintWriter out) throws IOException {
        Path link = root.resolve(wantsLink);
        Files.createDirectories(link.getParent());
        Path target = Path.of(unitOnTarget);
        if (Files.isSymbolicLink(link) && Files.readSymbolicLink(link).equals(target)) {
            out.printf("      unchanged%n");
            return;
        }
        if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(link);
        }
        Files.createSymbolicLink(link, target);
        out.printf("      linked to %s%n", target);
    }

    static void report(PrintWriter out, Path file, boolean changed) throws IOException {
        out.printf("      %s %s (%s)%n", changed ? "wrote" : "unchanged", file.getFileName(), size(Files.size(file)));
        out.flush();
    }

    private static String size(long bytes) {
        if (bytes >= 1 << 20) {
            return String.format("%.1f MB", bytes / 1048576.0);
        }
        if (bytes >= 1 << 10) {
            return String.format("%.1f KB", bytes / 1024.0);
        }
        return bytes + " B";
    }

    /**
     * Writes via a temp file and an atomic rename, so a failure never leaves a half-written file.
     * The file is left world-readable (rw-r--r--): the board service runs as a dynamic user, not
     * root, and must read its jar and board.conf (a temp file is created rw------- by default, and
     * the rename kept that). An unchanged file gets the mode too, so a re-flash mends an earlier install.
     */
    static boolean writeIfChanged(Path target, byte[] content) throws IOException {
        return writeIfChanged(target, content, READABLE);
    }

    /** {@link #writeIfChanged(Path, byte[])} with the file's mode: a private key is rw------- from the start. */
    static boolean writeIfChanged(Path target, byte[] content, String mode) throws IOException {
        if (Files.isRegularFile(target) && Files.size(target) == content.length
                && java.util.Arrays.equals(Files.readAllBytes(target), content)) {
            setMode(target, mode);
            return false;
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            setMode(tmp, mode);
            Files.write(tmp, content);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return true;
    }

    static final String READABLE = "rw-r--r--";

    private static Set<PosixFilePermission> posixMode(Path file) throws IOException {
        try {
            return new java.util.HashSet<>(Files.getPosixFilePermissions(file));
        } catch (UnsupportedOperationException e) {
            return null; // not a POSIX file system
        }
    }

    private static void setMode(Path file, String mode) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
    }

    static void replaceTree(Path from, Path to) throws IOException {
        deleteTree(to);
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()),
                        StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** A file of the bundle template (packaging/src/main/resources/board/). */
    static byte[] resource(String name) throws IOException {
        try (InputStream in = BoardBundle.class.getResourceAsStream("/board/" + name)) {
            if (in == null) {
                throw new IOException("bundle template /board/" + name + " is missing from the jar (a broken build?)");
            }
            return in.readAllBytes();
        }
    }
}
