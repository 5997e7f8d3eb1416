package io.spectrum.client.bus;

import io.spectrum.bus.protocol.ArtifactFiles;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusWire;
import java.nio.MappedByteBuffer;

/**
 * One sealed artifact this client holds through an owner (an explicit hold {@code own-N}, or the
 * delivery {@code dlv-N} that carried it): its ref, the owner id, and where to map its bytes.
 * Reading maps the file read-only: no bytes cross the socket.
 *
 * <p>Three kinds, by where it came from: a hold ({@link #retain()}, a sealed writer), which
 * {@link #close()} releases; an artifact {@link Message#extract extracted} from a message, which
 * holds that delivery (a share of its guard) until {@link #close()}; and a message's
 * {@link Message#artifacts() listed} attachment, which holds nothing and is readable while its
 * delivery is not consumed.
 */
public final class Artifact implements AutoCloseable {
    private final BusClient client;
    private final String name;
    private final ArtifactRef ref;
    private final String ownerId;
    private final String readLocation;
    /** The delivery guard this handle holds a share of (extracted from a message), or null. */
    private final DeliveryGuard guard;
    /** A message's listed attachment: read through its delivery, holds nothing of its own. */
    private final boolean listed;
    private boolean closed;

    /** A hold ({@code own-N}): {@link #close()} releases it. */
    Artifact(BusClient client, String name, ArtifactRef ref, String ownerId, String readLocation) {
        this(client, name, ref, ownerId, readLocation, null, false);
    }

    private Artifact(BusClient client, String name, ArtifactRef ref, String ownerId, String readLocation,
            DeliveryGuard guard, boolean listed) {
        this.client = client;
        this.name = name;
        this.ref = ref;
        this.ownerId = ownerId;
        this.readLocation = readLocation;
        this.guard = guard;
        this.listed = listed;
    }

    /** A delivery's attachment as its message lists it (owner: the delivery id). */
    static Artifact listed(BusClient client, String name, ArtifactRef ref, String deliveryId, String readLocation) {
        return new Artifact(client, name, ref, deliveryId, readLocation, null, true);
    }

    /** A handle on {@code a} (a listed attachment) that holds a share of its delivery's {@code guard}. */
    static Artifact extracted(Artifact a, DeliveryGuard guard) {
        return new Artifact(a.client, a.name, a.ref, a.ownerId, a.readLocation, guard, false);
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

    /**
     * An independent hold on the same object ({@code own-N}): it outlives the message, and it is no
     * share of the delivery's guard (it neither keeps the delivery's credit nor goes with it).
     * Take it while the source (this hold or the delivery) still lives.
     */
    public Artifact retain() throws BusException {
        return client.retain(this);
    }

    /**
     * Closes this handle: a hold is released, an extracted artifact gives back its share of the
     * delivery (the last share consumes it), a listed attachment does nothing. Idempotent.
     *
     * @return the roots released (0 while the delivery has other shares, or on a repeat)
     */
    public long release() throws BusException {
        synchronized (this) {
            if (closed) {
                return 0;
            }
            closed = true;
        }
        if (guard != null) {
            return guard.drop();
        }
        if (listed) {
            return 0; // its delivery's consume releases it
        }
        return client.release(ownerId);
    }

    /** {@link #release()}. */
    @Override
    public void close() throws BusException {
        release();
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
