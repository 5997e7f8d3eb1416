package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The forward hop's rewrite against frames spelled by hand from libtracer's
 * {@code rebuild_fwd_forward} (fwd_frame_view.hpp): dst shrinks by the mount run, src grows by the
 * inbound run (not on a REPLY), everything else verbatim, TS kept, CRC dropped, the mint lists of a
 * hop that mints nothing stripped.
 */
class FwdRewriteTest {
    /** The inbound run {@code /c}. */
    private static final byte[] RUN_C = {1, 'c'};
    private static final String SENSOR = "0673656e736f72"; // 06 "sensor"
    private static final String TEMP = "0474656d70"; // 04 "temp"
    private static final String REPLY_EP = "087265706c792d6570"; // 08 "reply-ep"

    private final FwdView f = new FwdView();
    private final byte[] out = new byte[512];

    private String forward(String inHex, int strip, byte[] run) {
        TlvIndex idx = Hex.decode(inHex);
        assertEquals(WireError.OK, f.wrap(idx, 0));
        int n = FwdRewrite.forward(f, strip, run, 0, run.length, out, 0, out.length);
        if (n < 0) {
            return "error " + -n;
        }
        assertEquals(WireError.OK, new FrameDecoder().decode(out, 0, n, new TlvIndex()), "the forwarded frame decodes");
        return Hex.of(out, 0, n).toLowerCase();
    }

    @Test
    void readStripsTheMountFromDstAndGrowsSrcByTheInboundRun() {
        // digest fwd/fwd-read: dst /sensor/temp, src /reply-ep
        String in = "0f402200" + "0100010000" + "06000c00" + SENSOR + TEMP + "06000900" + REPLY_EP;
        assertEquals("0f401d00" + "0100010000" + "06000500" + TEMP + "06000b00" + "0163" + REPLY_EP, forward(in, 7, RUN_C));
    }

    @Test
    void theFieldAndThePayloadAreCopiedUntouched() {
        // a subscribe: WRITE, FIELD :subscribers[], SUBSCRIBER{PATH /reply-ep} with a TS trailer on the record
        String field = "10401400" + "02000b00" + "7375627363726962657273" + "0100010001";
        String record = "04600d00" + "06000900" + REPLY_EP + "0102030405060708";
        String in = "0f40" + le16(5 + 4 + 12 + field.length() / 2 + 13 + record.length() / 2) + "0100010001"
                + "06000c00" + SENSOR + TEMP + field + "06000900" + REPLY_EP + record;
        String expect = "0f40" + le16(5 + 9 + field.length() / 2 + 15 + record.length() / 2) + "0100010001"
                + "06000500" + TEMP + field + "06000b00" + "0163" + REPLY_EP + record;
        assertEquals(expect, forward(in, 7, RUN_C));
    }

    @Test
    void aDeliveryWithEmptySrcGrowsItToTheRun() {
        // remote delivery: WRITE dst /sensor/temp, src empty, VALUE u8 7
        String in = "0f401e00" + "0100010001" + "06000c00" + SENSOR + TEMP + "06000000" + "0100010007";
        assertEquals("0f401900" + "0100010001" + "06000500" + TEMP + "06000200" + "0163" + "0100010007",
                forward(in, 7, RUN_C));
    }

    @Test
    void aReplyIsNotGrownAndMayCarryAPathRefSrc() {
        // REPLY dst /sensor/reply-ep, src /x, kind RESULT, VALUE 9
        String in = "0f402900" + "0100010003" + "06001000" + SENSOR + REPLY_EP + "06000200" + "0178"
                + "0100010000" + "0100010009";
        assertEquals("0f402200" + "0100010003" + "06000900" + REPLY_EP + "06000200" + "0178" + "0100010000"
                + "0100010009", forward(in, 7, RUN_C));
        // a request whose src is a PATH_REF cannot accumulate: not forwardable
        String ref = "0f402100" + "0100010000" + "06000c00" + SENSOR + TEMP + "14000800" + "0100000002000000";
        assertEquals("error " + WireError.FRAME_INVALID, forward(ref, 7, RUN_C));
    }

