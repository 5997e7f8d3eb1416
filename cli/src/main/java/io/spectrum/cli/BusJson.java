package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.bus.protocol.ArtifactRef;

/** How the bus commands print an artifact reference: a JSON object of its fields, or one line of text. */
final class BusJson {
    private BusJson() { }

    static ObjectNode ref(ArtifactRef r) {
        ObjectNode o = ClientOutput.JSON.createObjectNode();
        o.put("storeId", r.storeId());
        o.put("artifactId", r.artifactId());
        o.put("generation", r.generation());
        o.put("length", r.length());
        o.put("digest", r.digest());
        return o;
    }

    static String text(ArtifactRef r) {
        return r.artifactId() + "@" + r.generation() + " " + r.length() + " B sha256:" + r.digest() + " (store "
                + r.storeId() + ")";
    }
}
