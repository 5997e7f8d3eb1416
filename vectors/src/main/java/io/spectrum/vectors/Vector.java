package io.spectrum.vectors;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One conformance vector: {@code <suite>/<category>/<case>/} holding {@code expected.json} and
 * exactly one of {@code input.bin} (accept: decode, compare, re-encode byte for byte) or
 * {@code reject.bin} (decode must refuse with the expected harness name).
 *
 * @param suite    the vector set ("libtracer-v1", "spectrum-v1", or a directory's name)
 * @param category e.g. "subscriber"
 * @param name     e.g. "policy-suspended"
 * @param bytes    the .bin contents
 * @param reject   true for a reject.bin case
 * @param expected the parsed expected.json (never null; an empty object when the file is missing)
 */
public record Vector(String suite, String category, String name, byte[] bytes, boolean reject, JsonNode expected) {
    /** {@code category/case}, the harness's test name. */
    public String id() {
        return category + "/" + name;
    }
}