    @Test
    void aReplysMintAnswerAndAFlaggedRequestsReverseListAreStripped() {
        // REPLY ... kind RESULT, VALUE 9, PATH_REF{one element}: this hop mints nothing -> removed
        String in = "0f403500" + "0100010003" + "06001000" + SENSOR + REPLY_EP + "06000200" + "0178"
                + "0100010000" + "0100010009" + "14000800" + "0100000002000000";
        assertEquals("0f402200" + "0100010003" + "06000900" + REPLY_EP + "06000200" + "0178" + "0100010000"
                + "0100010009", forward(in, 7, RUN_C));
        // mint-flagged READ with a trailing PATH_REF_REVERSE: removed; unflagged: kept
        String flagged = "0f402e00" + "0100010080" + "06000c00" + SENSOR + TEMP + "06000900" + REPLY_EP
                + "15000800" + "0100000002000000";
        assertEquals("0f401d00" + "0100010080" + "06000500" + TEMP + "06000b00" + "0163" + REPLY_EP,
                forward(flagged, 7, RUN_C));
    }

    @Test
    void theTimestampIsKeptAndTheCrcDropped() {
        TlvWriter w = new TlvWriter();
        byte[] b = new byte[128];
        w.wrap(b, 0, b.length).begin(TlvType.FWD, Opt.PL | Opt.TS | Opt.CR).raw(Hex.bytes("0100010000"))
                .raw(Hex.bytes("06000c00" + SENSOR + TEMP)).raw(Hex.bytes("06000900" + REPLY_EP))
                .end(0x0102030405060708L);
        String in = Hex.of(b, 0, w.length()).toLowerCase();
        assertEquals("0f601d00" + "0100010000" + "06000500" + TEMP + "06000b00" + "0163" + REPLY_EP + "0807060504030201",
                forward(in, 7, RUN_C));
    }

    @Test
    void refusals() {
        String in = "0f402200" + "0100010000" + "06000c00" + SENSOR + TEMP + "06000900" + REPLY_EP;
        assertEquals("error " + WireError.FRAME_INVALID, forward(in, 13, RUN_C), "dst shorter than the strip");
        TlvIndex idx = Hex.decode(in);
        f.wrap(idx, 0);
        assertEquals(-WireError.FLOW_BACKPRESSURE, FwdRewrite.forward(f, 7, RUN_C, 0, 2, out, 0, 20));
    }

    @Test
    void errorReplySwapsTheRoutesAndIsSilentToRepliesAndEmptySrc() {
        TlvIndex idx = Hex.decode("0f402200" + "0100010000" + "06000c00" + SENSOR + TEMP + "06000900" + REPLY_EP);
        f.wrap(idx, 0);
        TlvWriter t = new TlvWriter(4).wrap(out, 0, out.length);
        int n = FwdRewrite.errorReply(f, WireError.PATH_INVALID, t);
        assertEquals("0f403500" + "0100010003" + "06000900" + REPLY_EP + "06000c00" + SENSOR + TEMP + "0100010001"
                + "09400a00" + "08400600" + "010002002100", Hex.of(out, 0, n).toLowerCase());
        idx = Hex.decode("0f401e00" + "0100010001" + "06000c00" + SENSOR + TEMP + "06000000" + "0100010007");
        f.wrap(idx, 0);
        assertEquals(0, FwdRewrite.errorReply(f, WireError.PATH_INVALID, t.wrap(out, 0, out.length)));
    }

    @Test
    void runSpellingsAndPrefixMatch() {
        byte[] b = new byte[64];
        assertEquals(7, FwdRewrite.writeSegment("board1", b, 0, b.length));
        assertEquals("06626f61726431", Hex.of(b, 0, 7).toLowerCase());
        byte[] scratch = new byte[64];
        assertEquals(-WireError.PATH_INVALID, FwdRewrite.writeSegment("a/b", scratch, 0, scratch.length));
        assertEquals(-WireError.PATH_INVALID, FwdRewrite.writeSegment("", scratch, 0, scratch.length));
        assertEquals(-WireError.PATH_INVALID, FwdRewrite.writeSegment("b\u00e4r", scratch, 0, scratch.length));
        int n = FwdRewrite.writeNumberSegment(3, 17, b, 7, 57);
        assertEquals("0433" + "2d3137", Hex.of(b, 7, n).toLowerCase());
        byte[] dst = Hex.bytes("06626f61726431" + TEMP);
        assertEquals(7, FwdRewrite.runLength(dst, 0, dst.length, b, 0, 7));
        assertEquals(-1, FwdRewrite.runLength(dst, 0, dst.length, b, 0, 11));
        assertEquals(-1, FwdRewrite.runLength(dst, 0, 6, b, 0, 7));
    }

    private static String le16(int v) {
        return String.format("%02x%02x", v & 0xFF, v >>> 8);
    }
}
