package io.spectrum.bus.state;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.store.ArtifactStore;
import io.spectrum.bus.store.SealJob;
import io.spectrum.bus.store.StagedArtifact;

/**
 * Where one operation's seals happen ({@code artifact.seal}, and seal-on-send in a publish, call
 * or reply). {@link #INLINE}: on the calling thread through {@link ArtifactStore#seal} (the direct
 * {@link BusSession} API). {@link #deferring()}: the operation's first run does every check and,
 * at the point where it would seal, records its writers ({@link #want}) and throws
 * {@link Deferred} with nothing changed; the caller {@link #begin}s a store job per writer, has
 * them run off the bus thread and then runs the operation once more with this object, whose
 * {@link #seal} finishes that writer's job instead of sealing. That second run re-checks
 * everything that may have changed meanwhile; {@link #close} rolls back every job it did not take
 * (the writer stays unsealed, as when the operation is refused before sealing).
 */
public final class Seals {
    /** Seals inline; holds no state. */
    public static final Seals INLINE = new Seals(false);

    /** The first run of a deferring operation reached its seals; nothing has changed. */
    public static final class Deferred extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Deferred() {
            super(null, null, false, false);
        }
    }

    private final boolean deferring;
    /** The writers the first run would seal, with their expected digest (first one named); made on first use. */
    private Map<Owner, String> wanted;
    /** Begun jobs by writer, until the second run takes them or {@link #close} rolls them back. */
    private Map<Owner, SealJob> jobs;
    private boolean begun;

    private Seals(boolean deferring) {
        this.deferring = deferring;
    }

    /** Seals that defer to store jobs. */
    public static Seals deferring() {
        return new Seals(true);
    }

    /** Records a writer the operation is about to seal (first run of a deferring one only). */
    void want(Owner writer, String digest) {
        if (deferring && !begun) {
            if (wanted == null) {
                wanted = new LinkedHashMap<>();
            }
            wanted.putIfAbsent(writer, digest);
        }
    }

    /** Throws {@link Deferred} when this is a deferring first run that wants a seal. */
    void deferIfWanted() {
        if (deferring && !begun && wanted != null) {
            throw new Deferred();
        }
    }

    /**
     * Begins one store job per wanted writer (the bus thread's checks and quota hold). A refusal
     * rolls back the jobs begun before it and is thrown; the caller then runs the operation
     * {@link #INLINE}, which meets the same refusal at the same point as it always did.
     */
    public List<SealJob> begin(ArtifactStore store) throws BusException {
        if (!deferring || begun || wanted == null) {
            throw new IllegalStateException("begin once, on a deferring first run that wants a seal");
        }
        begun = true;
        jobs = new IdentityHashMap<>();
        List<SealJob> out = new ArrayList<>(wanted.size());
        try {
            for (Map.Entry<Owner, String> w : wanted.entrySet()) {
                StagedArtifact s = w.getKey().staged;
                SealJob j = store.beginSeal(s.artifactId(), s.generation(), w.getValue());
                jobs.put(w.getKey(), j);
                out.add(j);
            }
        } catch (BusException e) {
            close(store);
            throw e;
        }
        return out;
    }

    /** Seals {@code writer}: finishes its job when one was begun for it, otherwise seals inline. */
    SealedObject seal(Owners owners, Roots roots, Owner writer, String digest) throws BusException {
        SealJob j = jobs == null ? null : jobs.remove(writer);
        if (j == null) {
            return Sealing.seal(owners, roots, writer, digest);
        }
        return Sealing.finish(owners, roots, writer, j);
    }

    /** Rolls back every begun job the operation did not take. */
    public void close(ArtifactStore store) {
        if (jobs == null) {
            return;
        }
        for (SealJob j : jobs.values()) {
            store.cancelSeal(j);
        }
        jobs.clear();
    }
}
