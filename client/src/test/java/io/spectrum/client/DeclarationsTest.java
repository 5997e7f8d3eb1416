package io.spectrum.client;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client reads a vertex's declaration once per (peer, path) and keeps it until told otherwise. */
class DeclarationsTest {
    /** The FIELD text of every READ the client sends (":settings.app" for a declaration read). */
    private static List<String> fieldsSent(PeerClient c) {
        List<String> fields = new ArrayList<>();
        FrameDecoder d = new FrameDecoder();
        TlvIndex x = new TlvIndex(64, 8);
        FwdView v = new FwdView();
        c.setTap((out, buf, off, len) -> {
            if (out && d.decode(buf, off, len, x) == WireError.OK && v.wrap(x, 0) == WireError.OK
                    && v.opcode() == FwdView.OP_READ) {
                io.spectrum.wire.FieldView f = new io.spectrum.wire.FieldView();
                fields.add(v.field() == TlvIndex.NONE || f.wrap(x, v.field()) != WireError.OK ? "" : f.toText());
            }
        });
        return fields;
    }

    @Test
    void aDeclarationIsReadOnceThroughSettingsAppAndRendersTheValue() {
        try (NodeFixture f = new NodeFixture()) {
            assertEquals(WireError.OK, f.node.declare(NodePath.of("/board/temp"), ValueFormatTest.TEMP));
            f.set("/board/temp", 2328, 2);
            List<String> fields = fieldsSent(f.client);
            VertexSchema s = f.client.declaration("/board/temp");
            assertNotNull(s);
            assertEquals(ValueFormatTest.TEMP.toString(), s.toString());
            assertEquals("23.28 °C", f.client.render("/board/temp", f.client.read("/board/temp").value()).text());
            f.client.declaration("/board/temp");
            assertEquals(List.of(":settings.app", ""), fields, "one declaration read, then the value read");
        }
    }

    @Test
    void anUndeclaredVertexHasNoneAndThatIsKeptToo() {
        try (NodeFixture f = new NodeFixture()) {
            f.set("/plain", 2328, 2);
            List<String> fields = fieldsSent(f.client);
            Reply r = f.client.read("/plain", Requests.settingsApp());
            assertEquals(WireError.SCHEMA_NOT_FOUND, r.code(), "what a Spectrum node answers for an undeclared vertex");
            assertNull(f.client.declaration("/plain"));
            assertNull(f.client.declaration("/plain"));
            assertEquals(2, fields.size(), "the test's own read and one declaration read: " + fields);
            assertEquals("2328", f.client.render("/plain", f.client.read("/plain").value()).text());
        }
    }

    @Test
    void noAnswerIsNotKept() {
        MemoryLink[] p = MemoryLink.pair(); // nobody answers
        PeerClient c = new PeerClient(new LinkTransport(p[1], 0), Duration.ofMillis(20), "/t/r/");
        List<String> fields = fieldsSent(c);
        assertNull(c.declaration("/board/temp"));
        assertNull(c.declaration("/board/temp"));
        assertEquals(2, fields.size(), "asked again: " + fields);
    }

    @Test
    void aTypeMismatchOnWriteOrARestartForgetsTheDeclaration() {
        try (NodeFixture f = new NodeFixture()) {
            assertEquals(WireError.OK, f.node.declare(NodePath.of("/board/led"), ValueFormatTest.LED));
            f.set("/board/led", 0, 1);
            List<String> fields = fieldsSent(f.client);
            assertNotNull(f.client.declaration("/board/led"));
            assertTrue(f.client.write("/board/led", NodeFixture.value(1, 1)).ok());
            assertNotNull(f.client.declaration("/board/led"));
            assertEquals(1, fields.size(), "an accepted write keeps it");
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, f.client.write("/board/led", NodeFixture.value(1, 4)).code());
            assertNotNull(f.client.declaration("/board/led"));
            assertEquals(2, fields.size(), "a type mismatch made the client read the declaration again");
            f.client.forgetDeclarations();
            assertNotNull(f.client.declaration("/board/led"));
            assertEquals(3, fields.size(), "a restart (told by the caller) too");
        }
    }

    @Test
    void fieldTextBecomesTheSelectorFieldViewReads() {
        assertEquals(":settings.app", text(Requests.field("settings.app")));
        assertEquals(":settings.app.unit", text(Requests.field("settings.app.unit")));
        assertEquals(":schema", text(Requests.field("schema")));
        assertEquals(":subscribers[3@9]", text(Requests.field("subscribers[3@9]")));
        assertEquals(":children[]", text(Requests.field("children[]")));
        assertEquals(text(Requests.settingsApp()), text(Requests.field("settings.app")));
        for (String bad : new String[] {"", "settings..app", "subscribers[x]", "subscribers[1", "a[1@2@3]"}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> Requests.field(bad), bad);
            assertTrue(e.getMessage().contains(":" + bad), e.getMessage());
        }
    }

    private static String text(byte[] field) {
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(field, 0, field.length, x));
        io.spectrum.wire.FieldView f = new io.spectrum.wire.FieldView();
        assertEquals(WireError.OK, f.wrap(x, 0));
        return f.toText();
    }
}
