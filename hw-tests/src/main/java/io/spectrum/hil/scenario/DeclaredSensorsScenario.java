package io.spectrum.hil.scenario;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.TreeWalk;
import io.spectrum.client.ValueText;
import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSkip;
import io.spectrum.hil.Scenario;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;

import java.util.ArrayList;
import java.util.List;

/**
 * The board file's sensors, whatever the board declares: every read-only vertex declared with a
 * unit (a sensor of the board file, docs/board.md) reads a fresh value in its declared range,
 * rendered in that unit. A board on real hardware reads its real sensors here; the emulated ones
 * read their simulated or stub devices.
 */
public final class DeclaredSensorsScenario implements Scenario {
    /** How deep under the root the board's tree is walked for declarations. */
    static final int DEPTH = 4;

    @Override
    public String name() {
        return "declared-sensors-read";
    }

    @Override
    public String checks() {
        return "every read-only vertex the board declares with a unit (its board file's sensors) answers a READ "
                + "with a value that is not marked stale, inside its declared range, rendered in its declared unit";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        List<String> sensors = new ArrayList<>();
        c.walk("/", DEPTH, v -> {
            if (!v.path().contains("$")) {
                VertexSchema d = c.declaration(v.path());
                if (d != null && d.unit() != null && !d.unit().isEmpty() && !d.allows(AccessMask.WRITE)) {
                    sensors.add(v.path());
                }
            }
        });
        if (sensors.isEmpty()) {
            throw new HilSkip("the board declares no read-only vertex with a unit");
        }
        StringBuilder read = new StringBuilder();
        for (String path : sensors) {
            VertexSchema d = c.declaration(path);
            Reply r = Check.result(c.readStamped(path), "read " + path);
            Check.that(!r.stale(), path + " is marked stale (" + r.staleReason() + "): its sensor did not answer");
            ValueText text = c.render(path, r.value());
            Check.that(text.raw() != null, path + " must read a number, got " + text.text());
            if (d.ranged()) {
                long raw = text.raw().longValue();
                Check.that(raw >= d.min() && raw <= d.max(), path + " = " + raw + " is outside its declared range "
                        + d.min() + ".." + d.max());
            }
            Check.that(text.unit().equals(d.unitSymbol()) || text.text().endsWith(d.unitSymbol()),
                    path + " must render in " + d.unitSymbol() + ", got " + text.text());
            read.append(read.length() == 0 ? "" : ", ").append(path).append(" = ").append(text.text());
        }
        ctx.note(read.toString());
    }
}
