package io.spectrum.bus.store;

import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.BusError;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;

/**
 * The artifact store on local files: a directory (0700) holding {@code staging/}
 * (writable files, 0600, one per allocation, sparse at the allocated length) and {@code sealed/}
 * (immutable copies, 0444), plus a {@code lock} file. Locations are relative to the root and
 * resolved by {@link ArtifactFiles}.
 *
 * <p>{@link #open} takes an exclusive lock on {@code lock} (a second store on the same directory,
 * in this or another process, is refused with STORE_FAILURE), removes every file a previous run
 * left in {@code staging/} and {@code sealed/} (its count is {@link #orphansRemoved()}), and picks
 * a new {@link #storeId()} (64 random bits and the opening wall time), so refs from an earlier run
 * are ARTIFACT_GONE. A seal copies the staged bytes into a fresh sealed file while computing
 * their SHA-256, so a writer that kept a writable descriptor or mapping of the staging file cannot
 * change the sealed object; the digest is of exactly the bytes written to the sealed file. The
 * copy is a {@link SealJob} between {@link #beginSeal} and {@link #finishSeal} (or
 * {@link #cancelSeal}); {@link #seal} does the three steps on the calling thread.
 *
 * <p>Quota: {@link #bytes()} counts staging reservations and sealed objects; a seal needs room for
 * the sealed copy while the staging file still exists, so it briefly holds both. Ids grow from 1
 * and are never reused within a run; the generation is always 1 (v1 reuses no id).
 *
 * <p>Not thread-safe: one thread (the bus's) calls it. Only a seal job's {@link SealJob#run()}
 * may run on another thread: it touches the two files and its own fields, never the store's
 * state. A staging abandoned during its seal is removed at once and the job stops within a
 * chunk; {@link #close()} removes the copies of seals still in progress. A file whose path is
 * never used again (a sealed or dropped staging, a collected object) is unlinked on the executor
 * given to {@link #unlinkOn} (the bus host's; inline without one), since freeing a large file's
 * blocks takes time. Every I/O failure is a STORE_FAILURE naming the path; no IOException escapes.
 */
