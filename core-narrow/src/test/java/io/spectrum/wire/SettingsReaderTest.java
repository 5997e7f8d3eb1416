package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SettingsReaderTest {
    private static final byte[] KIND = Utf8.bytes("kind");
    private static final byte[] POLICY = Utf8.bytes("delivery_policy");

    @Test
    void duplicateKeyLastWellFormedWins() {
        // settings/duplicate-key-last-wins: kind VALUE 1, kind NAME "ws"
        TlvIndex idx = Hex.decode("0b401b00020004006b696e640100010001020004006b696e64020002007773");
        SettingsReader r = new SettingsReader();
        assertEquals(WireError.OK, r.wrap(idx, 0));
        int v = r.name(KIND);
        assertTrue(idx.payloadEquals(v, Utf8.bytes("ws")));
        // asking for the integer finds the first (only) well-formed VALUE occurrence
        assertEquals(1, r.u8(KIND, -1));
        assertEquals(-1, r.u16(KIND, -1), "wrong width is ignored");
    }

    @Test
    void policyLastWinsIgnoresTheNameTypedOccurrence() {
        TlvIndex idx = Hex.decode("04405c000600070006636c69656e740b404d0002000f0064656c69766572795f706f6c69637901000200010002000f0064656c69766572795f706f6c69637901000200210002000f0064656c69766572795f706f6c696379020004006e6f7065");
        SettingsReader r = new SettingsReader();
        assertEquals(WireError.OK, r.wrap(idx, idx.child(0, 1)));
        assertEquals(0x0021, r.u16(POLICY, -1));
    }

    @Test
    void nonNameInKeySlotStopsTheWalk() {
        // SETTINGS{ VALUE ee, NAME kind, VALUE 01 }: walk stops at once
        TlvIndex idx = Hex.decode(Hex.tlv(0x0B, 0x40, "01000100ee", "020004006b696e64", "0100010001"));
        SettingsReader r = new SettingsReader();
        assertEquals(WireError.OK, r.wrap(idx, 0));
        assertEquals(-1, r.u8(KIND, -1));
        assertEquals(TlvIndex.NONE, r.firstKey());
    }

    @Test
    void unknownKeysAreSkippedAndDanglingKeyEndsWalk() {
        // SETTINGS{ NAME x VALUE 7, NAME kind VALUE 3, NAME kind }
        TlvIndex idx = Hex.decode(Hex.tlv(0x0B, 0x40, "0200010078" + "0100010007" + "020004006b696e64" + "0100010003" + "020004006b696e64"));
        SettingsReader r = new SettingsReader();
        r.wrap(idx, 0);
        assertEquals(3, r.u8(KIND, -1));
        int keys = 0;
        for (int k = r.firstKey(); k != TlvIndex.NONE; k = r.nextKey(k)) {
            keys++;
        }
        assertEquals(2, keys);
    }

    @Test
    void nestedNamespace() {
        // settings/read-container-shape: SETTINGS{app SETTINGS{kp u32 7}}
        TlvIndex idx = Hex.decode("0b401900020003006170700b400e00020002006b700100040007000000");
        SettingsReader r = new SettingsReader();
        SettingsReader app = new SettingsReader();
        r.wrap(idx, 0);
        assertEquals(WireError.OK, r.enter(Utf8.bytes("app"), app));
        assertEquals(7L, app.u32(Utf8.bytes("kp"), -1));
        assertEquals(-1L, app.u64(Utf8.bytes("kp"), -1));
        assertEquals(WireError.SCHEMA_NOT_FOUND, r.enter(Utf8.bytes("nope"), app));
    }

    @Test
    void u64AndWrongEntryType() {
        TlvIndex idx = Hex.decode(Hex.tlv(0x0B, 0x40, "0200010074", "010008000807060504030201"));
        SettingsReader r = new SettingsReader();
        r.wrap(idx, 0);
        assertEquals(0x0102030405060708L, r.u64(Utf8.bytes("t"), -1));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, r.wrap(Hex.decode("0900 0000".replace(" ", "")), 0));
    }
}
