package io.spectrum.wide;

import java.util.function.Function;

/**
 * What a WIDE node asks before it routes or serves a request that came through a client door
 * ({@link WideNode#restrict}): may the peer known by {@code name} (null: anonymous) do
 * {@code permission} on the node path {@code path} ({@code /lab/setpoint})? Which request needs which
 * permission, and how a peer's name is known, is {@link ClientGate}'s rule (docs/host.md, "The
 * grants file"). Runs on the node thread.
 */
@FunctionalInterface
public interface PeerAccess {
    /** True when the request may go on. */
    boolean allows(String name, Grants.Permission permission, String path);

    /** The access a grants lookup gives: the name's {@link Grants} ({@code null} name: the anonymous ones). */
    static PeerAccess of(Function<String, Grants> grants) {
        return (name, permission, path) -> grants.apply(name).allows(permission, path);
    }
}
