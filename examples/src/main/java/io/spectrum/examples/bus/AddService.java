package io.spectrum.examples.bus;

import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Request;
import io.spectrum.bus.protocol.BusException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An exclusive service {@code calc.add}: each request's payload is {@code "a+b"} (two integers,
 * UTF-8) and the reply is their sum ({@code "5"}), or {@code "error: …"} for anything else. The bus
 * lets one client hold a service name at a time; a second {@code AddService} is refused
 * (CONFLICT) until this one stops, and each registration has its own incarnation, which
 * callers may pin.
 *
 * <pre>java -cp cli/target/spectrum.jar:examples/target/spectrum-examples-0.1.0-SNAPSHOT.jar \
 *     io.spectrum.examples.bus.AddService SOCKET [NAME=calc]</pre>
 *
 * <p>against {@code spectrum host --bus SOCKET}; it serves until Ctrl-C (or the bus stops). Then
 * run {@link AddCaller}.
 */
public final class AddService implements AutoCloseable {
    /** The service's name on the bus. */
    public static final String NAME = "calc.add";

    private final BusClient bus;
    private final String incarnation;
    private final AtomicLong served = new AtomicLong();

    /** Registers {@code calc.add} on {@code bus} (16 queued, 4 in flight). */
    public AddService(BusClient bus) throws BusException {
        this.bus = bus;
        incarnation = bus.serve(NAME, 16, 4, this::handle);
    }

    /** This registration's incarnation (a caller may pin it). */
    public String incarnation() {
        return incarnation;
    }

    /** Requests answered so far. */
    public long served() {
        return served.get();
    }

    /** The answer to {@code "a+b"}: the sum, or {@code "error: …"}. */
    public static String answer(String body) {
        int plus = body.indexOf('+', 1); // a leading sign belongs to a
        if (plus < 0) {
            return "error: expected a+b, got \"" + body + "\"";
        }
        try {
            return Long.toString(Math.addExact(Long.parseLong(body.substring(0, plus).trim()),
                    Long.parseLong(body.substring(plus + 1).trim())));
        } catch (NumberFormatException e) {
            return "error: a and b must be integers, got \"" + body + "\"";
        } catch (ArithmeticException e) {
            return "error: the sum overflows";
        }
    }

    private void handle(Request rq) {
        String body = new String(rq.payload(), StandardCharsets.UTF_8);
        try {
            boolean routed = rq.reply(answer(body).getBytes(StandardCharsets.UTF_8));
            rq.consume();
            served.incrementAndGet();
            if (!routed) {
                System.out.println(rq.callId() + " from " + rq.caller() + ": the caller cancelled or left");
            }
        } catch (BusException e) {
            if (!Thread.currentThread().isInterrupted()) { // interrupted: this service is closing
                System.err.println(rq.callId() + ": " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        bus.close();
    }

    /** Runs {@link #run} and exits with its code: {@code AddService SOCKET [NAME=calc]}, serving until Ctrl-C. */
    public static void main(String[] args) {
        Args.exit(run(args));
    }

    /** {@code main} without the exit: 0, 1 (the bus refused or went away) or 2 (bad arguments). */
    static int run(String[] args) {
        return Args.run(args, "AddService SOCKET [NAME=calc]", a -> {
            CountDownLatch stop = new CountDownLatch(1);
            try (AddService s = new AddService(Args.connect(a.socket(), a.get(1, "calc")))) {
                Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
                System.out.println("serving " + NAME + " (" + s.incarnation() + "); Ctrl-C to stop");
                while (!stop.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                    s.bus.stats(); // ROUTER_LOST once the bus has gone
                }
            }
        });
    }
}
