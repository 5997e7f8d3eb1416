package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import java.util.List;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.store.SealJob;
import io.spectrum.bus.store.StagedArtifact;

/** Turning a writer owner into a sealed object's hold, for artifact.seal and seal-on-send. */
final class Sealing {
    private Sealing() {
    }

    /** The store's step that yields the sealed ref. */
    private interface StoreStep {
        ArtifactRef ref() throws BusException;
    }

    /**
     * Seals the writer's staging through the store; the writer becomes a hold with one root.
     *
     * @throws BusException the store's refusal; on ARTIFACT_MISMATCH or ARTIFACT_GONE the
     *     staging is gone, so the writer owner is retired
     */
    static SealedObject seal(Owners owners, Roots roots, Owner writer, String digest) throws BusException {
        StagedArtifact s = writer.staged;
        return adopt(owners, roots, writer, () -> roots.store().seal(s.artifactId(), s.generation(), digest));
    }

    /** As {@link #seal}, with the store's job for this writer already run: the store finishes it. */
    static SealedObject finish(Owners owners, Roots roots, Owner writer, SealJob job) throws BusException {
        if (job.artifactId() != writer.staged.artifactId()) {
            throw new IllegalStateException("the seal job of " + job.artifactId() + " is not the writer's");
        }
        return adopt(owners, roots, writer, () -> roots.store().finishSeal(job));
    }

    private static SealedObject adopt(Owners owners, Roots roots, Owner writer, StoreStep step) throws BusException {
        ArtifactRef ref;
        try {
            ref = step.ref();
        } catch (BusException e) {
            if (e.code() == BusError.ARTIFACT_MISMATCH || e.code() == BusError.ARTIFACT_GONE) {
                owners.remove(writer);
            }
            throw e;
        }
        SealedObject o = roots.sealed(ref, writer.contentType);
        writer.kind = Owner.Kind.HOLD;
        writer.staged = null;
        writer.objects = List.of(o);
        roots.add(o);
        return o;
    }
}
