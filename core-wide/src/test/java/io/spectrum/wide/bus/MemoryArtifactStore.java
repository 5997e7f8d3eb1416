package io.spectrum.wide.bus;

import io.spectrum.wire.BusError;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * An in-memory {@link ArtifactStore} for the bus's tests: staging is a byte array the test fills
 * with {@link #write}; seal checks the exact length and the SHA-256 digest and copies the bytes
 * into an immutable sealed object; {@link #read} reads a sealed object's bytes.
 */
final class MemoryArtifactStore implements ArtifactStore {
    private record Staging(long generation, long length, String contentType, byte[] bytes, int written) {
    }

    private final String storeId;
    private final long capacity;
    private final long perObject;
    private final Map<Long, Staging> staging = new HashMap<>();
    private final Map<Long, byte[]> sealed = new HashMap<>();
    private final Map<Long, ArtifactRef> refs = new HashMap<>();
    private long nextId;
    private long bytes;
    private long peak;
    private long refusals;
    int collected;

    MemoryArtifactStore() {
        this("mem-1", 512L << 20, 128L << 20);
    }

    MemoryArtifactStore(String storeId, long capacity, long perObject) {
        this.storeId = storeId;
        this.capacity = capacity;
        this.perObject = perObject;
    }

    /** The test's writer: puts {@code data} into the staging of {@code artifactId} from offset 0. */
    void write(long artifactId, byte[] data) {
        Staging s = staging.get(artifactId);
        if (s == null) {
            throw new IllegalStateException("no staging " + artifactId);
        }
        int n = (int) Math.min(data.length, s.length);
        System.arraycopy(data, 0, s.bytes, 0, n);
        staging.put(artifactId, new Staging(s.generation, s.length, s.contentType, s.bytes, Math.max(s.written, data.length)));
    }

    /** A sealed object's bytes (a copy), or null once collected. */
    byte[] read(long artifactId) {
        byte[] b = sealed.get(artifactId);
        return b == null ? null : b.clone();
    }

    boolean staged(long artifactId) {
        return staging.containsKey(artifactId);
    }

    static String sha256(byte[] data) {
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

    @Override
    public ArtifactRef seal(long artifactId, long generation, String digest) throws BusException {
        Staging s = staging.get(artifactId);
        if (s == null || s.generation != generation) {
            throw new BusException(BusError.ARTIFACT_GONE, "no staging " + artifactId + "/" + generation);
        }
        String actual = sha256(s.bytes);
        if (s.written != s.length || (digest != null && !digest.equals(actual))) {
            staging.remove(artifactId);
            bytes -= s.length;
            throw new BusException(BusError.ARTIFACT_MISMATCH, "staged bytes do not match");
        }
        if (bytes + s.length > capacity) {
            refusals++;
            throw new BusException(BusError.QUOTA_EXCEEDED, "no room for the sealed copy");
        }
        grow(s.length);
        staging.remove(artifactId);
        bytes -= s.length;
        sealed.put(artifactId, s.bytes.clone());
        ArtifactRef ref = new ArtifactRef(storeId, artifactId, generation, s.length, actual);
        refs.put(artifactId, ref);
        return ref;
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
    public long bytes() {
        return bytes;
    }

    @Override
    public long capacityBytes() {
        return capacity;
    }

    @Override
    public long peakBytes() {
        return peak;
    }

    @Override
    public long refusals() {
        return refusals;
    }

    @Override
    public void close() {
        staging.clear();
        sealed.clear();
        refs.clear();
        bytes = 0;
    }

    private void grow(long n) {
        bytes += n;
        peak = Math.max(peak, bytes);
    }
}
