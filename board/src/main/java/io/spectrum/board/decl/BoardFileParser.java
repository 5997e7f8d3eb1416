package io.spectrum.board.decl;

import com.pi4j.io.gpio.digital.PullResistance;
import io.spectrum.board.io.Binding;
import io.spectrum.board.io.CommandSource;
import io.spectrum.board.io.FileSource;
import io.spectrum.board.io.GpioInput;
import io.spectrum.board.io.GpioOutput;
import io.spectrum.board.io.I2cRegister;
import io.spectrum.board.io.I2cTransfer;
import io.spectrum.board.io.MockPins;
import io.spectrum.board.io.PwmOutput;
import io.spectrum.board.io.SelfSource;
import io.spectrum.board.io.SimSource;
import io.spectrum.board.io.TextSource;
import io.spectrum.board.io.W1Source;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.TlvType;
import org.snakeyaml.engine.v2.nodes.Node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a board file (YAML; every key in docs/board.md) into a {@link BoardFile}, checking every
 * field: its type, range and the rules across fields (a sink needs a writable vertex, a pin is used
 * once, a GPIO vertex is a VALUE). The first problem is a {@link BoardFileError} naming the line
 * and the field; nothing is opened or declared here.
 *
 * <p>A file's paths are relative to the board: the board is their root, and a host shows them under
 * its mount name ({@code /temp} is a host's {@code /board1/temp}). A file written when paths
 * repeated the board's name (name {@code shed}, every path {@code /shed/...}: a host showed
 * {@code /shed/shed/water}) is read with that prefix dropped, and says so in
 * {@link BoardFile#warning} (docs/board.md, "Paths").
 */
public final class BoardFileParser {
    /** Where a flashed board's file is (the launcher passes it when it exists). */
    public static final String DEFAULT_FILE = "/etc/spectrum/board.yaml";
    static final String[] SOURCES = {"sim", "text", "gpio-in", "i2c", "w1", "self", "file", "command"};
    static final String[] SINKS = {"gpio-out", "pwm"};

    private final long defaultPeriodOverride;
    private final String nameOverride;
    private final Set<Integer> pins = new HashSet<>();
    /** Every path the file declares (vertices, edge counters, readbacks), in the file's order, with its line. */
    private final Map<String, Integer> paths = new LinkedHashMap<>();
    private MockPins mockPins;
    private long defaultPeriod;
    /** What is dropped from the front of each path: "" or an old file's {@code /<board name>}. */
    private String dropped = "";

    /** @param periodOverride the default period in ms to use instead of the file's ({@code --period}), or -1 */
    public BoardFileParser(long periodOverride) {
        this(periodOverride, null);
    }

    /**
     * @param periodOverride the default period in ms to use instead of the file's ({@code --period}), or -1
     * @param nameOverride   the board's name instead of the file's ({@code --name}), or null
     */
    public BoardFileParser(long periodOverride, String nameOverride) {
        this.defaultPeriodOverride = periodOverride;
        this.nameOverride = nameOverride;
    }

    /**
     * Reads and checks {@code file}; the first problem is a {@link BoardFileError} naming its line and field (an
     * unreadable file included). Nothing is opened.
     */
    public BoardFile parse(Path file) throws BoardFileError {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BoardFileError(file.toString(), 0, "", "cannot read it: " + e.getMessage());
        }
        return parse(file.toString(), text, file.toAbsolutePath().getParent());
    }

    /** @param base the directory relative paths in the file resolve against */
    public BoardFile parse(String name, String text, Path base) throws BoardFileError {
        BoardFile file = read(name, text, base, "");
        String repeated = repeatedName(file);
        if (repeated == null) {
            return file;
        }
        Map.Entry<String, Integer> first = paths.entrySet().iterator().next();
        String relative = first.getKey().substring(repeated.length() + 1);
        String warning = name + ":" + first.getValue() + ": paths repeat the board's name '" + repeated
                + "'; read as " + relative + (paths.size() > 1 ? " …" : "") + "; drop the prefix";
        BoardFile read = read(name, text, base, "/" + repeated);
        return new BoardFile(read.file(), read.name(), read.platform(), read.pwmChip(), read.mockPins(), read.sys(),
                read.proc(), read.vertices(), read.apps(), warning, read.backfill());
    }

    /**
     * The board's name when every path of {@code file} starts with {@code /<name>/} (a file written
     * when a board's paths said its name), else null. The name is the one the board runs under:
     * {@code --name}, else the file's, else {@link BoardFile#DEFAULT_NAME}.
     */
    private String repeatedName(BoardFile file) {
        String board = nameOverride != null ? nameOverride : file.name() != null ? file.name() : BoardFile.DEFAULT_NAME;
        if (board.isEmpty() || board.contains("/") || paths.isEmpty()) {
            return null;
        }
        String prefix = "/" + board + "/";
        for (String p : paths.keySet()) {
            if (!p.startsWith(prefix)) {
                return null;
            }
        }
        return board;
    }

    /** One reading of the file, each path with {@code drop} taken off its front. */
    private BoardFile read(String name, String text, Path base, String drop) throws BoardFileError {
        pins.clear();
        paths.clear();
        mockPins = null;
        dropped = drop;
        Node root = io.spectrum.runtime.YamlFile.compose(name, text, "the file is empty (docs/board.md shows one)",
                (line, why) -> new BoardFileError(name, line, "", why));
        Spec top = Spec.root(name, root);
        String boardName = top.text("name", null);
        if (boardName != null && boardName.getBytes(StandardCharsets.UTF_8).length > 64) {
            throw top.error("name", "must be at most 64 bytes");
        }
        String platform = top.choice("platform", "auto", "auto", "mock");
        int pwmChip = (int) top.integer("pwm-chip", 0, 0, 16);
        int backfill = (int) top.integer("backfill", NodeConfig.defaults().backfillDepth(), 0, 4096);
        String pinsDir = top.text("mock-pins", null);
        if (pinsDir != null) {
            if (!platform.equals("mock")) {
                throw top.error("mock-pins", "needs platform: mock");
            }
            mockPins = new MockPins(base.resolve(pinsDir));
        }
        Path sys = base.resolve(top.text("sys", "/sys"));
        Path proc = base.resolve(top.text("proc", "/proc"));
        defaultPeriod = defaultPeriodOverride >= 0 ? defaultPeriodOverride : top.millis("period", 1000);
        if (defaultPeriodOverride >= 0) {
            top.millis("period", 0); // read (and checked) but overridden
        }
        List<BoardFile.Vertex> vertices = new ArrayList<>();
        for (Spec v : top.list("vertices")) {
            vertices.add(vertex(v, base));
        }
        List<BoardFile.App> apps = new ArrayList<>();
        for (Spec a : top.list("apps")) {
            String cls = a.text("class");
            if (!cls.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
                throw a.error("class", "'" + cls + "' is not a Java class name");
            }
            apps.add(new BoardFile.App(cls, a.strings("settings", true), a.line()));
            a.done();
        }
        top.done();
        if (vertices.isEmpty() && apps.isEmpty()) {
            throw new BoardFileError(name, top.line(), "vertices", "the board declares no vertices and no apps");
        }
        return new BoardFile(name, boardName, platform, pwmChip, mockPins, sys, proc, vertices, apps, null, backfill);
    }

    private BoardFile.Vertex vertex(Spec v, Path base) throws BoardFileError {
        String path = relative(v.text("path"));
        try {
            NodePath.of(path);
        } catch (RuntimeException e) {
            throw v.error("path", "'" + path + "' is not a vertex path (e.g. /temp): " + e.getMessage());
        }
        if (!path.startsWith("/") || path.contains("/$")) {
            throw v.error("path", "'" + path + "' must start with / and name no reserved $ vertex");
        }
        Integer earlier = paths.putIfAbsent(path, v.line());
        if (earlier != null) {
            throw v.error("path", path + " is already declared on line " + earlier);
        }
        Spec source = v.child("source");
        Spec sink = v.child("sink");
        VertexSchema schema = schema(v, sink != null);
        Long initial = null;
        if (v.has("initial")) {
            if (schema.type() != TlvType.VALUE) {
                throw v.error("initial", "applies to a number vertex");
            }
            initial = v.integer("initial", 0, Long.MIN_VALUE, Long.MAX_VALUE);
            if (schema.ranged() && (initial < schema.min() || initial > schema.max())) {
                throw v.error("initial", initial + " is outside range " + schema.min() + ".." + schema.max());
            }
        }
        Binding src = source == null ? null : source(source, schema, base);
        Binding snk = sink == null ? null : sink(sink, schema, initial == null ? 0 : initial);
        if (snk != null && !schema.allows(AccessMask.WRITE)) {
            throw v.error("rights", "a vertex with a sink must be writable by peers (rights: rw)");
        }
        v.done();
        return new BoardFile.Vertex(path, schema, initial, src, snk, v.line());
    }

    private static VertexSchema schema(Spec v, boolean hasSink) throws BoardFileError {
        String type = v.choice("type", null, "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "name");
        try {
            VertexSchema.Builder b;
            if (type.equals("name")) {
                b = VertexSchema.name((int) v.integer("max-size", VertexSchema.DEFAULT_MAX_SIZE, 0, 0xFFFF));
            } else {
                b = VertexSchema.value(Integer.parseInt(type.substring(1)) / 8, type.charAt(0) == 'i');
                if (v.has("range")) {
                    List<String> r = v.strings("range");
                    if (r.size() != 2) {
                        throw v.error("range", "must be [min, max] in raw units");
                    }
                    try {
                        b.range(Spec.parseInteger(r.get(0)), Spec.parseInteger(r.get(1)));
                    } catch (NumberFormatException e) {
                        throw v.error("range", "must be two whole numbers [min, max], was " + r);
                    }
                }
            }
            String unit = v.text("unit", null);
            if (unit != null) {
                String problem = Units.problem(unit);
                if (problem != null) {
                    throw v.error("unit", problem);
                }
                b.unit(unit);
            }
            if (v.has("scale")) {
                b.scale(v.number("scale", 1));
            }
            if (v.has("offset")) {
                b.offset(v.number("offset", 0));
            }
            String d = v.text("description", null);
            if (d != null) {
                b.description(d);
            }
            b.rights(rights(v, hasSink));
            return b.build();
        } catch (IllegalArgumentException e) {
            throw v.error(null, e.getMessage());
        }
    }

    private static int rights(Spec v, boolean hasSink) throws BoardFileError {
        String r = v.text("rights", hasSink ? "rw" : "ro");
        switch (r) {
            case "ro": return AccessMask.READ | AccessMask.SUBSCRIBE;
            case "rw": return AccessMask.READ | AccessMask.WRITE | AccessMask.SUBSCRIBE;
            case "none": return 0;
            default:
                int mask = 0;
                for (String part : r.split("[,\\s]+")) {
                    switch (part) {
                        case "read" -> mask |= AccessMask.READ;
                        case "write" -> mask |= AccessMask.WRITE;
                        case "subscribe" -> mask |= AccessMask.SUBSCRIBE;
                        default -> throw v.error("rights", "'" + r + "' is not ro, rw, none or a list of read, write, subscribe");
                    }
                }
                return mask;
        }
    }

    private Binding source(Spec s, VertexSchema schema, Path base) throws BoardFileError {
        String kind = s.choice("kind", null, SOURCES);
        boolean number = schema.type() == TlvType.VALUE;
        Binding b;
        switch (kind) {
            case "sim" -> {
                needNumber(s, number, kind);
                b = new SimSource(s.choice("wave", "sine", "sine", "cosine", "count", "const"),
                        s.number("base", 0), s.number("amplitude", 0), positive(s, "cycle", s.number("cycle", 10)),
                        s.number("jitter", 0), period(s));
            }
            case "text" -> {
                if (number) {
                    throw s.error("kind", "text needs a vertex of type: name");
                }
                b = new TextSource(s.text("value"));
            }
            case "gpio-in" -> {
                needNumber(s, number, kind);
                int pin = pin(s);
                String pull = s.choice("pull", "off", "off", "up", "down");
                b = new GpioInput(pin, pull.equals("up") ? PullResistance.PULL_UP
                        : pull.equals("down") ? PullResistance.PULL_DOWN : PullResistance.OFF,
                        s.millis("debounce", 0), edgesPath(s), mockPins);
            }
            case "i2c" -> {
                needNumber(s, number, kind);
                // a transfer that reads a fixed width (an SMBus byte or word) defaults bytes to it and refuses another
                I2cTransfer transfer = I2cTransfer.of(s.choice("transfer", I2cTransfer.PLAIN.key(), I2cTransfer.keys()));
                int fixed = transfer.bytes();
                int bytes = (int) s.integer("bytes", fixed > 0 ? fixed : schema.width(), 1, 8);
                if (fixed > 0 && bytes != fixed) {
                    throw s.error("bytes", transfer.key() + " reads " + fixed + (fixed == 1 ? " byte" : " bytes")
                            + ", not " + bytes + " (leave bytes out, or use transfer: smbus-block)");
                }
                int shift = (int) s.integer("shift", 0, 0, 8L * bytes - 1);
                // an SMBus word comes low byte first, so it is little-endian unless the file says otherwise
                String order = transfer == I2cTransfer.SMBUS_WORD ? "little" : "big";
                b = new I2cRegister((int) s.integer("bus", 1, 0, 31), (int) s.integer("address", -1, 0x03, 0x77),
                        (int) s.integer("register", 0, 0, 0xFF), bytes,
                        s.choice("order", order, "big", "little").equals("big"), shift,
                        Boolean.parseBoolean(s.choice("signed", Boolean.toString(schema.signed()), "true", "false")),
                        transfer, positive(s, "period", period(s)));
                if (!s.has("address")) {
                    throw s.error("address", "is required (the device's 7-bit address, e.g. 0x48)");
                }
            }
            case "w1" -> {
                needNumber(s, number, kind);
                String dev = s.text("device");
                if (!dev.matches("[0-9a-fA-F]{2}-[0-9a-fA-F]{12}")) {
                    throw s.error("device", "'" + dev + "' is not a 1-Wire id like 28-0123456789ab (ls /sys/bus/w1/devices)");
                }
                b = new W1Source(dev, positive(s, "period", period(s)));
            }
            case "self" -> {
                needNumber(s, number, kind);
                String metric = s.choice("metric", null, SelfSource.metrics());
                String iface = s.text("interface", "eth0");
                b = new SelfSource(metric, iface, positive(s, "period", period(s)));
            }
            case "file" -> b = new FileSource(base.resolve(s.text("file")), positive(s, "period", period(s)));
            case "command" -> {
                List<String> cmd = s.strings("run");
                if (cmd.isEmpty()) {
                    throw s.error("run", "is required: the command and its arguments, e.g. [vcgencmd, measure_volts]");
                }
                b = new CommandSource(cmd, positive(s, "period", period(s)));
            }
            default -> throw s.error("kind", "unknown");
        }
        s.done();
        return b;
    }

    private Binding sink(Spec s, VertexSchema schema, long initial) throws BoardFileError {
        String kind = s.choice("kind", null, SINKS);
        needNumber(s, schema.type() == TlvType.VALUE, kind);
        Binding b;
        if (kind.equals("gpio-out")) {
            int pin = pin(s);
            boolean activeLow = Boolean.parseBoolean(s.choice("active-low", "false", "true", "false"));
            String readback = s.text("readback", null);
            if (readback != null) {
                readback = claimPath(s, "readback", readback);
            }
            b = new GpioOutput(pin, activeLow, initial, readback, mockPins);
        } else {
            int channel = (int) s.integer("channel", 0, 0, 15);
            if (!pins.add(1000 + channel)) {
                throw s.error("channel", "PWM channel " + channel + " is already used");
            }
            b = new PwmOutput(channel, (int) s.integer("frequency", 1000, 1, 50_000_000));
        }
        s.done();
        return b;
    }

    private String edgesPath(Spec s) throws BoardFileError {
        String p = s.text("edges", null);
        return p == null ? null : claimPath(s, "edges", p);
    }

    /** A path the file gives as {@code key} (an edge counter, a readback), declared once; returns it as the board's. */
    private String claimPath(Spec s, String key, String given) throws BoardFileError {
        String p = relative(given);
        try {
            NodePath.of(p);
        } catch (RuntimeException e) {
            throw s.error(key, "'" + p + "' is not a vertex path");
        }
        Integer earlier = paths.putIfAbsent(p, s.line());
        if (earlier != null) {
            throw s.error(key, p + " is already declared on line " + earlier);
        }
        return p;
    }

    /** {@code path} as the board's own: with an old file's repeated board name dropped. */
    private String relative(String path) {
        return dropped.isEmpty() ? path : path.substring(dropped.length());
    }

    private int pin(Spec s) throws BoardFileError {
        if (!s.has("pin")) {
            throw s.error("pin", "is required (a BCM GPIO number 0..27, e.g. 17 for header pin 11)");
        }
        int pin = (int) s.integer("pin", 0, 0, 27);
        if (!pins.add(pin)) {
            throw s.error("pin", "BCM " + pin + " is already used by another vertex");
        }
        return pin;
    }

    private long period(Spec s) throws BoardFileError {
        return s.millis("period", defaultPeriod);
    }

    private static long positive(Spec s, String key, long v) throws BoardFileError {
        if (v <= 0) {
            throw s.error(key, "must be more than 0");
        }
        return v;
    }

    private static double positive(Spec s, String key, double v) throws BoardFileError {
        if (v <= 0) {
            throw s.error(key, "must be more than 0");
        }
        return v;
    }

    private static void needNumber(Spec s, boolean number, String kind) throws BoardFileError {
        if (!number) {
            throw s.error("kind", kind + " needs a number vertex (type i8..u64), not a name");
        }
    }
}
