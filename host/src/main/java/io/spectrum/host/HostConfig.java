package io.spectrum.host;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.Topics;
import io.spectrum.host.history.HistoryServer;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryTime;
import io.spectrum.host.runtime.MountSpec;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a host runs with, as one checked value: its name, its mounts (each board's name and
 * link), the client listener, the dashboard, the link settings (serial speed, liveness timers,
 * frame and receive-buffer sizes, DTLS credentials for the board links), the host bus and its
 * grants, the MQTT bridge, and the clock every timer of the host reads. Built from {@code spectrum
 * host}'s options or from a host file ({@link HostFile}, the same keys); {@link Host} starts it.
 * {@link Builder#build()} refuses a configuration that cannot run ({@link Invalid}: the key and one
 * line), before anything is opened.
 */
public final class HostConfig {
    /** {@code dashboard} when the host serves none. */
    public static final int NO_DASHBOARD = -1;
    /** {@code dashboard}'s default port on 127.0.0.1. */
    public static final int DEFAULT_DASHBOARD_PORT = 8080;
    /** {@code baud}'s default: serial lines run at 115200 baud, 8N1. */
    public static final int DEFAULT_BAUD = 115200;
    /** {@code rcvbuf}'s default: the UDP receive buffer asked of the OS, 4 MiB. */
    public static final int DEFAULT_RECEIVE_BUFFER = 4 * 1024 * 1024;
    /** Where the metrics listener binds by default: loopback, Prometheus's usual exporter port. */
    public static final int DEFAULT_METRICS_PORT = 9464;
    /** The metrics listener's default address, as {@code --metrics} spells it. */
    public static final String DEFAULT_METRICS = "127.0.0.1:" + DEFAULT_METRICS_PORT;

