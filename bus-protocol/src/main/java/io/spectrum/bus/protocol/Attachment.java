package io.spectrum.bus.protocol;

/**
 * One named artifact in a publish, call, reply or delivery: its unique name (an
 * Id), the artifact's ref and the owner through which the sender holds it. On a delivery the
 * owner id is the recipient's delivery id; a source owner id is never passed on.
 */
public record Attachment(String name, ArtifactRef ref, String ownerId) {
}
