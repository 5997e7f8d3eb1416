package io.spectrum.bus.state;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.store.ArtifactStore;

/**
 * The ownership graph's counters: one root counter per sealed object. A queued or
 * unconsumed delivery, an explicit hold and a retained value each hold one root on each distinct
 * object they name; when an object's last root goes the store collects it. The bus decides when an
 * object may go; the store only keeps bytes.
 */
final class Roots {
    private final ArtifactStore store;
    private final Map<Long, SealedObject> objects = new HashMap<>();
    private long total;

    Roots(ArtifactStore store) {
        this.store = store;
    }

    ArtifactStore store() {
        return store;
    }

    /** Records a freshly sealed object (no roots yet; the caller adds the first). */
    SealedObject sealed(ArtifactRef ref, String contentType) {
        SealedObject o = new SealedObject(ref, contentType);
        objects.put(ref.artifactId(), o);
        return o;
    }

    /** The live sealed object with this id, or null. */
    SealedObject object(long artifactId) {
        return objects.get(artifactId);
    }

    void add(SealedObject o) {
        o.roots++;
        total++;
    }

    void addAll(Collection<SealedObject> os) {
        for (SealedObject o : os) {
            add(o);
        }
    }

    void drop(SealedObject o) {
        if (o.roots <= 0) {
            throw new IllegalStateException("root underflow on artifact " + o.ref.artifactId());
        }
        o.roots--;
        total--;
        if (o.roots == 0) {
            objects.remove(o.ref.artifactId());
            store.collect(o.ref.artifactId());
        }
    }

    void dropAll(Collection<SealedObject> os) {
        for (SealedObject o : os) {
            drop(o);
        }
    }

    /** Sealed objects the bus tracks (each has at least one root). */
    java.util.Collection<SealedObject> objects() {
        return java.util.List.copyOf(objects.values());
    }

    long total() {
        return total;
    }
}
