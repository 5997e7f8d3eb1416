package io.spectrum.cli.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.bridge.JsonLines;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Requests;
import io.spectrum.client.TreeWalk;
import io.spectrum.client.ValueLine;
import io.spectrum.client.ValueText;
import io.spectrum.wire.WireError;

/**
 * How the client commands print values and refusals, as text or JSON. Values come rendered by
 * their vertex's declaration ({@link io.spectrum.client.ValueFormat}).
 *
 * <p>JSON value fields (rendered by {@link ValueLine}, which the MQTT bridge's payloads, the dashboard and the history share): {@code value} — the value in
 * its unit as a JSON number when it is one ({@code 23.28}), else its text; {@code unit} — the
 * declared unit as people write it ({@code °C}, {@code %}), present only for a declared vertex
 * with a unit; {@code ucum} — the declared UCUM text ({@code Cel}); {@code raw} — the raw integer
 * of a VALUE ({@code 2328}; unsigned when declared so); {@code text} — what the text output shows
 * ({@code 23.28 °C}); {@code number} — as {@code value} for numbers (kept from before).
 *
 * <p>Every JSON line of every command carries the same keys, {@code null} where they do not apply:
 * {@code ts} (when the CLI got it, ISO-8601 UTC), {@code path}, {@code value}, {@code unit},
 * {@code raw}, {@code seq} and {@code stale} (the node's stamp, on deliveries and on {@code read}'s
 * values; a stale one adds {@code reason}, {@link ValueLine#stamp}). Errors are JSON objects
 * too: {@code {"ok":false,"error":KIND,"message":...}}.
 */
public final class ClientOutput {
    /** The one JSON mapper every command prints with (the bridge's). */
    public static final ObjectMapper JSON = JsonLines.JSON;

    private ClientOutput() { }

    /** A value TLV without a declaration (raw rendering). */
    static ValueText text(byte[] tlv) {
        return tlv == null ? ValueText.NONE : ValueText.of(tlv, 0, tlv.length);
    }

    /** A reply, its value rendered raw. */
    public static ObjectNode json(String path, Reply r) {
        return json(path, r, r.ok() ? text(r.value()) : null);
    }

    /** A reply whose value was rendered as {@code v} (ignored for a refusal). */
    public static ObjectNode json(String path, Reply r, ValueText v) {
        ObjectNode o = line(path);
        o.put("ok", r.ok());
        if (r.ok()) {
            value(o, v == null ? ValueText.NONE : v);
        } else {
            o.put("error", WireError.identity(r.code()));
            o.put("code", r.code());
        }
        return o;
    }

    /** A JSON line with every common key present: {@code ts} now, {@code path}, the rest null ({@link ValueLine#common}). */
    public static ObjectNode line(String path) {
        return JsonLines.line(path);
    }

    /** An error as a JSON object: {@code {"ok":false,"error":kind,"message":message}}. */
    public static ObjectNode error(String kind, String message) {
        ObjectNode o = line(null);
        o.put("ok", false);
        o.put("error", kind);
        o.put("message", message);
        return o;
    }

    /** Whether the command line asks for JSON ({@code --json} or {@code --format json}). */
    public static boolean jsonWanted(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--json") || args[i].equals("--format=json")
                    || args[i].equals("--format") && i + 1 < args.length && args[i + 1].equals("json")) {
                return true;
            }
        }
        return false;
    }

    /** Adds the value fields of {@code v} to {@code o} ({@link ValueLine#value}). */
    public static void value(ObjectNode o, ValueText v) {
        ValueLine.value(JsonLines.fields(o), v);
    }

    /** Adds the node's stamp to {@code o} ({@link ValueLine#stamp}: seq, stale, a stale value's reason, origin). */
    public static void stamp(ObjectNode o, long seq, boolean stale, String reason, long origin) {
        ValueLine.stamp(JsonLines.fields(o), seq, stale, reason, origin);
    }

    /** What read and ls say of a declared vertex that holds no value yet. */
    public static final String NO_VALUE_YET = "no value yet";

    /**
     * Whether {@code r} answers a READ of a vertex that is declared but holds no value yet (a sensor
     * that never read, an app vertex never published). libtracer v1 answers a vertex never written
     * with {@code tr::path::not_found}, and the registry has no closer code, so the vertex's
     * declaration tells the two apart: one READ of {@code PATH:settings.app}, kept by the client,
     * made only for that refusal.
     */
    public static boolean noValueYet(Reply r, PeerClient client, String path) {
        return r.code() == WireError.PATH_NOT_FOUND && client.declaration(path) != null;
    }

    /**
     * A {@link #noValueYet} answer as JSON: the refusal, its code, and {@code reason: "no value yet"};
     * when the node marked it stale (a source that failed from its first read, the answer's stamp)
     * {@code stale: true} and the reason after it: {@code "no value yet: i2c 1/0x48 reg 0: read 0 of 2 bytes"}.
     */
    public static ObjectNode noValueYetJson(String path, Reply r) {
        ObjectNode o = json(path, r, null);
        o.put("reason", NO_VALUE_YET + (r.stale() && r.staleReason() != null ? ": " + r.staleReason() : ""));
        if (r.stale()) {
            o.put("stale", true);
        }
        return o;
    }

    /**
     * A {@link #noValueYet} answer as text: {@code no value yet (declared, never published;
     * tr::path::not_found)}, or, marked stale with a reason, {@code no value yet (stale: REASON;
     * tr::path::not_found)}.
     */
    public static String noValueYetText(Reply r) {
        String why = r.stale() ? (r.staleReason() != null ? "stale: " + r.staleReason() : "stale") : "declared, never published";
        return NO_VALUE_YET + " (" + why + "; " + WireError.identity(r.code()) + ")";
    }

    /** "refused: tr::path::not_found" plus a hint for the common cases. */
    /**
     * As {@link #refusal(Reply, String)}; for a path that is not found whose first segment the node
     * does not have at its top level (an unknown board mount on a host), says so and names what it
     * has: {@code refused: tr::path::not_found (127.0.0.1:7701 has no /board9; its top level: board1,
     * board2, ref)}. One more READ ({@code /:children[]}), made only for that refusal.
     */
    public static String refusal(Reply r, String peer, PeerClient client, String path) {
        String s = refusal(r, peer);
        int second = path.indexOf('/', 1);
        if (r.code() != WireError.PATH_NOT_FOUND || second < 0) {
            return s;
        }
        String top = path.substring(1, second);
        Reply listing = client.read("/", Requests.children());
        if (!listing.ok()) {
            return s;
        }
        java.util.List<String> names = TreeWalk.names(listing.value()).stream().filter(n -> !n.startsWith("$")).toList();
        return names.contains(top) ? s : s + " (" + peer + " has no /" + top + "; its top level: "
                + (names.isEmpty() ? "nothing" : String.join(", ", names)) + ")";
    }

    /** A refusal as one line: its WireError identity and, for a timeout or a down link, what to check. */
    public static String refusal(Reply r, String peer) {
        String s = "refused: " + WireError.identity(r.code());
        if (r.code() == WireError.FLOW_TIMEOUT) {
            s += " (no answer from " + peer + "; is a board or host running there with --udp " + peer + "?)";
        } else if (r.code() == WireError.TRANSPORT_DOWN) {
            s += " (the UDP link to " + peer + " is down)";
        }
        return s;
    }
}
