package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.store.ArtifactStore;
import io.spectrum.bus.store.SealJob;
import io.spectrum.bus.store.StagedArtifact;

/**
 * An in-memory {@link ArtifactStore} for the bus's tests: staging is a byte array the test fills
 * with {@link #write}; a seal (begin, the job's run, finish) holds room for the copy, checks the
 * exact length and the SHA-256 digest of the bytes the job copied and keeps them as an immutable
 * sealed object; {@link #read} reads a sealed object's bytes.
 */
public final class MemoryArtifactStore implements ArtifactStore {
    private record Staging(long generation, long length, String contentType, byte[] bytes, int written) {
    }

    private final String storeId;
    private final long capacity;
    private final long perObject;
    private final Map<Long, Staging> staging = new HashMap<>();
    private final Map<Long, byte[]> sealed = new HashMap<>();
    private final Map<Long, ArtifactRef> refs = new HashMap<>();
    private final Map<Long, Job> sealing = new HashMap<>();
    private long nextId;
    private long bytes;
    private long peak;
    private long refusals;
    int collected;

    public MemoryArtifactStore() {
        this("mem-1", 512L << 20, 128L << 20);
    }

    public MemoryArtifactStore(String storeId, long capacity, long perObject) {
        this.storeId = storeId;
        this.capacity = capacity;
        this.perObject = perObject;
    }

    /** The test's writer: puts {@code data} into the staging of {@code artifactId} from offset 0. */
    public void write(long artifactId, byte[] data) {
        Staging s = staging.get(artifactId);
        if (s == null) {
            throw new IllegalStateException("no staging " + artifactId);
        }
        int n = (int) Math.min(data.length, s.length);
        System.arraycopy(data, 0, s.bytes, 0, n);
        staging.put(artifactId, new Staging(s.generation, s.length, s.contentType, s.bytes, Math.max(s.written, data.length)));
    }

    /** A sealed object's bytes (a copy), or null once collected. */
    public byte[] read(long artifactId) {
        byte[] b = sealed.get(artifactId);
        return b == null ? null : b.clone();
    }

    boolean staged(long artifactId) {
        return staging.containsKey(artifactId);
    }

    public static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String storeId() {
        return storeId;
    }

    @Override
    public Path root() {
        return Path.of("/memory", storeId);
    }

    @Override
    public StagedArtifact allocate(long byteLength, String contentType) throws BusException {
        if (byteLength < 1) {
            throw new BusException(BusError.INVALID_ENVELOPE, "byteLength below 1");
        }
        if (byteLength > perObject || bytes + byteLength > capacity) {
            refusals++;
            throw new BusException(BusError.QUOTA_EXCEEDED, "no room for " + byteLength);
        }
        long id = ++nextId;
        staging.put(id, new Staging(1, byteLength, contentType, new byte[(int) byteLength], 0));
        grow(byteLength);
        return new StagedArtifact(id, 1, byteLength, contentType, "staging/" + id);
    }

    /** A begun seal: {@link #run} copies and hashes the staged bytes it finds then. */
    private final class Job implements SealJob {
        final long id;
        final long length;
        final String expected;
        byte[] copy;
        String actual;
        boolean ran;

        Job(long id, long length, String expected) {
            this.id = id;
            this.length = length;
            this.expected = expected;
        }

        @Override
        public long artifactId() {
            return id;
        }

        @Override
        public void run() {
            Staging s = staging.get(id);
            copy = s == null ? null : s.bytes.clone();
            actual = copy == null ? null : sha256(copy);
            ran = true;
        }
    }

    @Override
    public SealJob beginSeal(long artifactId, long generation, String digest) throws BusException {
        Staging s = staging.get(artifactId);
        if (s == null || s.generation != generation || sealing.containsKey(artifactId)) {
            throw new BusException(BusError.ARTIFACT_GONE, "no staging " + artifactId + "/" + generation);
        }
        if (bytes + s.length > capacity) {
            refusals++;
            throw new BusException(BusError.QUOTA_EXCEEDED, "no room for the sealed copy");
        }
        grow(s.length);
        Job j = new Job(artifactId, s.length, digest);
        sealing.put(artifactId, j);
        return j;
    }

    @Override
    public ArtifactRef finishSeal(SealJob job) throws BusException {
        Job j = (Job) job;
        if (!j.ran || sealing.get(j.id) != j) {
            throw new IllegalStateException("seal job " + j.id + " has not run or has ended");
        }
        sealing.remove(j.id);
        bytes -= j.length;
        Staging s = staging.get(j.id);
        if (s == null || j.copy == null) {
            throw new BusException(BusError.ARTIFACT_GONE, "staging " + j.id + " went while it was sealed");
        }
        if (s.written != s.length || (j.expected != null && !j.expected.equals(j.actual))) {
            staging.remove(j.id);
            bytes -= s.length;
            throw new BusException(BusError.ARTIFACT_MISMATCH, "staged bytes do not match");
        }
        staging.remove(j.id);
        sealed.put(j.id, j.copy);
        // the staging's bytes are now the sealed object's; the copy's hold went above
        ArtifactRef ref = new ArtifactRef(storeId, j.id, s.generation, s.length, j.actual);
        refs.put(j.id, ref);
        return ref;
    }

    @Override
    public void cancelSeal(SealJob job) {
        Job j = (Job) job;
        if (sealing.get(j.id) == j) {
            sealing.remove(j.id);
            bytes -= j.length;
        }
    }

    /** Seals begun and not yet finished or cancelled. */
    int sealing() {
        return sealing.size();
    }

    @Override
    public void check(ArtifactRef ref) throws BusException {
        if (!ref.storeId().equals(storeId)) {
            throw new BusException(BusError.ARTIFACT_GONE, "other store");
        }
        if (staging.containsKey(ref.artifactId())) {
            throw new BusException(BusError.ARTIFACT_UNSEALED, "staging");
        }
        ArtifactRef have = refs.get(ref.artifactId());
        if (have == null || have.generation() != ref.generation()) {
            throw new BusException(BusError.ARTIFACT_GONE, "gone");
        }
        if (!have.equals(ref)) {
            throw new BusException(BusError.ARTIFACT_MISMATCH, "mismatch");
        }
    }

    @Override
    public String readLocation(long artifactId) throws BusException {
        if (!sealed.containsKey(artifactId)) {
            throw new BusException(BusError.ARTIFACT_GONE, "gone");
        }
        return "sealed/" + artifactId;
    }

    @Override
    public void abandon(long artifactId) {
        Staging s = staging.remove(artifactId);
        if (s != null) {
            bytes -= s.length;
        }
    }

    @Override
    public void collect(long artifactId) {
        byte[] b = sealed.remove(artifactId);
        if (b != null) {
            refs.remove(artifactId);
            bytes -= b.length;
            collected++;
        }
    }

    @Override
    public int objects() {
        return sealed.size();
    }

    @Override
    public String resourceName() {
        return "bus.store";
    }

    @Override
    public long inUse() {
        return bytes;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public long peak() {
        return peak;
    }

    @Override
    public long refused() {
        return refusals;
    }

    @Override
    public long dropped() {
        return 0;
    }

    @Override
    public void close() {
        staging.clear();
        sealing.clear();
        sealed.clear();
        refs.clear();
        bytes = 0;
    }

    private void grow(long n) {
        bytes += n;
        peak = Math.max(peak, bytes);
    }
}
