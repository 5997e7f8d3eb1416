package io.spectrum.node;

/** Byte spellings of the names the node reads and writes (made once at class load). */
final class Names {
    static final byte[] SUBSCRIBERS = ascii("subscribers");
    static final byte[] SETTINGS = ascii("settings");
    static final byte[] ACL = ascii("acl");
    static final byte[] CHILDREN = ascii("children");
    static final byte[] DELIVERY_POLICY = ascii("delivery_policy");
    /** Extension: a SUBSCRIBER qos key asking for the node's topic stamp on each delivery. */
    static final byte[] TOPIC = ascii("spectrum.topic");
    static final byte[] STAMP_SEQ = ascii("seq");
    static final byte[] STAMP_STALE = ascii("stale");
    static final byte[] STAMP_OP = ascii("op");
    static final byte[] ACTIVITY = ascii("spectrum.activity");
    static final byte[] ACTIVITY_PATH = ascii("path");
    static final byte[] ACTIVITY_SUBSCRIBERS = ascii("subscribers");
    static final byte[] CORE = ascii("core");
    static final byte[] RFC0035 = ascii("rfc0035");
    static final byte[] TOPIC_EXT = ascii("topic");
    static final byte[] EMPTY_STATUS = {0x09, 0x00, 0x00, 0x00};
    static final byte[] EMPTY_PATH = {0x06, 0x00, 0x00, 0x00};
    static final byte[] EMPTY_SETTINGS = {0x0B, 0x40, 0x00, 0x00};

    private Names() {
    }

    static byte[] ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) s.charAt(i);
        }
        return b;
    }
}