public final class FileArtifactStore implements ArtifactStore {
    static final String LOCK_FILE = "lock";
    static final long GENERATION = 1;
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> STAGING_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> SEALED_MODE = PosixFilePermissions.fromString("r--r--r--");
    private static final int COPY_CHUNK = 1 << 20;
    /** Each thread that seals (the bus's, a sealing executor's) reuses one direct copy buffer. */
    private static final ThreadLocal<ByteBuffer> COPY_BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(COPY_CHUNK));
    /**
     * Roots held by a store of this JVM. A POSIX record lock belongs to the process, and closing any
     * descriptor of the lock file drops it, so a second open in this JVM is refused here, before it
     * touches the lock file.
     */
    private static final Set<Path> OPEN_ROOTS = ConcurrentHashMap.newKeySet();

    private final StoreConfig config;
    private final Path root;
    private final String storeId;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** True when {@link #open} made the root: close then removes it once it is empty. */
    private final boolean createdRoot;
    private final int orphansRemoved;
    private final Map<Long, Entry> entries = new HashMap<>();
    private final Queue<Path> leftovers = new ConcurrentLinkedQueue<>();
    /** Runs the unlinks of files whose path is never used again (inline until {@link #unlinkOn}). */
    private volatile Executor unlinker = Runnable::run;
    /** Begun seals not yet finished or cancelled (an abandoned staging's job stays here until then). */
    private final Set<Job> inFlight = new HashSet<>();
    private long nextId = 1;
    private int sealedObjects;
    /** Bytes held (sealed objects plus staging reservations) against the total limit; the bus thread writes it. */
    private final ResourceCounter usage;
    private boolean closed;

    /** One allocation: staging until sealed, then a sealed object until collected. */
    static final class Entry {
        final long id;
        final long generation;
        final long length;
        final String contentType;
        boolean sealed;
        String digest;
        /** The seal in progress, between beginSeal and its finish or cancel. */
        Job sealing;

        Entry(long id, long generation, long length, String contentType) {
            this.id = id;
            this.generation = generation;
            this.length = length;
            this.contentType = contentType;
        }
    }

    private FileArtifactStore(StoreConfig config, Path root, FileChannel lockChannel, FileLock lock, int orphans,
            boolean createdRoot) {
        this.createdRoot = createdRoot;
        this.config = config;
        this.usage = new ResourceCounter("bus.store", config.totalLimitBytes());
        this.root = root;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.orphansRemoved = orphans;
        long millis = config.clock().epochNanos() / 1_000_000L;
        this.storeId = String.format("st-%016x-%x", new SecureRandom().nextLong(), millis);
    }

    /** Opens a store with the default limits in {@code root}. */
    public static FileArtifactStore open(Path root) throws BusException {
        return open(StoreConfig.defaults(root));
    }

    /**
     * Opens the store: makes the root (0700) when missing, locks it, removes a previous run's files.
     *
     * @throws BusException STORE_FAILURE when the directory is in use by another store (this or
     *     another process) or cannot be made, locked or cleaned
     */
    public static FileArtifactStore open(StoreConfig config) throws BusException {
        boolean created = !Files.exists(config.root(), LinkOption.NOFOLLOW_LINKS);
        Path root = makeRoot(config.root());
        if (!OPEN_ROOTS.add(root)) {
            throw inUse(root);
        }
        FileChannel ch = null;
        try {
            Path lockPath = root.resolve(LOCK_FILE);
            BasicFileAttributes a = ArtifactFiles.attributesOrNull(lockPath);
            if (a != null && !a.isRegularFile()) {
                throw new BusException(BusError.STORE_FAILURE, "the lock " + lockPath + " is not a regular file");
            }
            try {
                ch = FileChannel.open(lockPath, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS), mode(STAGING_MODE));
            } catch (IOException e) {
                throw ArtifactFiles.failure("cannot open the lock " + lockPath, e);
            }
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            } catch (IOException e) {
                throw ArtifactFiles.failure("cannot lock " + lockPath, e);
            }
            if (lock == null) {
                throw inUse(root);
            }
            int orphans = cleanDir(root.resolve(ArtifactFiles.STAGING_DIR))
                    + cleanDir(root.resolve(ArtifactFiles.SEALED_DIR));
            return new FileArtifactStore(config, root, ch, lock, orphans, created);
        } catch (BusException | RuntimeException e) {
            closeQuietly(ch);
            OPEN_ROOTS.remove(root);
            throw e;
        }
    }

    @Override
    public String storeId() {
        return storeId;
    }

    @Override
    public Path root() {
        return root;
    }

    /** The configuration this store was opened with. */
    public StoreConfig config() {
        return config;
    }

    /** Files of a previous run that {@link #open} removed. */
    public int orphansRemoved() {
        return orphansRemoved;
    }

    @Override
    public StagedArtifact allocate(long byteLength, String contentType) throws BusException {
        checkOpen();
        if (byteLength < 1) {
            throw new BusException(BusError.INVALID_ENVELOPE, "an artifact needs at least 1 byte, asked " + byteLength);
        }
        if (byteLength > config.perObjectLimitBytes()) {
            usage.countRefused();
            throw new BusException(BusError.QUOTA_EXCEEDED, "an artifact of " + byteLength
                    + " bytes is past the per-object limit of " + config.perObjectLimitBytes());
        }
        if (byteLength > config.totalLimitBytes() - usage.inUse()) {
            usage.countRefused();
            throw new BusException(BusError.QUOTA_EXCEEDED, "the store holds " + usage.inUse() + " of "
                    + config.totalLimitBytes() + " bytes; no room for " + byteLength);
        }
        long id = nextId++;
        String location = ArtifactFiles.stagingLocation(id, GENERATION);
        Path p = storePath(location);
        try (FileChannel ch = FileChannel.open(p, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), mode(STAGING_MODE))) {
            Files.setPosixFilePermissions(p, STAGING_MODE);
            ch.write(ByteBuffer.allocate(1), byteLength - 1);
        } catch (IOException e) {
            deleteOrKeep(p);
            throw ArtifactFiles.failure("cannot make the staging file " + p, e);
        }
        entries.put(id, new Entry(id, GENERATION, byteLength, contentType));
        hold(byteLength);
        return new StagedArtifact(id, GENERATION, byteLength, contentType, location);
    }

    @Override
    public SealJob beginSeal(long artifactId, long generation, String digest) throws BusException {
        checkOpen();
        if (digest != null && !isDigest(digest)) {
            throw new BusException(BusError.INVALID_ENVELOPE, "a digest is 64 lower-case hex digits");
        }
        Entry e = entries.get(artifactId);
        if (e == null || e.generation != generation || e.sealed || e.sealing != null) {
            throw new BusException(BusError.ARTIFACT_GONE, "no staged artifact " + artifactId + "/" + generation
                    + (e != null && e.sealing != null ? " (it is being sealed)" : ""));
        }
        if (e.length > config.totalLimitBytes() - usage.inUse()) {
            usage.countRefused();
            throw new BusException(BusError.QUOTA_EXCEEDED, "sealing " + e.length + " bytes needs room for the copy; the"
                    + " store holds " + usage.inUse() + " of " + config.totalLimitBytes());
        }
        Path staging = storePath(ArtifactFiles.stagingLocation(e.id, e.generation));
        Path sealed = storePath(ArtifactFiles.sealedLocation(e.id, e.generation));
        hold(e.length);
        Job job = new Job(this, e, staging, sealed, digest);
        e.sealing = job;
        inFlight.add(job);
        return job;
    }

    @Override
    public ArtifactRef finishSeal(SealJob sealJob) throws BusException {
        Job job = own(sealJob);
        if (!job.ran) {
            throw new IllegalStateException("the seal job of artifact " + job.artifactId() + " has not run");
        }
        checkOpen();
        if (!inFlight.remove(job)) {
            throw new IllegalStateException("the seal job of artifact " + job.artifactId() + " has ended");
        }
        Entry e = job.entry;
        if (entries.get(e.id) != e) {
            deleteOrKeep(job.sealed);
            usage.returned(e.length);
            throw new BusException(BusError.ARTIFACT_GONE, "artifact " + e.id + " was abandoned while it was sealed");
        }
        e.sealing = null;
        if (job.failure != null) {
            deleteOrKeep(job.sealed);
            usage.returned(e.length);
            if (job.failure.code() == BusError.ARTIFACT_MISMATCH) {
                dropStaging(e, job.staging);
            }
            throw job.failure;
        }
        String actual = job.digest;
        if (job.expected != null && !job.expected.equals(actual)) {
            deleteOrKeep(job.sealed);
            usage.returned(e.length);
            dropStaging(e, job.staging);
            throw new BusException(BusError.ARTIFACT_MISMATCH, "artifact " + e.id + " has SHA-256 " + actual
                    + ", not " + job.expected);
        }
        unlinkLater(job.staging);
        usage.returned(e.length);
        e.sealed = true;
        e.digest = actual;
        sealedObjects++;
        return new ArtifactRef(storeId, e.id, e.generation, e.length, actual);
    }

    @Override
    public void cancelSeal(SealJob sealJob) {
        Job job = own(sealJob);
        job.cancelled = true;
        if (!inFlight.remove(job)) {
            return;
        }
        deleteOrKeep(job.sealed);
        usage.returned(job.entry.length);
        if (entries.get(job.entry.id) == job.entry) {
            job.entry.sealing = null;
        }
    }

    private Job own(SealJob j) {
        if (!(j instanceof Job job) || job.store != this) {
            throw new IllegalArgumentException("a seal job of another store");
        }
        return job;
    }

    @Override
    public void check(ArtifactRef ref) throws BusException {
        checkOpen();
        if (ref == null) {
            throw new BusException(BusError.INVALID_ENVELOPE, "no artifact ref");
        }
        if (!storeId.equals(ref.storeId())) {
            throw new BusException(BusError.ARTIFACT_GONE, "store " + ref.storeId() + " is not this run (" + storeId + ")");
        }
        Entry e = entries.get(ref.artifactId());
        if (e == null || e.generation != ref.generation()) {
            throw new BusException(BusError.ARTIFACT_GONE, "no artifact " + ref.artifactId() + "/" + ref.generation());
        }
        if (!e.sealed) {
            throw new BusException(BusError.ARTIFACT_UNSEALED, "artifact " + ref.artifactId() + " is not sealed");
        }
        if (e.length != ref.length() || !e.digest.equals(ref.digest())) {
            throw new BusException(BusError.ARTIFACT_MISMATCH, "artifact " + ref.artifactId() + " is " + e.length
                    + " bytes with SHA-256 " + e.digest);
        }
    }

    @Override
    public String readLocation(long artifactId) throws BusException {
        checkOpen();
        Entry e = entries.get(artifactId);
        if (e == null) {
            throw new BusException(BusError.ARTIFACT_GONE, "no artifact " + artifactId);
        }
        if (!e.sealed) {
            throw new BusException(BusError.ARTIFACT_UNSEALED, "artifact " + artifactId + " is not sealed");
        }
        return ArtifactFiles.sealedLocation(e.id, e.generation);
    }

    /** Drops a staging file; unknown ids and sealed objects (use {@link #collect}) are ignored. */
    @Override
    public void abandon(long artifactId) {
        Entry e = entries.get(artifactId);
        if (closed || e == null || e.sealed) {
            return;
        }
        if (e.sealing != null) {
            e.sealing.cancelled = true;
        }
        dropStaging(e, root.resolve(ArtifactFiles.stagingLocation(e.id, e.generation)));
    }

    /** Unlinks a sealed object (mappings of it stay readable); unknown ids and staging ones are ignored. */
    @Override
    public void collect(long artifactId) {
        Entry e = entries.get(artifactId);
        if (closed || e == null || !e.sealed) {
            return;
        }
        entries.remove(artifactId);
        sealedObjects--;
        usage.returned(e.length);
        unlinkLater(root.resolve(ArtifactFiles.sealedLocation(e.id, e.generation)));
    }

    @Override
    public int objects() {
        return sealedObjects;
    }

    @Override
    public String resourceName() {
        return usage.resourceName();
    }

    @Override
    public long capacity() {
        return usage.capacity();
    }

    @Override
    public long inUse() {
        return usage.inUse();
    }

    @Override
    public long peak() {
        return usage.peak();
    }

    @Override
    public long refused() {
        return usage.refused();
    }

    @Override
    public long dropped() {
        return usage.dropped();
    }

    /**
     * Removes this run's files, its {@code staging}/{@code sealed} directories and its lock file
     * (while still holding the lock), releases the lock, and removes the root when {@link #open}
     * made it and it is empty; later calls are refused with STORE_FAILURE. A file that could not be
     * removed keeps its directory (the next open cleans it).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Job j : inFlight) {
            j.cancelled = true;
            deleteOrKeep(j.sealed);
        }
        inFlight.clear();
        for (Entry e : entries.values()) {
            String location = e.sealed ? ArtifactFiles.sealedLocation(e.id, e.generation)
                    : ArtifactFiles.stagingLocation(e.id, e.generation);
            deleteOrKeep(root.resolve(location));
        }
        entries.clear();
        sealedObjects = 0;
        usage.returned(usage.inUse());
        for (Path p : List.copyOf(leftovers)) {
            leftovers.remove(p);
            deleteOrKeep(p);
        }
        if (leftovers.isEmpty()) { // nothing of this run is left: its directories and lock go too
            removeIfEmpty(root.resolve(ArtifactFiles.STAGING_DIR));
            removeIfEmpty(root.resolve(ArtifactFiles.SEALED_DIR));
            // unlinked while still locked: a store opening now meets the lock and says the root is in use
            removeIfEmpty(root.resolve(LOCK_FILE));
        }
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it too
        }
        closeQuietly(lockChannel);
        if (createdRoot) {
            removeIfEmpty(root);
        }
        OPEN_ROOTS.remove(root);
    }

    /** Deletes a file or an empty directory; one that is not empty, or cannot go, stays. */
    private static void removeIfEmpty(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // not empty (a file someone else put there), or not ours to remove: it stays
        }
    }

    /** Files whose unlink failed (kept to retry at close; the next open removes them anyway). */
    int leftovers() {
        return leftovers.size();
    }

    /**
     * One seal's file work ({@link SealJob}): copies the staging into a new sealed file, hashing
     * what it writes. It reads only its own final fields; the outcome fields are written by
     * {@link #run} and read by the store's thread after it ran (a completion queue or the same
     * thread orders them). A cancelled job stops within a chunk and removes the file it made.
     */
    static final class Job implements SealJob {
        final FileArtifactStore store;
        final Entry entry;
        final long id;
        final long length;
        final Path staging;
        final Path sealed;
        final String expected;
        volatile boolean cancelled;
        volatile boolean ran;
        volatile String digest;
        volatile BusException failure;

        Job(FileArtifactStore store, Entry e, Path staging, Path sealed, String expected) {
            this.store = store;
            this.entry = e;
            this.id = e.id;
            this.length = e.length;
            this.staging = staging;
            this.sealed = sealed;
            this.expected = expected;
        }

        @Override
        public long artifactId() {
            return id;
        }

        @Override
        public void run() {
            if (ran) {
                return;
            }
            try {
                digest = copy(this);
            } catch (BusException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new BusException(BusError.STORE_FAILURE, "cannot seal " + staging + ": " + e);
            } finally {
                if (cancelled) {
                    try {
                        Files.deleteIfExists(sealed);
                    } catch (IOException ignored) {
                        // the store's close or cancel deletes it again, or keeps it as a leftover
                    }
                }
                ran = true;
            }
        }
    }

    /**
     * Copies the staged bytes into a new sealed file, hashing what it writes; returns the SHA-256.
     * ARTIFACT_MISMATCH when the staged file is missing, not a regular file or not the allocated length.
     * Touches files only (and the calling thread's copy buffer).
     */
    private static String copy(Job j) throws BusException {
        Path staging = j.staging;
        Path sealed = j.sealed;
        BasicFileAttributes a = ArtifactFiles.attributesOrNull(staging);
        if (a == null || !a.isRegularFile()) {
            throw new BusException(BusError.ARTIFACT_MISMATCH, "the staged file " + staging + " is "
                    + (a == null ? "gone" : "not a regular file"));
        }
        MessageDigest md = sha256();
        ByteBuffer buf = COPY_BUFFER.get();
        try (FileChannel in = FileChannel.open(staging, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                FileChannel out = FileChannel.open(sealed, Set.of(StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), mode(STAGING_MODE))) {
            long size = in.size();
            if (size != j.length) {
                throw mismatchLength(j, size);
            }
            long pos = 0;
            while (pos < j.length) {
                if (j.cancelled) {
                    throw new BusException(BusError.STORE_FAILURE, "the seal of " + staging + " was cancelled");
                }
                buf.clear().limit((int) Math.min(buf.capacity(), j.length - pos));
                int n = in.read(buf, pos);
                if (n < 0) {
                    throw mismatchLength(j, pos);
                }
                buf.flip();
                md.update(buf.duplicate());
                while (buf.hasRemaining()) {
                    pos += out.write(buf, pos);
                }
            }
            if (in.size() != j.length) {
                throw mismatchLength(j, in.size());
            }
            Files.setPosixFilePermissions(sealed, SEALED_MODE);
        } catch (IOException ex) {
            throw ArtifactFiles.failure("cannot seal " + staging + " into " + sealed, ex);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** The file of one of the store's own locations; a damaged layout (a directory gone or replaced) is a STORE_FAILURE. */
    private Path storePath(String location) throws BusException {
        try {
            return ArtifactFiles.resolve(root, location);
        } catch (BusException e) {
            throw e.code() == BusError.STORE_FAILURE ? e
                    : new BusException(BusError.STORE_FAILURE, "the store's layout in " + root + " is damaged: "
                            + e.getMessage());
        }
    }

    private static BusException mismatchLength(Job j, long size) {
        return new BusException(BusError.ARTIFACT_MISMATCH, "artifact " + j.id + " was allocated " + j.length
                + " bytes but its staged file has " + size);
    }

    private void dropStaging(Entry e, Path staging) {
        entries.remove(e.id);
        usage.returned(e.length);
        unlinkLater(staging);
    }

    private void hold(long n) {
        usage.taken(n);
    }

    /**
     * Unlinks a file whose path the store never uses again (a sealed staging, a dropped staging,
     * a collected object) on the {@link #unlinkOn unlinker}: freeing a large file's blocks takes
     * time in proportion to its size (about 45 ms for 256 MiB on tmpfs or ext4 here). A failure
     * keeps the path as a leftover.
     */
    private void unlinkLater(Path p) {
        try {
            unlinker.execute(() -> deleteOrKeep(p));
        } catch (RejectedExecutionException e) {
            deleteOrKeep(p);
        }
    }

    /**
     * From now on the unlinks of files the store never uses again run on {@code e} (the bus host's
     * sealing executor): the file goes shortly after the call that released it, whose accounting
     * is already done. {@link #close()} comes after {@code e} has run what it was given.
     */
    public void unlinkOn(Executor e) {
        unlinker = e;
    }

    private void deleteOrKeep(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            leftovers.add(p);
        }
    }

    private void checkOpen() throws BusException {
        if (closed) {
            throw new BusException(BusError.STORE_FAILURE, "the store in " + root + " is closed");
        }
    }

    static boolean isDigest(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> mode(Set<PosixFilePermission> perms) {
        return PosixFilePermissions.asFileAttribute(perms);
    }

    private static BusException inUse(Path root) {
        return new BusException(BusError.STORE_FAILURE, "the artifact store directory " + root
                + " is in use by another store (its lock " + root.resolve(LOCK_FILE) + " is held)");
    }

    private static Path makeRoot(Path configured) throws BusException {
        try {
            Files.createDirectories(configured, mode(DIR_MODE));
            Path root = configured.toRealPath();
            if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
                throw new BusException(BusError.STORE_FAILURE, "the store root " + configured + " is not a directory");
            }
            Files.setPosixFilePermissions(root, DIR_MODE);
            return root;
        } catch (UnsupportedOperationException e) {
            throw new BusException(BusError.STORE_FAILURE, "the store root " + configured
                    + " is on a file system without POSIX permissions");
        } catch (IOException e) {
            throw ArtifactFiles.failure("cannot make the store root " + configured, e);
        }
    }

    /**
     * Makes {@code dir} an empty plain directory (0700): whatever was in it is deleted (without
     * following links), and a link or file in its place is replaced. Returns the entries removed.
     */
    private static int cleanDir(Path dir) throws BusException {
        try {
            BasicFileAttributes a = ArtifactFiles.attributesOrNull(dir);
            int removed = 0;
            if (a != null && (a.isSymbolicLink() || !a.isDirectory())) {
                Files.delete(dir);
                removed++;
                a = null;
            }
            if (a == null) {
                Files.createDirectory(dir, mode(DIR_MODE));
            }
            Files.setPosixFilePermissions(dir, DIR_MODE);
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    deleteTree(p);
                    removed++;
                }
            }
            return removed;
        } catch (IOException e) {
            throw ArtifactFiles.failure("cannot clean " + dir, e);
        } catch (DirectoryIteratorException e) {
            throw ArtifactFiles.failure("cannot clean " + dir, e.getCause());
        }
    }

    private static void deleteTree(Path p) throws IOException {
        Files.walkFileTree(p, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
