package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.board.app.BoardProgram;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recording ({@code spectrum record}'s JSON lines) republished by a board node: a path recorded
 * through a host that mounted the board as the replay's name loses that mount name
 * ({@code /board1/temp} replayed as board1 is the board's {@code /temp}, which a host
 * mounting it as board1 shows as {@code /board1/temp} again); a path recorded from a board
 * itself is kept whole. Each vertex is declared
 * from the recording (its {@code schema}, else inferred from the value's width and unit), and the
 * values are written at the recorded pace divided by {@code speed}. By default the clock starts
 * when every recorded vertex has a subscriber (a host mounting the board), or {@link #WAIT_ALL_NANOS}
 * after the first one has, so the first values are not published to nobody.
 */
final class ReplayProgram implements BoardProgram {
    /** One recorded value: when (ns after the first), where (board path), what (TLV; null = cleared). */
    record Item(long atNanos, NodePath path, byte[] tlv) { }

    private static final long IDLE_NANOS = 1_000_000_000L;
    private static final long WAIT_POLL_NANOS = 20_000_000L;
    /** How long after the first subscriber the clock starts even when some recorded vertex has none. */
    static final long WAIT_ALL_NANOS = 3_000_000_000L;

    private final List<Item> items;
    private final Map<NodePath, VertexSchema> schemas;
    private final double speed;
    private final boolean waitForSubscriber;
    private long start;
    private boolean started;
    private long firstSubscriber = -1;
    private int next;
    private volatile int refused;

    ReplayProgram(List<Item> items, Map<NodePath, VertexSchema> schemas, double speed, boolean waitForSubscriber) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("--speed must be a positive number (1 = the original pace), was " + speed);
        }
        this.items = List.copyOf(items);
        this.schemas = Map.copyOf(schemas);
        this.speed = speed;
        this.waitForSubscriber = waitForSubscriber;
    }

    /** Reads a recording. */
    static ReplayProgram load(Path file, String as, double speed, boolean waitForSubscriber) throws IOException {
        List<Item> items = new ArrayList<>();
        Map<NodePath, VertexSchema> schemas = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Instant first = null;
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).trim();
            if (text.isEmpty()) {
                continue;
            }
            try {
                JsonNode o = ClientOutput.JSON.readTree(text);
                Instant ts = timestamp(o.get("ts"));
                first = first == null ? ts : first;
                NodePath path = NodePath.of(boardPath(o.path("path").asText(""), as));
                VertexSchema schema = schemas.get(path);
                if (schema == null && o.hasNonNull("schema")) {
                    byte[] s = HexFormat.of().parseHex(o.get("schema").asText());
                    schema = VertexSchema.fromSettings(s, 0, s.length);
                }
                byte[] tlv = o.path("deleted").asBoolean(false) ? null : tlv(o, schema);
                if (schema == null && tlv != null) {
                    schema = infer(o, tlv);
                }
                if (schema != null) {
                    schemas.putIfAbsent(path, schema);
                }
                items.add(new Item(Math.max(0, java.time.Duration.between(first, ts).toNanos()), path, tlv));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + reason(e));
            }
        }
        if (items.isEmpty()) {
            throw new IllegalArgumentException("no recorded values");
        }
        return new ReplayProgram(items, schemas, speed, waitForSubscriber);
    }

    /**
     * The board's own path of a recorded one: {@code /board1/temp} replayed as {@code board1}
     * is {@code /temp} (recorded through a host, which mounts a board by name); any other path
     * is the board's as it is ({@code /temp}, recorded from the board itself).
     */
    static String boardPath(String recorded, String as) {
        if (!recorded.startsWith("/") || recorded.length() < 2) {
            throw new IllegalArgumentException("path '" + recorded + "' is not a vertex below a board");
        }
        String mount = "/" + as;
        if (recorded.startsWith(mount + "/") && recorded.length() > mount.length() + 1) {
            return recorded.substring(mount.length());
        }
        if (recorded.equals(mount)) {
            throw new IllegalArgumentException("path '" + recorded + "' is the mount " + as + " itself, not a vertex below it");
        }
        return recorded;
    }

    List<Item> items() {
        return items;
    }

    /** Values the node refused (they did not fit the declaration), for the report at the end. */
    int refused() {
        return refused;
    }

    @Override
    public void install(NarrowNode node) {
        for (Map.Entry<NodePath, VertexSchema> e : schemas.entrySet()) {
            int r = node.declare(e.getKey(), e.getValue());
            if (r != WireError.OK) {
                throw new IllegalArgumentException("cannot declare " + e.getKey() + ": " + WireError.identity(r));
            }
        }
    }

    @Override
    public long step(NarrowNode node, long now) {
        if (!started) {
            if (waitForSubscriber) {
                int n = subscribed(node);
                if (n > 0 && firstSubscriber < 0) {
                    firstSubscriber = now;
                }
                if (n < schemas.size() && (firstSubscriber < 0 || now - firstSubscriber < WAIT_ALL_NANOS)) {
                    return now + WAIT_POLL_NANOS;
                }
            }
            started = true;
            start = now;
        }
        while (next < items.size()) {
            long due = start + (long) (items.get(next).atNanos() / speed);
            if (now - due < 0) {
                return due;
            }
            Item it = items.get(next++);
            int r = it.tlv() == null ? node.clear(it.path(), true) : node.write(it.path(), it.tlv(), 0, it.tlv().length);
            if (r != WireError.OK) {
                refused++;
            }
        }
        return now + IDLE_NANOS;
    }

    /** How many recorded vertices have a subscriber. */
    private int subscribed(NarrowNode node) {
        int n = 0;
        for (NodePath p : schemas.keySet()) {
            if (node.listenerCount(p) > 0) {
                n++;
            }
        }
        return n;
    }

    private static Instant timestamp(JsonNode ts) {
        if (ts == null || ts.isNull()) {
            throw new IllegalArgumentException("no ts");
        }
        return ts.isNumber() ? Instant.ofEpochMilli(ts.asLong()) : Instant.parse(ts.asText());
    }

    /** The value's bytes: {@code tlv} as recorded, else built from {@code raw} (a VALUE) or the text (a NAME). */
    private static byte[] tlv(JsonNode o, VertexSchema schema) {
        if (o.hasNonNull("tlv")) {
            return HexFormat.of().parseHex(o.get("tlv").asText());
        }
        byte[] b = new byte[16 + 4 * o.path("value").asText("").length()];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        if (o.hasNonNull("raw")) {
            long raw = o.get("raw").asLong();
            w.value(raw, schema != null && schema.type() == TlvType.VALUE ? schema.width() : widthOf(raw));
        } else {
            w.leaf(TlvType.NAME, o.path("value").asText("").getBytes(StandardCharsets.UTF_8));
        }
        return Arrays.copyOf(b, w.length());
    }

    /** A declaration from what one line tells: a VALUE's width, sign, unit and scale; a NAME's size. */
    private static VertexSchema infer(JsonNode o, byte[] tlv) {
        int type = tlv[0] & 0xFF;
        int body = tlv.length - 4;
        if (type != TlvType.VALUE || (body != 1 && body != 2 && body != 4 && body != 8)) {
            return type == TlvType.NAME ? VertexSchema.name(Math.max(64, body)).readOnly().build() : null;
        }
        long raw = o.path("raw").asLong(0);
        VertexSchema.Builder b = VertexSchema.value(body, raw < 0).readOnly();
        if (o.hasNonNull("ucum")) {
            b.unit(o.get("ucum").asText());
        }
        if (raw != 0 && o.path("value").isNumber()) {
            BigDecimal scale = o.get("value").decimalValue().divide(BigDecimal.valueOf(raw), java.math.MathContext.DECIMAL64);
            if (scale.compareTo(BigDecimal.ONE) != 0) {
                b.scale(scale.doubleValue());
            }
        }
        return b.build();
    }

    private static int widthOf(long raw) {
        return raw == (int) raw ? 4 : 8;
    }

    private static String reason(Exception e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }
}
