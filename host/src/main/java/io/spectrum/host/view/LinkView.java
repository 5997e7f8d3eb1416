package io.spectrum.host.view;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** One link's status and its counters (names as in {@link io.spectrum.link.LinkStats}). */
public record LinkView(String name, boolean up, Map<String, Long> counters) {
    public LinkView {
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters)); // keep the link's order
    }
}
