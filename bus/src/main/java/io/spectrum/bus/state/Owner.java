package io.spectrum.bus.state;

import java.util.List;
import io.spectrum.bus.store.StagedArtifact;

/**
 * One owner a connection holds ({@code ownerId}): an unsealed writer ({@code own-N}
 * with its staging), an explicit hold on one sealed object ({@code own-N}; a sealed writer
 * becomes one), or a delivery ({@code dlv-N}: a topic message, an RPC request or an RPC result)
 * with the distinct objects it roots.
 */
final class Owner {
    enum Kind { WRITER, HOLD, TOPIC_DELIVERY, REQUEST_DELIVERY, RESULT_DELIVERY }

    final String id;
    Kind kind;
    /** A writer's staging, until it is sealed. */
    StagedArtifact staged;
    /** A writer's content type. */
    String contentType;
    /** The distinct objects rooted: one for a hold, any number for a delivery. */
    List<SealedObject> objects;
    /** A topic delivery's subscription (its credit comes back on consume). */
    Subscription subscription;
    /** A request or result delivery's call. */
    Call call;

    Owner(String id, Kind kind) {
        this.id = id;
        this.kind = kind;
    }

    boolean isDelivery() {
        return kind == Kind.TOPIC_DELIVERY || kind == Kind.REQUEST_DELIVERY || kind == Kind.RESULT_DELIVERY;
    }

    /** The rooted object with this artifact id, or null. */
    SealedObject find(long artifactId) {
        if (objects == null) {
            return null;
        }
        for (SealedObject o : objects) {
            if (o.ref.artifactId() == artifactId) {
                return o;
            }
        }
        return null;
    }
}
