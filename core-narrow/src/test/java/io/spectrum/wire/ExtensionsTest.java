package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The extensions announcement's bytes and the spectrum.* filter a plain v1 peer's answers go through. */
class ExtensionsTest {
    static final String CORE = "02000400636f7265" + "010002000100";
    static final String BOOT = "02000d00737065637472756d2e626f6f74" + "01000400efbeadde";
    static final String TOPIC = "02000500746f706963" + "010002000100";

    static String filter(String hex) {
        byte[] in = Hex.bytes(hex);
        byte[] out = new byte[in.length + 8];
        int n = Extensions.copyWithoutExtensionKeys(in, 0, in.length, out, 0, out.length);
        return n < 0 ? "refused" : Hex.of(out, 0, n).toLowerCase();
    }

    @Test
    void announcement_isOneSettingsPair_spectrumExtVersion1() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        Extensions.announce(w);
        assertEquals(Extensions.ANNOUNCE_BYTES, w.length());
        assertEquals("0b401600" + "02000c00737065637472756d2e657874" + "010002000100", Hex.of(b, 0, w.length()).toLowerCase());
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, w.length(), x));
        assertEquals(1, new Extensions().announced(x, 0));
    }

    @Test
    void announced_readsTheFirstSettingsWithTheConfigReaderRules() {
        TlvIndex x = new TlvIndex();
        // FWD{SETTINGS{spectrum.ext VALUE u8 1 (wrong width)}}: ignored, 0
        byte[] b = Hex.bytes("0f401900" + settings("02000c00737065637472756d2e657874", "0100010001"));
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, b.length, x));
        assertEquals(0, new Extensions().announced(x, x.firstChild(0)));
        // the key among others, last well-formed wins
        b = Hex.bytes("0f402800" + settings(CORE, "02000c00737065637472756d2e657874", "010002000200"));
        assertEquals(WireError.OK, new FrameDecoder().decode(b, 0, b.length, x));
        assertEquals(2, new Extensions().announced(x, x.firstChild(0)));
        assertEquals(0, new Extensions().announced(x, TlvIndex.NONE));
    }

    /** SETTINGS{parts} with a u16 length. */
    static String settings(String... parts) {
        String body = String.join("", parts);
        int n = body.length() / 2;
        return String.format("0b40%02x%02x", n & 0xFF, n >> 8) + body;
    }

    @Test
    void filter_dropsSpectrumPairs_keepsTheRest_inOrder() {
        assertEquals(settings(CORE, CORE, TOPIC), filter(settings(CORE, BOOT, CORE, TOPIC)));
        assertEquals(settings(CORE, TOPIC), filter(settings(BOOT, CORE, TOPIC)));
        assertEquals("0b400000", filter(settings(BOOT)));
        assertEquals(settings(CORE, TOPIC), filter(settings(CORE, TOPIC)), "nothing to drop: the same bytes");
    }

    @Test
    void filter_keepsTheLongLengthForm() {
        assertEquals("0b48" + "0e000000" + CORE, filter("0b48" + "27000000" + CORE + BOOT));
    }

    @Test
    void filter_stopsPairingWhereTheWalkStops() {
        // a VALUE in a key slot ends the pair walk: everything from there is carried as it is
        String stray = "0100010007";
        assertEquals(settings(CORE, stray, BOOT), filter(settings(CORE, stray, BOOT)));
        // a key with nothing after it is kept
        String bootKey = BOOT.substring(0, 34);
        assertEquals(settings(CORE, bootKey), filter(settings(CORE, bootKey)));
    }

    @Test
    void filter_refusesWhatIsNotOneFlatSettings() {
        assertEquals("refused", filter("0100010001"));
        assertEquals("refused", filter("0b000000"));
        assertEquals("refused", filter("0b401000" + CORE), "length beyond the bytes");
        assertEquals("refused", filter("0b400d00" + CORE.substring(0, 24) + "01"), "child overruns");
    }

    @Test
    void isExtensionKey_needsThePrefixAndAName() {
        byte[] k = "spectrum.boot".getBytes();
        assertEquals(true, Extensions.isExtensionKey(k, 0, k.length));
        assertEquals(false, Extensions.isExtensionKey(k, 0, 9), "the bare prefix");
        byte[] c = "core".getBytes();
        assertEquals(false, Extensions.isExtensionKey(c, 0, c.length));
    }
}
