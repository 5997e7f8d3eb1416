package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.cli.options.BrokerOptions;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.cli.output.ValuePrinter;
import io.spectrum.client.Follower;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.ValueLine;
import io.spectrum.client.ValueText;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.WireError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code spectrum sub --peer HOST:PORT PATH...}: follows paths live. */
@Command(name = "sub", mixinStandardHelpOptions = true,
        description = {"Follow paths on a running node live.",
                "Prints each new value (in its declared unit) with the sequence number and stale flag the node stamps on it, starting "
                        + "with the current value. Stops on Ctrl-C, or after --count values or --duration seconds.",
                "",
                "A subscription to a vertex delivers it and every vertex below; each line names the vertex that was written. "
                        + "It starts with every value retained below (a vertex without a value is not shown until it gets one), "
                        + "whoever else listens. '/board1/#' (MQTT style) says so explicitly; '#' only as the last segment, '+' is not "
                        + "supported.",
                "",
                "Example: spectrum sub --peer 127.0.0.1:7700 /temp /counter",
                "         spectrum sub --peer 127.0.0.1:7700 '/board1/#'",
                "         SPECTRUM_PEER=127.0.0.1:7700 spectrum sub -t /temp -C 10 --format csv",
                "Like mosquitto_sub: -t PATH, -C COUNT, -W SECONDS; the path is always printed (-v is accepted).",
                "With --mqtt URL it follows what MQTT bridges publish to that broker instead: PATTERN is /<host>/<board>/... "
                        + "with MQTT's + and #, e.g. spectrum sub --mqtt mqtt://127.0.0.1 '/+/board1/#'.",
                "",
                "--mode asks a host (a WIDE node) for a delivery mode (docs/extensions.md, 'Delivery modes'): 'latest' keeps one "
                        + "undelivered value and replaces it, printing how many values were replaced ('3 replaced'); 'bounded' queues "
                        + "values in order, and the host refuses a publish while the queue is full (the publisher gets "
                        + "tr::flow::backpressure) rather than losing it. sub gives each value's credit back right after printing it "
                        + "(one consumed message per value); every 3 s, for a subscription that got nothing, it asks the host which "
                        + "delivery it sent last and gives back the credits of any lost in transit. On stopping (Ctrl-C too) it clears "
                        + "its subscriptions, so a bounded one holds up no publisher. A node that does not serve modes "
                        + "(a plain libtracer v1 node, a board) delivers as usual; sub says so once on stderr.",
                "         spectrum sub --peer 127.0.0.1:7700 --mode bounded --queue 8 --inflight 2 /board1/counter", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:followed until stopped", "1:a subscription was refused, a path does not exist, or the node "
                + "stopped answering (unless --wait)", "2:bad arguments"})
public final class SubCommand implements Callable<Integer> {
    /** How often the follower checks its slots are still there (a link's default ping interval). */
    static final long CHECK_NANOS = 3_000_000_000L;

