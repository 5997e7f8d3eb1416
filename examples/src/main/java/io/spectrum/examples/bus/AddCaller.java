package io.spectrum.examples.bus;

import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.CallResult;
import io.spectrum.bus.protocol.BusException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Calls {@link AddService}'s {@code calc.add} N times ({@code "i+i*i"}), printing each answer,
 * then shows a cancel: it calls once more and cancels at once. The bus answers the cancel with one
 * of four states: {@code cancelled-before-dispatch} (still queued: it never runs),
 * {@code execution-unknown} (already handed to the service: it may run, and its reply is dropped),
 * {@code completed} (the result was already admitted: the caller still gets it) or
 * {@code call-gone} (the call was already retired).
 *
 * <pre>java -cp cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar \
 *     io.spectrum.examples.bus.AddCaller SOCKET [NAME=add-caller] [N=10]</pre>
 *
 * <p>against {@code spectrum host --bus SOCKET} with an {@code AddService} running.
 */
public final class AddCaller {
    private AddCaller() {
    }

    /** What a run got: each call's answer in order, and the cancel's state. */
    public record Outcome(List<String> answers, String cancelState) {
    }

    /** Makes {@code n} calls and one cancelled call through {@code bus}, printing to {@code out}. */
    public static Outcome run(BusClient bus, int n, PrintStream out) throws BusException, InterruptedException {
        List<String> answers = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            String q = i + "+" + i * i;
            CallResult r = result(bus.call(AddService.NAME, "add", bytes(q), null));
            String a = new String(r.outcome(), StandardCharsets.UTF_8);
            r.consume();
            answers.add(a);
            out.println(q + " = " + a + " (answered by " + r.responder() + ")");
        }
        BusClient.PendingCall c = bus.call(AddService.NAME, "add", bytes("40+2"), null);
        String state = c.cancel();
        out.println("cancelled 40+2 at once: " + state);
        if (state.equals("completed")) { // the result was admitted before the cancel: it is ours to consume
            CallResult r = result(c);
            out.println("  its result still came: " + new String(r.outcome(), StandardCharsets.UTF_8));
            r.consume();
        }
        return new Outcome(answers, state);
    }

    private static CallResult result(BusClient.PendingCall c) throws BusException, InterruptedException {
        try {
            CallResult r = c.result().get(Args.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            if (r.failure() != null) {
                throw r.failure();
            }
            return r;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new BusException(io.spectrum.wire.BusError.ROUTER_LOST, c.callId() + ": no result: " + e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs {@link #run} and exits with its code: {@code AddCaller SOCKET [NAME=add-caller] [N=10]}. */
    public static void main(String[] args) {
        Args.exit(run(args));
    }

    /** {@code main} without the exit: 0, 1 (the bus refused or went away) or 2 (bad arguments). */
    static int run(String[] args) {
        return Args.run(args, "AddCaller SOCKET [NAME=add-caller] [N=10]", a -> {
            int n = a.intAt(2, 10);
            try (BusClient bus = Args.connect(a.socket(), a.get(1, "add-caller"))) {
                run(bus, n, System.out);
            }
        });
    }
}
