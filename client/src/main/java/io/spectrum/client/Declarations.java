package io.spectrum.client;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.WireError;

import java.util.HashMap;
import java.util.Map;

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
 */
final class Declarations {
    /** The key is present with null for "no declaration". */
    private final Map<String, VertexSchema> known = new HashMap<>();

    VertexSchema get(PeerClient c, String path) {
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
