package io.spectrum.bus.state;

import io.spectrum.bus.protocol.ArtifactRef;

/** The bus's record of one sealed artifact: its ref, content type and its one root counter. */
final class SealedObject {
    final ArtifactRef ref;
    final String contentType;
    int roots;

    SealedObject(ArtifactRef ref, String contentType) {
        this.ref = ref;
        this.contentType = contentType;
    }

    long length() {
        return ref.length();
    }
}
