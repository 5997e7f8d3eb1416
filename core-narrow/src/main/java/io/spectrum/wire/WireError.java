package io.spectrum.wire;

/**
 * The libtracer v1 error registry ({@code tr::…}) as int codes. Every refusal in Spectrum is one of
 * these codes; codes are returned, never thrown. {@link #OK} is Spectrum's own "no error" (the wire
 * has no OK code: success is the empty STATUS).
 */
public final class WireError {
    /** No error: Spectrum's success value (the wire says success with an empty STATUS). */
    public static final int OK = 0;
    /**
     * {@code tr::frame::truncated}: fewer bytes than a header, or a length that runs past its
     * container or input.
     */
    public static final int FRAME_TRUNCATED = 0x0001;
    /**
     * {@code tr::frame::invalid}: a malformed frame or request (type 0, reserved opt bits, extra
     * bytes, wrong shape).
     */
    public static final int FRAME_INVALID = 0x0002;
    /** {@code tr::frame::crc_fail}: the CRC trailer does not match. */
    public static final int FRAME_CRC_FAIL = 0x0003;
    /**
     * {@code tr::tlv::nesting_too_deep}: more TLVs or deeper nesting than the decoder's index
     * holds.
     */
    public static final int TLV_NESTING_TOO_DEEP = 0x0010;
    /** {@code tr::path::not_found}: no vertex (or slot, handle, subscription) at that address. */
    public static final int PATH_NOT_FOUND = 0x0020;
    /** {@code tr::path::invalid}: a malformed address or selector. */
    public static final int PATH_INVALID = 0x0021;
    /** {@code tr::path::in_use}: the address is taken, or the vertex still has users. */
    public static final int PATH_IN_USE = 0x0022;
    /** {@code tr::schema::type_mismatch}: the value or TLV has the wrong shape for its target. */
    public static final int SCHEMA_TYPE_MISMATCH = 0x0030;
    /** {@code tr::schema::not_found}: the target has no such field or schema entry. */
    public static final int SCHEMA_NOT_FOUND = 0x0031;
    /** {@code tr::flow::backpressure}: no room (a full pool, queue, share or buffer). */
    public static final int FLOW_BACKPRESSURE = 0x0040;
    /** {@code tr::flow::timeout}: no answer within the deadline; the outcome is unknown. */
    public static final int FLOW_TIMEOUT = 0x0041;
    /**
     * {@code tr::flow::address_shift_gap}: an index-addressed request met a list that shifted under
     * it.
     */
    public static final int FLOW_ADDRESS_SHIFT_GAP = 0x0042;
    /** {@code tr::access::denied}: the ACL does not grant this caller the right. */
    public static final int ACCESS_DENIED = 0x0050;
    /** {@code tr::transport::down}: the link or peer is not up. */
    public static final int TRANSPORT_DOWN = 0x0060;
    /** {@code tr::version::mismatch}: the peer speaks another protocol version. */
    public static final int VERSION_MISMATCH = 0x0070;

    private WireError() {
    }

    /** The {@code tr::…} identity of a code, or {@code null} when the code is not registered. */
    public static String identity(int code) {
        switch (code) {
            case FRAME_TRUNCATED: return "tr::frame::truncated";
            case FRAME_INVALID: return "tr::frame::invalid";
            case FRAME_CRC_FAIL: return "tr::frame::crc_fail";
            case TLV_NESTING_TOO_DEEP: return "tr::tlv::nesting_too_deep";
            case PATH_NOT_FOUND: return "tr::path::not_found";
            case PATH_INVALID: return "tr::path::invalid";
            case PATH_IN_USE: return "tr::path::in_use";
            case SCHEMA_TYPE_MISMATCH: return "tr::schema::type_mismatch";
            case SCHEMA_NOT_FOUND: return "tr::schema::not_found";
            case FLOW_BACKPRESSURE: return "tr::flow::backpressure";
            case FLOW_TIMEOUT: return "tr::flow::timeout";
            case FLOW_ADDRESS_SHIFT_GAP: return "tr::flow::address_shift_gap";
            case ACCESS_DENIED: return "tr::access::denied";
            case TRANSPORT_DOWN: return "tr::transport::down";
            case VERSION_MISMATCH: return "tr::version::mismatch";
            default: return null;
        }
    }

    /** The conformance-harness name of a code (FRAME_INVALID, NOT_FOUND, …), or {@code null}. */
    public static String harnessName(int code) {
        switch (code) {
            case FRAME_TRUNCATED: return "FRAME_TRUNCATED";
            case FRAME_INVALID: return "FRAME_INVALID";
            case FRAME_CRC_FAIL: return "FRAME_CRC_FAIL";
            case TLV_NESTING_TOO_DEEP: return "TLV_NESTING_TOO_DEEP";
            case PATH_NOT_FOUND: return "NOT_FOUND";
            case PATH_INVALID: return "INVALID_PATH";
            case PATH_IN_USE: return "PATH_IN_USE";
            case SCHEMA_TYPE_MISMATCH: return "TYPE_MISMATCH";
            case SCHEMA_NOT_FOUND: return "SCHEMA_NOT_FOUND";
            case FLOW_BACKPRESSURE: return "BACKPRESSURE";
            case FLOW_TIMEOUT: return "TIMEOUT";
            case FLOW_ADDRESS_SHIFT_GAP: return "ADDRESS_SHIFT_GAP";
            case ACCESS_DENIED: return "PERMISSION_DENIED";
            case TRANSPORT_DOWN: return "TRANSPORT_DOWN";
            case VERSION_MISMATCH: return "VERSION_MISMATCH";
            default: return null;
        }
    }

    /** True when the code is in the registry. */
    public static boolean isRegistered(int code) {
        return identity(code) != null;
    }
}
