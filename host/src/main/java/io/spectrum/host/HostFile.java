package io.spectrum.host;

import io.spectrum.host.history.HistoryServer;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a host file ({@code spectrum host --config FILE}; YAML, every key in docs/host.md, "The host
 * file") into a {@link HostConfig}. The keys are the options' names without the dashes; boards are
 * a list of {@code mounts}, each a {@code name}, a {@code link} ({@code HOST:PORT},
 * {@code udp://HOST:PORT}, {@code tcp://HOST:PORT}, {@code serial:DEVICE}) and optionally {@code top}; {@code dashboard} is a
 * port or {@code false}; {@code metrics} is {@code [HOST:]PORT}, {@code none} or {@code false}. The first problem is a {@link HostFileError} naming the line and the key
 * (an unknown key with the keys that fit there); nothing is opened here.
 */
public final class HostFile {
    private HostFile() {
    }

    /** The keys of the top level, in the order docs/host.md lists them. */
    static final List<String> KEYS = List.of("name", "mounts", "udp", "tcp", "dashboard", "baud", "ping", "timeout", "frame",
            "rcvbuf", "dtls-key", "dtls-ca", "dtls-keys", "dtls-name", "grants", "bus", "bus-store", "bus-tcp", "bus-allow-remote",
            "bus-grants", "bus-idle-timeout", "bus-max-clients", "mqtt", "mqtt-credentials", "mqtt-include", "mqtt-exclude", "mqtt-writable", "mqtt-raw",
            "mqtt-discovery", "mqtt-queue", "mqtt-view", "metrics", "state-dir", "history", "history-credentials", "history-include", "history-exclude",
            "history-raw", "history-minutes", "history-max-bytes");
    static final List<String> MOUNT_KEYS = List.of("name", "link", "top");

    /**
     * Reads {@code file} with {@code spectrum host}'s defaults for every key it leaves out; the first problem is a
     * {@link HostFileError} with its line and key.
     */
    public static HostConfig read(Path file) throws HostFileError {
        return read(file, HostConfig.builder());
    }

    /** Reads {@code file} into {@code into} (which may carry a clock or an environment) and builds it. */
    public static HostConfig read(Path file, HostConfig.Builder into) throws HostFileError {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new HostFileError(file.toString(), 0, "", "cannot read it: " + e.getMessage());
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, dir, into);
    }

    /** @param base the directory relative paths in the file (keys, grants, bus socket) resolve against */
    public static HostConfig parse(String name, String text, Path base, HostConfig.Builder b) throws HostFileError {
        Node root = io.spectrum.runtime.YamlFile.compose(name, text,
                "the file is empty (docs/host.md, \"The host file\", shows one)", (line, why) -> new HostFileError(name, line, "", why));
        Keys top = new Keys(name, "", root, KEYS);
        Object v;
        if ((v = top.text("name")) != null) {
            b.name((String) v);
        }
        for (Keys m : top.list("mounts", MOUNT_KEYS)) {
            String mount = m.required("name");
            String link = m.required("link");
            List<String> given = m.texts("top");
            try {
                List<String> tops = given.isEmpty() ? List.of() // the spelling of --top NAME=/A,/B, checked by its owner
                        : io.spectrum.host.runtime.MountSpec.top(mount + "=" + String.join(",", given)).names();
                b.mount(new HostConfig.Mount(mount, link, tops));
            } catch (IllegalArgumentException e) {
                throw m.error("top", e.getMessage());
            }
        }
        if ((v = top.text("udp")) != null) {
            b.udp((String) v);
        }
        if ((v = top.text("tcp")) != null) {
            b.tcp((String) v);
        }
        if (top.has("dashboard")) {
            String d = top.text("dashboard");
            b.dashboard("false".equals(d) ? HostConfig.NO_DASHBOARD : (int) top.integer("dashboard", 0, 65535));
        }
        if (top.has("baud")) {
            b.baud((int) top.integer("baud", 1, Integer.MAX_VALUE));
        }
        if (top.has("ping")) {
            b.pingMillis(top.integer("ping", 1, Long.MAX_VALUE));
        }
        if (top.has("timeout")) {
            b.timeoutMillis(top.integer("timeout", 1, Long.MAX_VALUE));
        }
        if (top.has("frame")) {
            b.frameBytes((int) top.integer("frame", 0, Integer.MAX_VALUE));
        }
        if (top.has("rcvbuf")) {
            b.receiveBuffer((int) top.integer("rcvbuf", 0, Integer.MAX_VALUE));
        }
        b.dtlsKey(top.path("dtls-key", base)).dtlsCa(top.path("dtls-ca", base)).dtlsKeys(top.path("dtls-keys", base));
        if ((v = top.text("dtls-name")) != null) {
            b.dtlsName((String) v);
        }
        b.grants(top.path("grants", base));
        String bus = top.text("bus"); // a socket path relative to the file, or a unix:/// URI as it is
        b.bus(bus != null && bus.contains("://") ? bus : top.path("bus", base)).busStore(top.path("bus-store", base)).busTcp(top.text("bus-tcp"))
                .busAllowRemote(top.flag("bus-allow-remote")).busGrants(top.path("bus-grants", base));
        if (top.has("bus-idle-timeout")) { // seconds, as the option
            b.busIdleTimeoutMillis(top.integer("bus-idle-timeout", 0, 86_400) * 1000);
        }
        if (top.has("bus-max-clients")) {
            b.busMaxClients((int) top.integer("bus-max-clients", 1, HostBusSetup.MAX_CLIENTS_CEILING));
        }
        b.mqtt(top.text("mqtt"));
        String creds = top.path("mqtt-credentials", base);
        b.mqttCredentials(creds == null ? null : Path.of(creds));
        b.mqttInclude(top.texts("mqtt-include")).mqttExclude(top.texts("mqtt-exclude"))
                .mqttWritable(top.texts("mqtt-writable")).mqttRaw(top.flag("mqtt-raw"))
                .mqttDiscovery(top.flag("mqtt-discovery")).mqttView(top.flag("mqtt-view"));
        if (top.has("mqtt-queue")) {
            b.mqttQueue((int) top.integer("mqtt-queue", 1, Integer.MAX_VALUE));
        }
        if ((v = top.text("metrics")) != null) { // [HOST:]PORT, none or false: checked by HostConfig
            b.metrics((String) v);
        }
        b.stateDir(top.path("state-dir", base));
        if ((v = top.text("history")) != null) {
            b.history("none".equals(v) || HistoryServer.names((String) v) ? (String) v : top.path("history", base));
        }
        String historyCreds = top.path("history-credentials", base);
        b.historyCredentials(historyCreds == null ? null : Path.of(historyCreds));
        b.historyInclude(top.texts("history-include")).historyExclude(top.texts("history-exclude"));
        b.historyRaw(top.text("history-raw")).historyMinutes(top.text("history-minutes"));
        if (top.has("history-max-bytes")) {
            b.historyMaxBytes((int) top.integer("history-max-bytes", 0, 1 << 20));
        }
        top.done();
        try {
            return b.build();
        } catch (HostConfig.Invalid e) {
            throw top.error(fileKey(e.key()), e.getMessage());
        }
    }

    /** The host-file key of an option named in a {@link HostConfig.Invalid}. */
    private static String fileKey(String key) {
        return switch (key) {
            case "port" -> "dashboard";
            default -> key;
        };
    }

    /** One mapping of the file with its lines; refuses mistyped values and keys nobody read. */
    private static final class Keys {
        private final String file;
        private final String where;
        private final Node node;
        private final List<String> known;
        private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

        Keys(String file, String where, Node node, List<String> known) throws HostFileError {
            this.file = file;
            this.where = where;
            this.node = node;
            this.known = known;
            if (!(node instanceof MappingNode m)) {
                throw new HostFileError(file, line(node), where, "must be a mapping of key: value");
            }
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) {
                    throw new HostFileError(file, line(t.getKeyNode()), where, "keys must be plain words");
                }
                if (entries.put(k.getValue(), t) != null) {
                    throw new HostFileError(file, line(k), field(k.getValue()), "given twice");
                }
            }
        }

        static int line(Node n) {
            return n.getStartMark().map(m -> m.getLine() + 1).orElse(0);
        }

        String field(String key) {
            return where.isEmpty() ? key : where + "." + key;
        }

        boolean has(String key) {
            return entries.containsKey(key);
        }

        HostFileError error(String key, String problem) {
            NodeTuple t = key.isEmpty() ? null : entries.get(key);
            return new HostFileError(file, t != null ? line(t.getValueNode()) : line(node), key.isEmpty() ? where : field(key),
                    problem);
        }

        String text(String key) throws HostFileError {
            NodeTuple t = entries.get(key);
            if (t == null) {
                return null;
            }
            if (!(t.getValueNode() instanceof ScalarNode s)) {
                throw error(key, "must be a single value");
            }
            return s.getValue();
        }

        String required(String key) throws HostFileError {
            String s = text(key);
            if (s == null || s.isEmpty()) {
                throw new HostFileError(file, line(node), field(key), "is required");
            }
            return s;
        }

        /** A file path, relative to the file's directory. */
        String path(String key, Path base) throws HostFileError {
            String s = text(key);
            return s == null || base == null ? s : base.resolve(s).toString();
        }

        long integer(String key, long min, long max) throws HostFileError {
            String s = text(key);
            long v;
            try {
                v = Long.parseLong(s.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw error(key, "'" + s + "' is not a whole number");
            }
            if (v < min || v > max) {
                throw error(key, v + " is out of range " + min + ".." + max);
            }
            return v;
        }

        boolean flag(String key) throws HostFileError {
            String s = text(key);
            if (s == null) {
                return false;
            }
            return switch (s) {
                case "true" -> true;
                case "false" -> false;
                default -> throw error(key, "'" + s + "' is not true or false");
            };
        }

        /** A list of plain values, or one value as a list of one. */
        List<String> texts(String key) throws HostFileError {
            NodeTuple t = entries.get(key);
            return io.spectrum.runtime.YamlFile.texts(t == null ? null : t.getValueNode(), key, this::error);
        }

        List<Keys> list(String key, List<String> itemKeys) throws HostFileError {
            NodeTuple t = entries.get(key);
            List<Keys> out = new ArrayList<>();
            if (t == null) {
                return out;
            }
            if (!(t.getValueNode() instanceof SequenceNode seq)) {
                throw error(key, "must be a list (lines starting with '- ')");
            }
            int i = 0;
            for (Node n : seq.getValue()) {
                Keys item = new Keys(file, field(key) + "[" + i++ + "]", n, itemKeys);
                item.done();
                out.add(item);
            }
            return out;
        }

        /** Refuses a key this mapping does not take, naming the ones that fit (closest first). */
        void done() throws HostFileError {
            for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
                if (!known.contains(e.getKey())) {
                    List<String> fit = new ArrayList<>(known);
                    fit.sort(Comparator.comparingInt(k -> distance(k, e.getKey())));
                    String near = distance(fit.get(0), e.getKey()) <= 2 ? "did you mean " + fit.get(0) + "? " : "";
                    throw new HostFileError(file, line(e.getValue().getKeyNode()), field(e.getKey()),
                            "unknown key (" + near + "known here: " + String.join(", ", known) + ")");
                }
            }
        }

        private static int distance(String a, String b) {
            int[] prev = new int[b.length() + 1];
            int[] cur = new int[b.length() + 1];
            for (int j = 0; j <= b.length(); j++) {
                prev[j] = j;
            }
            for (int i = 1; i <= a.length(); i++) {
                cur[0] = i;
                for (int j = 1; j <= b.length(); j++) {
                    int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                    cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                }
                int[] t = prev;
                prev = cur;
                cur = t;
            }
            return prev[b.length()];
        }
    }
}
