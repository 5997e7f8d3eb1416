package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;

/**
 * An application's name for one sealed, immutable artifact: the store that holds it
 * (a store id changes when the store restarts, so an old ref is {@link BusError#ARTIFACT_GONE}),
 * the artifact id and generation, its exact length and its SHA-256 digest (lower-case hex). Two
 * refs name the same object when all five fields are equal. A ref is not ownership: a connection
 * reads an artifact through an owner (a delivery or an explicit hold) it holds.
 */
public record ArtifactRef(String storeId, long artifactId, long generation, long length, String digest) {
    /** Checks that the store id and digest are given; {@link IllegalArgumentException} otherwise. */
    public ArtifactRef {
        if (storeId == null || digest == null) {
            throw new IllegalArgumentException("an artifact ref needs a store id and a digest");
        }
    }
}