    @Mixin
    PeerOptions peer;

    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Vertex paths to follow (PATH/# : the vertex and everything below).")
    List<String> paths = new ArrayList<>();

    @Option(names = {"-t", "--topic"}, paramLabel = "PATH", description = "A path to follow (repeatable; as mosquitto_sub -t).")
    List<String> topics = new ArrayList<>();

    @Option(names = {"-C", "--count"}, paramLabel = "N", defaultValue = "0", description = "Stop after N values (0 = no limit).")
    long count;

    @Option(names = {"-W", "--duration"}, paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this many seconds (0 = no limit).")
    long seconds;

    @Option(names = {"-v", "--verbose"}, description = "Print the path with each value (always done; for mosquitto_sub habits).")
    boolean verbose;

    /** The delivery modes {@code --mode} takes (docs/extensions.md "Delivery modes"). */
    enum ModeName { latest, bounded }

    @Option(names = "--mode", paramLabel = "latest|bounded", description = "Ask for a delivery mode (a host serves them; "
            + "default: none, a plain subscription).")
    ModeName mode;

    @Option(names = "--queue", paramLabel = "N", description = "With --mode bounded: values the host holds undelivered, 1.."
            + DeliveryMode.BOUNDED_MAX_QUEUED + " (default: the host's limit, " + DeliveryMode.BOUNDED_MAX_QUEUED + ").")
    Integer queue;

    @Option(names = "--inflight", paramLabel = "N", description = "With --mode: values sent and not yet printed, 1.."
            + DeliveryMode.BOUNDED_MAX_IN_FLIGHT + " for bounded, 1.." + DeliveryMode.LATEST_MAX_IN_FLIGHT
            + " for latest (default: that limit).")
    Integer inflight;

    @Option(names = "--wait", description = "When a path does not exist yet, or the node stops answering, say so and keep "
            + "waiting for it (default: exit 1).")
    boolean waitForPeer;

    @Mixin
    BrokerOptions mqtt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (count < 0 || seconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count and --duration must be 0 or more");
        }
        List<String> paths = PeerOptions.paths(spec.commandLine(), this.paths, topics, "follow", "");
        Follower.Mode asked = mode(spec.commandLine());
        if (mqtt.given()) { // from the broker: /<host>/<board>/... with MQTT's + and # (docs/mqtt.md)
            return MqttListing.sub(mqtt.address(spec.commandLine()), paths, count, seconds, peer.format(), out, err);
        }
        PeerOptions.checkPatterns(spec.commandLine(), paths); // a bad pattern is a usage error before anything is sent
        ValuePrinter printer = new ValuePrinter(out, peer.format());
        try (PeerClient c = peer.connect(spec.commandLine())) {
            Follower follower = new Follower(c, asked);
            Stop stop = asked == null ? null : new Stop();
            try {
                return follow(c, follower, stop, paths, printer, out, err);
            } finally {
                if (follower.peerAnswered()) {
                    follower.leave(); // a mode slot is cleared, so it holds nothing a publisher waits on
                }
                if (stop != null) {
                    stop.done();
                }
            }
        }
    }

    /** Subscribes every path, then prints what arrives until the count, the duration, or a stop. */
    private int follow(PeerClient c, Follower follower, Stop stop, List<String> paths, ValuePrinter printer, PrintWriter out,
            PrintWriter err) {
        for (int i = 0; i < paths.size(); i++) {
            String p = paths.get(i);
            String route = "/cli/sub/" + i;
            if (!peer.json()) {
                err.println("subscribing to " + p + " on " + peer.peer + " ...");
                err.flush();
            }
            boolean exists;
            try {
                exists = follower.exists(p);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
            }
            if (!exists) {
                String what = p + ": no such vertex on " + peer.peer + " (nothing is declared, published or mounted there)";
                if (!waitForPeer) {
                    notice(out, err, "not_found", what + "; --wait follows it until it appears");
                    return 1;
                }
                notice(out, err, "waiting", what + " yet; following it until it appears (--wait)");
                long deadline = seconds > 0 ? System.nanoTime() + Duration.ofSeconds(seconds).toNanos() : Long.MAX_VALUE;
                while (!follower.exists(p)) { // a node that refuses subscriptions to missing paths: ask again
                    if (Thread.currentThread().isInterrupted() || System.nanoTime() > deadline
                            || (stop != null && stop.requested.get())) {
                        return WireError.OK;
                    }
                    c.pumpFor(Duration.ofSeconds(1));
                }
            }
            Reply r;
            try {
                r = follower.follow(p, route);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "bad path '" + p + "': " + e.getMessage());
            }
            if (!r.ok()) {
                if (peer.json()) {
                    out.println(ClientOutput.json(p, r));
                    out.flush();
                } else {
                    err.println(p + ": " + ClientOutput.refusal(r, peer.peer, c, p));
                    err.flush();
                }
                return 1;
            }
        }
        long seen = 0;
        long deadline = seconds > 0 ? System.nanoTime() + Duration.ofSeconds(seconds).toNanos() : Long.MAX_VALUE;
        long nextCheck = System.nanoTime() + CHECK_NANOS;
        long heardAt = System.nanoTime();
        long seenAtCheck = 0;
        boolean lost = false;
        while (!Thread.currentThread().isInterrupted() && (count == 0 || seen < count) && System.nanoTime() < deadline
                && (stop == null || !stop.requested.get())) {
            c.pumpFor(Duration.ofMillis(100));
            for (Follower.Sample x = follower.next(); x != null && (count == 0 || seen < count); x = follower.next()) {
                seen++;
                print(printer, x);
                String taken = follower.handled(x); // the value's credit back, after it was printed
                if (taken != null) {
                    warn(err, taken);
                }
            }
            for (Follower.Gap g : follower.gaps()) { // a subscription the node dropped, appended again: say what was missed
                notice(out, err, "gap", g.notice());
            }
            if (System.nanoTime() - nextCheck >= 0) {
                follower.verify(); // a slot the node evicted or someone cleared is appended again (declarations read anew)
                for (String lostDeliveries : follower.probe()) {
                    warn(err, lostDeliveries);
                }
                nextCheck = System.nanoTime() + CHECK_NANOS;
                if (follower.peerAnswered() || seen != seenAtCheck) {
                    heardAt = System.nanoTime();
                    if (lost) {
                        lost = false;
                        notice(out, err, "back", peer.peer + " answers again");
                    }
                } else if (!lost) {
                    long silent = Math.round((System.nanoTime() - heardAt) / 1e9);
                    notice(out, err, "lost", "lost " + peer.peer + ": no answer for " + silent + " s"
                            + (waitForPeer ? "; waiting for it (--wait)" : " (--wait keeps waiting)"));
                    if (!waitForPeer) {
                        return 1;
                    }
                    lost = true;
                }
                seenAtCheck = seen;
            }
        }
        return WireError.OK;
    }

