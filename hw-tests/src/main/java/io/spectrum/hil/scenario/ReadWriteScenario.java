package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.Arrays;

/** Remote read and write of the board's demo vertices. */
public final class ReadWriteScenario implements Scenario {
    @Override
    public String name() {
        return "remote-read-write";
    }

    @Override
    public String checks() {
        return "READ of the demo sensor and counter answers a VALUE; WRITE of " + DemoBoard.LED
                + " is acknowledged and reads back byte for byte; a write outside its declaration (0..1) answers "
                + "schema::type_mismatch and changes nothing; a remote write to an absent vertex answers "
                + "path::not_found and creates nothing";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        for (String p : new String[] {DemoBoard.TEMP, DemoBoard.COUNTER}) {
            Tlv r = Check.value(c.read(p), "read " + p);
            Check.that(r != null && r.type() == TlvType.VALUE, "read " + p + " must answer a VALUE, got " + r);
        }
        for (long v : new long[] {1, 0, 1}) {
            byte[] value = Wire.value(v, 1);
            Reply w = Check.result(c.write(DemoBoard.LED, value), "write " + DemoBoard.LED + " = " + v);
            Check.that(w.value() == null, "a WRITE acknowledgement carries no payload, got " + w);
            Tlv back = Check.value(c.read(DemoBoard.LED), "read back " + DemoBoard.LED);
            Check.that(back != null && Arrays.equals(value, back.encoded()),
                    "read back of " + DemoBoard.LED + " must be " + Tlv.decode(value) + ", got " + back);
        }
        // the stock board declares led as a u8 in 0..1: anything else is refused and changes nothing
        Check.error(c.write(DemoBoard.LED, Wire.value(0xA5, 1)), WireError.SCHEMA_TYPE_MISMATCH, "write 0xA5 to " + DemoBoard.LED);
        Check.error(c.write(DemoBoard.LED, Wire.value(1, 2)), WireError.SCHEMA_TYPE_MISMATCH, "write a u16 to " + DemoBoard.LED);
        Tlv kept = Check.value(c.read(DemoBoard.LED), "read back " + DemoBoard.LED + " after the refusals");
        Check.that(kept != null && Arrays.equals(Wire.value(1, 1), kept.encoded()),
                "a refused write must leave " + DemoBoard.LED + " at 1, got " + kept);
        String absent = "/hil-absent";
        Check.error(c.write(absent, Wire.value(1, 1)), WireError.PATH_NOT_FOUND, "remote write to " + absent);
        Check.error(c.read(absent), WireError.PATH_NOT_FOUND, "read of " + absent + " after the refused write");
    }
}
