package io.spectrum.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.host.dashboard.SnapshotJson;
import io.spectrum.host.history.HistoryBucket;
import io.spectrum.host.history.HistoryJson;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.SlotView;
import io.spectrum.host.view.VertexControl;
import io.spectrum.host.view.VertexView;
import io.spectrum.node.api.VertexSchema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/**
 * The dashboard's vertices and the history's lines byte for byte, as they were before the value
 * renderer became one class ({@link io.spectrum.client.ValueLine}): the snapshot's {@code value} text,
 * {@code numeric}, {@code number}, {@code unit}, {@code reason} only when stale, {@code origin} null
 * without one; a history row's JSON and text line, a bucket's.
 */
class ValueLinesBytesTest {
    private static final VertexSchema CEL = VertexSchema.value(2, true).unit("Cel").scale(0.01).build();
    private static final VertexSchema NAME = VertexSchema.name(16).build();
    private static final ValueText TEMP = ValueFormat.render(ValueFormat.parse("23.2", CEL).tlv(), CEL);
    private static final ValueText KITCHEN = ValueFormat.render(ValueFormat.parse("kitchen", NAME).tlv(), NAME);

    @Test
    void theDashboardListsEachVertexAsBefore() {
        HostSnapshot s = new HostSnapshot("host", 7, List.of(
                new VertexView("/board1/temp", "23.20 °C", true, 23.2, "°C", 5, false, List.of(new SlotView(0, "/h", "/x", false, 3)),
                        new VertexControl("number", 0, 100, 0.5, "°C"), 1764567186702L, null),
                new VertexView("/board1/name", "kitchen", false, 0, "", 2, true, List.of(), null, 0, "board away"),
                new VertexView("/led", "1", true, 1, "", 9, true, List.of(), null, 0, null)),
                List.of(), Map.of());
        assertEquals("{\"node\":\"host\",\"version\":7,\"ts\":1234,\"vertices\":[{\"path\":\"/board1/temp\",\"value\":\"23.20 °C\",\"numeric\":true,\"number\":23.2,\"unit\":\"°C\",\"seq\":5,\"stale\":false,\"origin\":1764567186702,\"board\":\"board1\",\"control\":{\"kind\":\"number\",\"min\":0.0,\"max\":100.0,\"step\":0.5,\"unit\":\"°C\"},\"subscribers\":[{\"slot\":0,\"holder\":\"/h\",\"target\":\"/x\",\"suspended\":false,\"state\":\"delivering\",\"delivered\":3}]},{\"path\":\"/board1/name\",\"value\":\"kitchen\",\"numeric\":false,\"seq\":2,\"stale\":true,\"reason\":\"board away\",\"origin\":null,\"board\":\"board1\",\"subscribers\":[]},{\"path\":\"/led\",\"value\":\"1\",\"numeric\":true,\"number\":1.0,\"seq\":9,\"stale\":true,\"origin\":null,\"board\":\"\",\"subscribers\":[]}],\"links\":[],\"resources\":{},\"bridge\":null,\"remote\":null,\"bus\":null}",
                SnapshotJson.toJson(new ObjectMapper(), s, FabricView.NONE, 1234L).toString());
    }

    @Test
    void historyRowsPrintAsBefore() {
        List<HistoryRow> rows = List.of(
                new HistoryRow("/board1/temp", 1764567186702L, TEMP, 5, false, null),
                new HistoryRow("/board1/temp", 1764567187000L, TEMP, 6, true, "board away"),
                new HistoryRow("/board1/name", 1764567187000L, KITCHEN, 6, true, null));
        List<String> json = List.of("{\"ts\":\"2025-12-01T05:33:06.702Z\",\"path\":\"/board1/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":5,\"stale\":false,\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\"}",
                "{\"ts\":\"2025-12-01T05:33:07Z\",\"path\":\"/board1/temp\",\"value\":23.20,\"unit\":\"°C\",\"raw\":2320,\"seq\":6,\"stale\":true,\"number\":23.2,\"ucum\":\"Cel\",\"text\":\"23.20 °C\",\"reason\":\"board away\"}",
                "{\"ts\":\"2025-12-01T05:33:07Z\",\"path\":\"/board1/name\",\"value\":\"kitchen\",\"unit\":null,\"raw\":null,\"seq\":6,\"stale\":true,\"text\":\"kitchen\"}");
        List<String> text = List.of("2025-12-01T05:33:06.702Z /board1/temp = 23.20 °C  (seq 5)",
                "2025-12-01T05:33:07Z /board1/temp = 23.20 °C  (seq 6, stale: board away)",
                "2025-12-01T05:33:07Z /board1/name = kitchen  (seq 6, stale)");
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(json.get(i), HistoryJson.row(rows.get(i)).toString());
            assertEquals(text.get(i), HistoryJson.rowText(rows.get(i)));
        }
    }

    @Test
    void historyBucketsPrintAsBefore() {
        HistoryBucket b = new HistoryBucket("/board1/temp", 1764567180000L, "°C", 21.5, 22.0133333, 23, 22.5, 60);
        HistoryBucket c = new HistoryBucket("/c", 1764567180000L, "", 1, 2, 3, 3, 3);
        assertEquals("{\"ts\":\"2025-12-01T05:33:00Z\",\"path\":\"/board1/temp\",\"value\":22.0133333,\"unit\":\"°C\",\"raw\":null,\"seq\":null,\"stale\":null,\"min\":21.5,\"mean\":22.0133333,\"max\":23.0,\"last\":22.5,\"n\":60}", HistoryJson.bucket(b).toString());
        assertEquals("2025-12-01T05:33:00Z /board1/temp  min 21.5 °C  mean 22.013 °C  max 23 °C  last 22.5 °C  (n 60)", HistoryJson.bucketText(b));
        assertEquals("{\"ts\":\"2025-12-01T05:33:00Z\",\"path\":\"/c\",\"value\":2.0,\"unit\":null,\"raw\":null,\"seq\":null,\"stale\":null,\"min\":1.0,\"mean\":2.0,\"max\":3.0,\"last\":3.0,\"n\":3}", HistoryJson.bucket(c).toString());
        assertEquals("2025-12-01T05:33:00Z /c  min 1  mean 2  max 3  last 3  (n 3)", HistoryJson.bucketText(c));
    }
}
