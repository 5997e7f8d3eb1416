package io.spectrum.bus.state;

import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.store.StagedArtifact;

/** The reply values of the bus's commands, one record per command that has one. */
public final class Replies {
    private Replies() {
    }

    /** {@code topic.declare}: false (and the same incarnation) for a compatible redeclaration. */
    public record Declared(boolean declared, String topicIncarnation) {
    }

    /** {@code subscribe}. */
    public record Subscribed(String subscriptionId, String topicIncarnation) {
    }

    /** {@code publish}: the accepted sequence, subscriptions reached and latest values replaced. */
    public record Published(long topicSequence, long subscribers, long replaced) {
    }

    /** {@code artifact.allocate}: the writer owner and where to write. */
    public record Allocated(String ownerId, StagedArtifact staged) {
    }

    /** {@code artifact.seal}: the sealed ref; the writer's owner id is now a hold. */
    public record Sealed(ArtifactRef ref, String ownerId) {
    }

    /** {@code service.register}. */
    public record Registered(String serviceIncarnation) {
    }

    /** {@code rpc.call}: admission only; a result or a call failure follows. */
    public record CallAccepted(boolean accepted, String serviceIncarnation) {
    }

    /** {@code rpc.cancel}'s complete state enum. */
    public enum CancelState {
        /** The call was withdrawn before its request reached the service: its handler never runs. */
        CANCELLED_BEFORE_DISPATCH("cancelled-before-dispatch"),
        /** The request was delivered: the handler may have run; no result will come. */
        EXECUTION_UNKNOWN("execution-unknown"),
        /** The service already replied: the result is on its way to the caller, or delivered. */
        COMPLETED("completed"),
        /** This connection has no open call with that id (never made, finished, or already cancelled). */
        CALL_GONE("call-gone");

        private final String wireName;

        CancelState(String wireName) {
            this.wireName = wireName;
        }

        /** The spelling in the {@code rpc.cancel} reply. */
        public String wireName() {
            return wireName;
        }
    }
}
