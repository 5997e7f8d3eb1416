package io.spectrum.client;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.WireError;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The vertex declarations a {@link PeerClient} has read from its peer, one READ of
 * {@code PATH:settings.app} per path (a plain v1 request: FIELD{NAME settings, NAME app}),
 * parsed with {@link VertexSchema#fromSettings}.
 *
 * <p>What is kept: a declaration, or "none" when the peer answered that the vertex has none
 * ({@code schema::not_found} from a Spectrum node for an undeclared vertex, any other typed
 * refusal, or a RESULT that is no declaration, e.g. a plain v1 peer's empty {@code SETTINGS{}}).
 * A request that got no answer (timeout, transport down) is not kept, so the next use asks again.
 *
 * <p>How long: a client is bound to one (link, peer), so the cache is per (peer, path). Entries
 * stay until the peer restarts, noticed cheaply, without traffic of its own: a write that the
 * peer refuses with {@code schema::type_mismatch} forgets that path (the value was built from a
 * declaration the peer no longer holds, e.g. a board flashed with a new board file), and whoever
 * learns of a restart otherwise calls {@link PeerClient#forgetDeclarations()} (the host on a
 * mounted board's peer down/up, which its liveness probe reports for a changed
 * {@code spectrum.boot} too). Declarations are the owner's configuration and do not change while
 * a node runs, so nothing else invalidates them.
 *
 * <p>In the host's own process (its MQTT bridge) a {@link PeerClient#declarationsFrom source} comes
 * first: the host's copy of a board vertex's declaration is taken from it, not read over the door
 * and kept here a second time; only what the host holds no copy of (its own vertices, a board
 * vertex it has not read) is read and kept here.
 */
final class Declarations {
    /** The key is present with null for "no declaration". */
    private final Map<String, VertexSchema> known = new HashMap<>();
    private Function<String, VertexSchema> held;

    void from(Function<String, VertexSchema> source) {
        held = source;
    }

    VertexSchema get(PeerClient c, String path) {
        VertexSchema copy = held == null ? null : held.apply(path);
        if (copy != null) {
            known.remove(path); // one copy: a declaration read here before the host held one is not kept
            return copy;
        }
        if (known.containsKey(path)) {
            return known.get(path);
        }
        Reply r = c.read(path, Requests.settingsApp());
        if (!r.answered()) {
            return null; // no answer: ask again next time
        }
        VertexSchema s = null;
        if (r.ok() && r.value() != null) {
            byte[] v = r.value();
            s = VertexSchema.fromSettings(v, 0, v.length);
        }
        known.put(path, s);
        return s;
    }

    /** Whether {@code path} has an entry (declared or known to be undeclared). */
    boolean knows(String path) {
        return known.containsKey(path);
    }

    /** A write's answer: a type mismatch means the declaration we used is stale. */
    void answered(String path, Reply r) {
        if (r.code() == WireError.SCHEMA_TYPE_MISMATCH) {
            known.remove(path);
        }
    }

    void forget() {
        known.clear();
    }
}
