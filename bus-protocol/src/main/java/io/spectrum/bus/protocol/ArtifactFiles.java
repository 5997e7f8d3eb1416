package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Turns a store-issued location (relative to the store's root) into a file, safely, for the store
 * and for a client process: {@link #resolve} refuses an absolute path, an empty, {@code .} or
 * {@code ..} segment, any character outside {@code [A-Za-z0-9._-]} and {@code /}, and a path that
 * passes through a symbolic link or whose real directory is not inside the root's; the file itself
 * is opened with {@link LinkOption#NOFOLLOW_LINKS} (O_NOFOLLOW), so a symbolic link put in its
 * place is refused too. {@link #mapReadOnly} is what a reader uses; {@link #openForWrite} and
 * {@link #mapForWrite} are what the writer of a staging file uses. This class also owns the
 * store's location names ({@code staging/<id>-<generation>}, {@code sealed/<id>-<generation>}).
 *
 * <p>Refusals are typed: INVALID_ENVELOPE for a location that breaks a rule above,
 * ARTIFACT_GONE when the file does not exist, STORE_FAILURE (naming the path) for other I/O errors.
 */
public final class ArtifactFiles {
    /** The store's directory of staging files, under its root. */
    public static final String STAGING_DIR = "staging";
    /** The store's directory of sealed objects, under its root. */
    public static final String SEALED_DIR = "sealed";
    private static final int MAX_LOCATION_CHARS = 1024;

    private ArtifactFiles() {
    }

    /** The location of an artifact generation's staging file ({@code staging/<id>-<generation>}). */
    public static String stagingLocation(long artifactId, long generation) {
        return STAGING_DIR + "/" + artifactId + "-" + generation;
    }

    /** The location of an artifact generation's sealed object ({@code sealed/<id>-<generation>}). */
    public static String sealedLocation(long artifactId, long generation) {
        return SEALED_DIR + "/" + artifactId + "-" + generation;
    }

    /**
     * The file {@code location} names under {@code root}, after checking the location's shape and that
     * no directory on the way is a symbolic link or leaves the root. The file itself need not exist.
     */
    public static Path resolve(Path root, String location) throws BusException {
        checkShape(location);
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            throw failure("cannot resolve the store root " + root, e);
        }
        String[] segments = location.split("/");
        Path at = realRoot;
        for (int i = 0; i < segments.length - 1; i++) {
            at = at.resolve(segments[i]);
            BasicFileAttributes a = attributesOrNull(at);
            if (a == null) {
                throw new BusException(BusError.ARTIFACT_GONE, "no directory " + at + " for location " + location);
            }
            if (a.isSymbolicLink() || !a.isDirectory()) {
                throw new BusException(BusError.INVALID_ENVELOPE,
                        "location " + location + " passes through " + at + ", which is not a plain directory");
            }
        }
        try {
            if (!at.toRealPath().startsWith(realRoot)) {
                throw new BusException(BusError.INVALID_ENVELOPE, "location " + location + " leaves " + realRoot);
            }
        } catch (IOException e) {
            throw failure("cannot resolve " + at, e);
        }
        return at.resolve(segments[segments.length - 1]);
    }

    /**
     * Maps the sealed object at {@code location} read-only, whole. The mapping stays valid after the
     * store collects (unlinks) the file, until it is garbage collected.
     */
    public static MappedByteBuffer mapReadOnly(Path root, String location) throws BusException {
        Path p = resolveRegularFile(root, location);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, mappableSize(ch, p));
        } catch (NoSuchFileException e) {
            throw new BusException(BusError.ARTIFACT_GONE, "no file " + p);
        } catch (IOException e) {
            throw failure("cannot map " + p, e);
        }
    }

    /** Opens the staging file at {@code location} for reading and writing (the store made it; nothing is created). */
    public static FileChannel openForWrite(Path root, String location) throws BusException {
        Path p = resolveRegularFile(root, location);
        try {
            return FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new BusException(BusError.ARTIFACT_GONE, "no file " + p);
        } catch (IOException e) {
            throw failure("cannot open " + p + " for writing", e);
        }
    }

    /** Maps the staging file at {@code location} read-write, whole (its allocated length). */
    public static MappedByteBuffer mapForWrite(Path root, String location) throws BusException {
        try (FileChannel ch = openForWrite(root, location)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, mappableSize(ch, root.resolve(location)));
        } catch (IOException e) {
            throw failure("cannot map " + root.resolve(location) + " for writing", e);
        }
    }

    /** The attributes of {@code p} itself (a link is not followed), or null when nothing is there. */
    public static BasicFileAttributes attributesOrNull(Path p) throws BusException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw failure("cannot read the attributes of " + p, e);
        }
    }

    /** The STORE_FAILURE refusal for an I/O error while doing {@code what}. */
    public static BusException failure(String what, IOException e) {
        return new BusException(BusError.STORE_FAILURE, what + ": " + e);
    }

    private static Path resolveRegularFile(Path root, String location) throws BusException {
        Path p = resolve(root, location);
        BasicFileAttributes a = attributesOrNull(p);
        if (a == null) {
            throw new BusException(BusError.ARTIFACT_GONE, "no file " + p);
        }
        if (!a.isRegularFile()) {
            throw new BusException(BusError.INVALID_ENVELOPE, "location " + location + " is not a regular file");
        }
        return p;
    }

    private static long mappableSize(FileChannel ch, Path p) throws IOException, BusException {
        long size = ch.size();
        if (size > Integer.MAX_VALUE) {
            throw new BusException(BusError.INVALID_ENVELOPE, p + " has " + size + " bytes, more than one mapping holds");
        }
        return size;
    }

    private static void checkShape(String location) throws BusException {
        if (location == null || location.isEmpty() || location.length() > MAX_LOCATION_CHARS) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a location must have 1.." + MAX_LOCATION_CHARS + " chars");
        }
        if (location.charAt(0) == '/') {
            throw new BusException(BusError.INVALID_ENVELOPE, "location " + location + " is absolute");
        }
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '-' || c == '/';
            if (!ok) {
                throw new BusException(BusError.INVALID_ENVELOPE, "location has a character outside [A-Za-z0-9._-/]");
            }
        }
        for (String s : location.split("/", -1)) {
            if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                throw new BusException(BusError.INVALID_ENVELOPE,
                        "location " + location + " has an empty, '.' or '..' segment");
            }
        }
    }
}
