package io.spectrum.wide.bus;

import io.spectrum.wire.BusError;

import java.util.List;

/** Turning a writer owner into a sealed object's hold (seed 001 §8.1), for artifact.seal and seal-on-send. */
final class Sealing {
    private Sealing() {
    }

    /**
     * Seals the writer's staging through the store; the writer becomes a hold with one root.
     *
     * @throws BusException the store's refusal; on ARTIFACT_MISMATCH or ARTIFACT_GONE the
     *     staging is gone, so the writer owner is retired
     */
    static SealedObject seal(Owners owners, Roots roots, Owner writer, String digest) throws BusException {
        StagedArtifact s = writer.staged;
        ArtifactRef ref;
        try {
            ref = roots.store().seal(s.artifactId(), s.generation(), digest);
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
