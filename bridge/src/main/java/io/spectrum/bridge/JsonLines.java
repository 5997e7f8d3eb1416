package io.spectrum.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueLine;
import io.spectrum.time.SystemClock;

/**
 * Jackson under {@link ValueLine}, which renders every value line (its keys, when each is present,
 * its text): the mapper the bridge's payloads and the CLI's JSON lines are made and printed with,
 * and a Jackson object as {@link ValueLine.Fields}. Nothing here decides a key.
 */
public final class JsonLines {
    /** The mapper every JSON line is made and printed with. */
    public static final ObjectMapper JSON = new ObjectMapper();

    private JsonLines() { }

    /** {@code o} as the fields {@link ValueLine} writes into, in call order. */
    public static ValueLine.Fields fields(ObjectNode o) {
        return ValueLine.fields(o::put, o::put, o::put, o::put, o::put, o::put, o::putNull);
    }

    /** A JSON object with every common key present ({@link ValueLine#common}): {@code ts} now, {@code path}, the rest null. */
    public static ObjectNode line(String path) {
        ObjectNode o = JSON.createObjectNode();
        ValueLine.common(fields(o), path, SystemClock.INSTANCE.epochNanos() / 1_000_000L);
        return o;
    }
}
