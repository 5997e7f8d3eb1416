package io.spectrum.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FrameEncoder;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathRefView;
import io.spectrum.wire.PathView;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks conformance vectors against the codec. Accept cases: the .bin must equal the JSON
 * {@code hex} / {@code total_bytes}, decode, match the structural keys of {@code decoded} that are
 * present (type, opt bits and raw, length, payload / payload_hex / payload_utf8, children
 * recursively, trailer ts and crc, element_count / elements, packed_segments, field, and for
 * Spectrum's own vectors delivery_policy) and re-encode
 * byte for byte. Prose keys (meaning, note, fields, …) are ignored. Reject cases must be refused
 * with the harness name in {@code reject}.
 *
 * <p>Command line: {@code VectorRunner [DIR]} prints TAP 13 and a per-category summary, exit 0 iff
 * every vector is ok. Without DIR it uses {@code -Dspectrum.vectors.dir} or the classpath sets.
 * {@code VectorRunner --roundtrip} reads one hex frame per stdin line and answers each with the
 * re-encoded hex or {@code ERR:<NAME>} (the libtracer differential-fuzz protocol).
 */
public final class VectorRunner {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private final FrameDecoder decoder = new FrameDecoder();
    private final FrameEncoder encoder = new FrameEncoder();
    private final TlvIndex index = new TlvIndex(4096, 64);
    private final byte[] out = new byte[1 << 20];

    /**
     * Command line entry: checks {@code [DIR]} (or the default sets), prints TAP 13 on stdout and
     * the per-category summary on stderr, and exits 0 only when every vector passed; with {@code
     * --roundtrip} answers stdin hex frames instead.
     *
     * @throws java.io.IOException when a vector directory or stdin cannot be read
     */
    public static void main(String[] args) throws java.io.IOException {
        if (args.length > 0 && args[0].equals("--roundtrip")) {
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
            VectorRunner runner = new VectorRunner();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                System.out.println(runner.roundTripLine(line));
            }
            System.out.flush();
            return;
        }
        List<Vector> vectors = args.length > 0 ? VectorLoader.loadDirectory(Path.of(args[0])) : VectorLoader.loadDefault();
        List<VectorResult> results = new VectorRunner().runAll(vectors);
        writeTap(results, System.out);
        System.err.print(summary(results));
        System.exit(results.stream().allMatch(VectorResult::ok) ? 0 : 1);
    }

    /**
     * Checks each vector against the codec, in order: one result per vector, a mismatch is a failure
     * listed in it. Uses this runner's decoder and buffers: one runner per thread.
     */
    public List<VectorResult> runAll(List<Vector> vectors) {
        List<VectorResult> results = new ArrayList<>(vectors.size());
        for (Vector v : vectors) {
            results.add(check(v));
        }
        return results;
    }

    /**
     * The differential-fuzz harness line protocol: one hex frame in, the re-encoded frame as
     * lowercase hex out, or {@code ERR:<NAME>} ({@code ERR:EMPTY_LINE}, {@code ERR:BAD_HEX}, or the
     * refusal's harness name).
     */
    public String roundTripLine(String line) {
        String h = line.trim();
        if (h.isEmpty()) {
            return "ERR:EMPTY_LINE";
        }
        byte[] b;
        try {
            b = HexFormat.of().parseHex(h);
        } catch (IllegalArgumentException e) {
            return "ERR:BAD_HEX";
        }
        int code = decoder.decode(b, 0, b.length, index);
        if (code != WireError.OK) {
            return "ERR:" + WireError.harnessName(code);
        }
        int n = encoder.encode(index, 0, out, 0, out.length);
        return n < 0 ? "ERR:" + WireError.harnessName(-n) : HexFormat.of().formatHex(out, 0, n);
    }

    /** Checks one vector. */
    public VectorResult check(Vector v) {
        List<String> fails = new ArrayList<>();
        JsonNode exp = v.expected();
        byte[] b = v.bytes();
        if (exp.hasNonNull("hex") && !exp.get("hex").asText().replaceAll("\\s+", "").equalsIgnoreCase(HEX.formatHex(b))) {
            fails.add("hex in expected.json differs from the .bin");
        }
        if (exp.hasNonNull("total_bytes") && exp.get("total_bytes").asInt() != b.length) {
            fails.add("total_bytes " + exp.get("total_bytes").asInt() + " != " + b.length);
        }
        int code = decoder.decode(b, 0, b.length, index);
        if (v.reject()) {
            String want = exp.hasNonNull("reject") ? exp.get("reject").asText() : null;
            if (code == WireError.OK) {
                fails.add("decoded a reject vector (want " + want + ")");
            } else if (want != null && !want.equals(WireError.harnessName(code))) {
                fails.add("refused with " + WireError.harnessName(code) + ", want " + want);
            }
            return new VectorResult(v, fails);
        }
        if (code != WireError.OK) {
            fails.add("refused: " + WireError.harnessName(code) + " at offset " + index.errorOffset());
            return new VectorResult(v, fails);
        }
        int n = encoder.encode(index, 0, out, 0, out.length);
        if (n < 0) {
            fails.add("re-encode refused: " + WireError.harnessName(-n));
        } else if (!Bytes.equals(out, 0, n, b, 0, b.length)) {
            fails.add("re-encode differs: " + HEX.formatHex(out, 0, n));
        }
        JsonNode decoded = exp.get("decoded");
        if (decoded != null && decoded.isObject()) {
            compareNode(0, decoded, "decoded", fails);
            if (decoded.hasNonNull("field")) {
                compareField(decoded.get("field").asText(), fails);
            }
            if (decoded.hasNonNull("delivery_policy")) {
                comparePolicy(decoded.get("delivery_policy"), fails);
            }
        }
        return new VectorResult(v, fails);
    }

    private void compareNode(int e, JsonNode j, String at, List<String> fails) {
        final TlvIndex idx = index;
        final byte[] buf = idx.buffer();
        if (j.hasNonNull("type")) {
            String t = j.get("type").asText();
            String[] parts = t.split(" ", 2);
            try {
                int want = Integer.decode(parts[0]);
                if (want != idx.type(e)) {
                    fails.add(at + ".type " + t + " != 0x" + hex2(idx.type(e)));
                } else if (parts.length > 1 && !"UNKNOWN".equals(TlvType.name(want)) && !"USER".equals(TlvType.name(want))
                        && !parts[1].equals(TlvType.name(want))) {
                    fails.add(at + ".type name " + parts[1] + " != " + TlvType.name(want));
                }
            } catch (NumberFormatException ex) {
                // not a type code (e.g. a prose field named "type"): ignore
            }
        }
        JsonNode opt = j.get("opt");
        if (opt != null && opt.isObject()) {
            compareOpt(e, opt, at + ".opt", fails);
        }
        if (j.hasNonNull("length") && j.get("length").asLong() != idx.bodyLength(e)) {
            fails.add(at + ".length " + j.get("length").asLong() + " != " + idx.bodyLength(e));
        }
        for (String key : new String[] {"payload", "payload_hex"}) {
            if (j.hasNonNull(key)) {
                String got = HEX.formatHex(buf, idx.bodyOffset(e), idx.bodyOffset(e) + idx.bodyLength(e));
                if (!j.get(key).asText().replaceAll("\\s+", "").equalsIgnoreCase(got)) {
                    fails.add(at + "." + key + " " + j.get(key).asText() + " != " + got);
                }
            }
        }
        if (j.hasNonNull("payload_utf8")) {
            String got = Utf8.toString(buf, idx.bodyOffset(e), idx.bodyLength(e));
            if (!j.get("payload_utf8").asText().equals(got)) {
                fails.add(at + ".payload_utf8 '" + j.get("payload_utf8").asText() + "' != '" + got + "'");
            }
        }
        if (j.has("trailer")) {
            compareTrailer(e, j.get("trailer"), at + ".trailer", fails);
        }
        JsonNode children = j.get("children");
        if (children != null && children.isArray()) {
            int count = idx.childCount(e);
            if (count != children.size()) {
                fails.add(at + ".children count " + children.size() + " != " + count);
            } else {
                int c = idx.firstChild(e);
                for (int i = 0; i < children.size(); i++, c = idx.nextSibling(c)) {
                    compareNode(c, children.get(i), at + ".children[" + i + "]", fails);
                }
            }
        }
        if (j.has("element_count") || j.has("elements")) {
            comparePathRef(e, j, at, fails);
        }
        if (j.hasNonNull("packed_segments")) {
            comparePackedSegments(e, j.get("packed_segments"), at, fails);
        }
    }

    private void compareOpt(int e, JsonNode opt, String at, List<String> fails) {
        int raw = index.opt(e);
        if (opt.hasNonNull("raw")) {
            int want = Integer.decode(opt.get("raw").asText());
            if (want != raw) {
                fails.add(at + ".raw " + opt.get("raw").asText() + " != 0x" + hex2(raw));
            }
        }
        Object[][] bits = {{"PL", Opt.PL}, {"TS", Opt.TS}, {"CR", Opt.CR}, {"LL", Opt.LL}, {"CW", Opt.CW}, {"TF", Opt.TF},
            {"reserved_bit7", 0x80}, {"reserved_bit0", 0x01}};
        for (Object[] bit : bits) {
            String k = (String) bit[0];
            if (opt.hasNonNull(k)) {
                int got = (raw & (Integer) bit[1]) != 0 ? 1 : 0;
                if (opt.get(k).asInt() != got) {
                    fails.add(at + "." + k + " " + opt.get(k).asInt() + " != " + got);
                }
            }
        }
    }

    private void compareTrailer(int e, JsonNode tr, String at, List<String> fails) {
        if (tr == null || tr.isNull()) {
            if (index.hasTimestamp(e) || index.hasCrc(e)) {
                fails.add(at + " null but the frame carries a trailer");
            }
            return;
        }
        final byte[] buf = index.buffer();
        final int tsOff = index.bodyOffset(e) + index.bodyLength(e);
        final int tsLen = Opt.tsSize(index.opt(e));
        if (tr.has("ts")) {
            JsonNode ts = tr.get("ts");
            if (ts.isNull()) {
                if (tsLen != 0) {
                    fails.add(at + ".ts null but TS is set");
                }
            } else if (tsLen == 0) {
                fails.add(at + ".ts present but TS is clear");
            } else {
                if (ts.hasNonNull("form")) {
                    String form = tsLen == 4 ? "relative i32 ns" : "absolute u64 ns";
                    if (!form.equals(ts.get("form").asText())) {
                        fails.add(at + ".ts.form " + ts.get("form").asText() + " != " + form);
                    }
                }
                if (ts.hasNonNull("value") && ts.get("value").asLong() != index.timestamp(e)) {
                    fails.add(at + ".ts.value " + ts.get("value").asText() + " != " + index.timestamp(e));
                }
                if (ts.hasNonNull("bytes_le") && !ts.get("bytes_le").asText().equalsIgnoreCase(HEX.formatHex(buf, tsOff, tsOff + tsLen))) {
                    fails.add(at + ".ts.bytes_le " + ts.get("bytes_le").asText());
                }
            }
        }
        if (tr.has("crc")) {
            JsonNode crc = tr.get("crc");
            final int crcLen = Opt.crcSize(index.opt(e));
            final int crcOff = tsOff + tsLen;
            if (crc.isNull()) {
                if (crcLen != 0) {
                    fails.add(at + ".crc null but CR is set");
                }
            } else if (crcLen == 0) {
                fails.add(at + ".crc present but CR is clear");
            } else {
                if (crc.hasNonNull("width")) {
                    String width = crcLen == 2 ? "CRC-16-CCITT" : "CRC-32C";
                    if (!width.equals(crc.get("width").asText())) {
                        fails.add(at + ".crc.width " + crc.get("width").asText() + " != " + width);
                    }
                }
                if (crc.hasNonNull("value")) {
                    long want = Long.decode(crc.get("value").asText());
                    long got = crcLen == 2 ? index.crc(e) & 0xFFFFL : index.crc(e) & 0xFFFFFFFFL;
                    if (want != got) {
                        fails.add(at + ".crc.value " + crc.get("value").asText() + " != 0x" + Long.toHexString(got));
                    }
                }
                if (crc.hasNonNull("bytes_le") && !crc.get("bytes_le").asText().equalsIgnoreCase(HEX.formatHex(buf, crcOff, crcOff + crcLen))) {
                    fails.add(at + ".crc.bytes_le " + crc.get("bytes_le").asText());
                }
            }
        }
    }

    private void comparePathRef(int e, JsonNode j, String at, List<String> fails) {
        PathRefView ref = new PathRefView();
        if (ref.wrap(index, e) != WireError.OK) {
            fails.add(at + " is not a PATH_REF body");
            return;
        }
        if (j.hasNonNull("element_count") && j.get("element_count").asInt() != ref.count()) {
            fails.add(at + ".element_count " + j.get("element_count").asInt() + " != " + ref.count());
        }
        JsonNode els = j.get("elements");
        if (els != null && els.isArray()) {
            if (els.size() != ref.count()) {
                fails.add(at + ".elements size " + els.size() + " != " + ref.count());
                return;
            }
            for (int i = 0; i < els.size(); i++) {
                JsonNode el = els.get(i);
                if (el.get("index").asLong() != ref.index(i) || el.get("generation").asLong() != ref.generation(i)) {
                    fails.add(at + ".elements[" + i + "] (" + el.get("index") + "," + el.get("generation") + ") != ("
                            + ref.index(i) + "," + ref.generation(i) + ")");
                }
            }
        }
    }

    private void comparePackedSegments(int e, JsonNode segs, String at, List<String> fails) {
        PathView pv = new PathView();
        if (pv.wrap(index, e) != WireError.OK) {
            fails.add(at + " packed_segments on a non-PATH");
            return;
        }
        List<String> got = new ArrayList<>();
        for (int r = pv.first(); r >= 0; r = pv.next(r)) {
            if (!pv.isEscape(r)) {
                got.add(Utf8.toString(pv.buffer(), pv.segmentOffset(r), pv.segmentLength(r)));
            }
        }
        List<String> want = new ArrayList<>();
        for (Iterator<JsonNode> it = segs.elements(); it.hasNext();) {
            want.add(it.next().asText());
        }
        if (!want.equals(got)) {
            fails.add(at + ".packed_segments " + want + " != " + got);
        }
    }

    private void compareField(String want, List<String> fails) {
        for (int e = 0; e < index.count(); e++) {
            if (index.type(e) == TlvType.FIELD) {
                FieldView f = new FieldView();
                int r = f.wrap(index, e);
                if (r != WireError.OK) {
                    fails.add("field: FieldView refused " + WireError.harnessName(r));
                } else if (!want.equals(f.toText())) {
                    fails.add("field " + want + " != " + f.toText());
                }
                return;
            }
        }
        fails.add("field " + want + " but the frame has no FIELD");
    }

    /** Spectrum vectors: the SUBSCRIBER's delivery_policy word decoded field by field. */
    private void comparePolicy(JsonNode p, List<String> fails) {
        SubscriberView sv = new SubscriberView();
        int r = sv.wrap(index, 0);
        if (r != WireError.OK) {
            fails.add("delivery_policy: SubscriberView refused " + WireError.harnessName(r));
            return;
        }
        int w = sv.policy();
        Map<String, Integer> got = Map.of(
                "reliability", DeliveryPolicy.reliability(w),
                "priority", DeliveryPolicy.priority(w),
                "durability_request", DeliveryPolicy.durabilityRequest(w) ? 1 : 0,
                "delivery_class", DeliveryPolicy.deliveryClass(w),
                "one_shot", DeliveryPolicy.oneShot(w) ? 1 : 0,
                "suspended", DeliveryPolicy.suspended(w) ? 1 : 0,
                "reserved", DeliveryPolicy.reserved(w));
        if (p.hasNonNull("word") && Integer.decode(p.get("word").asText()) != w) {
            fails.add("delivery_policy.word " + p.get("word").asText() + " != 0x" + Integer.toHexString(w));
        }
        for (Map.Entry<String, Integer> en : got.entrySet()) {
            if (p.hasNonNull(en.getKey()) && p.get(en.getKey()).asInt() != en.getValue()) {
                fails.add("delivery_policy." + en.getKey() + " " + p.get(en.getKey()).asInt() + " != " + en.getValue());
            }
        }
    }

    private static String hex2(int v) {
        return String.format(Locale.ROOT, "%02X", v);
    }

    /** TAP 13: one line per vector, {@code cat/case}, prefixed with the suite when several are mixed. */
    public static void writeTap(List<VectorResult> results, PrintStream ps) {
        Set<String> suites = new LinkedHashSet<>();
        results.forEach(r -> suites.add(r.vector().suite()));
        boolean prefix = suites.size() > 1;
        ps.println("TAP version 13");
        ps.println("1.." + results.size());
        int k = 1;
        for (VectorResult r : results) {
            String name = (prefix ? r.vector().suite() + "/" : "") + r.vector().id();
            ps.println((r.ok() ? "ok " : "not ok ") + k++ + " - " + name);
            for (String f : r.failures()) {
                ps.println("  # " + f);
            }
        }
    }

    /** Counts per suite/category: {@code ok/total}. */
    public static Map<String, int[]> countsByCategory(List<VectorResult> results) {
        Map<String, int[]> m = new TreeMap<>();
        for (VectorResult r : results) {
            int[] c = m.computeIfAbsent(r.vector().suite() + "/" + r.vector().category(), x -> new int[2]);
            c[1]++;
            if (r.ok()) {
                c[0]++;
            }
        }
        return m;
    }

    /**
     * The per-category pass counts ({@code suite/category ok/total}) and a total line, one line
     * each.
     */
    public static String summary(List<VectorResult> results) {
        StringBuilder sb = new StringBuilder();
        int ok = 0;
        for (Map.Entry<String, int[]> en : countsByCategory(results).entrySet()) {
            sb.append(String.format(Locale.ROOT, "%-28s %3d/%-3d%n", en.getKey(), en.getValue()[0], en.getValue()[1]));
            ok += en.getValue()[0];
        }
        sb.append(String.format(Locale.ROOT, "%-28s %3d/%-3d%n", "total", ok, results.size()));
        return sb.toString();
    }
}
