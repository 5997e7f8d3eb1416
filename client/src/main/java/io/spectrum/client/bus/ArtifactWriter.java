package io.spectrum.client.bus;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusWire;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A writable artifact this client allocated (owner {@code own-N} of kind writer): write its bytes
 * through {@link #channel()} or {@link #map()}, then {@link #seal}. Publishing it unsealed seals it
 * on send (the writer then becomes a hold, and sealing it again is OWNER_INVALID).
 */
public final class ArtifactWriter {
    private final BusClient client;
    private final long artifactId;
    private final long generation;
    private final long byteLength;
    private final String ownerId;
    private final String writeLocation;

    ArtifactWriter(BusClient client, long artifactId, long generation, long byteLength, String ownerId,
            String writeLocation) {
        this.client = client;
        this.artifactId = artifactId;
        this.generation = generation;
        this.byteLength = byteLength;
        this.ownerId = ownerId;
        this.writeLocation = writeLocation;
    }

    /** The artifact id the bus allocated. */
    public long artifactId() {
        return artifactId;
    }

    /** The generation of {@link #artifactId()}; the pair names this allocation only. */
    public long generation() {
        return generation;
    }

    /** The length the allocation reserved; the sealed object has exactly this many bytes. */
    public long byteLength() {
        return byteLength;
    }

    /** The writer's owner id ({@code own-N}), a hold once sealed. */
    public String ownerId() {
        return ownerId;
    }

    /** The staging file, open for writing (close it when done). */
    public FileChannel channel() throws BusException {
        return ArtifactFiles.openForWrite(client.storeRoot(), writeLocation);
    }

    /** The staging file mapped read-write, {@link #byteLength()} bytes. */
    public MappedByteBuffer map() throws BusException {
        return ArtifactFiles.mapForWrite(client.storeRoot(), writeLocation);
    }

    /** Seals what was written; {@code digest} (SHA-256 hex) is checked when given. */
    public Artifact seal(String digest) throws BusException {
        return client.seal(this, digest);
    }

    /**
     * This unsealed writer as an attachment named {@code name}: the bus seals it on send (its ref
     * names the staging with an empty digest, the writer's own owner id).
     */
    public BusFields attachment(String name) {
        return BusWire.attachment(name, new ArtifactRef(client.storeId(), artifactId, generation, byteLength, ""), ownerId);
    }

    /** Drops the writer and its staging. */
    public long release() throws BusException {
        return client.release(ownerId);
    }
}
