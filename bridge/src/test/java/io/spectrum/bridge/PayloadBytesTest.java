package io.spectrum.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import org.junit.jupiter.api.Test;

/**
 * The MQTT state payloads byte for byte (docs/mqtt.md "Payloads"), as the bridge published them
 * before the value renderer became one class ({@link io.spectrum.client.ValueLine}): key order,
 * the null common keys, {@code 23.20} with its zero, {@code reason} only on a stale value,
 * {@code origin} only with one, a stale mark without a stamp. Only {@code ts} (the rendering time)
 * is masked.
 */
class PayloadBytesTest {
    private static final VertexSchema CEL = VertexSchema.value(2, true).unit("Cel").scale(0.01).build();
    private static final ValueText TEMP = ValueFormat.render(ValueFormat.parse("23.2", CEL).tlv(), CEL);

    private static String payload(String path, ValueText v, long seq, boolean stale, String reason, long origin) {
        return PeerSide.payload(path, v, seq, stale, reason, origin, "lab").toString()
                .replaceFirst("\"ts\":\"[^\"]*\"", "\"ts\":\"T\"");
    }

    @Test
    void aDeliveredValueCarriesItsStampAndOrigin_staleOnesTheirReason() {
        assertEquals("{\"ts\":\"T\",\"path\":\"/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":106,\"stale\":false,"
                + "\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\",\"origin\":1764567186702,\"publisher\":\"lab\"}",
                payload("/temp", TEMP, 106, false, null, 1764567186702L));
        assertEquals("{\"ts\":\"T\",\"path\":\"/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":107,\"stale\":true,"
                + "\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\",\"reason\":\"board away\",\"origin\":1764567186702,"
                + "\"publisher\":\"lab\"}",
                payload("/temp", TEMP, 107, true, "board away", 1764567186702L));
    }

    @Test
    void aWalkedValueHasNullSeqAndStale_unlessTheBridgeKnowsItIsStale() {
        assertEquals("{\"ts\":\"T\",\"path\":\"/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":null,\"stale\":null,"
                + "\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\",\"publisher\":\"lab\"}",
                payload("/temp", TEMP, -1, false, null, 0));
        assertEquals("{\"ts\":\"T\",\"path\":\"/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":null,\"stale\":true,"
                + "\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\",\"reason\":\"the bridge's peer does not answer\","
                + "\"publisher\":\"lab\"}",
                payload("/temp", TEMP, -1, true, PeerSide.PEER_SILENT, 0));
    }

    @Test
    void textAndUndeclaredValuesKeepTheirShape() {
        VertexSchema name = VertexSchema.name(16).build();
        ValueText kitchen = ValueFormat.render(ValueFormat.parse("kitchen", name).tlv(), name);
        ValueText raw = ValueFormat.render(ValueFormat.parse("23.2", CEL).tlv(), null);
        assertEquals("{\"ts\":\"T\",\"path\":\"/name\",\"value\":\"kitchen\",\"unit\":null,\"raw\":null,\"seq\":3,\"stale\":false,"
                + "\"text\":\"kitchen\",\"publisher\":\"lab\"}", payload("/name", kitchen, 3, false, null, 0));
        assertEquals("{\"ts\":\"T\",\"path\":\"/raw\",\"value\":2320,\"unit\":null,\"raw\":2320,\"seq\":4,\"stale\":true,"
                + "\"number\":2320.0,\"text\":\"2320\",\"publisher\":\"lab\"}", payload("/raw", raw, 4, true, null, 0));
        assertEquals("{\"ts\":\"T\",\"path\":\"/none\",\"value\":\"\",\"unit\":null,\"raw\":null,\"seq\":4,\"stale\":false,"
                + "\"text\":\"\",\"publisher\":\"lab\"}", payload("/none", ValueText.NONE, 4, false, null, 0));
    }
}
