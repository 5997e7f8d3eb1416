package io.spectrum.examples.bus;

import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Request;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.wire.BusError;
import java.net.UnixDomainSocketAddress;

/**
 * A service process for {@link ServiceProcessKilledTest}: registers {@code work.slow} on the bus
 * at {@code args[0]}, prints {@code ready <incarnation>}, and prints {@code got <callId>} for each
 * call, which it never answers (so the test can kill it mid-call).
 */
public final class HungServiceProcess {
    private HungServiceProcess() {
    }

    public static void main(String[] args) throws Exception {
        BusClient bus = null;
        for (int i = 0; bus == null; i++) {
            try {
                bus = BusClient.connect(UnixDomainSocketAddress.of(args[0]), "worker", 5_000);
            } catch (BusException e) {
                if (e.code() != BusError.CONFLICT || i > 100) {
                    throw e; // CONFLICT: the bus has not yet seen the previous process go
                }
                Thread.sleep(50);
            }
        }
        String inc = bus.serve("work.slow", 4, 4, (Request rq) -> {
            System.out.println("got " + rq.callId());
            System.out.flush();
        });
        System.out.println("ready " + inc);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
