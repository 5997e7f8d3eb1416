package io.spectrum.wire;

/** The libtracer v1 type-code registry. */
public final class TlvType {
    /** 0x01 VALUE: opaque bytes, integers little-endian of variable width. */
    public static final int VALUE = 0x01;
    /** 0x02 NAME: UTF-8 without NUL; a label, SETTINGS key, POINT name or string value. */
    public static final int NAME = 0x02;
    /** 0x03 DESCRIPTION: free UTF-8 text. */
    public static final int DESCRIPTION = 0x03;
    /**
     * 0x04 SUBSCRIBER: container with the target PATH first, then optional settings, ACL and id
     * (read by {@link SubscriberView}).
     */
    public static final int SUBSCRIBER = 0x04;
    /** Retired LIST code: never emitted, treated as unknown. */
    public static final int RESERVED_LIST = 0x05;
    /** 0x06 PATH: packed segment records, never a container (read by {@link PathView}). */
    public static final int PATH = 0x06;
    /**
     * 0x07 POINT: container, NAME first, then optional own VALUE, DESCRIPTION, SETTINGS,
     * subscribers and child POINTs.
     */
    public static final int POINT = 0x07;
    /**
     * 0x08 ERROR: container whose first child is the identity (VALUE u16 code or NAME {@code
     * tr::…}); read by {@link ErrorView}.
     */
    public static final int ERROR = 0x08;
    /** 0x09 STATUS: empty for OK, else one or more ERRORs (read by {@link StatusView}). */
    public static final int STATUS = 0x09;
    /** 0x0A ACL: container of access entries. */
    public static final int ACL = 0x0A;
    /**
     * 0x0B SETTINGS: container of NAME key and value-child pairs (read by {@link SettingsReader}).
     */
    public static final int SETTINGS = 0x0B;
    /** 0x0C TIME: u64 nanoseconds since the epoch. */
    public static final int TIME = 0x0C;
    /** 0x0D ROUTER: reserved; decoded but never emitted. */
    public static final int ROUTER = 0x0D;
    /**
     * 0x0E SPEC: container of {@code type}, {@code name} and {@code config} pairs that creates a
     * child.
     */
    public static final int SPEC = 0x0E;
    /** 0x0F FWD: the remote-operation envelope (read by {@link FwdView}). */
    public static final int FWD = 0x0F;
    /** 0x10 FIELD: a {@code :field} selector (read by {@link FieldView}). */
    public static final int FIELD = 0x10;
    /** 0x11 ADVERTISE: transport plane, binds a u16 label to a PATH for compaction. */
    public static final int ADVERTISE = 0x11;
    /** 0x12 COMPACT: transport plane, a u16 label plus the payload TLV it stands for. */
    public static final int COMPACT = 0x12;
    /** 0x13 HANDLE_NACK: transport plane, an unknown u16 label the receiver dropped. */
    public static final int HANDLE_NACK = 0x13;
    /**
     * 0x14 PATH_REF: opaque (index u32, generation u32) pairs, at most 255 (read by {@link
     * PathRefView}).
     */
    public static final int PATH_REF = 0x14;
    /**
     * 0x15 PATH_REF_REVERSE: same body as {@link #PATH_REF}; only as the trailing child of a
     * forwarded request that asks for a reverse reference.
     */
    public static final int PATH_REF_REVERSE = 0x15;
    /** 0x80 BATCH: a TIME base child then sample frames; the first of the user range. */
    public static final int BATCH = 0x80;

    private TlvType() {
    }

    /** The registry name of a type code, "UNKNOWN" for unassigned or reserved codes, "USER" above 0x80. */
    public static String name(int type) {
        switch (type) {
            case VALUE: return "VALUE";
            case NAME: return "NAME";
            case DESCRIPTION: return "DESCRIPTION";
            case SUBSCRIBER: return "SUBSCRIBER";
            case PATH: return "PATH";
            case POINT: return "POINT";
            case ERROR: return "ERROR";
            case STATUS: return "STATUS";
            case ACL: return "ACL";
            case SETTINGS: return "SETTINGS";
            case TIME: return "TIME";
            case ROUTER: return "ROUTER";
            case SPEC: return "SPEC";
            case FWD: return "FWD";
            case FIELD: return "FIELD";
            case ADVERTISE: return "ADVERTISE";
            case COMPACT: return "COMPACT";
            case HANDLE_NACK: return "HANDLE_NACK";
            case PATH_REF: return "PATH_REF";
            case PATH_REF_REVERSE: return "PATH_REF_REVERSE";
            case BATCH: return "BATCH";
            default: return type > 0x80 ? "USER" : "UNKNOWN";
        }
    }
}
