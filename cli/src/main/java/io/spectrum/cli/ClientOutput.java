package io.spectrum.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.Reply;
import io.spectrum.host.runtime.ValueText;
import io.spectrum.wire.WireError;

/** How the client commands print values and refusals, as text or JSON. */
final class ClientOutput {
    static final ObjectMapper JSON = new ObjectMapper();

    private ClientOutput() { }

    static ValueText text(byte[] tlv) {
        return tlv == null ? ValueText.NONE : ValueText.of(tlv, 0, tlv.length);
    }

    static ObjectNode json(String path, Reply r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("path", path);
        o.put("ok", r.ok());
        if (r.ok()) {
            ValueText v = text(r.value());
            o.put("value", v.text());
            if (v.numeric()) {
                o.put("number", v.number());
            }
        } else {
            o.put("error", WireError.identity(r.code()));
            o.put("code", r.code());
        }
        return o;
    }

    /** "refused: tr::path::not_found" plus a hint for the common cases. */
    static String refusal(Reply r, String peer) {
        String s = "refused: " + WireError.identity(r.code());
        if (r.code() == WireError.FLOW_TIMEOUT) {
            s += " (no answer from " + peer + "; is a board or host running there with --udp " + peer + "?)";
        } else if (r.code() == WireError.TRANSPORT_DOWN) {
            s += " (the UDP link to " + peer + " is down)";
        }
        return s;
    }
}
