package io.spectrum.link.local;

import java.io.IOException;
import java.net.BindException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The socket file of a Unix-socket {@link LocalLink} listener: its directory made 0700 when the
 * link creates it, the file set to 0600 after bind, a stale file (nobody accepts on it) replaced, a
 * live one or a file that is no socket refused, and the file removed on close if it is still ours.
 */
final class SocketFiles {
    private SocketFiles() {
    }

    /**
     * Makes {@code path} free to bind.
     *
     * @return true when a stale socket file was removed
     * @throws BindException when another process accepts on it, or the path is not a socket
     */
    static boolean prepare(Path path) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null && !Files.exists(dir)) {
            makeOwnerOnly(dir);
        }
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isOther()) {
            throw new BindException("cannot listen on " + path + ": it exists and is not a socket (refusing to replace it)");
        }
        if (live(path)) {
            throw new BindException("cannot listen on " + path + ": another process is listening there");
        }
        Files.delete(path);
        return true;
    }

    /**
     * Makes {@code dir} and its missing ancestors 0700 each: set after creation too, so a umask
     * cannot loosen or tighten them (on a file system without POSIX permissions, plain directories).
     */
    private static void makeOwnerOnly(Path dir) throws IOException {
        java.util.ArrayDeque<Path> missing = new java.util.ArrayDeque<>();
        for (Path d = dir; d != null && !Files.exists(d); d = d.getParent()) {
            missing.push(d);
        }
        for (Path d : missing) {
            try {
                Files.createDirectory(d, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(d, OWNER_ONLY);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made meanwhile by someone else: theirs, left as it is
            } catch (UnsupportedOperationException e) {
                Files.createDirectories(d);
            }
        }
    }

    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY =
            PosixFilePermissions.fromString("rwx------");

    /** True when a connect to the socket file succeeds (someone accepts on it). */
    static boolean live(Path path) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Sets the bound socket file to 0600 where the file system has POSIX permissions; its identity, or null. */
    static Object bound(Path path) {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | UnsupportedOperationException e) {
            // best effort: the directory's permissions still apply
        }
        return key(path);
    }

    /** Removes {@code path} when it is still the file this link bound ({@code key}). */
    static void remove(Path path, Object key) {
        try {
            Object now = key(path);
            if (now != null && now.equals(key)) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // already gone, or not ours to remove
        }
    }

    private static Object key(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }
}
