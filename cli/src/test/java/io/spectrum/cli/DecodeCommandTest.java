package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecodeCommandTest {
    private record Run(int exit, String out) {
    }

    private static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bo, true, StandardCharsets.UTF_8);
        System.setOut(ps);
        System.setErr(ps);
        try {
            int code = SpectrumCommand.execute(args);
            return new Run(code, bo.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private static Path root() {
        String r = System.getProperty("spectrum.root");
        return r != null ? Path.of(r) : Path.of("..");
    }

    @Test
    void printsTheExampleSubscribeFrameAsATree() {
        Run r = run("decode", "--file", root().resolve("docs/examples/subscribe.bin").toString());
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("FWD(0x0F) opt=0x40 [PL] len=75 WRITE"), r.out());
        assertTrue(r.out().contains("  PATH(0x06) opt=0x00 len=12 /sensor/temp (dst)"), r.out());
        assertTrue(r.out().contains("  FIELD(0x10) opt=0x40 [PL] len=20 :subscribers[]"), r.out());
        assertTrue(r.out().contains("    NAME(0x02) opt=0x00 len=11 \"subscribers\""), r.out());
        assertTrue(r.out().contains("  PATH(0x06) opt=0x00 len=9 /reply-ep (src)"), r.out());
        assertTrue(r.out().contains("SUBSCRIBER(0x04) opt=0x40 [PL] len=13 policy=0x0000 (absent) (payload)"), r.out());
    }

    @Test
    void decodesPolicyWordsBitByBitAndAcceptsSpacedHex() {
        Run r = run("decode", "04 40 28 00 0600070006636C69656E74", "0B40190002000F0064656C69766572795F706F6C69637901000200C1FF");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("delivery_policy 0xFFC1"), r.out());
        assertTrue(r.out().contains("bits 0-1   reliability        1 reliable"), r.out());
        assertTrue(r.out().contains("bits 6-7   delivery_class     3 stream"), r.out());
        assertTrue(r.out().contains("bit  8     one_shot           1"), r.out());
        assertTrue(r.out().contains("bit  9     suspended          1"), r.out());
        assertTrue(r.out().contains("bits 10-15 reserved           0x3F"), r.out());
    }

    @Test
    void namesErrorsTrailersAndFieldIndices() {
        // STATUS{ ERROR{ 0x0020 } }
        Run r = run("decode", "09400A00084006000100020020 00");
        assertTrue(r.out().contains("ERROR(0x08) opt=0x40 [PL] len=6 tr::path::not_found"), r.out());
        assertTrue(r.out().contains("VALUE(0x01) opt=0x00 len=2 2000 = 32 tr::path::not_found (NOT_FOUND)"), r.out());
        // framing/opt-all-bits-nested: trailers on both levels
        r = run("decode", "07601100077E05000000020001007464000000D7610807060504030201");
        assertTrue(r.out().contains("POINT(0x07) opt=0x7E [PL TS CR LL CW TF] len=5"), r.out());
        assertTrue(r.out().contains("trailer ts=100 (relative i32 ns)"), r.out());
        assertTrue(r.out().contains("trailer crc=0x61D7 (CRC-16-CCITT) ok"), r.out());
        assertTrue(r.out().contains("trailer ts=72623859790382856 (absolute u64 ns)"), r.out());
        // field/field-indexed
        r = run("decode", "10401c0002000b0073756273637269626572730100040003000000 0100010001");
        assertTrue(r.out().contains(":subscribers[3]"), r.out());
        // fwd/fwd-reply-result style: REPLY RESULT, kind child named
        r = run("decode", "0f403b00010001000306000900087265706c792d657006000c000673656e736f720474656d70010001000001000400d2040000140008000200000000000000");
        assertTrue(r.out().contains("FWD(0x0F) opt=0x40 [PL] len=59 REPLY RESULT"), r.out());
        assertTrue(r.out().contains("kind RESULT"), r.out());
        assertTrue(r.out().contains("PATH_REF(0x14) opt=0x00 len=8 [(2,0)]"), r.out());
    }

    @Test
    void roundtripPrintsTheReencodedHex(@TempDir Path tmp) throws Exception {
        Run r = run("decode", "--roundtrip", "01 08 03 00 00 00 AA BB CC");
        assertEquals(0, r.exit());
        assertEquals("010803000000aabbcc", r.out().trim());
        Path f = tmp.resolve("f.bin");
        Files.write(f, new byte[] {9, 0, 0, 0});
        r = run("decode", "--roundtrip", "--file", f.toString());
        assertEquals(0, r.exit());
        assertEquals("09000000", r.out().trim());
    }

    @Test
    void refusalsAreTypedAndExit2() {
        Run r = run("decode", "--roundtrip", "01010100AA");
        assertEquals(2, r.exit());
        assertEquals("refused: tr::frame::invalid (FRAME_INVALID) at offset 1", r.out().trim());
        r = run("decode", "0100 0500 AA");
        assertEquals(2, r.exit());
        assertTrue(r.out().startsWith("refused: tr::frame::truncated (FRAME_TRUNCATED) at offset 0"), r.out());
        r = run("decode", "0110010000000000 00");
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("tr::frame::crc_fail (FRAME_CRC_FAIL) at offset 5"), r.out());
        r = run("decode", "0xZZ");
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("bad hex"), r.out());
        r = run("decode");
        assertEquals(2, r.exit());
    }
}
