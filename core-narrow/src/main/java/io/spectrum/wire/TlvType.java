package io.spectrum.wire;

/** The libtracer v1 type-code registry. */
public final class TlvType {
    public static final int VALUE = 0x01;
    public static final int NAME = 0x02;
    public static final int DESCRIPTION = 0x03;
    public static final int SUBSCRIBER = 0x04;
    /** Retired LIST code: never emitted, treated as unknown. */
    public static final int RESERVED_LIST = 0x05;
    public static final int PATH = 0x06;
    public static final int POINT = 0x07;
    public static final int ERROR = 0x08;
    public static final int STATUS = 0x09;
    public static final int ACL = 0x0A;
    public static final int SETTINGS = 0x0B;
    public static final int TIME = 0x0C;
    public static final int ROUTER = 0x0D;
    public static final int SPEC = 0x0E;
    public static final int FWD = 0x0F;
    public static final int FIELD = 0x10;
    public static final int ADVERTISE = 0x11;
    public static final int COMPACT = 0x12;
    public static final int HANDLE_NACK = 0x13;
    public static final int PATH_REF = 0x14;
    public static final int PATH_REF_REVERSE = 0x15;
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
