package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.hil.client.BoardClient;
import io.spectrum.hil.client.Reply;
import io.spectrum.hil.client.Tlv;
import io.spectrum.hil.client.Wire;
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
                + " is acknowledged and reads back byte for byte; a remote write to an absent vertex answers "
                + "path::not_found and creates nothing";
    }

    @Override
    public void run(HilContext ctx) {
        BoardClient c = ctx.client();
        for (String p : new String[] {DemoBoard.TEMP, DemoBoard.COUNTER}) {
            Reply r = Check.result(c.read(p), "read " + p);
            Check.that(r.payload() != null && r.payload().type() == TlvType.VALUE,
                    "read " + p + " must answer a VALUE, got " + r.payload());
        }
        for (long v : new long[] {1, 0, 0xA5}) {
            byte[] value = Wire.value(v, 1);
            Reply w = Check.result(c.write(DemoBoard.LED, value), "write " + DemoBoard.LED + " = " + v);
            Check.that(w.payload() == null, "a WRITE acknowledgement carries no payload, got " + w.payload());
            Tlv back = Check.result(c.read(DemoBoard.LED), "read back " + DemoBoard.LED).payload();
            Check.that(back != null && Arrays.equals(value, back.encoded()),
                    "read back of " + DemoBoard.LED + " must be " + Tlv.decode(value) + ", got " + back);
        }
        String absent = "/board/hil-absent";
        Check.error(c.write(absent, Wire.value(1, 1)), WireError.PATH_NOT_FOUND, "remote write to " + absent);
        Check.error(c.read(absent), WireError.PATH_NOT_FOUND, "read of " + absent + " after the refused write");
    }
}
