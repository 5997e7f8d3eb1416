package io.spectrum.hil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.hil.scenario.StandardScenarios;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The scenarios pass against a correct NarrowNode in this JVM, and each targeted one fails when the
 * board is broken on purpose on its transmit path: the suite can fail.
 */
class NegativeControlTest {
    static ScenarioResult run(String scenario, Function<byte[], List<byte[]>> tamper) throws Exception {
        try (InProcessBoard board = new InProcessBoard(tamper)) {
            HilContext ctx = new HilContext(board);
            Scenario s = StandardScenarios.all().stream().filter(x -> x.name().equals(scenario)).findFirst()
                    .orElseThrow();
            return HilSuite.runOne(s, ctx);
        }
    }

    static boolean isDelivery(byte[] f) {
        Tlv t = Tlv.decode(f);
        return t.asFwd() != null && t.asFwd().opcode() == FwdView.OP_WRITE;
    }

    @Test
    void everyScenarioWithoutResetPassesAgainstACorrectNode() throws Exception {
        for (Scenario s : StandardScenarios.all()) {
            ScenarioResult r = run(s.name(), List::of);
            if (s.name().contains("reset")) {
                assertEquals(ScenarioResult.Outcome.SKIP, r.outcome(), s.name());
            } else {
                assertEquals(ScenarioResult.Outcome.PASS, r.outcome(), s.name() + ": " + r.detail());
            }
        }
    }

    @Test
    void theDeclaredSensorsAreReadInTheirUnits() throws Exception {
        ScenarioResult r = run("declared-sensors-read", List::of);
        assertEquals(ScenarioResult.Outcome.PASS, r.outcome(), r.detail());
        assertTrue(r.detail().contains("/temp = ") && r.detail().contains(" °C")
                && r.detail().contains("/humidity = ") && r.detail().contains(" %"), r.detail());
    }

    @Test
    void duplicatedDeliveriesFailSubscribeDeliver() throws Exception {
        ScenarioResult r = run("subscribe-deliver", f -> isDelivery(f) ? List.of(f, f) : List.of(f));
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("deliver"), r.detail());
    }

    @Test
    void deliveriesWithoutTheTopicStampFailSequence() throws Exception {
        ScenarioResult r = run("sequence-monotonic", f -> {
            if (!isDelivery(f)) {
                return List.of(f);
            }
            Tlv t = Tlv.decode(f);
            return List.of(Wire.fwd(FwdView.OP_WRITE, t.child(1).encoded(), null, t.child(2).encoded(),
                    t.child(3).encoded()));
        });
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("lacks the topic stamp"), r.detail());
    }

    @Test
    void aBoardThatKeepsDeliveringToSuspendedEdgesFailsTheSurface() throws Exception {
        // send every delivery to every route this run used: a suspended (or cleared) edge receives it too
        String[] routes = {"/hil/s/rfc0035-suspend-resume-clear-list/1", "/hil/s/rfc0035-suspend-resume-clear-list/2"};
        ScenarioResult r = run("rfc0035-suspend-resume-clear-list", f -> {
            if (!isDelivery(f)) {
                return List.of(f);
            }
            Tlv t = Tlv.decode(f);
            byte[][] out = new byte[routes.length][];
            for (int i = 0; i < routes.length; i++) {
                out[i] = Wire.fwd(FwdView.OP_WRITE, Wire.path(routes[i]), null, t.child(2).encoded(),
                        t.child(3).encoded());
            }
            return List.of(out);
        });
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("suspended A"), r.detail());
    }

    @Test
    void aBoardThatIgnoresCrcTrailersFailsDamagedFrames() throws Exception {
        // the board's receive path drops the root CRC trailer unchecked, so it serves damaged requests
        Function<byte[], byte[]> ignoreCrc = f -> {
            int opt = f[1] & 0xFF;
            if ((opt & Opt.CR) == 0 || (opt & Opt.LL) != 0 || (opt & Opt.TS) != 0) {
                return f;
            }
            int crc = (opt & Opt.CW) != 0 ? 2 : 4;
            byte[] out = java.util.Arrays.copyOf(f, f.length - crc);
            out[1] = (byte) (opt & ~(Opt.CR | Opt.CW));
            return out;
        };
        ScenarioResult r;
        try (InProcessBoard board = new InProcessBoard(List::of, ignoreCrc)) {
            Scenario s = StandardScenarios.all().stream().filter(x -> x.name().equals("damaged-frames")).findFirst()
                    .orElseThrow();
            r = HilSuite.runOne(s, new HilContext(board));
        }
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("must not be served"), r.detail());
    }

    @Test
    void aSilentBoardFailsTheHandshakeWithATimeout() throws Exception {
        ScenarioResult r = run("handshake-caps", f -> List.of());
        assertEquals(ScenarioResult.Outcome.FAIL, r.outcome());
        assertTrue(r.detail().contains("did not answer"), r.detail());
    }
}