    /**
     * The metrics listener's address ({@code --metrics [HOST:]PORT}; a bare PORT binds 127.0.0.1).
     *
     * @param host a name or address ({@code 0.0.0.0} for every interface, {@code ::1} without brackets)
     * @param port 0..65535 (0: any free one)
     */
    public record Endpoint(String host, int port) {
        /** {@code [HOST:]PORT}, or {@code none} / {@code false} for no listener (null). */
        static Endpoint parse(String spec) {
            String s = spec.trim();
            if (s.equals("none") || s.equals("false")) {
                return null;
            }
            int colon = s.lastIndexOf(':');
            String host = colon < 0 ? "127.0.0.1" : s.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(s.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (host.isEmpty() || port < 0 || port > 65535) {
                throw new Invalid("metrics", "--metrics takes [HOST:]PORT (PORT 0..65535) or none, was '" + spec + "'");
            }
            return new Endpoint(host, port);
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** What the host dials a board over: the scheme of its link URI. */
    public enum LinkKind { UDP, SERIAL, TCP, DTLS, UNIX }

    /**
     * A board mounted as {@code /name}, reached over {@code link}: a link URI (docs/links.md, "Links by
     * URI"), opened by the link factory ({@link LinkSpec}): {@code HOST:PORT} or {@code udp://HOST:PORT}
     * dials its UDP listener (DTLS with the config's credentials), {@code dtls://HOST:PORT} its DTLS
     * listener, {@code serial:///DEVICE?baud=N} (or the shorthand {@code serial:DEVICE}) opens its serial
     * line (at the config's baud rate unless the URI names one), {@code tcp://HOST:PORT} connects to its TCP
     * listener (libtracer's TCP transport, no hello: docs/links.md, "TCP link"). {@code top} names its
     * top-level vertices when its root cannot be listed (empty otherwise).
     */
    public record Mount(String name, String link, List<String> top) {
        /** Checks that the name and link are given ({@link NullPointerException} otherwise) and copies {@code top}. */
        public Mount {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(link, "link");
            top = List.copyOf(top);
        }

        /** A board's link as given to {@code --peer NAME=LINK}: a link URI, a bare {@code HOST:PORT} being UDP. */
        public static Mount udp(String name, String hostPort, List<String> top) {
            return new Mount(name, hostPort, top);
        }

        /** A board's serial line ({@code --serial NAME=DEVICE}, or a {@code serial:///DEVICE?baud=N} URI). */
        public static Mount serial(String name, String device, List<String> top) {
            return new Mount(name, device.contains("://") ? device : "serial://" + device, top);
        }

        /**
         * The link, parsed by the link factory (a bare {@code HOST:PORT} is UDP).
         *
         * @throws IllegalArgumentException (one line, with what to write) when it is no link URI
         */
        public LinkSpec.Uri uri() {
            return LinkSpec.parse(link, "udp");
        }

        /** The transport the link names. */
        public LinkKind kind() {
            return LinkKind.valueOf(uri().scheme().toUpperCase(java.util.Locale.ROOT));
        }

        /** The UDP or TCP {@code HOST:PORT}, the serial device or the socket path, without the scheme. */
        public String address() {
            return uri().address();
        }
    }

    /** A configuration that cannot run: {@code key} is the option / host-file key at fault. */
    public static final class Invalid extends IllegalArgumentException {
        private final String key;

        /**
         * A refusal of {@code key} (empty for the whole configuration) with a one-line message; no stack trace is
         * kept.
         */
        public Invalid(String key, String message) {
            super(message, null);
            this.key = key;
        }

        /** The key at fault, e.g. {@code mounts}, {@code mqtt-view}; empty for the whole configuration. */
        public String key() {
            return key;
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private final String name;
    private final List<Mount> mounts;
    private final String udp;
    private final String tcp;
    private final int dashboard;
    private final int baud;
    private final long pingMillis;
    private final long timeoutMillis;
    private final int frameBytes;
    private final int receiveBuffer;
    private final int clientPeers;
    private final String dtlsKey;
    private final String dtlsCa;
    private final String dtlsKeys;
    private final String dtlsName;
    private final HostBusSetup bus;
    private final String grants;
    private final BrokerAddress mqtt;
    private final BridgeOptions mqttOptions;
    private final boolean mqttView;
    private final Endpoint metrics;
    private final boolean metricsDefault;
    private final Clock clock;
    private final HistorySettings history;

    private HostConfig(Builder b, BrokerAddress mqtt, BridgeOptions mqttOptions, Endpoint metrics) {
        this.name = b.name;
        this.mounts = List.copyOf(b.mounts);
        this.udp = b.udp;
        this.tcp = b.tcp;
        this.dashboard = b.dashboard;
        this.baud = b.baud;
        this.pingMillis = b.pingMillis;
        this.timeoutMillis = b.timeoutMillis;
        this.frameBytes = b.frameBytes;
        this.receiveBuffer = b.receiveBuffer;
        this.clientPeers = b.clientPeers;
        this.dtlsKey = b.dtlsKey;
        this.dtlsCa = b.dtlsCa;
        this.dtlsKeys = b.dtlsKeys;
        this.dtlsName = b.dtlsName;
        this.grants = b.grants != null ? b.grants : b.busGrants; // one file, whichever option named it
        this.bus = b.busPath == null ? null
                : new HostBusSetup(b.busPath, b.busStore, b.busTcp, b.busAllowRemote, grants, b.busIdleTimeoutMillis,
                        b.busMaxClients);
        this.mqtt = mqtt;
        this.mqttOptions = mqttOptions;
        this.mqttView = b.mqttView;
        this.metrics = metrics;
        this.metricsDefault = b.metrics.equals(DEFAULT_METRICS);
        this.clock = b.clock;
        this.history = b.builtHistory;
    }

    /** A builder holding {@code spectrum host}'s defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The host's name (its node's, the dashboard's title, the MQTT bridge's host level). */
    public String name() {
        return name;
    }

    /** The boards, in the order given (the link ids follow it). */
    public List<Mount> mounts() {
        return mounts;
    }

    /** The client listener's {@code HOST:PORT}, or null for none. */
    public String udp() {
        return udp;
    }

    /** The TCP listener's {@code HOST:PORT} (libtracer's TCP transport, for clients and nodes that dial in), or null. */
    public String tcp() {
        return tcp;
    }

    /** The dashboard's port on 127.0.0.1 (0: any free one), or {@link #NO_DASHBOARD}. */
    public int dashboard() {
        return dashboard;
    }

    /** The serial lines' baud rate (8N1), positive. */
    public int baud() {
        return baud;
    }

    /** How long a peer may be quiet before it is probed, in milliseconds (positive). */
    public long pingMillis() {
        return pingMillis;
    }

    /** How long a peer may be silent before it is reported down, in milliseconds (positive). */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** The largest frame on each link in bytes; 0 takes the link's default (UDP 65507, serial 4096). */
    public int frameBytes() {
        return frameBytes;
    }

    /** The UDP receive buffer to ask the OS for, in bytes; 0 keeps the OS default. */
    public int receiveBuffer() {
        return receiveBuffer;
    }

    /** The client listener's peer table (distinct client addresses, half of it per source IP); 0: the default, 64. */
    public int clientPeers() {
        return clientPeers;
    }

    /** This host's DTLS key file for the board links (its certificate is the .crt beside it), or null. */
    public String dtlsKey() {
        return dtlsKey;
    }

    /** The fleet CA certificate file, the only one the board links trust, or null. */
    public String dtlsCa() {
        return dtlsCa;
    }

    /** A keys directory giving both key ({@code <dtlsName>.key}) and CA ({@code ca.crt}), or null. */
    public String dtlsKeys() {
        return dtlsKeys;
    }

    /** Whose key {@link #dtlsKeys()} takes (default {@code host}). */
    public String dtlsName() {
        return dtlsName;
    }

    /** The host bus's Unix socket, or null for no bus. */
    public String busPath() {
        return bus == null ? null : bus.path;
    }

    HostBusSetup bus() {
        return bus;
    }

    /**
     * The grants file ({@code --grants}, or {@code --bus-grants}, the same file; {@link GrantsFile}),
     * applied to the node's client doors and to the bus; null: everything allowed (docs/host.md,
     * "The grants file").
     */
    public String grants() {
        return grants;
    }

    /** The MQTT broker the host bridges to, or null for none. */
    public BrokerAddress mqtt() {
        return mqtt;
    }

    /** The bridge's options (what is published, what takes writes), null without {@link #mqtt()}. */
    public BridgeOptions mqttOptions() {
        return mqttOptions;
    }

    /** Whether the dashboard also shows the other hosts the broker holds. */
    public boolean mqttView() {
        return mqttView;
    }

    /** Where {@code GET /metrics} is served (docs/host.md, "Metrics"), or null for no metrics listener. */
    public Endpoint metrics() {
        return metrics;
    }

    /** Whether {@link #metrics()} is the default, not given: a busy default port gives way to a free one. */
    public boolean metricsDefault() {
        return metricsDefault;
    }

    /** The clock of the host's node, links and timers. */
    public Clock clock() {
        return clock;
    }

    /**
     * The history store's settings (docs/host.md, "History"): the file ({@code --history FILE}, else
     * {@code history.db} in {@code --state-dir DIR}), or null when the host keeps no history (neither
     * given, or {@code --history none}).
     */
    public HistorySettings history() {
        return history;
    }

    /** Collects a configuration; {@link #build()} checks it. The defaults are {@code spectrum host}'s. */
    public static final class Builder {
        private String name = "host";
        private final List<Mount> mounts = new ArrayList<>();
        private String udp;
        private String tcp;
        private int dashboard = DEFAULT_DASHBOARD_PORT;
        private int baud = DEFAULT_BAUD;
        private long pingMillis = LinkSpec.DEFAULT_PING_MILLIS;
        private long timeoutMillis = LinkSpec.DEFAULT_TIMEOUT_MILLIS;
        private int frameBytes;
        private int receiveBuffer = DEFAULT_RECEIVE_BUFFER;
        private int clientPeers;
        private String dtlsKey;
        private String dtlsCa;
        private String dtlsKeys;
        private String dtlsName = "host";
        private String busPath;
        private String busStore;
        private String busTcp;
        private boolean busAllowRemote;
        private String busGrants;
        private String grants;
        private long busIdleTimeoutMillis = -1;
        private int busMaxClients;
        private String mqttUrl;
        private Path mqttCredentials;
        private final List<String> mqttInclude = new ArrayList<>();
        private final List<String> mqttExclude = new ArrayList<>();
        private final List<String> mqttWritable = new ArrayList<>();
        private boolean mqttRaw;
        private boolean mqttDiscovery;
        private int mqttQueue = BridgeOptions.DEFAULT_QUEUE;
        private boolean mqttView;
        private String metrics = DEFAULT_METRICS;
        private Map<String, String> env = System.getenv();
        private Clock clock = SystemClock.INSTANCE;
        private String stateDir;
        private String historyFile;
        private Path historyCredentials;
        private final List<String> historyInclude = new ArrayList<>();
        private final List<String> historyExclude = new ArrayList<>();
        private String historyRaw;
        private String historyMinutes;
        private int historyMaxBytes = -1;
        private HistorySettings builtHistory;

        private Builder() {
        }

        /** The host's name (default {@code host}); it must be one MQTT topic level when the bridge runs. */
        public Builder name(String v) {
            name = Objects.requireNonNull(v);
            return this;
        }

        /** Adds a board; names must be unique path segments (checked by {@link #build()}). */
        public Builder mount(Mount m) {
            mounts.add(Objects.requireNonNull(m));
            return this;
        }

        /** The client listener's {@code HOST:PORT}, or null for none. */
        public Builder udp(String hostPort) {
            udp = hostPort;
            return this;
        }

        /** Listens for TCP peers there ({@code HOST:PORT}, a bare {@code :PORT} binds loopback), or null. */
        public Builder tcp(String hostPort) {
            tcp = hostPort;
            return this;
        }

        /** The dashboard's port (0: any), or {@link #NO_DASHBOARD}. */
        public Builder dashboard(int port) {
            dashboard = port;
            return this;
        }

        /** The serial baud rate (positive; default 115200). */
        public Builder baud(int v) {
            baud = v;
            return this;
        }

        /** The probe delay for a quiet peer, in milliseconds (positive). */
        public Builder pingMillis(long v) {
            pingMillis = v;
            return this;
        }

        /** The down delay for a silent peer, in milliseconds (positive). */
        public Builder timeoutMillis(long v) {
            timeoutMillis = v;
            return this;
        }

        /** The largest frame per link in bytes (0 or more; 0: the link's default). */
        public Builder frameBytes(int v) {
            frameBytes = v;
            return this;
        }

        /** The UDP receive buffer in bytes (0 or more; 0: the OS default). */
        public Builder receiveBuffer(int v) {
            receiveBuffer = v;
            return this;
        }

        /**
         * The client listener's peer table: how many client addresses (IP and port) it serves at once,
         * one source IP at most half of them (loopback included); 0 (the default) keeps the link's 64 ({@code LinkSettings.DEFAULT_LISTEN_PEERS}).
         */
        public Builder clientPeers(int v) {
            if (v < 0) {
                throw new Invalid("client-peers", "the client listener's peer table must be >= 0 (0: the default, " + io.spectrum.runtime.LinkSettings.DEFAULT_LISTEN_PEERS + "), was " + v);
            }
            clientPeers = v;
            return this;
        }

        /** This host's DTLS key file for the board links; the client listener stays plain. */
        public Builder dtlsKey(String v) {
            dtlsKey = v;
            return this;
        }

        /** The fleet CA certificate file ({@code revoked.crl} beside it is read at start). */
        public Builder dtlsCa(String v) {
            dtlsCa = v;
            return this;
        }

        /** A keys directory holding {@code <dtlsName>.key} and {@code ca.crt}. */
        public Builder dtlsKeys(String v) {
            dtlsKeys = v;
            return this;
        }

        /** Whose key {@link #dtlsKeys(String)} takes (not null). */
        public Builder dtlsName(String v) {
            dtlsName = Objects.requireNonNull(v);
            return this;
        }

        /** The host bus's Unix socket path, or null for no bus; the bus options below need it. */
        public Builder bus(String path) {
            busPath = path;
            return this;
        }

        /** The bus's artifact store directory (null: the socket path plus {@code .store}). */
        public Builder busStore(String v) {
            busStore = v;
            return this;
        }

        /** Also serve bus clients on TCP at {@code HOST:PORT} (a bare {@code :PORT} binds loopback), or null. */
        public Builder busTcp(String v) {
            busTcp = v;
            return this;
        }

        /** Lets {@link #busTcp(String)} bind a non-loopback address (then give grants). */
        public Builder busAllowRemote(boolean v) {
            busAllowRemote = v;
            return this;
        }

        /** How long a bus client may send nothing before the bus closes it, ms (0: never; negative: the bus's default, 60 s). */
        public Builder busIdleTimeoutMillis(long v) {
            busIdleTimeoutMillis = v;
            return this;
        }

        /**
         * Bus connections at once (1 to 1024; 0: the bus's default, 64), also the ends of the bus's door
         * to the node and each bus socket's connections.
         */
        public Builder busMaxClients(int v) {
            busMaxClients = v;
            return this;
        }

        /**
         * {@code --bus-grants}: the grants file by its older name, the same file as {@link #grants(String)} (it
         * needs {@code --bus}); null: none.
         */
        public Builder busGrants(String v) {
            busGrants = v;
            return this;
        }

        /**
         * The grants file (YAML, docs/host.md "The grants file"): what each client name may do on the node's
         * client doors and on the bus; null to let every client do everything.
         */
        public Builder grants(String v) {
            grants = v;
            return this;
        }

        /** The MQTT broker URL to bridge to, or null for no bridge; parsed by {@link #build()}. */
        public Builder mqtt(String url) {
            mqttUrl = url;
            return this;
        }

        /**
         * A file with {@code username=} and {@code password=} lines for the broker, or null to read the environment.
         */
        public Builder mqttCredentials(Path file) {
            mqttCredentials = file;
            return this;
        }

        /** Adds globs of paths the bridge publishes (none added: all). */
        public Builder mqttInclude(List<String> globs) {
            mqttInclude.addAll(globs);
            return this;
        }

        /** Adds globs of paths the bridge does not publish. */
        public Builder mqttExclude(List<String> globs) {
            mqttExclude.addAll(globs);
            return this;
        }

        /** Adds globs of paths that take writes on {@code …/set} (none: MQTT is read-only). */
        public Builder mqttWritable(List<String> globs) {
            mqttWritable.addAll(globs);
            return this;
        }

        /** Publish raw TLV bytes instead of JSON. */
        public Builder mqttRaw(boolean v) {
            mqttRaw = v;
            return this;
        }

        /** Also publish Home Assistant discovery configs. */
        public Builder mqttDiscovery(boolean v) {
            mqttDiscovery = v;
            return this;
        }

        /**
         * Messages the bridge holds while the broker is away or behind (default {@code BridgeOptions.DEFAULT_QUEUE}).
         */
        public Builder mqttQueue(int v) {
            mqttQueue = v;
            return this;
        }

        /** Shows the broker's other hosts on the dashboard (needs {@link #mqtt(String)} and a dashboard). */
        public Builder mqttView(boolean v) {
            mqttView = v;
            return this;
        }

        /** The metrics listener: {@code [HOST:]PORT} (a bare PORT binds 127.0.0.1), or {@code none} / {@code false}. */
        public Builder metrics(String spec) {
            metrics = Objects.requireNonNull(spec);
            return this;
        }

        /** Where the broker's and the history server's user and password come from without a credentials file (default: the environment). */
        public Builder env(Map<String, String> v) {
            env = Map.copyOf(v);
            return this;
        }

        /** The clock of the host's node, links and timers (default: the system clock). */
        public Builder clock(Clock v) {
            clock = Objects.requireNonNull(v);
            return this;
        }

        /** The host's state directory: its history file ({@code history.db}) lives there. */
        public Builder stateDir(String dir) {
            stateDir = dir;
            return this;
        }

        /**
         * The history file, or a PostgreSQL server {@code postgresql://HOST[:PORT]/DB} several hosts
         * may share ({@code none}: no history even with a state directory).
         */
        public Builder history(String fileOrNone) {
            historyFile = fileOrNone;
            return this;
        }

        /** The history server's user and password file (default: the environment, {@link HistoryServer}). */
        public Builder historyCredentials(Path file) {
            historyCredentials = file;
            return this;
        }

        /** Path globs whose values the history keeps (none: every path). */
        public Builder historyInclude(List<String> globs) {
            historyInclude.addAll(globs);
            return this;
        }

        /** Path globs whose values the history does not keep (they win over the included ones). */
        public Builder historyExclude(List<String> globs) {
            historyExclude.addAll(globs);
            return this;
        }

        /** How long raw rows are kept, a duration ({@code 7d}, the default). */
        public Builder historyRaw(String duration) {
            historyRaw = duration;
            return this;
        }

        /** How long the one-minute summaries are kept, a duration ({@code 1y}, the default). */
        public Builder historyMinutes(String duration) {
            historyMinutes = duration;
            return this;
        }

        /** The largest non-numeric value kept, TLV bytes (64 by default). */
        public Builder historyMaxBytes(int bytes) {
            historyMaxBytes = bytes;
            return this;
        }

        private HistorySettings history() {
            HistorySettings h;
            if (HistoryServer.names(historyFile)) {
                try {
                    h = HistorySettings.of(HistoryServer.parse(historyFile, historyCredentials, env));
                } catch (IllegalArgumentException e) {
                    throw new Invalid(historyCredentials != null && e.getMessage().contains("credentials file")
                            ? "history-credentials" : "history", "--history: " + e.getMessage());
                }
            } else {
                Path file = historyFile != null ? ("none".equals(historyFile) ? null : Path.of(historyFile))
                        : stateDir != null ? Path.of(stateDir, HistorySettings.FILE_NAME) : null;
                if (file == null) {
                    return null;
                }
                h = HistorySettings.of(file);
            }
            try {
                h = h.withRetention(historyRaw == null ? h.rawRetentionMs() : HistoryTime.durationMs(historyRaw),
                        h.rollupRetentionMs());
            } catch (IllegalArgumentException e) {
                throw new Invalid("history-raw", "--history-raw: " + e.getMessage());
            }
            try {
                h = h.withRetention(h.rawRetentionMs(),
                        historyMinutes == null ? h.rollupRetentionMs() : HistoryTime.durationMs(historyMinutes));
            } catch (IllegalArgumentException e) {
                throw new Invalid("history-minutes", "--history-minutes: " + e.getMessage());
            }
            if (historyMaxBytes >= 0) {
                h = h.withMaxValueBytes(historyMaxBytes);
            }
            try {
                return h.withPaths(historyInclude, historyExclude);
            } catch (IllegalArgumentException e) {
                throw new Invalid(historyInclude.stream().anyMatch(g -> !g.startsWith("/")) ? "history-include"
                        : "history-exclude", "--history-include/--history-exclude: " + e.getMessage());
            }
        }

        /**
         * Checks everything that needs nothing opened and returns the configuration.
         *
         * @throws Invalid naming the key at fault, with a one-line reason
         */
        public HostConfig build() {
            if (mounts.isEmpty() && udp == null && tcp == null && busPath == null) {
                throw new Invalid("", "nothing to connect: give --peer HOST:PORT, --serial DEVICE, --udp HOST:PORT or --bus PATH");
            }
            String busProblem = new HostBusSetup(busPath, busStore, busTcp, busAllowRemote, busGrants, busIdleTimeoutMillis,
                    busMaxClients).check();
            if (busProblem != null) {
                throw new Invalid("bus", busProblem);
            }
            if (grants != null && busGrants != null
                    && !Path.of(grants).toAbsolutePath().normalize().equals(Path.of(busGrants).toAbsolutePath().normalize())) {
                throw new Invalid("grants", "--grants " + grants + " and --bus-grants " + busGrants
                        + " name two files; they are one grants file for the node and the bus: give one");
            }
            if (mqttView && mqttUrl == null) {
                throw new Invalid("mqtt-view", "--mqtt-view reads the broker of --mqtt URL; give --mqtt too");
            }
            if (mqttView && dashboard == NO_DASHBOARD) {
                throw new Invalid("mqtt-view", "--mqtt-view shows the other hosts on the dashboard; "
                        + "it does nothing with --no-dashboard");
            }
            if (baud <= 0 || pingMillis <= 0 || timeoutMillis <= 0) {
                throw new Invalid(baud <= 0 ? "baud" : pingMillis <= 0 ? "ping" : "timeout",
                        "--baud, --ping and --timeout must be positive, --port 0..65535, --duration >= 0");
            }
            if (dashboard != NO_DASHBOARD && (dashboard < 0 || dashboard > 65535)) {
                throw new Invalid("port", "--baud, --ping and --timeout must be positive, --port 0..65535, --duration >= 0");
            }
            if (frameBytes < 0 || receiveBuffer < 0) {
                throw new Invalid(frameBytes < 0 ? "frame" : "rcvbuf", "--frame and --rcvbuf must be 0 or more bytes");
            }
            Set<String> names = new HashSet<>();
            List<String> order = new ArrayList<>();
            for (Mount m : mounts) {
                String why = MountSpec.badName(m.name());
                if (why != null) {
                    throw new Invalid("mounts", why);
                }
                if (!names.add(m.name())) {
                    throw new Invalid("mounts", "two boards are named " + m.name()
                            + "; give each its own NAME= (--peer NAME=HOST:PORT, --serial NAME=DEVICE)");
                }
                if (m.link().isBlank()) {
                    throw new Invalid("mounts", "board " + m.name() + " has no link (give HOST:PORT or a link URI, "
                            + "e.g. serial:///dev/ttyUSB0?baud=115200)");
                }
                try {
                    m.uri();
                } catch (IllegalArgumentException e) {
                    throw new Invalid("mounts", "board " + m.name() + ": " + e.getMessage());
                }
                order.add(m.name());
            }
            BrokerAddress address = null;
            BridgeOptions options = null;
            if (mqttUrl != null) {
                try {
                    address = BrokerAddress.parse(mqttUrl, mqttCredentials, env);
                } catch (IllegalArgumentException e) {
                    throw new Invalid("mqtt", "--mqtt: " + e.getMessage());
                }
                try {
                    options = new BridgeOptions().host(name).raw(mqttRaw).discovery(mqttDiscovery).queue(mqttQueue);
                    mqttInclude.forEach(options::include);
                    mqttExclude.forEach(options::exclude);
                    mqttWritable.forEach(options::writable);
                    new Topics(name); // the name must be one topic level
                } catch (IllegalArgumentException e) {
                    throw new Invalid("mqtt", "--mqtt: " + e.getMessage());
                }
            }
            builtHistory = history();
            return new HostConfig(this, address, options, Endpoint.parse(metrics));
        }
    }
}
