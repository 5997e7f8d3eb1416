package io.spectrum.client.bus;

import io.spectrum.wide.bus.ArtifactRef;
import io.spectrum.wide.bus.BusException;
import io.spectrum.wide.bus.BusFields;

/** The client's spelling of an artifact ref and attachment (docs/bus.md, "Artifacts"). */
final class Wire {
    private Wire() {
    }

    static BusFields ref(ArtifactRef r) {
        return BusFields.of().put("storeId", r.storeId()).put("artifactId", r.artifactId())
                .put("generation", r.generation()).put("length", r.length()).put("digest", r.digest());
    }

    static ArtifactRef ref(BusFields f) throws BusException {
        return new ArtifactRef(f.string("storeId"), f.u64("artifactId"), f.u64("generation"), f.u64("length"),
                f.string("digest"));
    }

    static BusFields attachment(String name, ArtifactRef r, String ownerId) {
        BusFields a = BusFields.of();
        if (name != null) {
            a.put("name", name);
        }
        return a.putRecord("ref", ref(r)).put("ownerId", ownerId);
    }
}
