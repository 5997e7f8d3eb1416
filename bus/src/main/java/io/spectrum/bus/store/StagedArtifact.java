package io.spectrum.bus.store;

/**
 * A writable artifact that is not sealed yet: its id and generation, the byte length it was
 * allocated with, and where its writer writes ({@code writeLocation}, relative to the store's
 * root; the writer opens {@code root.resolve(writeLocation)}).
 */
public record StagedArtifact(long artifactId, long generation, long byteLength, String contentType,
        String writeLocation) {
}
