package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FwdViewTest {
    private final FwdView f = new FwdView();
    private TlvIndex idx;

    private int wrap(String hex) {
        idx = Hex.decode(hex);
        return f.wrap(idx, 0);
    }

    private String path(int e) {
        return new PathView().wrap(idx.buffer(), idx.bodyOffset(e), idx.bodyLength(e)).toText();
    }

    @Test
    void read() {
        assertEquals(WireError.OK, wrap("0f402200010001000006000c000673656e736f720474656d7006000900087265706c792d6570"));
        assertEquals(FwdView.OP_READ, f.opcode());
        assertFalse(f.mint());
        assertEquals("/sensor/temp", path(f.dst()));
        assertEquals("/reply-ep", path(f.src()));
        assertEquals(TlvIndex.NONE, f.field());
        assertEquals(TlvIndex.NONE, f.payload());
    }

    @Test
    void awaitTimeoutPresentAndDefault() {
        assertEquals(WireError.OK, wrap("0f402e00010001000206000c000673656e736f720474656d7006000900087265706c792d65700100080000ca9a3b00000000"));
        assertEquals(FwdView.OP_AWAIT, f.opcode());
        assertEquals(1_000_000_000L, f.awaitTimeoutNs());
        // width-tolerant: a 4-byte timeout of 5000
        assertEquals(WireError.OK, wrap("0f402a00010001000206000c000673656e736f720474656d7006000900087265706c792d65700100040088130000"));
        assertEquals(5000L, f.awaitTimeoutNs());
        assertEquals(WireError.OK, wrap("0f402200010001000206000c000673656e736f720474656d7006000900087265706c792d6570"));
        assertEquals(FwdView.DEFAULT_AWAIT_TIMEOUT_NS, f.awaitTimeoutNs());
    }

    @Test
    void writeWithSubscriberField() {
        assertEquals(WireError.OK, wrap("0f404b00010001000106000c000673656e736f720474656d701040140002000b007375627363726962657273010001000106000900087265706c792d657004400d0006000900087265706c792d6570"));
        assertEquals(FwdView.OP_WRITE, f.opcode());
        assertEquals(TlvType.FIELD, idx.type(f.field()));
        assertEquals(TlvType.SUBSCRIBER, idx.type(f.payload()));
        assertEquals("/reply-ep", path(f.src()));
    }

    @Test
    void replyKindRule() {
        // fwd-mint-reply: kind 0, VALUE u32 1234, trailing PATH_REF
        assertEquals(WireError.OK, wrap("0f403b00010001000306000900087265706c792d657006000c000673656e736f720474656d70010001000001000400d2040000140008000200000000000000"));
        assertEquals(FwdView.KIND_RESULT, f.kind());
        assertTrue(f.kindEntry() != TlvIndex.NONE);
        assertEquals(1234L, idx.valueAsLong(f.payload()));
        assertEquals(TlvType.PATH_REF, idx.type(f.pathRef()));
        // fwd-label-mint-reply: no kind child; the u32 VALUE is the payload
        assertEquals(WireError.OK, wrap("0f403100010001000306000900087265706c792d657006001300001604000001000673656e736f720474656d7001000400d2040000"));
        assertEquals(TlvIndex.NONE, f.kindEntry());
        assertEquals(FwdView.KIND_RESULT, f.kind());
        assertEquals(1234L, idx.valueAsLong(f.payload()));
        // a 1-byte VALUE of 2 is not a kind: RESULT with that VALUE as payload
        assertEquals(WireError.OK, wrap(Hex.tlv(0x0F, 0x40, "0100010003", "060002000161", "060002000162", "0100010002")));
        assertEquals(TlvIndex.NONE, f.kindEntry());
        assertEquals(2L, idx.valueAsLong(f.payload()));
    }

    @Test
    void replyErrorAfterDescription() {
        assertEquals(WireError.OK, wrap("0f406700010001000306002900036e657408646f776e6c696e6b0161036e657408646f776e6c696e6b03636c69087265706c792d657006000c000673656e736f720474656d70010001000109401c0003000e006e6f20737563682076657274657808400600010002002000"));
        assertEquals(FwdView.KIND_ERROR, f.kind());
        StatusView s = new StatusView();
        assertEquals(WireError.OK, s.wrap(idx, f.payload()));
        assertFalse(s.isOk());
        assertEquals(WireError.PATH_NOT_FOUND, s.code());
        assertTrue(s.description() != TlvIndex.NONE);
        assertEquals("tr::path::not_found", s.error().identityText());
    }

    @Test
    void reverseMintAndBoundDst() {
        assertEquals(WireError.OK, wrap("0f4024000100010080060005000474656d7006000600036e65740161150008000700000003000000"));
        assertTrue(f.mint());
        assertEquals(FwdView.OP_READ, f.opcode());
        assertEquals(TlvType.PATH_REF_REVERSE, idx.type(f.pathRefReverse()));
        assertEquals(WireError.OK, wrap("0f402e000100010000140010000100000000000000efbe00000700000006000900087265706c792d65700100040009000000"));
        assertTrue(f.dstIsPathRef());
    }

    @Test
    void malformedShapes() {
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, wrap("09000000"));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, wrap("0f4000 00".replace(" ", "")));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, wrap("0f40060001000200 0000".replace(" ", "")), "2-byte op");
        assertEquals(WireError.PATH_INVALID, wrap("0f40050001000100 00".replace(" ", "")), "no dst");
        assertEquals(WireError.PATH_INVALID, wrap(Hex.tlv(0x0F, 0x40, "0100010000", "060002000161")), "no src");
        assertEquals(WireError.PATH_INVALID, wrap(Hex.tlv(0x0F, 0x40, "0100010000", "020002006161", "06000000")), "NAME as dst");
        // unknown opcode parses; the terminus answers type_mismatch
        assertEquals(WireError.OK, wrap(Hex.tlv(0x0F, 0x40, "0100010007", "060002000161", "06000000")));
        assertEquals(7, f.opcode());
        assertTrue(f.srcEmpty());
        assertEquals("OP7", FwdView.opName(f.opcode()));
    }

    @Test
    void opBitsAndRouteSlots() {
        // op 0x41: WRITE with bit 6 (v1's spare flag, Spectrum's activity request)
        assertEquals(WireError.OK, wrap(Hex.tlv(0x0F, 0x40, "0100010041", "060002000161", "060002000162", "0100010007")));
        assertEquals(FwdView.OP_WRITE, f.opcode());
        assertTrue(f.activity());
        assertFalse(f.mint());
        assertTrue(f.dstEquals(new byte[] {1, 'a'}, 0, 2));
        assertFalse(f.dstEquals(new byte[] {1, 'b'}, 0, 2));
        assertEquals(TlvIndex.NONE, f.afterPayload());
        // a PATH wrongly flagged PL=1 keeps its dst slot: the resolver answers it path::invalid
        assertEquals(WireError.OK, wrap(Hex.tlv(0x0F, 0x40, "0100010000", "06400000", "06000000")));
        assertEquals(TlvType.PATH, idx.type(f.dst()));
        // an empty timeout VALUE reads as absent
        assertEquals(WireError.OK, wrap(Hex.tlv(0x0F, 0x40, "0100010002", "060002000161", "060002000162", "01000000")));
        assertEquals(TlvIndex.NONE, f.timeoutEntry());
        assertEquals(77L, f.awaitTimeoutNs(77L));
    }
}