    /**
     * Ctrl-C while following with a mode: the JVM's shutdown waits (up to {@link #LEAVE_MILLIS}) for
     * the loop to stop and clear its slots ({@link Follower#leave}). Registered only with --mode.
     */
    private static final class Stop {
        static final long LEAVE_MILLIS = 2_000;
        final AtomicBoolean requested = new AtomicBoolean();
        private final CountDownLatch left = new CountDownLatch(1);
        private final Thread hook = new Thread(this::await, "spectrum-sub-leave");

        Stop() {
            Runtime.getRuntime().addShutdownHook(hook);
        }

        private void await() {
            requested.set(true);
            try {
                left.await(LEAVE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void done() {
            left.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down (Ctrl-C): the hook is running and now returns
            }
        }
    }

    /**
     * The mode {@code --mode} / {@code --queue} / {@code --inflight} ask for (null: none), checked with
     * the limits the node enforces ({@link DeliveryMode}); a bad combination is a usage error.
     */
    Follower.Mode mode(CommandLine cl) {
        if (mode == null) {
            if (queue != null || inflight != null) {
                throw new CommandLine.ParameterException(cl, (queue != null ? "--queue" : "--inflight")
                        + " goes with --mode: add --mode bounded (or drop it)");
            }
            return null;
        }
        if (mqtt.given()) {
            throw new CommandLine.ParameterException(cl, "--mode is for subscriptions on a node (--peer), not --mqtt: drop one");
        }
        boolean latest = mode == ModeName.latest;
        if (latest && queue != null) {
            throw new CommandLine.ParameterException(cl, "--mode latest holds exactly one undelivered value: drop --queue "
                    + "(it sizes --mode bounded's queue)");
        }
        int maxQ = DeliveryMode.BOUNDED_MAX_QUEUED;
        int maxF = latest ? DeliveryMode.LATEST_MAX_IN_FLIGHT : DeliveryMode.BOUNDED_MAX_IN_FLIGHT;
        if (queue != null && (queue < 1 || queue > maxQ)) {
            throw new CommandLine.ParameterException(cl, "--queue must be 1.." + maxQ + " (was " + queue + ")");
        }
        if (inflight != null && (inflight < 1 || inflight > maxF)) {
            throw new CommandLine.ParameterException(cl, "--inflight must be 1.." + maxF + " with --mode " + mode
                    + " (was " + inflight + ")");
        }
        return new Follower.Mode(latest ? DeliveryMode.LATEST : DeliveryMode.BOUNDED, queue == null ? 0 : queue,
                inflight == null ? 0 : inflight);
    }

    private static void warn(PrintWriter err, String message) {
        err.println("spectrum sub: " + message);
        err.flush();
    }

    /**
     * One line per value: the path that was written (which child of a subtree), its value, seq, its age
     * when a second old or more (its origin time, as {@code origin} in JSON), stale,
     * and for a mode subscription the values a latest one replaced; --json adds {@code dlv} and
     * {@code replaced} for a numbered delivery.
     */
    private static void print(ValuePrinter printer, Follower.Sample x) {
        io.spectrum.client.Delivery d = x.delivery();
        ValueText v = x.value();
        ObjectNode o = ClientOutput.line(x.path());
        ClientOutput.value(o, v);
        if (d.stamped()) {
            ClientOutput.stamp(o, d.seq(), d.stale(), x.reason(), d.origin());
            o.put("deleted", d.deleted());
        }
        if (d.dlv() >= 0) {
            o.put("dlv", d.dlv());
            o.put("replaced", d.replaced());
        }
        String replaced = d.replaced() > 0 ? ", " + d.replaced() + " replaced" : "";
        byte[] tlv = d.stamped() && d.stale() && !d.deleted() ? d.value() : null; // a copy only for a stale value
        boolean noValue = tlv != null && io.spectrum.wire.Names.EMPTY_STATUS.matches(tlv);
        if (noValue) { // the stale notice of a declared vertex that has no value yet (a source that failed at once)
            o.putNull("value");
            o.put("text", ClientOutput.NO_VALUE_YET);
        }
        printer.print(o, ValueLine.text(x.path(), d.deleted() ? "(cleared)" : noValue ? ClientOutput.NO_VALUE_YET : v.text(),
                d.stamped() ? ValueLine.stampText(d.seq(), d.stale(), x.reason(), d.origin(),
                        io.spectrum.time.SystemClock.INSTANCE.epochNanos() / 1_000_000L) + replaced : null));
    }

    /** A state change of the peer: a line on stderr, or a JSON object on stdout with --json. */
    private void notice(PrintWriter out, PrintWriter err, String kind, String message) {
        if (peer.json()) {
            ObjectNode o = ClientOutput.error(kind, message);
            if (kind.equals("back")) {
                o.put("ok", true);
            }
            out.println(o);
            out.flush();
        } else {
            err.println("spectrum sub: " + message);
            err.flush();
        }
    }
}
