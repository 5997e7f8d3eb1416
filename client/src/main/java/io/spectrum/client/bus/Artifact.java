package io.spectrum.client.bus;

import io.spectrum.wide.bus.ArtifactFiles;
import io.spectrum.wide.bus.ArtifactRef;
import io.spectrum.wide.bus.BusException;
import io.spectrum.wide.bus.BusFields;
import io.spectrum.wide.bus.BusWire;
import java.nio.MappedByteBuffer;

/**
 * One sealed artifact this client holds through an owner (an explicit hold {@code own-N}, or the
 * delivery {@code dlv-N} that carried it): its ref, the owner id, and where to map its bytes.
 * Reading maps the file read-only: no bytes cross the socket.
 */
public final class Artifact {
    private final BusClient client;
    private final String name;
    private final ArtifactRef ref;
    private final String ownerId;
    private final String readLocation;

    Artifact(BusClient client, String name, ArtifactRef ref, String ownerId, String readLocation) {
        this.client = client;
        this.name = name;
        this.ref = ref;
        this.ownerId = ownerId;
        this.readLocation = readLocation;
    }

    /** The attachment's name in its message ({@code frame}), or null for a hold. */
    public String name() {
        return name;
    }

    /** The artifact's ref: store id, artifact id, generation, length and SHA-256 digest. */
    public ArtifactRef ref() {
        return ref;
    }

    /** The owner this client reads it through. */
    public String ownerId() {
        return ownerId;
    }

    /** The artifact's exact length in bytes. */
    public long length() {
        return ref.length();
    }

    /** Maps the sealed bytes read-only (valid even after the bus collects the object, until unmapped). */
    public MappedByteBuffer map() throws BusException {
        String loc = readLocation != null ? readLocation : client.open(this);
        return ArtifactFiles.mapReadOnly(client.storeRoot(), loc);
    }

    /** An independent hold on the same object (it outlives the message). */
    public Artifact retain() throws BusException {
        return client.retain(this);
    }

    /** Releases this hold (for an {@code own-} owner; a delivery's artifacts go with its consume). */
    public long release() throws BusException {
        return client.release(ownerId);
    }

    /** This artifact as an attachment of a publish, call or reply. */
    public BusFields attachment(String attachmentName) {
        return BusWire.attachment(attachmentName, ref, ownerId);
    }

    @Override
    public String toString() {
        return "artifact " + ref.artifactId() + "@" + ref.generation() + " " + ref.length() + " B via " + ownerId;
    }
}
